"""French elisions and a file said by its name: "la note moyenne des contrôles d'hygiène du dépôt de Lausanne"
reads the hygiene checks' file (`controles-hygiene-lausanne-2025.csv`), whose name says Lausanne, and not a
sheet that only holds Depot = Lausanne."""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path

import pytest

from strata_pipeline.enrichment.sidecar import connect, write_documents, write_fact_tables
from strata_pipeline.facts import load_catalogue, parse
from strata_pipeline.facts.wording import words
from strata_pipeline_tests.facts.sidecars import _doc, run

CHECKS = [
    {"N°": "HY-1", "Date": "09.01.2025", "Zone contrôlée": "LS-CF1", "Note (/100)": 80},
    {"N°": "HY-2", "Date": "06.02.2025", "Zone contrôlée": "LS-CF2", "Note (/100)": 90},
    {"N°": "HY-3", "Date": "12.12.2024", "Zone contrôlée": "LS-CF1", "Note (/100)": 50},
]
VEHICLES = [  # a second sheet that holds the place as a value, with a number column of its own
    {"Fz.-Nr.": "FZ-401", "Depot": "Lausanne", "Nutzlast (kg)": 900},
    {"Fz.-Nr.": "FZ-101", "Depot": "Linz", "Nutzlast (kg)": 1200},
]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    path = tmp_path / "s.sqlite"
    checks, fleet = "qualitaet/controles-hygiene-lausanne-2025.csv", "fuhrpark/fahrzeugliste-2025.xlsx"
    with closing(connect(path)) as db:
        write_documents(db, [_doc(checks, ["public"], source_set="af"), _doc(fleet, ["public"], source_set="af")])
        write_fact_tables(db, checks, json.dumps({"controles-hygiene-lausanne-2025": CHECKS}))
        write_fact_tables(db, fleet, json.dumps({"Fahrzeuge": VEHICLES}))
    return {"af": path}


def test_an_elided_article_is_no_part_of_the_word() -> None:
    assert words("la note des contrôles d'hygiène et l'entrepôt") == [
        "la", "note", "des", "contrôles", "hygiène", "et", "entrepôt",
    ]  # fmt: skip
    assert words("don't o'clock") == ["don't", "o'clock"]  # an English word keeps its apostrophe


def test_a_file_said_in_full_wins_over_a_sheet_holding_a_named_value(files: dict[str, Path]) -> None:
    result = run("Quelle est la note moyenne des contrôles d'hygiène du dépôt de Lausanne en 2025 ?", files)
    assert result.intent.table.endswith("controles_hygiene_lausanne_2025")
    assert result.intent.columns == ("Note (/100)",)
    assert result.value == pytest.approx(85.0)  # the 2025 checks only: 80 and 90


def test_a_sheet_not_said_by_name_still_reads_the_value(files: dict[str, Path]) -> None:
    result = run("Wie viel Nutzlast haben die Fahrzeuge im Depot Lausanne zusammen?", files)
    assert result.intent.table.endswith("fahrzeuge") and result.value == 900


def test_the_place_alone_does_not_name_the_file(files: dict[str, Path]) -> None:
    # only the last word of the file's name: no sheet is said in full, so the value's sheet keeps its points
    parsed = parse("Wie viele Fahrzeuge hat das Depot Lausanne?", load_catalogue(files, None))
    assert parsed.intent is not None and parsed.intent.table.endswith("fahrzeuge")
