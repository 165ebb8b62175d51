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


def _page(language: str, text: str, dense: float) -> Candidate:
    payload = {"chunk_id": f"c-{language}", "doc_id": f"lyon-{language}.md", "text": text, "line_start": 1,
               "language": language}  # fmt: skip
    return Candidate(f"p-{language}", payload, scores={"dense": dense})


MAINTENANCE = "On which evening and at what time is network maintenance done for the Lyon office?"
ENGLISH = "The Lyon office uses staff VLAN 410. Its guest Wi-Fi uses VLAN 480."
GERMAN_TIMES = "Am Netzwerk wird in Lyon donnerstags von 20:00 bis 22:00 Uhr gearbeitet."


def _scores(english: float, german: float):
    return lambda question, sentences: [german if "Uhr" in s else english for s in sentences]


def test_a_sentence_in_another_language_that_states_the_asked_kind_is_quoted_within_the_margin() -> None:
    pages = [_page("en", ENGLISH, 0.9), _page("de", GERMAN_TIMES, 0.85)]
    config = AnswerConfig(min_dense_score=0.82, min_score=0.86, cross_language_min_dense_score=0.80,
                          cross_language_min_score=0.80, cross_language_kind_margin=0.12)  # fmt: skip
    answer = answer_extractively(MAINTENANCE, pages, _scores(0.95, 0.88), config)
    assert not answer.abstained
    assert [c.quote for c in answer.citations] == [GERMAN_TIMES]


def test_without_the_margin_or_beyond_it_the_answer_says_no_time_is_stated() -> None:
    pages = [_page("en", ENGLISH, 0.9), _page("de", GERMAN_TIMES, 0.85)]
    floors = {"min_dense_score": 0.82, "min_score": 0.86, "cross_language_min_dense_score": 0.80,
              "cross_language_min_score": 0.80}  # fmt: skip
    for config, scores in ((AnswerConfig(**floors), _scores(0.95, 0.88)),
                           (AnswerConfig(**floors, cross_language_kind_margin=0.12), _scores(0.95, 0.82))):  # fmt: skip
        answer = answer_extractively(MAINTENANCE, pages, scores, config)
        assert answer.abstained
        assert "state no time value" in answer.reason


def test_the_margin_reaches_only_passages_in_another_language() -> None:
    same = [_page("en", ENGLISH, 0.9), _page("de", GERMAN_TIMES, 0.85)]
    same[1].payload["language"] = "en"  # the times in the question's own language: the same-language margin (0)
    config = AnswerConfig(min_dense_score=0.82, min_score=0.86, cross_language_kind_margin=0.12)
    assert answer_extractively(MAINTENANCE, same, _scores(0.95, 0.88), config).abstained


def test_among_other_language_sentences_alone_the_margin_does_not_apply() -> None:
    # every best sentence is German already: no preference for the question's language to offset
    german_vlans = "Das Büro in Lyon nutzt das VLAN 410. Das Gäste-WLAN nutzt das VLAN 480."
    pages = [_page("de", german_vlans, 0.9), _page("fr", GERMAN_TIMES, 0.85)]
    config = AnswerConfig(min_dense_score=0.82, min_score=0.86, cross_language_min_dense_score=0.80,
                          cross_language_min_score=0.80, cross_language_kind_margin=0.12)  # fmt: skip
    answer = answer_extractively(MAINTENANCE, pages, _scores(0.95, 0.88), config)
    assert answer.abstained and "state no time value" in answer.reason
