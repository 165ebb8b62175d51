"""How a question names a sheet, a column or a total the way its writers do: a country for the code in a sheet's
name ("des Österreich-Tarifs": `Tarif AT`), a singular for a plural sheet ("Welche Temperaturabweichung"), a
column of places by its place ("im Werk Leipzig", where no such column is), and "wie hoch ist der X aller Y"."""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path

import pytest

from strata_pipeline.enrichment.sidecar import connect, write_documents, write_fact_tables
from strata_pipeline.facts import load_catalogue, parse
from strata_pipeline_tests.facts.sidecars import _doc, run, write_one_table

TARIFFS = {
    "Tarif AT": [{"Zone": "A1", "1 Pal. (EUR)": 150}, {"Zone": "A2", "1 Pal. (EUR)": 210},
                 {"Zone": "A3", "1 Pal. (EUR)": 260}],
    "Tarif CH": [{"Zone": "C1", "1 Pal. (EUR)": 205}, {"Zone": "C2", "1 Pal. (EUR)": 230}],
}  # fmt: skip


@pytest.fixture
def tariffs(tmp_path: Path) -> dict[str, Path]:
    path = tmp_path / "t.sqlite"
    with closing(connect(path)) as db:
        write_documents(db, [_doc("vertrieb/tarife.xlsx", ["public"], source_set="vertrieb")])
        write_fact_tables(db, "vertrieb/tarife.xlsx", json.dumps(TARIFFS))
    return {"vertrieb": path}


def test_a_country_names_the_sheet_its_code_names(tariffs: dict[str, Path]) -> None:
    result = run("In wie vielen Zonen des Österreich-Tarifs kostet eine Palette mehr als 200 Euro?", tariffs)
    assert result.intent.table.endswith("tarif_at") and result.value == 2
    swiss = run("Wie viele Zonen des Schweiz-Tarifs kosten für 1 Pal. mehr als 220 Euro?", tariffs)
    assert swiss.intent.table.endswith("tarif_ch") and swiss.value == 1


DEVIATIONS = [
    {"Nr.": "TA-1", "Depot": "Linz", "Dauer (min)": 25, "Massnahme": "Tor geschlossen"},
    {"Nr.": "TA-2", "Depot": "Linz", "Dauer (min)": 140, "Massnahme": "Kältemittelleck repariert"},
    {"Nr.": "TA-3", "Depot": "Innsbruck", "Dauer (min)": 35, "Massnahme": "Abtauung"},
]


def test_a_singular_names_a_sheet_named_in_the_plural(tmp_path: Path) -> None:
    sheet = write_one_table(
        tmp_path / "d.sqlite", "qualitaet/temperaturabweichungen.csv", "qualitaet", "Temperaturabweichungen", DEVIATIONS
    )
    # before: no table named ("Temperaturabweichung" is the sheet's word less its plural ending), so no intent
    result = run("Welche Temperaturabweichung hat am längsten gedauert, und wie lange?", sheet)
    assert (result.intent.operation, result.intent.columns, result.value) == ("max", ("Dauer (min)",), 140)
    assert "Held by TA-2" in result.answer


LIMITS = [
    {"Rolle": "Teamleiter", "Werk Augsburg": "5.000", "Werk Chemnitz": "2.500"},
    {"Rolle": "Abteilungsleiter", "Werk Augsburg": "25.000", "Werk Chemnitz": "15.000"},
]


def test_a_column_of_places_said_with_a_place_no_column_has_is_refused(tmp_path: Path) -> None:
    sheet = write_one_table(tmp_path / "l.sqlite", "einkauf/freigabegrenzen.xlsx", "einkauf", "Freigabegrenzen", LIMITS)
    assert run("Welche Freigabegrenze hat ein Abteilungsleiter im Werk Chemnitz?", sheet).value == ["15.000"]
    parsed = parse("Wie hoch ist die Freigabegrenze für Teamleiter im Werk Leipzig?", load_catalogue(sheet, None))
    assert parsed.intent is None and "names 'Werk Leipzig'" in parsed.why  # not Augsburg's 5.000


CONTRACTS = [
    {"Vertrags-Nr.": "V-1", "Depot": "Lausanne", "Status": "aktiv", "Jahreswert (CHF)": 400000},
    {"Vertrags-Nr.": "V-2", "Depot": "Lausanne, Linz", "Status": "aktiv", "Jahreswert (CHF)": 250000},
    {"Vertrags-Nr.": "V-3", "Depot": "Lausanne", "Status": "gekündigt", "Jahreswert (CHF)": 90000},
    {"Vertrags-Nr.": "V-4", "Depot": "Linz", "Status": "aktiv", "Jahreswert (CHF)": 120000},
]


def test_the_figure_of_all_the_rows_named_is_their_total(tmp_path: Path) -> None:
    sheet = write_one_table(tmp_path / "c.sqlite", "vertrieb/kundenvertraege.xlsx", "vertrieb", "Verträge", CONTRACTS)
    question = (
        "Wie hoch ist der Jahreswert aller aktiven Verträge, an denen das Depot Lausanne beteiligt ist – auch "
        "gemeinsam mit einem anderen Depot?"
    )
    result = run(question, sheet)  # before: refused ("anderen") or a list of contracts
    assert (result.intent.operation, result.value) == ("sum", 650000)
    english = run("What is the Jahreswert of all active contracts in Linz?", sheet)
    assert (english.intent.operation, english.value) == ("sum", 370000)
    # a figure per row ("each") stays a list
    each = run("What is the Jahreswert of each active contract in Linz?", sheet)
    assert each.intent.operation == "list"
