"""A small sidecar written by the real sidecar repository: three groups' spreadsheets; and a question
parsed and run over sidecars as the facts engine runs it."""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path

from strata_pipeline.enrichment.sidecar import connect, write_documents, write_fact_tables
from strata_pipeline.facts import FactResult, execute, load_catalogue, parse

EVERYONE = frozenset({"it", "sales", "public"})  # not hr

SERVERS = [
    {"hostname": "zrh-db-01", "site": "ZRH", "status": "active", "cores": 16},
    {"hostname": "zrh-app-01", "site": "ZRH", "status": "active", "cores": 8},
    {"hostname": "bsl-db-01", "site": "BSL", "status": "standby", "cores": 16},
    {"hostname": "bsl-app-01", "site": "BSL", "status": "active", "cores": 4},
    {"hostname": "lyo-fs-01", "site": "LYO", "status": "decommissioned", "cores": 2},
]
STOCK = [
    {"sku": "RX-1", "warehouse": "PDX", "on_hand": 40},
    {"sku": "RX-2", "warehouse": "PDX", "on_hand": 10},
    {"sku": "RX-1", "warehouse": "MUC", "on_hand": 5},
    {"sku": "RX-3", "warehouse": "MUC", "on_hand": 7},
]
PRICES = [{"sku": "RX-1", "price_usd": 100}, {"sku": "RX-3", "price_usd": 250}, {"sku": "RX-9", "price_usd": 75}]
SALARIES = [  # the hr group's secret sheet: never visible to others
    {"employee": "Quentin Marlow", "band": "B7", "salary_eur": 91000},
    {"employee": "Ilse Varga", "band": "B5", "salary_eur": 64000},
]


def _doc(doc_id: str, groups: list[str], **extra: object) -> dict:
    return {"doc_id": doc_id, "source_set": "ops", "project": doc_id.split("/")[0], "extension": ".csv",
            "title": doc_id, "category": doc_id.split("/")[0], "language": "en", "groups": groups,
            "decision": "include", "status": "ok"} | extra  # fmt: skip


def write_one_table(path: Path, doc_id: str, source_set: str, table: str, rows: list[dict]) -> dict[str, Path]:
    """A sidecar of one public spreadsheet, `doc_id`, whose table `table` holds `rows`: {source_set: path}."""
    with closing(connect(path)) as db:
        write_documents(db, [_doc(doc_id, ["public"], source_set=source_set, title=table)])
        write_fact_tables(db, doc_id, json.dumps({table: rows}))
    return {source_set: path}


def write_sidecar(path: Path) -> Path:
    with closing(connect(path)) as db:
        write_documents(
            db,
            [
                _doc("inventory/servers.csv", ["it"]),
                _doc("sales/stock.csv", ["sales"]),
                _doc("sales/prices.csv", ["sales"]),
                _doc("hr/salaries.csv", ["hr"]),
                _doc("notes/readme.md", ["public"], extension=".md", language="de"),
                _doc("notes/broken.md", ["public"], extension=".md", language="de", status="error"),  # not indexed
            ],
        )
        write_fact_tables(db, "inventory/servers.csv", json.dumps({"servers": SERVERS}))
        write_fact_tables(db, "sales/stock.csv", json.dumps({"stock": STOCK}))
        write_fact_tables(db, "sales/prices.csv", json.dumps({"prices": PRICES}))
        write_fact_tables(db, "hr/salaries.csv", json.dumps({"salaries": SALARIES}))
    return path


def run(question: str, sidecars: dict[str, Path], groups: frozenset[str] | None = EVERYONE) -> FactResult:
    """The question parsed (it must parse) and executed as `groups` reads the sidecars."""
    catalogue = load_catalogue(sidecars, groups)
    parsed = parse(question, catalogue)
    assert parsed.intent is not None, parsed
    return execute(parsed.intent, catalogue, sidecars, groups)
