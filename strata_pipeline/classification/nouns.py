"""The nouns of an English sentence, by spaCy's part-of-speech tagger (the redaction's English model).

The answerer asks which words of a question name a thing (answering/subject.py): a verb ("borrowed",
"finish") is how a paraphrase differs from a document's wording, a noun ("wedding", "trailer") is
what the question is about. Only the tagger runs (no parser, no entities): a few milliseconds a
question once loaded.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any


@lru_cache(maxsize=1)
def _tagger() -> Any:
    import spacy

    from strata_pipeline.redaction.pii import SPACY_MODEL  # imported here: pii.py imports Presidio

    return spacy.load(SPACY_MODEL, exclude=["parser", "ner", "lemmatizer"])


def english_nouns(text: str) -> set[str]:
    """The nouns and proper nouns of `text`, case-folded."""
    return {t.text.casefold() for t in _tagger()(text) if t.pos_ in ("NOUN", "PROPN")}


def english_tags(text: str) -> list[tuple[str, str]]:
    """Each word of `text` with its coarse part of speech (spaCy's `pos_`: NOUN, ADJ, VERB, ...), in
    order, spaces left out; words as written."""
    return [(t.text, t.pos_) for t in _tagger()(text) if not t.is_space]
