"""Language identification per document (langdetect, seeded so results are reproducible).

langdetect builds a table of every n-gram's probability in each of its 55 languages before its first
detection, which takes 0.5 to 1 s: most of a short query's language check. Here the table is filled
per n-gram on its first lookup, from the same profiles and by langdetect's own formula, so results
are identical and a query pays only for reading the profiles (about 0.1 s).
"""

from __future__ import annotations

import json
import os
from functools import lru_cache

from langdetect import DetectorFactory, LangDetectException
from langdetect.detector_factory import PROFILES_DIRECTORY

DetectorFactory.seed = 0
SAMPLE_CHARS = 5000


class _LazyProbabilities:
    """langdetect's n-gram -> [probability in each language] map (`DetectorFactory.add_profile`), with
    each row computed when first asked for. Detectors only test membership and read rows."""

    def __init__(self, profiles: list[tuple[dict[str, int], list[int]]], languages: int) -> None:
        self._profiles = profiles
        self._languages = languages
        self._rows: dict[str, list[float] | None] = {}

    def _row(self, word: str) -> list[float] | None:
        try:
            return self._rows[word]
        except KeyError:
            pass
        row = None
        length = len(word)
        for index, (freq, n_words) in enumerate(self._profiles):
            if word in freq:
                row = row or [0.0] * self._languages
                if 1 <= length <= 3:
                    row[index] = 1.0 * freq[word] / n_words[length - 1]
        self._rows[word] = row
        return row

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self._row(word) is not None

    def __getitem__(self, word: str) -> list[float]:
        row = self._row(word)
        if row is None:
            raise KeyError(word)
        return row


@lru_cache(maxsize=1)
def _factory() -> DetectorFactory:
    """langdetect's factory over its bundled profiles, in its own order (`load_profile`)."""
    files = os.listdir(PROFILES_DIRECTORY)
    profiles, languages = [], []
    for filename in files:
        path = os.path.join(PROFILES_DIRECTORY, filename)
        if filename.startswith(".") or not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as handle:
            profile = json.load(handle)
        profiles.append((profile["freq"], profile["n_words"]))
        languages.append(profile["name"])
    factory = DetectorFactory()
    factory.langlist = languages
    factory.word_lang_prob_map = _LazyProbabilities(profiles, len(files))
    return factory


def detect_language(text: str) -> str:
    """ISO 639-1 code, or "" when the text is too short or has no letters."""
    sample = text[:SAMPLE_CHARS]
    if sum(ch.isalpha() for ch in sample) < 20:
        return ""
    try:
        detector = _factory().create()
        detector.append(sample)
        return detector.detect()
    except LangDetectException:
        return ""


@lru_cache(maxsize=256)
def query_language(text: str) -> str:
    """detect_language of a query, remembered: its BM25 analysis and the answerer's name check both ask
    it of the same question (detection is seeded, so the answer cannot change)."""
    return detect_language(text)
