"""Weekdays and months matched across languages and ranges."""

import pytest

from strata_pipeline.answering.calendar_words import calendar_key, calendar_named
from strata_pipeline.answering.names import unnamed_words


def test_weekday_and_month_names_share_a_key_across_languages_and_forms() -> None:
    assert calendar_key("Saturdays") == calendar_key("samstags") == calendar_key("samedi") == ("weekday", 5)
    assert calendar_key("März") == calendar_key("mars") == calendar_key("March") == ("month", 2)
    assert calendar_key("Aarlingen") is None


@pytest.mark.parametrize(
    ("word", "text", "named"),
    [
        ("Saturdays", "| Samstag | 9:00 – 13:00 |", True),
        ("Wednesday", "Öffnungszeiten: Montag bis Freitag 8:00 – 18:00", True),
        ("Wednesday", "du lundi au vendredi", True),
        ("Sunday", "Montag bis Samstag geöffnet", False),  # outside the range
        ("Sunday", "Montag, Freitag", False),  # a list, not a range
        ("May", "Staff may book leave online.", False),  # the verb
        ("May", "Gültig ab 1. Mai 2026", True),
        ("Berlin", "Montag bis Freitag", False),
    ],
)
def test_a_passage_names_a_calendar_word_in_another_language_or_a_range(word: str, text: str, named: bool) -> None:
    assert calendar_named(word, text) is named


def test_the_name_check_counts_a_weekday_a_german_passage_names() -> None:
    def stem(word: str) -> str:
        return word.casefold()

    passages = ["Kundencenter Aarlingen > Öffnungszeiten: | Samstag | 9:00 – 13:00 |"]
    assert unnamed_words(["Saturdays", "Aarlingen"], passages, stem) == []
    assert unnamed_words(["Sundays"], passages, stem) == ["Sundays"]
