"""Words of a table's own name ("price list") do not name a column ("list_price_usd") ahead of a column the
question names as fully: "which item on our price list has the longest delivery lead time" asks for the
lead time."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata_pipeline.facts import load_catalogue, parse
from strata_pipeline_tests.facts.sidecars import write_one_table

ITEMS = [
    {"sku": "ARM", "description": "robot arm", "list_price_usd": 38500, "lead_time_weeks": 6},
    {"sku": "AMR", "description": "mobile robot", "list_price_usd": 54000, "lead_time_weeks": 8},
    {"sku": "CABLE", "description": "pendant cable", "list_price_usd": 420, "lead_time_weeks": 1},
]


@pytest.fixture(scope="module")
def sidecars(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    path = tmp_path_factory.mktemp("labels") / "sidecar.sqlite"
    return write_one_table(path, "sales/price-list.csv", "products", "price list", ITEMS)


def test_the_tables_name_does_not_pick_the_measured_column(sidecars: dict[str, Path]) -> None:
    catalogue = load_catalogue(sidecars, frozenset({"public"}))
    longest = parse("Which item on our price list has the longest delivery lead time?", catalogue).intent
    assert longest is not None and longest.operation == "max" and longest.columns == ("lead_time_weeks",)
    dearest = parse("What is the highest list price on the price list?", catalogue).intent
    assert dearest is not None and dearest.operation == "max" and dearest.columns == ("list_price_usd",)
