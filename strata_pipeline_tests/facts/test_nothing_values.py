"""A text column said to be absent ("items that need no approval", "codes that need no customer action") keeps
the rows whose cell says "nothing" ("none", "none; renewed remotely", "keine"), as a number column said to be
absent keeps its zeros."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata_pipeline_tests.facts.sidecars import run, write_one_table

HARDWARE = [
    {"item_id": "HW-101", "price_eur_net": 1450, "approval_required": "department head"},
    {"item_id": "HW-120", "price_eur_net": 235, "approval_required": "none"},
    {"item_id": "HW-130", "price_eur_net": 180, "approval_required": "none"},
    {"item_id": "HW-140", "price_eur_net": 2900, "approval_required": "cost centre owner"},
]
CODES = [
    {"code": "F-12", "meaning": "no mobile signal", "customer_action": "none; the utility is informed automatically"},
    {"code": "F-31", "meaning": "valve closed", "customer_action": "call the fault service"},
    {"code": "W-31", "meaning": "battery low", "customer_action": "none; the meter is exchanged within 3 months"},
    {"code": "W-40", "meaning": "leak suspected", "customer_action": "run a tap for 5 minutes"},
]


@pytest.fixture
def hardware(tmp_path: Path) -> dict[str, Path]:
    return write_one_table(tmp_path / "h.sqlite", "it/hardware-catalogue.csv", "it", "hardware catalogue", HARDWARE)


@pytest.fixture
def codes(tmp_path: Path) -> dict[str, Path]:
    return write_one_table(tmp_path / "c.sqlite", "grid/meter-display-codes.csv", "grid", "meter display codes", CODES)


def test_no_approval_keeps_the_rows_that_need_none(hardware: dict[str, Path]) -> None:
    # named by the column's first word: "approval" for approval_required
    question = "What is the total net price of all items in the hardware catalogue that need no approval?"
    assert run(question, hardware).value == 415


def test_no_customer_action_keeps_each_value_that_starts_with_none(codes: dict[str, Path]) -> None:
    assert sorted(run("Which meter display codes need no customer action?", codes).value) == ["F-12", "W-31"]


def test_a_column_whose_every_value_says_nothing_tells_no_rows_apart(tmp_path: Path) -> None:
    rows = [{"item_id": f"HW-{i}", "price_eur_net": 100, "approval_required": "none"} for i in range(3)]
    sidecar = write_one_table(tmp_path / "n.sqlite", "it/hardware-catalogue.csv", "it", "hardware catalogue", rows)
    question = "What is the total net price of all items in the hardware catalogue that need no approval?"
    result = run(question, sidecar)
    assert result.value == 300 and "approval_required" not in str(result.intent)
