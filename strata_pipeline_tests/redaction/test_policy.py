"""The redaction policy on hand-made findings: thresholds, role mailboxes, name plausibility."""

from __future__ import annotations

import pytest

from strata_pipeline.redaction.pii import (
    Finding,
    PiiPolicy,
    _trim,
    given_names,
    plausible_person,
    resolve_overlaps,
)
from strata_pipeline.redaction.redact import Placeholders, apply_replacements


def finding(text: str, value: str, entity: str, score: float = 0.9) -> Finding:
    start = text.index(value)
    return Finding(entity, start, start + len(value), score, "test")


@pytest.mark.parametrize(
    ("email", "decision"),
    [
        ("support@northwind.example", "keep_role_contact"),
        ("it-helpdesk@northwind.example", "keep_role_contact"),
        ("No-Reply@northwind.example", "keep_role_contact"),
        ("sales.emea@northwind.example", "keep_role_contact"),
        ("maria.fernandes@northwind.example", "redact"),
        ("jweber@northwind.example", "redact"),
    ],
)
def test_role_mailboxes(email: str, decision: str) -> None:
    text = f"Write to {email} today."
    assert PiiPolicy().decide(finding(text, email, "EMAIL"), text) == decision


def test_thresholds_per_entity() -> None:
    text = "Call +1 415-555-0162 or write to maria.fernandes@northwind.example."
    policy = PiiPolicy()
    assert policy.decide(finding(text, "+1 415-555-0162", "PHONE", 0.35), text) == "redact"
    assert policy.decide(finding(text, "+1 415-555-0162", "PHONE", 0.34), text) == "below_threshold"
    assert policy.decide(finding(text, "maria.fernandes@northwind.example", "EMAIL", 0.49), text) == "below_threshold"
    strict = PiiPolicy(thresholds={"PHONE": 0.9})
    assert strict.decide(finding(text, "+1 415-555-0162", "PHONE", 0.8), text) == "below_threshold"
    # An entity without a configured threshold uses 0.5.
    assert strict.decide(finding(text, "maria.fernandes@northwind.example", "EMAIL", 0.5), text) == "redact"


def test_below_threshold_comes_before_the_name_check() -> None:
    text = "Maria Fernandes joined."
    assert PiiPolicy().decide(finding(text, "Maria Fernandes", "PERSON", 0.5), text) == "below_threshold"
    assert PiiPolicy().decide(finding(text, "Maria Fernandes", "PERSON", 0.85), text) == "redact"


@pytest.mark.parametrize(
    ("text", "value", "expected"),
    [
        ("Maria Fernandes joined the team.", "Maria Fernandes", True),
        ("## Encoder Mismatch", "Encoder Mismatch", False),
        ("See Home Calibration Routine.", "Home Calibration Routine", False),
        ("Contact: Maria", "Maria", True),
        ("Dear Jonas", "Jonas", True),
        # A lone given name needs a cue: before it, a verb after it, or the full name elsewhere.
        ("Maria said so.", "Maria", True),
        ("See Maria.", "Maria", False),
        ("May is the busiest month.", "May", False),  # a given name that is also a word needs a cue before it
        ("Thanks to Kreszentia. Kreszentia Wende signs.", "Kreszentia", True),  # named in full elsewhere
        ("Ms Leach phoned. Dana Leach signs.", "Leach", True),
        ("| Weber, Jonas | Finance |", "Weber, Jonas", True),
        ("Bill to: Wagner, Love and Smith", "Wagner, Love", False),  # a firm
        ("Customer: Bachmann GmbH", "Bachmann", False),
        ("Customer: Pedro y Asociados S.L.", "Pedro", False),
        ("Taxi from Victoria Station", "Victoria", False),
        ("Book Room Aurora for the review.", "Aurora", False),
        ("Thekla van der Dussen joined.", "Thekla van der Dussen", True),
        ("Attendees: Bruce Wayne, Laura Hill", "Laura Hill", True),  # Hill is a surname too
        ("Closed on German Unity Day.", "German Unity Day", False),
        ("Agent notes (Robert): done. Assignee: Robert Bennett", "Robert", True),
        ("[10:02] Sarah: hi, can someone help?", "Sarah", True),
        ("Ask Dr. Okafor.", "Okafor", True),  # an honorific makes any surname a name
        ("Frau Hoffmann", "Hoffmann", True),
        ("Maria Fernandes\nSupport", "Maria Fernandes\nSupport", False),
        ("Agent R2D2 Smith", "R2D2 Smith", False),
        ("Power Supply", "Power Supply", False),
    ],
)
def test_plausible_person(text: str, value: str, expected: bool) -> None:
    assert plausible_person(value, text, text.index(value)) is expected


def test_not_a_name_decision() -> None:
    text = "## Encoder Mismatch"
    assert PiiPolicy().decide(finding(text, "Encoder Mismatch", "PERSON", 0.85), text) == "not_a_name"


def test_given_names_come_from_many_locales() -> None:
    names = given_names()
    assert {"Maria", "Jonas", "Lena", "Daniel"} <= names
    assert "Encoder" not in names
    assert all(name.isalpha() for name in names)


def test_resolve_overlaps_prefers_score_then_length() -> None:
    a = Finding("PERSON", 0, 10, 0.85, "t")
    b = Finding("EMAIL", 5, 30, 0.9, "t")
    c = Finding("PHONE", 40, 50, 0.4, "t")
    d = Finding("PHONE", 40, 55, 0.4, "t")
    assert resolve_overlaps([a, b, c, d]) == [b, d]
    assert resolve_overlaps([]) == []


def test_trim_strips_whitespace_and_markup_from_names() -> None:
    text = " **Maria Fernandes**, hi "
    assert _trim(text, 0, 21, names_only=True) == (3, 18)
    assert _trim(" +1 415 ", 0, 8, names_only=False) == (1, 7)
    # A trailing period is kept (initials such as "J.").
    assert _trim("Jonas W.", 0, 8, names_only=True) == (0, 8)


def test_placeholders_number_per_type() -> None:
    placeholders = Placeholders()
    assert placeholders.for_value("PERSON", "Maria  Fernandes") == "[PERSON_1]"
    assert placeholders.for_value("EMAIL", "a@b.example") == "[EMAIL_1]"
    assert placeholders.for_value("PERSON", "maria fernandes") == "[PERSON_1]"
    assert placeholders.for_value("PERSON", "Jonas Weber") == "[PERSON_2]"


def test_apply_replacements_in_order_skipping_overlaps() -> None:
    text = "0123456789"
    assert apply_replacements(text, [(6, 8, "B"), (1, 3, "A")]) == "0A345B89"
    assert apply_replacements(text, [(1, 5, "A"), (3, 7, "B")]) == "0A56789"
    assert apply_replacements(text, []) == text
