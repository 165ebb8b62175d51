"""A minimum or maximum names the row that holds it by its key and, when the table has one, by its label:
"ADH-9 (Knee arthroscopy)", since a code alone does not say what costs most."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata_pipeline.facts import execute, load_catalogue, parse
from strata_pipeline_tests.facts.sidecars import write_one_table

PUBLIC = frozenset({"public"})
TREATMENTS = [
    {"code": "TR-1", "treatment": "Eye test for adults", "clinic": "North", "price_gbp": 40},
    {"code": "TR-2", "treatment": "Knee arthroscopy day case", "clinic": "North", "price_gbp": 3200},
    {"code": "TR-3", "treatment": "Dental check-up and clean", "clinic": "South", "price_gbp": 65},
    {"code": "TR-4", "treatment": "Blood test full count", "clinic": "South", "price_gbp": 30},
]
LOANS = [  # no label column: "status" repeats, "due" is a date
    {"loan_id": "L-1", "status": "open", "due": "2026-01-10", "amount_eur": 120},
    {"loan_id": "L-2", "status": "open", "due": "2026-02-11", "amount_eur": 900},
    {"loan_id": "L-3", "status": "closed", "due": "2026-03-12", "amount_eur": 300},
]


def answer(sidecars: dict[str, Path], question: str) -> str:
    catalogue = load_catalogue(sidecars, PUBLIC)
    parsed = parse(question, catalogue)
    assert parsed.intent is not None, parsed
    return execute(parsed.intent, catalogue, sidecars, PUBLIC).answer


@pytest.fixture(scope="module")
def treatments(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    path = tmp_path_factory.mktemp("labels") / "sidecar.sqlite"
    return write_one_table(path, "billing/treatments.csv", "clinic", "treatment prices", TREATMENTS)


@pytest.fixture(scope="module")
def loans(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    path = tmp_path_factory.mktemp("loans") / "sidecar.sqlite"
    return write_one_table(path, "finance/loans.csv", "finance", "loans", LOANS)


def test_the_most_expensive_row_is_named_by_its_key_and_its_label(treatments: dict[str, Path]) -> None:
    text = answer(treatments, "What is the most expensive treatment on the treatment prices list?")
    assert text.endswith("Held by TR-2 (Knee arthroscopy day case).")
    assert answer(treatments, "What is the cheapest treatment price?").endswith("Held by TR-4 (Blood test full count).")


def test_a_table_without_a_label_column_names_the_key_alone(loans: dict[str, Path]) -> None:
    assert answer(loans, "What is the largest loan amount?").endswith("Held by L-2.")
