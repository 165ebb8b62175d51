"""A word or a number with its unit that part of a text cell holds picks the rows whose cell contains it
("Skonto" in "30 Tage netto, 14 Tage 2 % Skonto"), when nothing else reads it and one column holds it."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata_pipeline.facts.catalogue import Column, Table
from strata_pipeline.facts.cell_words import contained_words
from strata_pipeline.facts.intent import Filter
from strata_pipeline_tests.facts.sidecars import run, write_one_table

CARRIERS = [
    {"Nr": "K-1", "Name": "Spedition Falk", "Zahlungsbedingung": "30 Tage netto", "Region": "Nord"},
    {"Nr": "K-2", "Name": "Kurier Blum", "Zahlungsbedingung": "14 Tage 3 % Skonto, 45 Tage netto", "Region": "Süd"},
    {"Nr": "K-3", "Name": "Fracht Weiss", "Zahlungsbedingung": "90 Tage netto", "Region": "Nord"},
    {"Nr": "K-4", "Name": "Logistik Kern", "Zahlungsbedingung": "190 Tage netto", "Region": "Süd"},
    {"Nr": "K-5", "Name": "Cargo Ries", "Zahlungsbedingung": "10 Tage 2 % Skonto, 30 Tage netto", "Region": "Ost"},
]


@pytest.fixture
def carriers(tmp_path: Path) -> dict[str, Path]:
    return write_one_table(tmp_path / "c.sqlite", "einkauf/spediteure.csv", "log", "Spediteure", CARRIERS)


def test_a_word_part_of_some_cells_picks_those_rows(carriers: dict[str, Path]) -> None:
    result = run("Welche Spediteure gewähren uns Skonto?", carriers)
    assert result.intent.filters == (Filter("Zahlungsbedingung", "contains", "Skonto"),)
    assert sorted(result.value) == ["Cargo Ries", "Kurier Blum"]  # shown by name, as a list of suppliers reads


def test_a_number_with_its_unit_in_another_inflection_is_a_whole_number(carriers: dict[str, Path]) -> None:
    # "90 Tagen" is the cell's "90 Tage"; "190 Tage netto" does not hold 90 days
    result = run("Mit welchen Spediteuren haben wir ein Zahlungsziel von 90 Tagen?", carriers)
    assert result.intent.filters == (Filter("Zahlungsbedingung", "contains", "90 Tage"),)
    assert result.value == ["Fracht Weiss"]


TERMS = Table(
    "facts_terms",
    "log",
    "terms.csv",
    "terms",
    (
        Column("term", "text", ("net 30", "net 60 with discount", "discount only")),
        Column("note", "text", ("discount agreed with Hartmann", "none", "agreed with Seidel", "base fee")),
        Column("region", "text", ("north", "south")),
    ),
    3,
)


@pytest.mark.parametrize(
    ("question", "wanted"),
    [
        ("Which terms give a discount?", []),  # two columns hold "discount": which one is meant is not said
        ("Which terms are in the north?", []),  # a whole value, matched as one elsewhere
        ("Which terms mention shipping?", []),  # no cell holds it
        ("Which terms say agreed?", []),  # a lower-case English word may say what the rows are: not read
        ("Which terms mention Hartmann?", [Filter("note", "contains", "Hartmann")]),
        ("Which terms apply in Basel?", []),  # "Basel" is no inflection of "base"
        ("Which terms were agreed without Hartmann?", []),  # negated: it picks no rows that hold it
    ],
)
def test_only_a_word_one_column_holds_in_part_picks_rows(question: str, wanted: list[Filter]) -> None:
    assert contained_words(question, TERMS, []) == wanted
