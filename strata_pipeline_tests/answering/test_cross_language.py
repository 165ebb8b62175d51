"""The answerer's floors across languages: a passage in another language than the question is held to
the model's cross-language floor, one in the question's language (or of unknown language) to the usual one."""

from __future__ import annotations

from strata_pipeline.answering.answer import AnswerConfig, answer_extractively
from strata_pipeline.answering.cross_language import floor, other_language
from strata_pipeline.retrieval.candidate import Candidate


def test_other_language_needs_both_languages_known_and_different() -> None:
    assert other_language("de", "en")
    assert not other_language("en", "en")
    assert not other_language("", "en")  # a question too short to tell
    assert not other_language("de", None)  # a passage without a detected language
    assert not other_language("de", "")


def test_floor_is_the_cross_language_one_only_across_languages_and_when_set() -> None:
    assert floor(0.86, 0.80, "de", "en") == 0.80
    assert floor(0.86, 0.80, "en", "en") == 0.86
    assert floor(0.86, None, "de", "en") == 0.86  # a model without a cross-language floor
    assert floor(0.86, 0.80, "", "en") == 0.86


def _passage(language: str) -> Candidate:
    payload = {
        "chunk_id": f"c-{language}",
        "doc_id": f"policy-{language}.md",
        "text": "Passwords must be at least 14 characters long.",
        "line_start": 1,
        "language": language,
    }
    return Candidate(f"p-{language}", payload, scores={"dense": 0.84})


def _fixed(cosine: float):
    return lambda question, sentences: [cosine] * len(sentences)


GERMAN = "Wie viele Zeichen muss ein Passwort mindestens haben?"


def test_a_german_question_is_answered_from_an_english_passage_above_the_cross_language_floor() -> None:
    config = AnswerConfig(
        min_dense_score=0.82, min_score=0.86, cross_language_min_dense_score=0.80, cross_language_min_score=0.82
    )
    answer = answer_extractively(GERMAN, [_passage("en")], _fixed(0.83), config)
    assert not answer.abstained
    assert answer.citations[0].quote == "Passwords must be at least 14 characters long."


def test_the_same_score_declines_without_a_cross_language_floor_or_in_the_same_language() -> None:
    same_only = AnswerConfig(min_dense_score=0.82, min_score=0.86)
    assert answer_extractively(GERMAN, [_passage("en")], _fixed(0.83), same_only).abstained
    config = AnswerConfig(
        min_dense_score=0.80, min_score=0.86, cross_language_min_dense_score=0.80, cross_language_min_score=0.82
    )
    declined = answer_extractively(GERMAN, [_passage("de")], _fixed(0.83), config)  # same language: 0.86 holds
    assert declined.abstained
    assert "< 0.86" in declined.reason


def test_the_dense_floor_is_the_cross_language_one_for_a_passage_in_another_language() -> None:
    config = AnswerConfig(min_dense_score=0.85, min_score=0.5, cross_language_min_dense_score=0.80)
    assert not answer_extractively(GERMAN, [_passage("en")], _fixed(0.9), config).abstained
    declined = answer_extractively(GERMAN, [_passage("de")], _fixed(0.9), config)
    assert declined.abstained
    assert "similarity 0.840 < 0.850" in declined.reason
