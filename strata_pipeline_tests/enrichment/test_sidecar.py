"""The SQLite sidecar: documents, typed fact tables and the redaction audit."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from strata_pipeline.enrichment.sidecar import (
    connect,
    counts,
    document,
    table_name,
    write_audit,
    write_documents,
    write_fact_tables,
)


@pytest.fixture
def db(tmp_path: Path) -> sqlite3.Connection:
    connection = connect(tmp_path / "nested" / "sidecar.sqlite")
    yield connection
    connection.close()


def doc_row(doc_id: str, **overrides) -> dict:
    row = {
        "doc_id": doc_id,
        "source_set": "handbook",
        "project": "hr",
        "extension": ".md",
        "sha256": "abc",
        "size_bytes": 120,
        "status": "ok",
        "error_code": None,
        "decision": "include",
        "rule": "default-include",
        "title": "Leave Policy",
        "category": "hr",
        "tags": ["leave", "vacation"],
        "summary": "Days off.",
        "language": "en",
        "enriched_by": "extractor",
        "text": "not stored",
    }
    row.update(overrides)
    return row


def test_documents_roundtrip(db: sqlite3.Connection) -> None:
    failed = doc_row(
        "hr/bad.pdf", status="error", error_code="corrupt_pdf", decision="exclude", rule="extraction-failed", tags=[]
    )
    write_documents(db, [doc_row("hr/leave.md"), failed])
    assert document(db, "hr/leave.md") == {
        "doc_id": "hr/leave.md",
        "source_set": "handbook",
        "project": "hr",
        "extension": ".md",
        "sha256": "abc",
        "size_bytes": 120,
        "status": "ok",
        "error_code": None,
        "decision": "include",
        "rule": "default-include",
        "title": "Leave Policy",
        "category": "hr",
        "tags": ["leave", "vacation"],
        "summary": "Days off.",
        "language": "en",
        "enriched_by": "extractor",
        "groups": [],
        "access_rule": None,
    }
    stored = document(db, "hr/bad.pdf")
    assert (stored["error_code"], stored["rule"], stored["tags"]) == ("corrupt_pdf", "extraction-failed", [])
    assert document(db, "missing.md") is None
    assert counts(db) == {"documents": 2, "fact_tables": 0, "fact_rows": 0}


def test_write_documents_replaces_the_previous_set(db: sqlite3.Connection) -> None:
    write_documents(db, [doc_row("a.md"), doc_row("b.md")])
    write_documents(db, [doc_row("c.md")])
    assert [r[0] for r in db.execute("SELECT doc_id FROM documents")] == ["c.md"]


TABLES = {
    "Stock": [
        {"sku": "RX-200", "qty": 5, "price": 1.5, "active": True},
        {"sku": "RX-300", "qty": None, "price": 2.25, "active": False},
    ],
    "Warehouses (EU)": [{"name": "North", "city": "Oslo"}],
}


def test_fact_tables_are_typed_and_registered(db: sqlite3.Connection) -> None:
    names = write_fact_tables(db, "sales/inventory.xlsx", json.dumps(TABLES))
    assert names == ["facts_sales_inventory_xlsx_stock", "facts_sales_inventory_xlsx_warehouses_eu"]
    columns = {row["name"]: row["type"] for row in db.execute(f'PRAGMA table_info("{names[0]}")')}
    assert columns == {"sku": "TEXT", "qty": "INTEGER", "price": "REAL", "active": "INTEGER"}
    assert [tuple(r) for r in db.execute(f'SELECT * FROM "{names[0]}"')] == [
        ("RX-200", 5, 1.5, 1),
        ("RX-300", None, 2.25, 0),
    ]
    assert db.execute(f'SELECT SUM(qty) FROM "{names[0]}"').fetchone()[0] == 5
    registry = [tuple(r) for r in db.execute("SELECT * FROM fact_tables ORDER BY table_name")]
    assert registry == [
        ("facts_sales_inventory_xlsx_stock", "sales/inventory.xlsx", "Stock", '["sku", "qty", "price", "active"]', 2),
        ("facts_sales_inventory_xlsx_warehouses_eu", "sales/inventory.xlsx", "Warehouses (EU)", '["name", "city"]', 1),
    ]
    assert counts(db) == {"documents": 0, "fact_tables": 2, "fact_rows": 3}


def test_rewriting_a_fact_table_replaces_it(db: sqlite3.Connection) -> None:
    write_fact_tables(db, "prices.csv", json.dumps({"prices": [{"a": 1}, {"a": 2}]}))
    write_fact_tables(db, "prices.csv", json.dumps({"prices": [{"a": "x"}]}))
    assert [tuple(r) for r in db.execute("SELECT * FROM facts_prices_csv_prices")] == [("x",)]
    assert counts(db) == {"documents": 0, "fact_tables": 1, "fact_rows": 1}


def test_empty_sheet_and_awkward_column_names(db: sqlite3.Connection) -> None:
    tables = {"empty": [], "odd": [{'say "hi"': "yes", "select": 1}]}
    assert write_fact_tables(db, "odd.csv", json.dumps(tables)) == ["facts_odd_csv_empty", "facts_odd_csv_odd"]
    assert db.execute("SELECT COUNT(*) FROM facts_odd_csv_empty").fetchone()[0] == 0
    assert [tuple(r) for r in db.execute("SELECT * FROM facts_odd_csv_odd")] == [("yes", 1)]
    assert counts(db)["fact_rows"] == 1


def test_columns_differing_only_in_case(db: sqlite3.Connection) -> None:
    # Polars (and the CSV/XLSX extractors) keep "Name" and "name" apart; SQLite column names are
    # case-insensitive, so CREATE TABLE fails with "duplicate column name" and the sidecar asset
    # fails for the whole source-set.
    tables = {"people": [{"Name": "A", "name": "a", "qty": 1}]}
    write_fact_tables(db, "people.csv", json.dumps(tables))
    assert counts(db) == {"documents": 0, "fact_tables": 1, "fact_rows": 1}


def test_table_name_slug() -> None:
    assert table_name("sales/Inventory 2025.xlsx", "Stock") == "facts_sales_inventory_2025_xlsx_stock"
    assert len(table_name("a/" + "x" * 300 + ".csv", "s")) == 120


def test_audit_rows(db: sqlite3.Connection) -> None:
    entry = {"doc_id": "hr/p.txt", "entity": "PERSON", "start": 3, "length": 11, "detector": "presidio-ner",
             "score": 0.85, "decision": "redact", "placeholder": "[PERSON_1]"}  # fmt: skip
    write_audit(db, [entry, {**entry, "start": 40, "decision": "keep_role_contact", "placeholder": ""}])
    write_audit(db, [entry])  # replaces
    assert [dict(r) for r in db.execute("SELECT * FROM redaction_audit")] == [entry]
