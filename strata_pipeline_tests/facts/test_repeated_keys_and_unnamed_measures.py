"""Phrasings of the eleventh aggregation round (golden `*-agg-*` dev questions of 2026-12-06), on sheets
written here, through the real sidecar, parser, engine and router: a count of a first column whose values
repeat, a number column said to be absent, "every 12 months", a value named without its gloss in brackets,
a rate "per kWh" that is no grouping, a measure named by the sheet's own name, a plural list of a named
column that routes to the facts engine, and the last noun of a counted phrase that picks the sheet."""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path

import pytest

from strata_pipeline.enrichment.sidecar import connect, write_documents, write_fact_tables
from strata_pipeline.facts import load_catalogue, parse
from strata_pipeline.routing import route
from strata_pipeline_tests.facts.sidecars import _doc, run, write_one_table

FUEL = [  # one row per depot and product: the depots repeat
    {"depot": "Hamburg", "product": "diesel", "component": "base charge (tank size 2)", "price_eur": 12.5},
    {"depot": "Hamburg", "product": "diesel", "component": "litre price", "price_eur": 1.61},
    {"depot": "Porto", "product": "diesel", "component": "base charge (tank size 2)", "price_eur": 9.0},
    {"depot": "Porto", "product": "petrol", "component": "litre price", "price_eur": 1.79},
    {"depot": "Lyon", "product": "petrol", "component": "base charge (tank size 2)", "price_eur": 10.25},
]
TRADES = [
    {"trade_code": "T-1", "trade_name": "office work", "risk_class": "A", "hazard_surcharge_percent": 0},
    {"trade_code": "T-2", "trade_name": "bakery", "risk_class": "B", "hazard_surcharge_percent": 20},
    {"trade_code": "T-3", "trade_name": "design studio", "risk_class": "A", "hazard_surcharge_percent": 0},
    {"trade_code": "T-4", "trade_name": "foundry", "risk_class": "C", "hazard_surcharge_percent": 80},
]
CHECKS = [
    {"check": "Fire extinguisher service", "interval_months": 12, "done_by": "contractor"},
    {"check": "Ladder inspection", "interval_months": 6, "done_by": "site lead"},
    {"check": "Forklift inspection", "interval_months": 6, "done_by": "contractor"},
    {"check": "Electrical safety test", "interval_months": 24, "done_by": "electrician"},
]
SUBSIDY = [
    {"system_type": "rooftop", "size_band": "up to 10 kWp", "ct_per_kwh": 8.1},
    {"system_type": "rooftop", "size_band": "10 to 40 kWp", "ct_per_kwh": 7.05},
    {"system_type": "ground-mounted", "size_band": "up to 10 kWp", "ct_per_kwh": 6.2},
]
PRICE_LIST = [  # a unique first column (sku): a repeated later column (product) is no sign to count it
    {"sku": "A-1", "product": "arm", "list_price_usd": 900},
    {"sku": "A-2", "product": "arm", "list_price_usd": 150},
    {"sku": "B-1", "product": "base", "list_price_usd": 700},
]
SHEETS = {
    "fuel-prices": FUEL,
    "occupancy-rates": TRADES,
    "safety-checks": CHECKS,
    "solar-subsidy": SUBSIDY,
    "price-list": PRICE_LIST,
}


@pytest.fixture(scope="module")
def sidecars(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Path]]:
    root = tmp_path_factory.mktemp("round11")
    return {
        name: write_one_table(root / f"{name}.sqlite", f"sheets/{name}.csv", "ops", name, rows)
        for name, rows in SHEETS.items()
    }


@pytest.mark.parametrize(
    ("sheet", "question", "value"),
    [
        ("fuel-prices", "How many depots are listed in the fuel price table?", 3),  # not its 5 price rows
        ("fuel-prices", "How many fuel prices are there?", 5),  # the sheet's own rows
        ("fuel-prices", "How many depots sell petrol?", 2),
        ("price-list", "How many products cost more than 100 USD?", 3),  # SKU rows, not 2 product families
        ("occupancy-rates", "Which trade names have no hazard surcharge?", ["office work", "design studio"]),
        ("occupancy-rates", "How many trades have no hazard surcharge?", 2),
        ("safety-checks", "Which checks are repeated every 6 months?", ["Ladder inspection", "Forklift inspection"]),
        ("fuel-prices", "What is the total base charge across all depots?", 31.75),  # "base charge (tank size 2)"
        ("solar-subsidy", "What is the highest rate in cents per kWh?", 8.1),  # "per kWh" is no grouping
        ("solar-subsidy", "What is the lowest solar subsidy rate for rooftop systems?", 7.05),
    ],
)
def test_round_eleven_phrasings_give_the_exact_figure(
    sheet: str, question: str, value: object, sidecars: dict[str, dict[str, Path]]
) -> None:
    result = run(question, sidecars[sheet], frozenset({"public"}))
    assert result.value == pytest.approx(value) if isinstance(value, float) else result.value == value


def test_a_distinct_count_says_so_in_its_answer(sidecars: dict[str, dict[str, Path]]) -> None:
    result = run("How many depots are listed in the fuel price table?", sidecars["fuel-prices"], frozenset({"public"}))
    assert (result.value, result.row_count) == (3, 5)
    assert "count distinct depot of" in result.answer and "5 row(s) counted" in result.answer


def test_a_measure_the_sheet_does_not_name_stays_refused(sidecars: dict[str, dict[str, Path]]) -> None:
    # "installation time" is neither the sheet's name nor a value: its one number column measures something else
    catalogue = load_catalogue(sidecars["solar-subsidy"], frozenset({"public"}))
    parsed = parse("What is the average installation time for rooftop systems?", catalogue)
    assert parsed.intent is None
    assert "names no number column" in parsed.why


def test_a_glossed_value_is_matched_by_its_name_only_when_no_other_value_shares_it() -> None:
    from strata_pipeline.facts.cells import _heads

    heads = _heads(("base charge (tank size 2)", "fuel", "card (blue)", "card (red)", "x (y)"))
    assert heads == {"base charge (tank size 2)": "base charge"}  # "card" is two values; "x" too short


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which trade names have no hazard surcharge?", "aggregation"),  # plural, the column named in full
        ("Which trade names are in risk class A?", "aggregation"),
        ("Which trade name is in risk class C?", "semantic"),  # one row's fact: the passages state it
    ],
)
def test_a_plural_list_of_a_named_column_routes_to_the_facts(
    question: str, expected: str, sidecars: dict[str, dict[str, Path]]
) -> None:
    catalogue = load_catalogue(sidecars["occupancy-rates"], frozenset({"public"}))
    assert route(question, catalogue)[0].route == expected


FEES = [{"service": s, "fee_eur": f} for s, f in (("Passport", 70.0), ("ID card", 37.0), ("Parking permit", 30.0))]
SLA = [{"priority": p, "response_time": t} for p, t in (("P1", "15 minutes"), ("P2", "1 hour"))]


def test_a_count_names_its_rows_by_the_last_noun_of_its_phrase(tmp_path: Path) -> None:
    # "service" is a column of the fee schedule, but the phrase ends in "priorities": the SLA sheet's rows
    path = tmp_path / "two.sqlite"
    with closing(connect(path)) as db:
        write_documents(db, [_doc("office/fees.csv", ["public"]), _doc("it/servicedesk-sla.csv", ["public"])])
        write_fact_tables(db, "office/fees.csv", json.dumps({"fee-schedule": FEES}))
        write_fact_tables(db, "it/servicedesk-sla.csv", json.dumps({"servicedesk-sla": SLA}))
    assert run("How many service desk priorities are there?", {"ops": path}, frozenset({"public"})).value == 2
    assert run("How many services are in the fee schedule?", {"ops": path}, frozenset({"public"})).value == 3
