"""Rows picked through another sheet (a semi-join, `Intent.through`): "Which articles do we buy from Moorland
Gemüse?" names a supplier of the supplier list, and the article master knows suppliers only by number."""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path

import pytest

from strata_pipeline.enrichment.sidecar import connect, write_documents, write_fact_tables
from strata_pipeline.facts import IntentRefused, execute, load_catalogue, parse
from strata_pipeline.facts.intent import Filter, Intent
from strata_pipeline_tests.facts.sidecars import _doc, run

SUPPLIERS = [
    {"Lief.-Nr.": "S-11", "Firma": "Moorland Gemüse GmbH", "Land": "DE", "Einstufung": "A"},
    {"Lief.-Nr.": "S-12", "Firma": "Hafenfisch Nord AG", "Land": "DE", "Einstufung": "B"},
    {"Lief.-Nr.": "S-13", "Firma": "Fromagerie du Jura SA", "Land": "CH", "Einstufung": "A"},
    {"Lief.-Nr.": "S-14", "Firma": "Brotzeit Werner KG", "Land": "AT", "Einstufung": "C"},
]
ARTICLES = [
    {"Art.-Nr.": "A-1", "Bezeichnung": "Erbsen 2 kg", "Lief.-Nr.": "S-11", "Preis CHF": 9.5},
    {"Art.-Nr.": "A-2", "Bezeichnung": "Karotten 1 kg", "Lief.-Nr.": "S-11", "Preis CHF": 3.0},
    {"Art.-Nr.": "A-3", "Bezeichnung": "Kabeljau 5 kg", "Lief.-Nr.": "S-12", "Preis CHF": 61.0},
    {"Art.-Nr.": "A-4", "Bezeichnung": "Gruyère 1 kg", "Lief.-Nr.": "S-13", "Preis CHF": 24.0},
    {"Art.-Nr.": "A-5", "Bezeichnung": "Laugenbrezel TK", "Lief.-Nr.": "S-14", "Preis CHF": 12.0},
    {"Art.-Nr.": "A-6", "Bezeichnung": "Semmel TK", "Lief.-Nr.": "S-14", "Preis CHF": 8.0},
]
COST_CENTRES = [
    {"KST": "4100", "Bezeichnung": "Fräserei", "Bereich": "Produktion"},
    {"KST": "4200", "Bezeichnung": "Messraum", "Bereich": "Qualität"},
    {"KST": "4300", "Bezeichnung": "Prüffeld", "Bereich": "Qualität"},
]
MACHINES = [
    {"Inv.-Nr.": "M-1", "Maschine": "DMU 50", "KST": "4100"},
    {"Inv.-Nr.": "M-2", "Maschine": "Zeiss Contura", "KST": "4200"},
    {"Inv.-Nr.": "M-3", "Maschine": "Prüfstand 2", "KST": "4300"},
    {"Inv.-Nr.": "M-4", "Maschine": "Hermle C42", "KST": "4100"},
]
SHEETS = {
    "einkauf/lieferantenliste.csv": ({"Lieferantenliste": SUPPLIERS}, ["einkauf"]),
    "einkauf/artikelstamm.xlsx": ({"Artikel": ARTICLES}, ["public"]),
    "finanzen/kostenstellen.csv": ({"Kostenstellen": COST_CENTRES}, ["public"]),
    "facility/maschinenliste.xlsx": ({"Maschinenliste": MACHINES}, ["public"]),
}
BUYERS = frozenset({"public", "einkauf"})


@pytest.fixture
def sidecars(tmp_path: Path) -> dict[str, Path]:
    path = tmp_path / "werk.sqlite"
    with closing(connect(path)) as db:
        write_documents(db, [_doc(doc_id, groups, source_set="werk") for doc_id, (_, groups) in SHEETS.items()])
        for doc_id, (tables, _) in SHEETS.items():
            write_fact_tables(db, doc_id, json.dumps(tables))
    return {"werk": path}


def test_a_company_of_the_supplier_list_picks_the_articles_it_delivers(sidecars: dict[str, Path]) -> None:
    result = run("Which articles do we buy from Moorland Gemüse?", sidecars, BUYERS)
    assert result.intent.table.endswith("artikel") and result.intent.through.endswith("lieferantenliste")
    assert result.intent.through_filters == (Filter("Firma", "eq", "Moorland Gemüse GmbH"),)
    assert result.value == ["Erbsen 2 kg", "Karotten 1 kg"]
    # cited: the two articles counted, then the supplier row that picked them
    assert [(c.doc_id, c.row) for c in result.rows] == [
        ("einkauf/artikelstamm.xlsx", 1), ("einkauf/artikelstamm.xlsx", 2), ("einkauf/lieferantenliste.csv", 1),
    ]  # fmt: skip
    assert (
        "Lief.-Nr. is held by a row of lieferantenliste (einkauf/lieferantenliste.csv) where Firma = " in result.answer
    )


def test_a_country_named_for_its_code_counts_through_the_supplier_list(sidecars: dict[str, Path]) -> None:
    # "mit Sitz in Österreich" is blanked with the value: the rest is a plain count of articles
    result = run(
        "Wie viele Artikel im Artikelstamm beziehen wir von Lieferanten mit Sitz in Österreich?", sidecars, BUYERS
    )
    assert result.intent.through_filters == (Filter("Land", "eq", "AT"),)
    assert result.value == 2
    total = run("What is the total Preis CHF of articles from suppliers in Germany?", sidecars, BUYERS)
    assert (total.intent.operation, total.value) == ("sum", 73.5)


def test_a_cost_centres_area_picks_the_machines_booked_to_it(sidecars: dict[str, Path]) -> None:
    result = run(
        "How many machines in the machine list are booked to cost centres of the area Qualität?", sidecars, BUYERS
    )
    assert (result.intent.key, result.value) == ("KST", 2)


def test_the_sheet_that_holds_the_value_answers_itself(sidecars: dict[str, Path]) -> None:
    result = run("How many suppliers are based in Austria?", sidecars, BUYERS)
    assert result.intent.table.endswith("lieferantenliste") and not result.intent.through
    assert result.value == 1


def test_a_second_sheet_named_without_a_value_is_refused_not_dropped(sidecars: dict[str, Path]) -> None:
    # "Kostenstellen mit hohem Budget": the cost centre list is named, but nothing there says which rows
    parsed = parse("Wie viele Maschinen laufen auf Kostenstellen mit hohem Budget?", load_catalogue(sidecars, BUYERS))
    assert parsed.intent is None and parsed.why  # not a count of all four machines


def test_no_join_through_a_sheet_the_reader_may_not_see(sidecars: dict[str, Path]) -> None:
    public = frozenset({"public"})
    catalogue = load_catalogue(sidecars, public)
    parsed = parse("Which articles do we buy from Moorland Gemüse?", catalogue)
    assert parsed.intent is None or not parsed.intent.through  # the supplier list is not in this reader's catalogue
    intent = Intent.from_dict({
        "operation": "count", "table": "facts_einkauf_artikelstamm_xlsx_artikel", "key": "Lief.-Nr.",
        "through": "facts_einkauf_lieferantenliste_csv_lieferantenliste",
        "through_filters": [{"column": "Land", "value": "AT"}],
    })  # fmt: skip
    with pytest.raises(IntentRefused, match="No table 'facts_einkauf_lieferantenliste"):
        execute(intent, catalogue, sidecars, public)
    assert execute(intent, load_catalogue(sidecars, BUYERS), sidecars, BUYERS).value == 2


def test_a_semi_join_intent_is_checked_against_both_sheets(sidecars: dict[str, Path]) -> None:
    catalogue = load_catalogue(sidecars, BUYERS)
    base = {"operation": "count", "table": "facts_einkauf_artikelstamm_xlsx_artikel", "key": "Lief.-Nr.",
            "through": "facts_einkauf_lieferantenliste_csv_lieferantenliste"}  # fmt: skip
    with pytest.raises(IntentRefused, match="Unknown column 'Stadt'"):
        execute(Intent.from_dict(base | {"through_filters": [{"column": "Stadt", "value": "Wien"}]}), catalogue,
                sidecars, BUYERS)  # fmt: skip
    with pytest.raises(IntentRefused, match="not both"):
        execute(Intent.from_dict(base | {"absent_from": "facts_finanzen_kostenstellen_csv_kostenstellen"}),
                catalogue, sidecars, BUYERS)  # fmt: skip
    unjoined = {"operation": "count", "table": base["table"], "through_filters": [{"column": "Land", "value": "AT"}]}
    with pytest.raises(IntentRefused, match="belong to 'through'"):
        execute(Intent.from_dict(unjoined), catalogue, sidecars, BUYERS)
    # no row of the supplier list picked: nothing counted, said so
    empty = execute(Intent.from_dict(base | {"through_filters": [{"column": "Land", "value": "IT"}]}), catalogue,
                    sidecars, BUYERS)  # fmt: skip
    assert empty.abstain_code == "zero_rows"
