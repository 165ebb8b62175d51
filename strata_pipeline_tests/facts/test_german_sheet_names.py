"""Sheets and columns named as German and French writers name them: a sheet in one compound
("Lieferantenliste") said by its parts, a date column told by its compound's head ("Vertragsende": "enden"),
accented column words, company names said without their legal form, list cells whose items never stand
alone, and what is refused rather than answered over every row."""

from __future__ import annotations

import datetime
import json
from contextlib import closing
from pathlib import Path

import pytest

from strata_pipeline.enrichment.sidecar import connect, write_documents, write_fact_tables
from strata_pipeline.facts import load_catalogue, parse
from strata_pipeline.facts.catalogue import Column
from strata_pipeline.facts.elapsed import read_elapsed
from strata_pipeline.facts.list_cells import listed_items, lists_values
from strata_pipeline_tests.facts.sidecars import _doc, run, write_one_table

SUPPLIERS = [
    {"Lief.-Nr.": "S-11", "Firma": "Moorland Gemüse GmbH", "Land": "DE", "Beliefert Werke": "Erfurt, Gotha",
     "Zertifikat gültig bis": "15.03.2025", "Einstufung": "A"},
    {"Lief.-Nr.": "S-12", "Firma": "Hafenfisch Nord AG", "Land": "DE", "Beliefert Werke": "Kassel",
     "Zertifikat gültig bis": "30.09.2025", "Einstufung": "B"},
    {"Lief.-Nr.": "S-13", "Firma": "Fromagerie du Jura SA", "Land": "CH", "Beliefert Werke": "Gotha, Erfurt",
     "Zertifikat gültig bis": "31.05.2025", "Einstufung": "A"},
    {"Lief.-Nr.": "S-14", "Firma": "Brotzeit Werner KG", "Land": "AT", "Beliefert Werke": "Kassel, Erfurt",
     "Zertifikat gültig bis": "31.12.2025", "Einstufung": "C"},
]  # fmt: skip
ARTICLES = [
    {"Art.-Nr.": "A-1", "Bezeichnung": "Erbsen 2 kg", "Lief.-Nr.": "S-11", "Rest-MHD WE (Tage)": 90},
    {"Art.-Nr.": "A-2", "Bezeichnung": "Karotten 1 kg", "Lief.-Nr.": "S-11", "Rest-MHD WE (Tage)": 60},
    {"Art.-Nr.": "A-3", "Bezeichnung": "Kabeljau 5 kg", "Lief.-Nr.": "S-12", "Rest-MHD WE (Tage)": 180},
]
CONTRACTS = [
    {
        "Vertrags-Nr.": "V-1",
        "Kunde": "Ostmarkt",
        "Vertragsbeginn": "01.01.2023",
        "Vertragsende": "31.12.2025",
        "Key Account": "Team Ost",
    },
    {
        "Vertrags-Nr.": "V-2",
        "Kunde": "Westmarkt",
        "Vertragsbeginn": "01.03.2025",
        "Vertragsende": "28.02.2027",
        "Key Account": "Team West",
    },
    {
        "Vertrags-Nr.": "V-3",
        "Kunde": "Südmarkt",
        "Vertragsbeginn": "01.07.2024",
        "Vertragsende": "30.06.2025",
        "Key Account": "Team Ost",
    },
]
SHEETS = {
    "einkauf/lieferantenliste.csv": {"Lieferantenliste": SUPPLIERS},
    "einkauf/artikelstamm.xlsx": {"Artikel": ARTICLES},
    "vertrieb/kundenvertraege.xlsx": {"Verträge": CONTRACTS},
}


@pytest.fixture
def sidecars(tmp_path: Path) -> dict[str, Path]:
    path = tmp_path / "einkauf.sqlite"
    with closing(connect(path)) as db:
        write_documents(db, [_doc(doc_id, ["public"], source_set="einkauf") for doc_id in SHEETS])
        for doc_id, tables in SHEETS.items():
            write_fact_tables(db, doc_id, json.dumps(tables))
    return {"einkauf": path}


def test_accented_column_names_are_whole_words() -> None:
    assert Column("Coût CHF", "number").words == ("coût", "chf")
    assert Column("Non-conformités", "number").words == ("non", "conformités")
    assert Column("Fläche (m²)", "number").words == ("fläche", "m")


def test_a_sheet_named_in_one_compound_is_named_by_its_parts(sidecars: dict[str, Path]) -> None:
    result = run("Welche Lieferanten haben ein Zertifikat gültig bis vor dem 30.06.2025?", sidecars)
    assert result.intent.table.endswith("lieferantenliste")
    assert sorted(result.value) == ["Fromagerie du Jura SA", "Moorland Gemüse GmbH"]
    # in English too: "suppliers" is the English word of the compound's first part
    english = parse("Which suppliers are rated A?", load_catalogue(sidecars, None))
    assert english.intent is not None and english.intent.table.endswith("lieferantenliste")
    assert "table 'lieferantenliste'" in english.evidence


def test_an_item_that_is_listed_in_two_cells_but_never_alone_is_a_value(sidecars: dict[str, Path]) -> None:
    values = ("Erfurt, Gotha", "Kassel", "Gotha, Erfurt", "Kassel, Erfurt")
    assert lists_values(values)  # Gotha is never a cell of its own, but two cells list it
    assert listed_items(values) == ["Erfurt", "Gotha"]
    assert not lists_values(("Wellen", "Kabel, Litzen", "Guss"))  # a description with a comma stays one value
    result = run("Which suppliers deliver to both the Gotha and the Erfurt plant?", sidecars)
    assert {f.value for f in result.intent.filters} == {"Gotha", "Erfurt"}
    assert sorted(result.value) == ["Fromagerie du Jura SA", "Moorland Gemüse GmbH"]  # names, not S-11, S-13


def test_a_company_is_named_without_its_legal_form(sidecars: dict[str, Path]) -> None:
    result = run("In welchem Land sitzt Hafenfisch Nord laut Lieferantenliste?", sidecars)
    assert [(f.column, f.value) for f in result.intent.filters] == [("Firma", "Hafenfisch Nord AG")]
    assert result.value == ["DE"]


def test_a_date_column_is_told_by_its_compounds_head(sidecars: dict[str, Path]) -> None:
    ending = run("Wie viele Verträge enden im Jahr 2025?", sidecars)
    assert {f.column for f in ending.intent.filters} == {"Vertragsende"}
    assert ending.value == 2
    starting = run("Wie viele Verträge beginnen im Jahr 2025?", sidecars)
    assert {f.column for f in starting.intent.filters} == {"Vertragsbeginn"}
    assert starting.value == 1


def test_a_period_that_no_date_column_takes_is_refused(sidecars: dict[str, Path]) -> None:
    parsed = parse("Wie viele Verträge laufen im Jahr 2025 aus?", load_catalogue(sidecars, None))
    assert parsed.intent is None  # two date columns, neither said: counting all three would answer nothing asked
    assert "Vertragsbeginn, Vertragsende" in parsed.why


def test_a_pronoun_names_no_abbreviated_column(sidecars: dict[str, Path]) -> None:
    # "we" is no `WE` (Wareneingang): the article list shows its names, not the shelf life at goods receipt
    result = run("Which articles do we stock according to the Artikel sheet?", sidecars)
    assert result.intent.columns == ("Bezeichnung",)


ROOMS = [  # two rooms share a designation: their numbers tell them apart
    {"Raum-Nr.": "R-1", "Bezeichnung": "Tiefkühllager", "Zone": "TK", "Letzte Kalibrierung": "12.02.2024"},
    {"Raum-Nr.": "R-2", "Bezeichnung": "Tiefkühllager", "Zone": "TK", "Letzte Kalibrierung": "01.04.2024"},
    {"Raum-Nr.": "R-3", "Bezeichnung": "Pluskühlung", "Zone": "Plus", "Letzte Kalibrierung": "15.01.2025"},
]


@pytest.fixture
def rooms(tmp_path: Path) -> dict[str, Path]:
    return write_one_table(tmp_path / "r.sqlite", "lager/raeume.xlsx", "lager", "Räume", ROOMS)


def test_how_long_ago_counts_back_from_the_day_named(rooms: dict[str, Path]) -> None:
    # "Kühlräumen" names the sheet "Räume" by the compound's head; "mehr als 12 Monate zurück" as of that day
    question = "Bei welchen Kühlräumen lag die letzte Kalibrierung am 31.03.2025 mehr als 12 Monate zurück?"
    result = run(question, rooms)
    assert [(f.column, f.op, f.value) for f in result.intent.filters] == [("Letzte Kalibrierung", "lt", "2024-03-31")]
    assert result.value == ["R-1"]  # by number: "Tiefkühllager" would not say which of the two rooms
    french = run("Combien de Räume ont été calibrés il y a moins de 12 mois, au 31.03.2025 ?", rooms)
    assert french.value == 2


def test_how_long_ago_without_a_day_counts_back_from_today() -> None:
    today = datetime.date(2025, 3, 31)
    found = read_elapsed("which rooms were calibrated more than 2 years ago?", today)
    assert found is not None and (found.op, found.cutoff, found.anchor) == ("lt", "2023-03-31", "2025-03-31")
    assert read_elapsed("vor mehr als 6 monaten", datetime.date(2025, 8, 31)).cutoff == "2025-02-28"  # no 31 Feb
    assert read_elapsed("within the last 30 days", today).cutoff == "2025-03-01"
    assert read_elapsed("courses of more than 12 months", today) is None  # a duration, no time ago


def test_wie_vielen_counts_the_rows_its_dative_plural_names(sidecars: dict[str, Path]) -> None:
    result = run("Bei wie vielen Verträgen liegt das Vertragsende im Jahr 2025?", sidecars)
    assert result.intent.operation == "count"
    assert result.value == 2


def test_the_most_rows_of_a_german_sheet_named_in_english(sidecars: dict[str, Path]) -> None:
    # "contracts" is the English word of the label "Verträge" (as written; its folded stem "vertraege" has none)
    result = run("Which key account has the most contracts?", sidecars)
    assert (result.intent.operation, result.intent.group_by) == ("argmax", ("Key Account",))
    assert result.value == ["Team Ost"]
    # "customer contracts": the compound's head names the sheet; "and how many" is the best group's row count
    counted = run("Which key account looks after the most customer contracts, and how many are they?", sidecars)
    assert (counted.intent.operation, counted.value) == ("argmax", ["Team Ost"])  # before: a count of all 3
    assert counted.answer.endswith("2 row(s) each.")


def test_a_possessive_before_the_counted_noun_is_no_kind_of_row(sidecars: dict[str, Path]) -> None:
    # "our", "unserer", "nos" say whose rows, not which: before, each was read as a counted word no column holds
    assert run("How many of our suppliers are in Germany?", sidecars).value == 2
    assert run("Wie viele unserer Lieferanten haben die Einstufung A?", sidecars).value == 2
    assert run("Combien de nos fournisseurs ont la Einstufung C ?", sidecars).value == 1


VEHICLES = [  # two date columns, neither the vehicle's age: that is its year of build
    {"Fz.-Nr.": "FZ-1", "Kühlaggregat": "Carrier Supra 850", "Depot": "Linz", "Baujahr": 2016,
     "Datum letzte HU": "2024-05-14", "ATP gültig bis": "2027-05-31"},
    {"Fz.-Nr.": "FZ-2", "Kühlaggregat": "Thermo King T-1000R", "Depot": "Linz", "Baujahr": 2021,
     "Datum letzte HU": "2023-02-16", "ATP gültig bis": "2026-03-31"},
    {"Fz.-Nr.": "FZ-3", "Kühlaggregat": "Thermo King T-1200R", "Depot": "Innsbruck", "Baujahr": 2014,
     "Datum letzte HU": "2024-09-22", "ATP gültig bis": "2025-11-30"},
    {"Fz.-Nr.": "FZ-4", "Kühlaggregat": "Frigoblock FK 13", "Depot": "Innsbruck", "Baujahr": 2019,
     "Datum letzte HU": "2025-01-30", "ATP gültig bis": "2028-01-31"},
]  # fmt: skip


@pytest.fixture
def fleet(tmp_path: Path) -> dict[str, Path]:
    return write_one_table(tmp_path / "f.sqlite", "fuhrpark/fahrzeugliste.xlsx", "fuhrpark", "Fahrzeuge", VEHICLES)


def test_the_oldest_vehicle_is_the_lowest_year_of_build(fleet: dict[str, Path]) -> None:
    # before: every vehicle listed ("Fahrzeug" did not name the sheet `Fahrzeuge` by the extreme) or no intent
    for question in ("Welches Fahrzeug ist das älteste?", "Which is the oldest vehicle in our fleet list?",
                     "Quel est le véhicule le plus ancien de notre flotte ?"):  # fmt: skip
        result = run(question, fleet)
        assert (result.intent.operation, result.intent.columns, result.value) == ("argmin", ("Baujahr",), ["FZ-3"])
        assert result.answer.endswith("Its Baujahr: 2014.")
    newest = run("What is the newest vehicle per depot?", fleet)  # before: a count of vehicles per depot
    assert newest.value == {"Innsbruck": ["FZ-4"], "Linz": ["FZ-2"]}


def test_two_parts_of_one_columns_cells_are_refused_not_one_dropped(fleet: dict[str, Path]) -> None:
    assert run("Wie viele Fahrzeuge haben ein Kühlaggregat von Carrier?", fleet).value == 1  # one part: contains
    question = "Wie viele Fahrzeuge haben ein Kühlaggregat von Thermo King und wie viele eines von Carrier?"
    parsed = parse(question, load_catalogue(fleet, None))
    assert parsed.intent is None  # before: 2, the Thermo King units alone
    assert "'Thermo', 'Carrier', two parts of the cells of 'Kühlaggregat'" in parsed.why


def test_a_year_in_a_columns_name_is_that_column_not_a_period(tmp_path: Path) -> None:
    volumes = [
        {"Lief.-Nr.": "S-1", "Einstufung": "A", "Jahresvolumen 2024 (CHF)": 1000.5, "Zertifikat bis": "2025-03-31"},
        {"Lief.-Nr.": "S-2", "Einstufung": "B", "Jahresvolumen 2024 (CHF)": 400.0, "Zertifikat bis": "2026-01-31"},
        {"Lief.-Nr.": "S-3", "Einstufung": "A", "Jahresvolumen 2024 (CHF)": 99.5, "Zertifikat bis": "2025-09-30"},
    ]
    sheet = write_one_table(tmp_path / "v.sqlite", "einkauf/lieferanten.csv", "einkauf", "Lieferanten", volumes)
    # before: refused, "names 2024, but the table covers only 2025, 2026" (the certificate dates' years)
    result = run("Wie hoch war das Jahresvolumen 2024 aller A-Lieferanten zusammen?", sheet)
    assert (result.intent.operation, result.value) == ("sum", 1100)


def test_a_class_letter_between_an_article_and_its_noun_is_the_class(sidecars: dict[str, Path]) -> None:
    result = run("How many of the A suppliers deliver to Erfurt?", sidecars)  # before: all 3 of Erfurt's
    assert {(f.column, f.value) for f in result.intent.filters} == {("Einstufung", "A"), ("Beliefert Werke", "Erfurt")}
    assert result.value == 2
    # "A" that opens a question is an article, not a class
    assert all(
        f.column != "Einstufung" for f in run("A question: how many suppliers are in Germany?", sidecars).intent.filters
    )
