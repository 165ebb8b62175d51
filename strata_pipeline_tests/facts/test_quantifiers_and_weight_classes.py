""" "Haben alle unsere Fahrzeuge" says which rows (all of them), no quality they have; "die 18-Tonner" are the
vehicles whose cells write "18 t"; and a kind of row said with a number that no cell holds is refused, not
dropped (summing every vehicle would answer another question)."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata_pipeline.facts import Column, load_catalogue, parse
from strata_pipeline.facts.unit_cells import cell_unit
from strata_pipeline.facts.vocabulary import gloss
from strata_pipeline_tests.facts.sidecars import run, write_one_table

FLEET = [
    {"Fz.-Nr.": "FZ-1", "Depot": "Linz", "zul. GG": "18 t", "Nutzlast (kg)": 8000},
    {"Fz.-Nr.": "FZ-2", "Depot": "Linz", "zul. GG": "3,5 t", "Nutzlast (kg)": 1100},
    {"Fz.-Nr.": "FZ-3", "Depot": "Graz", "zul. GG": "18 t", "Nutzlast (kg)": 7900},
    {"Fz.-Nr.": "FZ-4", "Depot": "Graz", "zul. GG": "26 t", "Nutzlast (kg)": 14000},
]


@pytest.fixture
def fleet(tmp_path: Path) -> dict[str, Path]:
    return write_one_table(tmp_path / "f.sqlite", "fuhrpark/fahrzeugliste.xlsx", "af", "Fahrzeuge", FLEET)


def test_all_of_our_rows_is_no_quality(fleet: dict[str, Path]) -> None:
    assert run("Wie viel Nutzlast haben alle unsere Fahrzeuge zusammen?", fleet).value == 31000
    assert run("Wie viel Nutzlast haben alle Fahrzeuge des Depots Linz zusammen?", fleet).value == 9100


def test_a_weight_class_is_the_cells_that_write_it(fleet: dict[str, Path]) -> None:
    result = run("Wie viel Nutzlast haben alle unsere 18-Tonner zusammen?", fleet)
    assert [(f.column, f.value) for f in result.intent.filters] == [("zul. GG", "18 t")]
    assert result.value == 15900
    assert run("Wie viel Nutzlast haben die 3,5-Tonner zusammen?", fleet).value == 1100


def test_a_kind_said_with_a_number_no_cell_holds_is_refused(fleet: dict[str, Path]) -> None:
    parsed = parse("Wie viel Nutzlast haben alle unsere 40-Tonner zusammen?", load_catalogue(fleet, None))
    assert parsed.intent is None  # no "40 t" vehicle: not the total of all four
    parsed = parse("Wie viel Nutzlast haben alle unsere 7-Sitzer zusammen?", load_catalogue(fleet, None))
    assert parsed.intent is None and "sitzer" in parsed.why


def test_weight_classes_in_three_languages() -> None:
    assert gloss("die 18-Tonner") == "die 18 t"
    assert gloss("our 7.5-tonne trucks") == "our 7.5 t trucks"
    assert gloss("les camions de 19 tonnes") == "les camions de 19 t"
    assert gloss("24x7 support") == "24x7 support"


def test_a_column_of_amounts_in_one_unit() -> None:
    assert cell_unit(Column("zul. GG", "text", ("12 t", "3,5 t", "18 t"))) == "t"
    assert cell_unit(Column("Kündigungsfrist", "text", ("1 Monat", "3 Monate"))) == ""  # two words: no one unit
    assert cell_unit(Column("Lagertemp.", "text", ("+2 bis +4 °C", "≤ -18 °C"))) == ""
    assert cell_unit(Column("Nutzlast", "number")) == ""
