"""A records sheet asked about the way its writers ask: "whose Code 95 runs out during 2025" (a column named
without its "gültig bis"), "wer hatte seine letzte HACCP-Schulung vor mehr als 12 Monaten" (a column named
without its bracketed note), both listing the people, not a date column. A year that most files' names carry
names none of them."""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path

import pytest

from strata_pipeline.enrichment.sidecar import connect, write_documents, write_fact_tables
from strata_pipeline.facts import Column, load_catalogue, parse
from strata_pipeline.facts.table_score import shared_numbers
from strata_pipeline.routing import route
from strata_pipeline_tests.facts.sidecars import _doc, run, write_one_table

TRAINING = [
    {"Pers.-Nr.": 1, "Name": "Anna Berger", "Code 95 gültig bis": "15.07.2025", "HACCP (last training)": "02.02.2024",
     "Kühlkette-Schulung": "05.03.2024"},
    {"Pers.-Nr.": 2, "Name": "Beat Wüst", "Code 95 gültig bis": "11.11.2025", "HACCP (last training)": "10.01.2025",
     "Kühlkette-Schulung": "08.11.2023"},
    {"Pers.-Nr.": 3, "Name": "Carla Moser", "Code 95 gültig bis": "08.03.2026", "HACCP (last training)": "15.03.2024",
     "Kühlkette-Schulung": "22.01.2025"},
]  # fmt: skip
# sheets of the same folder whose file names carry the year too
FLEET = [{"Fz.-Nr.": "FZ-1", "Depot": "Linz", "Baujahr": 2019}, {"Fz.-Nr.": "FZ-2", "Depot": "Graz", "Baujahr": 2021}]
ROOMS = [
    {"Raum-Nr.": "R1", "Standort": "Linz", "Fläche (m²)": 120},
    {"Raum-Nr.": "R2", "Standort": "Graz", "Fläche (m²)": 80},
]


@pytest.fixture
def folder(tmp_path: Path) -> dict[str, Path]:
    path = tmp_path / "s.sqlite"
    files = {
        "personal/schulungsnachweise.csv": {"schulungsnachweise": TRAINING},
        "fuhrpark/fahrzeugliste-2025.xlsx": {"Fahrzeuge": FLEET},
        "lager/raeume-2025.xlsx": {"Räume": ROOMS},
        "vertrieb/tarife-2025.xlsx": {"Tarif": [{"Zone": "A", "Preis": 100}]},
    }
    with closing(connect(path)) as db:
        write_documents(db, [_doc(doc, ["public"], source_set="af") for doc in files])
        for doc, sheets in files.items():
            write_fact_tables(db, doc, json.dumps(sheets))
    return {"af": path}


def test_a_column_is_named_without_its_note_or_its_valid_until() -> None:
    assert Column("HACCP (last training)", "text", ("02.02.2024",)).name_words == ("haccp",)
    assert Column("Code 95 gültig bis", "text", ("15.07.2025",)).name_words == ("code", "95")
    assert Column("ATP valid until", "text", ("2025-07-15",)).name_words == ("atp",)
    assert Column("Lieferzeit bis", "number").name_words == ("lieferzeit", "bis")  # no date: its own words
    assert Column("(CHF)", "number").name_words == ("chf",)  # nothing outside the brackets: all of it


def test_whose_validity_runs_out_in_a_year_lists_the_people(folder: dict[str, Path]) -> None:
    result = run("Whose Code 95 driver qualification runs out during 2025?", folder)
    assert result.intent.columns == ("Name",)
    assert sorted(result.value) == ["Anna Berger", "Beat Wüst"]


def test_who_counted_back_from_a_day_lists_the_people(folder: dict[str, Path]) -> None:
    result = run("Wer hatte am 31.03.2025 seine letzte HACCP-Schulung schon vor mehr als 12 Monaten?", folder)
    assert result.intent.columns == ("Name",)
    assert [(f.column, f.op, f.value) for f in result.intent.filters] == [("HACCP (last training)", "lt", "2024-03-31")]
    assert sorted(result.value) == ["Anna Berger", "Carla Moser"]


def test_which_still_lists_the_column_asked(folder: dict[str, Path]) -> None:
    result = run("Welche Kühlkette-Schulung hatte Beat Wüst?", folder)
    assert result.intent.columns == ("Kühlkette-Schulung",) and result.value == ["08.11.2023"]


def test_a_date_condition_on_a_column_only_one_sheet_has_names_it(folder: dict[str, Path]) -> None:
    parsed = parse("Wer hatte am 31.03.2025 seine letzte HACCP-Schulung schon vor mehr als 12 Monaten?",
                   load_catalogue(folder, None))  # fmt: skip
    assert parsed.names_table and any("only this table has" in e for e in parsed.evidence)


def test_a_year_most_file_names_carry_names_no_file(folder: dict[str, Path]) -> None:
    tables = list(load_catalogue(folder, None).tables)
    assert shared_numbers(tables) == {"2025"}  # three of the four spreadsheets
    assert shared_numbers([t for t in tables if "tarife" not in t.doc_id and "raeume" not in t.doc_id]) == set()


def test_who_a_range_picks_is_an_aggregation_and_who_holds_one_row_is_not(folder: dict[str, Path]) -> None:
    catalogue = load_catalogue(folder, None)
    picked, _ = route("Whose Code 95 driver qualification runs out during 2025?", catalogue)
    assert picked.route == "aggregation"
    one, _ = route("Who is the driver with personnel number 2?", catalogue)  # one row's fact: the passages say it
    assert one.route != "aggregation"


def test_a_condition_counted_back_on_a_date_column_is_evidence_of_an_aggregation(tmp_path: Path) -> None:
    dates = {"R1": "06.05.2024", "R2": "15.03.2024", "R3": "20.02.2025"}
    rooms = [{"Raum-Nr.": room, "Letzte Kalibrierung": day} for room, day in dates.items()]
    sheet = write_one_table(tmp_path / "r.sqlite", "lager/kuehlraeume.xlsx", "af", "Räume", rooms)
    question = "Bei welchen Kühlräumen lag die letzte Fühlerkalibrierung am 31.03.2025 schon mehr als 12 Monate zurück?"
    assert run(question, sheet).value == ["R2"]
    assert route(question, load_catalogue(sheet, None))[0].route == "aggregation"
