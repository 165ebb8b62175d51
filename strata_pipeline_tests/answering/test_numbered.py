"""The numbered thing a question names (answering/numbered.py): "Level 4" is not answered by what the
quoted sentences say of Level 1 and 2, nor "tariff zone 6" by the row for zone 2."""

from __future__ import annotations

import pytest

from strata_pipeline.answering.near_miss import Quoted, near_miss
from strata_pipeline.answering.numbered import numbered_names, other_numbered

LEVEL_4 = "How many days does the Level 4 certification course last?"
LEVELS = [  # (scored sentence, its passage)
    ("Levels > Level 1 - Maintenance: - Course: 3 days, e-learning.", "## Level 1 - Maintenance\n- Course: 3 days"),
    ("Levels > Level 2 - Repair: - Course: 5 days in the training room.", "## Level 2 - Repair\n- Course: 5 days"),
]


@pytest.mark.parametrize(
    ("question", "names"),
    [
        (LEVEL_4, [("level", "4")]),
        ("What is the household contents rate per 1,000 € in tariff zone 6?", [("zone", "6")]),
        ("Welcher Selbstbehalt gilt in Gefährdungsklasse III?", [("gefährdungsklasse", "III")]),
        ("Up to what amount may a Claims handler II settle a claim?", [("handler", "II")]),
        ("What were the ICU visiting hours under version 1 of the policy?", [("version", "1")]),
        # bounds, amounts, units, calendar words, dotted versions and codes name no numbered thing
        ("Who pays when the customer is over 65?", []),
        ("Must it be reported within 24 hours?", []),
        ("How many VLANs have an ID between 200 and 300?", []),
        ("What changed in version 3.2 of the runbook?", []),
        ("Is the office open on May 5?", []),
        ("What does invoice status INV-17 mean?", []),
        ("Which patch wave is zrh-prt-01 in?", []),
        ("A stone chipped the glass. Will I have to pay?", []),  # a pronoun, not a Roman numeral
        ("What does error SEV1 mean?", []),
    ],
)
def test_numbered_names(question: str, names: list[tuple[str, str]]) -> None:
    assert numbered_names(question) == names


def test_other_numbers_of_the_same_word_abstain() -> None:
    reason = other_numbered(LEVEL_4, LEVELS)
    assert reason is not None and "level 1, 2" in reason and "level 4" in reason


def test_a_record_key_is_read_as_the_word() -> None:
    rows = [("contents-rates: tariff_zone: 2; description: small towns; rate_basic: 1.20", "| 1 | rural | 0.95 |")]
    reason = other_numbered("What is the contents rate in tariff zone 6?", rows)
    assert reason is not None and "zone 2" in reason


def test_silent_when_the_number_is_held_or_the_word_unnumbered() -> None:
    # the asked level is in a quoted passage: the answer may be in a row it did not quote
    assert other_numbered(LEVEL_4, [*LEVELS, ("Level 3 ...", "## Level 4 - Expert\n- Course: 10 days")]) is None
    assert other_numbered("How many days does the Level 2 course last?", LEVELS) is None
    # the quoted sentences put no number after the word: nothing tells the things apart
    assert other_numbered(LEVEL_4, [("Each certification level takes a course.", "Levels are booked online.")]) is None


def test_near_miss_abstains_for_another_numbered_thing() -> None:
    quoted = [Quoted(scored, scored, passage) for scored, passage in LEVELS]
    reason = near_miss(LEVEL_4, quoted, [p for _, p in LEVELS], lambda w: w.casefold())
    assert reason is not None and "level 4" in reason


def test_a_version_the_quoted_policy_is_not_abstains() -> None:
    # the scored sentence carries its document's title, as the answerer reads it
    current = [
        ("Visiting patients - visitor policy (version 3) > ICU: Visits are between 14:00 and 18:00.",
         "Owner: Patient Experience Office · Version 3\n## ICU\nVisits are between 14:00 and 18:00."),
    ]  # fmt: skip
    reason = other_numbered("What were the ICU visiting hours under version 1 of the visitor policy?", current)
    assert reason is not None and "version 3" in reason and "version 1" in reason
    assert other_numbered("What are the ICU visiting hours under version 3?", current) is None


def test_a_version_is_held_only_as_a_version() -> None:
    question = "What young-driver surcharge applied under version 5 of the motor underwriting guidelines?"
    scored = "Motor underwriting guidelines — version 7 > Young drivers: a main driver under 23 adds 35 %."
    passage = "# Motor underwriting guidelines — version 7\nFleets of more than 5 vehicles are written elsewhere."
    assert other_numbered(question, [(scored, passage)]) == (
        "The quoted sentences speak of version 7, not version 5, which the question asks about."
    )
    # "v5" in a title holds version 5; a level's number on its own in a row still holds the level
    assert other_numbered(question, [(scored, passage + "\nSee the v5 archive.")]) is None
    assert other_numbered("How long is the Level 4 course?", [("Level 1 > Course: 3 days", "| 4 | 5 days |")]) is None


def test_a_missing_count_of_minutes_is_named_in_words() -> None:
    sentence = "The early shift starts at the main gate."
    reason = near_miss("How many minutes earlier does the early shift start?", [Quoted(sentence, sentence, sentence)],
                       [sentence], lambda w: w.casefold())  # fmt: skip
    assert reason is not None and "no number of minutes" in reason
