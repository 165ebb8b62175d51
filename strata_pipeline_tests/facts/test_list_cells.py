"""Cells that list several of their column's values ("Augsburg, Chemnitz"): a value named in a question is held
by every cell that lists it, in counts, groupings and intersections; a description with a comma is no list."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata_pipeline.facts import load_catalogue
from strata_pipeline.facts.list_cells import items, lists_values
from strata_pipeline_tests.facts.sidecars import run, write_one_table

SUPPLIERS = [
    {"Nr": 501, "Name": "Achsbau Ritter GmbH", "Ort": "Linz", "Warengruppe": "Wellen", "Werk": "Kassel"},
    {"Nr": 502, "Name": "Kabelwerk Thiel KG", "Ort": "Erfurt", "Warengruppe": "Kabel, Litzen", "Werk": "Erfurt"},
    {"Nr": 503, "Name": "Formguss Adler GmbH", "Ort": "Passau", "Warengruppe": "Guss", "Werk": "Kassel, Erfurt"},
    {"Nr": 504, "Name": "Lager Brandt AG", "Ort": "Gotha", "Warengruppe": "Lager", "Werk": "Erfurt; Kassel"},
    {"Nr": 505, "Name": "Transports Morel", "Ort": "Metz", "Warengruppe": "Fracht", "Werk": "Nancy"},
]


@pytest.fixture
def suppliers(tmp_path: Path) -> dict[str, Path]:
    return write_one_table(tmp_path / "s.sqlite", "einkauf/lieferanten.csv", "werk", "Lieferanten", SUPPLIERS)


def test_a_column_is_a_list_only_when_every_listed_item_is_a_value_of_its_own() -> None:
    assert lists_values(("Kassel", "Erfurt", "Kassel, Erfurt", "Erfurt; Kassel"))
    assert not lists_values(("Wellen", "Kabel, Litzen", "Guss"))  # "Litzen" is never a cell alone
    assert not lists_values(("Kassel", "Kassel, Erfurt"))  # one single value: nothing to tell apart
    assert items(" Erfurt; Kassel ") == ["erfurt", "kassel"]


def test_the_catalogue_marks_the_list_column(suppliers: dict[str, Path]) -> None:
    table = next(t for t in load_catalogue(suppliers, None).tables if t.name.startswith("facts_"))
    assert [c.name for c in table.columns if c.is_list] == ["Werk"]


def test_a_value_is_held_by_every_cell_that_lists_it(suppliers: dict[str, Path]) -> None:
    # "das Werk Erfurt": the plant column named beside the value wins over the town `Ort` that also holds Erfurt
    result = run("Wie viele Lieferanten beliefern laut Lieferanten das Werk Erfurt?", suppliers)
    assert result.value == 3
    assert {f.column for f in result.intent.filters} == {"Werk"}


def test_a_grouping_counts_a_listed_row_in_each_of_its_groups(suppliers: dict[str, Path]) -> None:
    result = run("Wie viele Lieferanten hat jedes Werk laut Lieferanten?", suppliers)
    assert result.value == {"Erfurt": 3, "Kassel": 3, "Nancy": 1}


def test_both_values_joined_by_and_are_of_one_column_and_how_many_counts_the_keys(suppliers: dict[str, Path]) -> None:
    # "Erfurt" is a town (Ort) and a plant (Werk); joined to the plant "Kassel" by "and" it is a plant too
    listed = run("Which suppliers in Lieferanten deliver to both Kassel and Erfurt?", suppliers)
    assert listed.intent.filters[0].column == listed.intent.filters[1].column == "Werk"
    assert listed.value == ["Formguss Adler GmbH", "Lager Brandt AG"]  # "which suppliers": their names
    assert sorted(row.line.split(",")[0] for row in listed.rows) == ["503", "504"]  # their rows cited
    question = "Combien de fournisseurs de Lieferanten livrent à la fois l'usine de Kassel et celle d'Erfurt ?"
    counted = run(question, suppliers)
    assert counted.value == 2
    assert "Formguss Adler GmbH, Lager Brandt AG" in counted.answer


def test_a_negated_listed_value_leaves_out_every_cell_that_lists_it(suppliers: dict[str, Path]) -> None:
    from strata_pipeline.facts import execute
    from strata_pipeline.facts.intent import Filter, Intent

    catalogue = load_catalogue(suppliers, None)
    table = next(t for t in catalogue.tables if t.name.startswith("facts_"))
    intent = Intent("list", table.name, ("Nr",), (Filter("Werk", "ne", "Kassel"),), source_sets=("werk",))
    assert execute(intent, catalogue, suppliers, None).value == ["502", "505"]


def test_one_of_several_values_is_held_by_a_cell_that_lists_any(suppliers: dict[str, Path]) -> None:
    from strata_pipeline.facts import execute
    from strata_pipeline.facts.intent import Filter, Intent

    catalogue = load_catalogue(suppliers, None)
    table = next(t for t in catalogue.tables if t.name.startswith("facts_"))
    intent = Intent("list", table.name, ("Nr",), (Filter("Werk", "in", ("Nancy", "Kassel")),), source_sets=("werk",))
    assert execute(intent, catalogue, suppliers, None).value == ["501", "503", "504", "505"]
