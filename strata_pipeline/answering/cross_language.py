"""The answerer's floors across languages.

A multilingual dense model scores a passage in another language than the question lower than an
equally good one in the question's language (retrieval/crosslingual.py calibrates for this in fusion),
and the lexical bonus of a sentence is near zero across languages: a German question and the English
sentence that answers it share only names and numbers. A floor chosen for same-language pairs then
declines every cross-language answer, so a sentence in another language is held to the model's own,
lower cross-language floor (floors.py) when one is set.

Plain functions; no index, no model.
"""

from __future__ import annotations


def other_language(question_language: str, passage_language: str | None) -> bool:
    """Whether a passage is in another language than the question; False when either is not known
    (a short question, a passage without a detected language)."""
    return bool(question_language and passage_language) and question_language != passage_language


def floor(same: float, cross: float | None, question_language: str, passage_language: str | None) -> float:
    """The floor a passage's score is held to: `cross` for a passage in another language than the
    question when the model has one, else `same`."""
    if cross is not None and other_language(question_language, passage_language):
        return cross
    return same
