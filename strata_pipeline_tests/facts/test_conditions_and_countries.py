"""A numeric condition the parser cannot place on a column is refused, never dropped (dropping it counts
every row); units and cost verbs name the column; country names in en/de/fr come from ISO 3166 data."""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path

import pytest

from strata_pipeline.enrichment.sidecar import connect, write_documents, write_fact_tables
from strata_pipeline.facts import load_catalogue, parse
from strata_pipeline.facts.countries import COUNTRIES
from strata_pipeline_tests.facts.sidecars import run

COURSES = [
    {"course_id": "C1", "title": "Excel", "duration_days": 2, "price_eur": 480, "country": "GB", "seats": 12},
    {"course_id": "C2", "title": "First Aid", "duration_days": 1, "price_eur": 150, "country": "IE", "seats": 8},
    {"course_id": "C3", "title": "Agile", "duration_days": 3, "price_eur": 720, "country": "CZ", "seats": 10},
    {"course_id": "C4", "title": "Safety", "duration_days": 1, "price_eur": 175, "country": "GB", "seats": 20},
]


@pytest.fixture(scope="module")
def sidecars(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    path = tmp_path_factory.mktemp("conditions") / "sidecar.sqlite"
    with closing(connect(path)) as db:
        write_documents(db, [{"doc_id": "courses.csv", "source_set": "learn", "project": "", "extension": ".csv",
                              "title": "courses", "category": "training", "language": "en", "groups": ["it"],
                              "decision": "include", "status": "ok"}])  # fmt: skip
        write_fact_tables(db, "courses.csv", json.dumps({"courses": COURSES}))
    return {"learn": path}


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("How many courses last more than one day?", 2),  # "day" is the unit duration_days ends with
        ("Wie viele Kurse dauern mehr als 2 Tage?", 1),
        ("How many courses cost more than 400?", 2),  # "cost": the price column
        ("How many courses are held in Great Britain?", 2),  # an everyday name for GB
        ("How many courses are held in Irland?", 1),  # German, from ISO 3166's translations
        ("Combien de cours en Tchéquie ?", 1),  # French
    ],
)
def test_conditions_units_and_country_names_give_exact_values(
    question: str, value: object, sidecars: dict[str, Path]
) -> None:
    result = run(question, sidecars, frozenset({"it"}))
    assert result.value == value, result.intent.describe()


def test_a_condition_on_no_column_is_refused_not_dropped(sidecars: dict[str, Path]) -> None:
    parsed = parse("How many courses have more than 3 trainers?", load_catalogue(sidecars, frozenset({"it"})))
    assert parsed.intent is None
    assert parsed.why == "compares with 'more than 3', but names no number column (duration_days, price_eur, seats)"


def test_country_names_cover_iso_names_in_three_languages() -> None:
    assert COUNTRIES["ireland"] == COUNTRIES["irland"] == COUNTRIES["irlande"] == "IE"
    assert COUNTRIES["united kingdom"] == COUNTRIES["royaume-uni"] == COUNTRIES["great britain"] == "GB"
    assert COUNTRIES["deutschland"] == "DE" and COUNTRIES["allemagne"] == "DE"
