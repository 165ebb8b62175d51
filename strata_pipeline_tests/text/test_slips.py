"""Typing slips (text/slips.py) and the answerer's reading of them (answering/names.py, through unnamed_words).
Pure functions, exact expectations."""

from __future__ import annotations

import pytest

from strata_pipeline.answering.answer import _stem
from strata_pipeline.answering.names import unnamed_words
from strata_pipeline.text.slips import one_slip_edits, slip_of


def rare(word: str) -> float:
    return 0.0  # every word reads as rare: only the slip rules decide


def test_one_slip_edits_drop_add_change_and_swap() -> None:
    edits = one_slip_edits("yaer")
    assert {"year", "yer", "yaers", "yeer"} <= edits
    assert "yaer" not in edits


@pytest.mark.parametrize(
    ("word", "known", "found"),
    [
        ("settlment", {"settlement", "authority"}, "settlement"),  # a letter dropped
        ("hardhsip", {"hardship"}, "hardship"),  # two swapped
        ("yaer", {"year"}, "year"),  # four letters: a swap only
        ("yeor", {"year"}, None),  # four letters: a changed letter is another word
        ("settlment", {"battlement"}, None),  # more than one slip
        ("E-1043", {"e-1042"}, None),  # a code one character off is another code
        ("nousehold", {"household"}, None),  # the first letter is kept
    ],
)
def test_a_slip_is_read_as_the_word_it_misses(word: str, known: set[str], found: str | None) -> None:
    assert slip_of(word, known, rare) == found


def test_a_common_word_is_no_slip() -> None:
    assert slip_of("lease", {"least"}, lambda w: 4.5) is None
    assert slip_of("lease", {"least"}, rare) == "least"


def test_the_passages_mention_a_word_typed_with_a_slip_or_a_code_without_its_hyphen() -> None:
    passages = ["The senior claims handler has a settlement authority of 25,000 €.", "Solid amber on the RX-300."]
    assert unnamed_words(["settlment", "hanlder", "RX300"], passages, _stem) == []
    assert unnamed_words(["RX-310", "tertiary"], passages, _stem) == ["RX-310", "tertiary"]
