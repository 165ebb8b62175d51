"""The query screen: which queries must go to the full detector, and the guard that skips it."""

from __future__ import annotations

import pytest

from strata_pipeline.redaction.guard import PrivacyGuard
from strata_pipeline.redaction.pii import PiiPolicy, PresidioDetector
from strata_pipeline.redaction.screen import might_hold_personal_data


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("How many weeks of paid parental leave do employees get?", False),  # a capital on the first word only
        ("will the leave carry over", False),  # "will" is a given name, but an ordinary word first
        ("what did Anna say about leave", True),
        ("call 0171 2345", True),
        ("mail me at a@b.example", True),
        ("talked to pernille yesterday", True),  # a listed given name that is no common word
        ("who is McBride", True),
        ("McBride's address", True),  # inner capitals in the first word
    ],
)
def test_the_screen_sends_anything_a_detector_could_act_on(query: str, expected: bool) -> None:
    assert might_hold_personal_data(query) is expected


def test_a_cleared_query_never_builds_the_detector_but_secrets_are_still_replaced(ner: PresidioDetector) -> None:
    built: list[int] = []

    def make() -> PresidioDetector:
        built.append(1)
        return ner

    guard = PrivacyGuard(make, PiiPolicy())
    cleared = guard.redact_query("password=hunter-correct-horse-staple")
    assert "hunter" not in cleared.text and cleared.redactions == 1  # secrets are scanned either way
    assert guard.redact_query("parental leave weeks").text == "parental leave weeks"
    assert built == []
    assert guard.redact_query("what did Anna say").text == "what did [PERSON_1] say"
    assert built == [1]


def test_a_value_the_corpus_shows_in_clear_stays_in_the_query(ner: PresidioDetector) -> None:
    guard = PrivacyGuard(ner, PiiPolicy())
    asked: list[str] = []

    def shown(value: str) -> bool:
        asked.append(value)
        return value == "Basel"  # the index prints the town; it holds no clear name of a person

    text = "Which printer in Basel did Anna Berg report? Her token: password=hunter-correct-horse-staple"
    redacted = guard.redact_query(text, shown=shown).text
    assert "Basel" in redacted and "Anna Berg" not in redacted and "[PERSON_1]" in redacted
    assert "hunter" not in redacted  # secrets are replaced whatever the index shows
    assert "Anna Berg" in asked
    assert guard.redact_query("Which printer in Basel did Anna Berg report?").text.count("[") >= 1
