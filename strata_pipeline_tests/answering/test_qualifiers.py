"""Years and numbered labels a question names (answering/qualifiers.py) must be held by the passage an
answer quotes. Pure functions, exact expectations."""

from __future__ import annotations

import pytest

from strata_pipeline.answering.answer import _stem
from strata_pipeline.answering.near_miss import Quoted, near_miss
from strata_pipeline.answering.qualifiers import question_qualifiers, unheld_qualifiers


@pytest.mark.parametrize(
    ("question", "years", "labels"),
    [
        ("Which public holidays did Northwind observe in 2023?", ["2023"], []),
        ("How many days does the Level 4 certification course last?", [], [("level", "4")]),
        ("Which team was on call for the network in Week 14 of 2024?", ["2024"], [("week", "14")]),
        # a lower-case noun and number is no name ("axis 5" may be "Achse 5" or a table column)
        ("Which team was on call in week 14?", [], []),
        ("How often is the belt of axis 5 replaced?", [], []),
        # a capitalised first word is capitalised anyway
        ("Level 4 courses: how long are they?", [], []),
        # a number before its noun is a quantity; after a function word, a limit or a rank
        ("What is the top speed when towing a 500 kg load?", [], []),
        ("May I carry up to 5 boxes in a van?", [], []),
        ("How long is a room booked for after 2 hours?", [], []),
        # a date, a version or a code is not a year
        ("What changed on 2025-01-15 in v2019.1?", [], []),
        # "in 3 days" counts days; a year in a label is the year, not a label number
        ("What is due in 3 days?", [], []),
    ],
)
def test_question_qualifiers(question: str, years: list[str], labels: list[tuple[str, str]]) -> None:
    assert question_qualifiers(question) == (years, labels)


def test_a_label_is_held_by_its_noun_then_its_number() -> None:
    level_2 = "Field Engineer Certification Levels\nLevel 2 - Repair\nCourse: 5 days in the training room."
    question = "How many days does the Level 4 certification course last?"
    assert unheld_qualifiers(question, [level_2], _stem) == ["level 4"]
    assert unheld_qualifiers("How long is the Level 2 course?", [level_2], _stem) == []
    # a table row read with its header: "iso_week: 14" holds week 14
    row = "iso_week: 14, week_start_monday: 2025-03-31, infrastructure_primary: Platform Squad Limmat"
    assert unheld_qualifiers("Who was on call in Week 14?", [row], _stem) == []
    # the number alone, elsewhere in the passage, does not hold the label
    assert unheld_qualifiers("Who was on call in Week 4?", ["4 squads rotate weekly."], _stem) == ["week 4"]
    # German capitalises every noun: labels are checked in English questions only
    german = "Wer hat in Kalenderwoche 12 Bereitschaft?"
    assert unheld_qualifiers(german, [row], _stem) == ["kalenderwoche 12"]
    assert unheld_qualifiers(german, [row], _stem, labels_too=False) == []


def test_a_year_is_held_only_as_that_year() -> None:
    calendar = "date: 2025-05-26, holiday: Memorial Day, offices: US"
    assert unheld_qualifiers("Which holidays were observed in 2023?", [calendar], _stem) == ["2023"]
    assert unheld_qualifiers("When is Memorial Day in 2025?", [calendar], _stem) == []
    assert unheld_qualifiers("When was it released in 2025?", ["Released 20251"], _stem) == ["2025"]


def test_near_miss_names_the_missing_qualifier() -> None:
    quoted = [Quoted("Employees receive 10 paid sick days per calendar year.",
                     "Employees receive 10 paid sick days per calendar year.",
                     "Leave Policy\nSick Leave\nEmployees receive 10 paid sick days per calendar year.")]  # fmt: skip
    reason = near_miss("How many paid sick days did employees get in 2019?", quoted, [quoted[0].passage], _stem)
    assert reason is not None and "2019" in reason
    assert near_miss("How many paid sick days do employees get?", quoted, [quoted[0].passage], _stem) is None
