"""One table of weekday and month names, and what each matcher derives from it."""

from __future__ import annotations

import re

import pytest

from strata_pipeline.answering.calendar_words import calendar_key
from strata_pipeline.retrieval.priors import named_versions
from strata_pipeline.text.calendar import (
    MONTH_VARIANTS,
    MONTHS,
    WEEKDAY_ABBREVIATIONS,
    WEEKDAY_VARIANTS,
    WEEKDAYS,
    alternation,
    names,
)


def test_every_language_names_seven_days_and_twelve_months_and_variants_keep_their_place() -> None:
    assert {len(days) for days in WEEKDAYS.values()} == {7}
    assert {len(months) for months in MONTHS.values()} == {12}
    assert (len(WEEKDAY_VARIANTS), len(MONTH_VARIANTS)) == (7, 12)
    assert calendar_key("Sonnabend") == calendar_key("samedi") == ("weekday", 5)
    assert calendar_key("Jänner") == calendar_key("january") == ("month", 0)


def test_names_lists_each_word_once_in_table_order() -> None:
    assert names(MONTHS, ("en", "de"))[:13] == (*MONTHS["en"], "januar")  # "april", "august" ... once
    assert names(WEEKDAY_ABBREVIATIONS, ("de", "fr")).count("di") == 1


def test_an_alternation_tries_the_longer_word_first() -> None:
    pattern = alternation(("mar", "march", "mars"))
    assert pattern == "march|mars|mar"
    assert re.match(pattern, "march 2025").group() == "march"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("query", "versions"),
    [
        ("the fee schedule of mei 2024", frozenset()),  # a Dutch month dates the year, as the others do
        ("the fee schedule of März 2024", frozenset()),
        ("the 2024 fee schedule", frozenset({"2024"})),
    ],
)
def test_a_year_after_a_month_dates_an_event_in_every_language(query: str, versions: frozenset[str]) -> None:
    assert named_versions(query) == versions
