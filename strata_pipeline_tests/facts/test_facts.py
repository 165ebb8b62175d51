"""Parser, validation and execution over a real sidecar; a second group's rows never show."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata_pipeline.facts import Intent, IntentRefused, execute, load_catalogue, parse
from strata_pipeline.facts.intent import Filter
from strata_pipeline_tests.facts.sidecars import EVERYONE, run, write_sidecar


@pytest.fixture(scope="module")
def sidecars(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return {"ops": write_sidecar(tmp_path_factory.mktemp("facts") / "sidecar.sqlite")}


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("How many servers are in ZRH?", 2),
        ("Wie viele Server sind in BSL?", 2),
        ("Combien de SKUs sont dans l'entrepôt PDX ?", 2),
        ("How many servers are there per site?", {"BSL": 2, "LYO": 1, "ZRH": 2}),
        ("What is the total on hand stock per warehouse?", {"MUC": 12, "PDX": 50}),
        ("What is the total on hand stock in PDX?", 50),
        ("What is the average price in the prices sheet?", 141.6667),
        ("Which SKUs are in both PDX and MUC?", ["RX-1"]),
        ("Which servers in BSL are standby?", ["bsl-db-01"]),
        ("How many servers have more than 4 cores?", 3),
        ("What is the largest number of cores of the servers in ZRH?", 16),
        ("Which SKUs appear in both the stock and the prices?", ["RX-1", "RX-3"]),
    ],
)
def test_questions_give_exact_values(question: str, value: object, sidecars: dict[str, Path]) -> None:
    result = run(question, sidecars)
    assert result.value == value
    assert not result.abstained


def test_rows_are_cited_with_sheet_row_and_csv_line(sidecars: dict[str, Path]) -> None:
    result = run("How many servers are in BSL?", sidecars)
    assert [(r.doc_id, r.sheet, r.row, r.line) for r in result.rows] == [
        ("inventory/servers.csv", "servers", 3, "bsl-db-01,BSL,standby,16"),
        ("inventory/servers.csv", "servers", 4, "bsl-app-01,BSL,active,4"),
    ]
    assert "2" in result.answer and "site = BSL" in result.answer and result.row_count == 2


def test_zero_rows_abstain(sidecars: dict[str, Path]) -> None:
    catalogue = load_catalogue(sidecars, EVERYONE)
    table = next(t.name for t in catalogue.tables if t.sheet == "servers")
    result = execute(Intent("count", table, filters=(Filter("site", "eq", "NYC"),)), catalogue, sidecars, EVERYONE)
    assert result.abstain_code == "zero_rows" and result.rows == [] and "No rows match" in result.answer


@pytest.mark.parametrize(
    ("intent", "message"),
    [
        ({"operation": "count", "table": "servers_x"}, "No table 'servers_x'"),
        ({"operation": "sum", "table": "{servers}", "columns": ["site"]}, "it holds text"),
        ({"operation": "count", "table": "{servers}", "filters": [{"column": "rack", "value": "1"}]}, "hostname"),
        ({"operation": "count", "table": "{servers}", "filters": [{"column": "cores", "op": "gt", "value": "x"}]},
         "not one"),
        ({"operation": "median", "table": "{servers}"}, "Unknown operation"),
        ({"operation": "intersect", "table": "{servers}", "columns": ["hostname"]}, "second table"),
        ({"table": "{servers}"}, "needs 'operation'"),
    ],
)  # fmt: skip
def test_bad_intents_are_refused_with_the_existing_columns(intent: dict, message: str, sidecars) -> None:
    catalogue = load_catalogue(sidecars, EVERYONE)
    servers = next(t.name for t in catalogue.tables if t.sheet == "servers")
    intent = {**intent, "table": str(intent.get("table", "")).replace("{servers}", servers)}
    with pytest.raises(IntentRefused, match=message) as refused:
        execute(Intent.from_dict(intent), catalogue, sidecars, EVERYONE)
    assert "salar" not in str(refused.value)  # the hr table is not the caller's


def test_documents_facets_are_a_table(sidecars: dict[str, Path]) -> None:
    assert run("How many documents are in German?", sidecars).value == 1
    assert run("How many documents are there per extension?", sidecars).value == {".csv": 3, ".md": 1}


def test_another_groups_facts_never_appear(sidecars: dict[str, Path]) -> None:
    """A caller in `sales` sees the sales sheets only: not in the catalogue, values, rows or refusals."""
    sales = frozenset({"sales", "public"})
    catalogue = load_catalogue(sidecars, sales)
    assert {t.sheet for t in catalogue.tables} == {"documents", "stock", "prices"}
    listed = str(catalogue.to_dict()) + catalogue.describe()
    assert "salar" not in listed and "servers" not in listed and "hr/" not in listed
    assert run("How many documents are there per extension?", sidecars, sales).value == {".csv": 2, ".md": 1}
    operator = load_catalogue(sidecars, None)
    secret = next(t.name for t in operator.tables if t.sheet == "salaries")
    with pytest.raises(IntentRefused) as refused:
        execute(Intent("sum", secret, columns=("salary_eur",)), catalogue, sidecars, sales)
    assert "salar" not in str(refused.value).replace(secret, "") and "Marlow" not in str(refused.value)
    assert parse("What is the total salary of band B7?", catalogue).intent is None or "salar" not in str(
        parse("What is the total salary of band B7?", catalogue).intent
    )
    # the operator (every group) reads it, so the sheet really is there
    assert execute(Intent("sum", secret, columns=("salary_eur",)), operator, sidecars, None).value == 155000
