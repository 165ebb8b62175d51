"""A cheap first look at a short text (a search query): could it hold personal data at all?

Loading the NER model and Presidio costs seconds, which a command-line search should not pay for
"parental leave weeks". A query goes to the full detector when it holds anything a detector could
act on: a digit (phones, cards, IBANs, addresses), an @ (e-mail), a capital letter past the first
word (names, places), or a lower-case word that is a listed given name and no common word
("pernille"). Secrets are always scanned (their patterns are cheap). This screen errs towards the
detector: a false alarm costs seconds, a miss would embed a name.

Most query words are plain a-z. For those, "listed name and no common word" is one lookup in a
small table worked out once per machine from the name index and wordfreq's English list (both are
slow to load: about a second together); other words ask the two directly.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
PLAIN = re.compile(r"[a-z]+")  # one wordfreq token, already case-folded: what the table covers
NAME_RANK = 3000  # a given name at most this rank in some country...
COMMON_ZIPF = 3.5  # ...that is rarer than this in English text


def might_hold_personal_data(text: str) -> bool:
    if re.search(r"[\d@]", text):
        return True
    words = WORD.findall(text)
    # "I" is a pronoun, and a lone capital letter names nobody
    if any(len(word) > 1 and any(ch.isupper() for ch in word) for word in words[1:]):
        return True
    if words and any(ch.isupper() for ch in words[0][1:]):
        return True  # "McBride", "DUPONT" as the first word
    return any(_lowercase_name(word) for word in words if word.islower()) or (
        bool(words) and _lowercase_name(words[0].lower())
    )


def might_hold_personal_data_in_prose(text: str) -> bool:
    """The screen for running text (a generated answer) rather than a query: every sentence opens
    with a capital there, and "Anna answered." must reach the detector, so any capital counts."""
    if re.search(r"[\d@]", text) or any(len(w) > 1 and not w.islower() for w in WORD.findall(text)):
        return True
    return might_hold_personal_data(text)


def _lowercase_name(word: str) -> bool:
    """A listed given name that is not a common English word: "pernille", not "will" or "leave"."""
    if len(word) < 3:
        return False
    if PLAIN.fullmatch(word):
        from strata_pipeline.redaction.name_index import word_hash

        return _held(_uncommon_names(), word_hash(word))
    return _listed_and_uncommon(word)


def _listed_and_uncommon(word: str) -> bool:
    """The rule itself, asking the name index and wordfreq."""
    from strata_pipeline.redaction.name_index import name_index

    ranks = name_index().ranks(word)
    if ranks is None or ranks.first > NAME_RANK:
        return False
    from wordfreq import zipf_frequency  # imported only for a listed name: the import alone takes 0.5 s

    return zipf_frequency(word, "en") < COMMON_ZIPF


def _held(table: np.ndarray, key: int) -> bool:
    import numpy as np

    position = int(np.searchsorted(table, np.uint64(key)))
    return position < len(table) and int(table[position]) == key


def build_uncommon_names() -> np.ndarray:
    """Sorted hashes (name_index.word_hash) of the words `_listed_and_uncommon` holds, for plain a-z words:
    the names ranked at most NAME_RANK, less the plain words at least COMMON_ZIPF in wordfreq's English
    list. A plain word is one wordfreq token, so its frequency is its own entry in that list (or none)."""
    import numpy as np
    from wordfreq import get_frequency_dict, zipf_frequency, zipf_to_freq

    from strata_pipeline.redaction.name_index import name_index, word_hash

    names = name_index().hashes(max_first_rank=NAME_RANK)
    floor = zipf_to_freq(COMMON_ZIPF - 0.1)  # a safe margin: only these can round up to COMMON_ZIPF
    common = [
        word_hash(word)
        for word, freq in get_frequency_dict("en").items()
        if freq >= floor and PLAIN.fullmatch(word) and zipf_frequency(word, "en") >= COMMON_ZIPF
    ]
    return np.setdiff1d(names, np.array(common, dtype=np.uint64))


def table_path() -> Path:
    from importlib.metadata import version

    from strata_pipeline.redaction.name_index import cache_dir

    key = f"{version('names-dataset')}-{version('wordfreq')}-{NAME_RANK}-{COMMON_ZIPF}"
    return cache_dir() / f"uncommon-names-{key}-v1.npy"


@lru_cache(maxsize=1)
def _uncommon_names() -> np.ndarray:
    """The table, worked out on first use (a few seconds, once per machine) and kept in the user cache."""
    import numpy as np

    path = table_path()
    if path.exists():
        return np.load(path)
    table = build_uncommon_names()
    with contextlib.suppress(OSError):  # a read-only cache: keep the table in memory for this process
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npy", delete=False) as handle:
            np.save(handle, table)
        os.replace(handle.name, path)  # atomic: a concurrent reader never sees half a file
    return table


if __name__ == "__main__":  # `python -m strata_pipeline.redaction.screen` pre-builds the table
    print(f"{len(_uncommon_names()):,} listed but uncommon names at {table_path()}")
