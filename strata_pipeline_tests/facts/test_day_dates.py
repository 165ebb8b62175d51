"""Columns of day dates written day first with dots ("01.07.2022"), as German, Swiss and French sheets keep
them: compared by date order like ISO dates, while the cited rows keep the text the source holds."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from strata_pipeline.facts import load_catalogue
from strata_pipeline.facts.dates import as_iso, is_day_date
from strata_pipeline_tests.facts.sidecars import run, write_one_table

COST_CENTRES = [
    {"KST": 1100, "Bezeichnung": "Geschäftsführung", "gültig ab": "01.01.2020"},
    {"KST": 2150, "Bezeichnung": "Einkauf Chemnitz", "gültig ab": "01.07.2022"},
    {"KST": 3250, "Bezeichnung": "Härterei Augsburg", "gültig ab": "1.1.2021"},
    {"KST": 4100, "Bezeichnung": "Qualität", "gültig ab": "15.03.2019"},
]


@pytest.fixture
def cost_centres(tmp_path: Path) -> dict[str, Path]:
    return write_one_table(tmp_path / "k.sqlite", "finanzen/kostenstellen.csv", "werk", "Kostenstellen", COST_CENTRES)


def test_dotted_day_dates_read_as_iso_and_other_text_stays() -> None:
    frame = pl.DataFrame({"d": ["01.07.2022", "1.1.2021", "2024-05-06", "Q3 2024", "12.2024", None]})
    assert frame.select(as_iso(pl.col("d"))).to_series().to_list() == [
        "2022-07-01", "2021-01-01", "2024-05-06", "Q3 2024", "12.2024", None
    ]  # fmt: skip
    assert is_day_date("01.07.2022") and is_day_date("2022-07-01")
    assert not is_day_date("03/04/2025")  # March in the US, April elsewhere: not read


def test_a_column_of_dotted_dates_is_a_date_column(cost_centres: dict[str, Path]) -> None:
    table = next(t for t in load_catalogue(cost_centres, None).tables if t.name.startswith("facts_"))
    assert [c.name for c in table.columns if c.is_date] == ["gültig ab"]


def test_after_a_date_compares_dotted_dates_by_date_order(cost_centres: dict[str, Path]) -> None:
    # as text, "01.07.2022" > "2020-01-01" is false and "15.03.2019" > "01.01.2020" is true
    result = run("Welche Kostenstellen sind erst nach dem 1. Januar 2020 gültig geworden?", cost_centres)
    assert sorted(result.value) == ["2150", "3250"]
    assert any("01.07.2022" in row.line for row in result.rows)  # cited as the source writes it


def test_the_earliest_dotted_date_is_the_earliest_day(cost_centres: dict[str, Path]) -> None:
    result = run("Welche Kostenstellen haben das früheste gültig ab?", cost_centres)
    assert result.value == ["4100"]


def test_a_year_compares_with_dotted_dates_and_is_covered_by_them(cost_centres: dict[str, Path]) -> None:
    # the years the table speaks for are read from the dates (2019 to 2022), so 2021 is no uncovered year
    assert sorted(run("Welche Kostenstellen sind vor 2021 gültig geworden?", cost_centres).value) == ["1100", "4100"]
    assert run("Wie viele Kostenstellen sind seit 2021 gültig?", cost_centres).value == 2


@pytest.mark.parametrize("day", ["2021-01-01", "01.01.2021", "1.1.2021"])
def test_an_intent_naming_a_day_finds_it_however_the_cell_writes_it(cost_centres: dict[str, Path], day: str) -> None:
    from strata_pipeline.facts import execute
    from strata_pipeline.facts.intent import Filter, Intent

    catalogue = load_catalogue(cost_centres, None)
    table = next(t for t in catalogue.tables if t.name.startswith("facts_"))
    intent = Intent("list", table.name, ("KST",), (Filter("gültig ab", "eq", day),), source_sets=("werk",))
    assert execute(intent, catalogue, cost_centres, None).value == ["3250"]  # its cell says "1.1.2021"


MACHINES = [
    {"Inventar-Nr.": f"MA-{i}", "Baujahr": built, "Letzte Wartung": serviced}
    for i, (built, serviced) in enumerate(
        [(2010, "03.09.2024"), (2015, "07.05.2024"), (2018, "06.01.2025"), (2021, "04.11.2024")]
    )
]


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # a column of years answers "built before 2016", not the table's one date column, which no word names
        ("Wie viele Maschinen in der Maschinenliste wurden vor 2016 gebaut?", 2),
        # the date column named: its dates
        ("Wie viele Maschinen der Maschinenliste hatten ihre letzte Wartung vor 2025?", 3),
        ("Welche Maschinen hatten die Letzte Wartung nach dem 1. Oktober 2024?", ["MA-2", "MA-3"]),
    ],
)
def test_a_year_column_and_a_date_column_each_answer_what_names_them(
    tmp_path: Path, question: str, value: object
) -> None:
    sidecar = write_one_table(tmp_path / "m.sqlite", "facility/maschinenliste.xlsx", "werk", "Maschinenliste", MACHINES)
    assert run(question, sidecar).value == value


@pytest.mark.parametrize(
    "question",
    [
        "Welche Kostenstellen haben das gültig ab am längsten her?",
        "Quelles Kostenstellen ont le gültig ab il y a le plus longtemps ?",
        "Which Kostenstellen have the gültig ab longest ago?",
    ],
)
def test_longest_ago_is_the_earliest_day_not_the_latest(cost_centres: dict[str, Path], question: str) -> None:
    # "le plus" and "longest" alone ask for a maximum; "il y a le plus longtemps" and "longest ago" for the oldest
    assert run(question, cost_centres).value == ["4100"]
