"""Language identification per document (langdetect, seeded so results are reproducible)."""

from __future__ import annotations

from langdetect import DetectorFactory, LangDetectException, detect

DetectorFactory.seed = 0
SAMPLE_CHARS = 5000


def detect_language(text: str) -> str:
    """ISO 639-1 code, or "" when the text is too short or has no letters."""
    sample = text[:SAMPLE_CHARS]
    if sum(ch.isalpha() for ch in sample) < 20:
        return ""
    try:
        return detect(sample)
    except LangDetectException:
        return ""
