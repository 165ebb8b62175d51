"""The SQLite sidecar: one row of metadata per document and spreadsheet rows as fact tables."""

from __future__ import annotations

import json
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import polars as pl

SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    doc_id TEXT PRIMARY KEY,
    source_set TEXT NOT NULL,
    project TEXT,
    extension TEXT,
    sha256 TEXT,
    size_bytes INTEGER,
    status TEXT,
    error_code TEXT,
    decision TEXT,
    rule TEXT,
    title TEXT,
    category TEXT,
    tags TEXT,          -- JSON list
    summary TEXT,
    language TEXT,
    enriched_by TEXT,
    groups TEXT,        -- JSON list: the document's access groups
    access_rule TEXT    -- the access rule that gave them
);
CREATE TABLE IF NOT EXISTS fact_tables (
    table_name TEXT PRIMARY KEY,
    doc_id TEXT NOT NULL,
    sheet TEXT NOT NULL,
    columns TEXT NOT NULL,  -- JSON list
    row_count INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS redaction_audit (
    doc_id TEXT NOT NULL,
    entity TEXT NOT NULL,
    start INTEGER NOT NULL,
    length INTEGER NOT NULL,
    detector TEXT NOT NULL,
    score REAL NOT NULL,
    decision TEXT NOT NULL,
    placeholder TEXT
);
CREATE INDEX IF NOT EXISTS redaction_audit_doc ON redaction_audit (doc_id);
CREATE TABLE IF NOT EXISTS injection_findings (  -- one row per finding of a flagged chunk
    doc_id TEXT NOT NULL,
    chunk_id TEXT NOT NULL,
    risk REAL NOT NULL,
    action TEXT NOT NULL,   -- flag | quarantine
    family TEXT NOT NULL,
    pattern TEXT NOT NULL,
    encoder TEXT NOT NULL,
    weight REAL NOT NULL,
    span TEXT NOT NULL      -- the matched text as read (folded, decoded)
);
CREATE INDEX IF NOT EXISTS injection_findings_doc ON injection_findings (doc_id);
"""


# Columns added after the first schema: a sidecar written before them gains them on connect.
ADDED_COLUMNS = {"documents": ("groups TEXT", "access_rule TEXT")}


def connect(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=60)
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA journal_mode=WAL")
    db.executescript(SCHEMA)
    for table, columns in ADDED_COLUMNS.items():
        present = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        for column in columns:
            if column.split()[0] not in present:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {column}")
    return db


def table_name(doc_id: str, sheet: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "_", f"{doc_id}_{sheet}".lower()).strip("_")
    return f"facts_{slug}"[:120]


def write_documents(db: sqlite3.Connection, rows: list[dict]) -> None:
    columns = [
        "doc_id", "source_set", "project", "extension", "sha256", "size_bytes", "status", "error_code",
        "decision", "rule", "title", "category", "tags", "summary", "language", "enriched_by",
        "groups", "access_rule",
    ]  # fmt: skip
    lists = ("tags", "groups")
    with db:
        db.execute("DELETE FROM documents")
        db.executemany(
            f"INSERT INTO documents ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
            [[json.dumps(list(r.get(c) or [])) if c in lists else r.get(c) for c in columns] for r in rows],
        )


def write_fact_tables(db: sqlite3.Connection, doc_id: str, tables_json: str) -> list[str]:
    """Create one typed SQLite table per sheet of a spreadsheet document."""
    names = []
    for sheet, rows in json.loads(tables_json).items():
        frame = pl.DataFrame(rows, infer_schema_length=None) if rows else pl.DataFrame()
        name = table_name(doc_id, sheet)
        frame = frame.rename(dict(zip(frame.columns, sql_column_names(frame.columns), strict=True)))
        cols = frame.columns
        sql_types = {c: _sql_type(frame.schema[c]) for c in cols}
        with db:
            db.execute(f'DROP TABLE IF EXISTS "{name}"')
            db.execute(
                f'CREATE TABLE "{name}" ({", ".join(f"{_quote(c)} {sql_types[c]}" for c in cols) or "empty INTEGER"})'
            )
            if cols:
                db.executemany(f'INSERT INTO "{name}" VALUES ({", ".join("?" * len(cols))})', frame.rows())
            db.execute(
                "INSERT OR REPLACE INTO fact_tables VALUES (?, ?, ?, ?, ?)",
                (name, doc_id, sheet, json.dumps(cols), frame.height),
            )
        names.append(name)
    return names


def write_injection_findings(db: sqlite3.Connection, chunks: pl.DataFrame) -> int:
    """The findings of every flagged or quarantined chunk (chunks asset: injection_* columns)."""
    if "injection_action" not in chunks.columns:
        return 0
    rows = [
        {"doc_id": c["doc_id"], "chunk_id": c["chunk_id"], "risk": c["injection_risk"], "action": c["injection_action"]}
        | {key: f[key] for key in ("family", "pattern", "encoder", "weight", "span")}
        for c in chunks.filter(pl.col("injection_action") != "none").iter_rows(named=True)
        for f in c["injection_findings"] or []
    ]
    with db:
        db.execute("DELETE FROM injection_findings")
        db.executemany(
            "INSERT INTO injection_findings VALUES "
            "(:doc_id, :chunk_id, :risk, :action, :family, :pattern, :encoder, :weight, :span)",
            rows,
        )
    return len(rows)


def write_audit(db: sqlite3.Connection, rows: list[dict]) -> None:
    with db:
        db.execute("DELETE FROM redaction_audit")
        db.executemany(
            "INSERT INTO redaction_audit VALUES "
            "(:doc_id, :entity, :start, :length, :detector, :score, :decision, :placeholder)",
            rows,
        )


def sql_column_names(columns: list[str]) -> list[str]:
    """SQLite column names ignore case: "Name" and "name" would collide, so later ones get a suffix."""
    seen: set[str] = set()
    unique = []
    for column in columns:
        candidate, n = column, 1
        while candidate.casefold() in seen:
            n += 1
            candidate = f"{column}_{n}"
        seen.add(candidate.casefold())
        unique.append(candidate)
    return unique


def _quote(column: str) -> str:
    return '"' + column.replace('"', '""') + '"'


def _sql_type(dtype: pl.DataType) -> str:
    if dtype.is_integer() or dtype == pl.Boolean:
        return "INTEGER"
    if dtype.is_float():
        return "REAL"
    return "TEXT"


def document(db: sqlite3.Connection, doc_id: str) -> dict | None:
    row = db.execute("SELECT * FROM documents WHERE doc_id = ?", (doc_id,)).fetchone()
    if row is None:
        return None
    found = dict(row)
    found["tags"] = json.loads(found["tags"] or "[]")
    found["groups"] = json.loads(found["groups"] or "[]")
    return found


def indexed_doc_ids(db: sqlite3.Connection) -> set[str]:
    """The documents whose chunks are in the index version: included and read without error."""
    return {row[0] for row in db.execute("SELECT doc_id FROM documents WHERE decision = 'include' AND status = 'ok'")}


def counts(db: sqlite3.Connection) -> dict[str, int]:
    return {
        "documents": db.execute("SELECT COUNT(*) FROM documents").fetchone()[0],
        "fact_tables": db.execute("SELECT COUNT(*) FROM fact_tables").fetchone()[0],
        "fact_rows": db.execute("SELECT COALESCE(SUM(row_count), 0) FROM fact_tables").fetchone()[0],
    }


def holds_document(path: Path, doc_id: str) -> bool:
    """Whether the sidecar at `path` has a row for `doc_id`."""
    with closing(sqlite3.connect(path)) as db:
        return db.execute("SELECT 1 FROM documents WHERE doc_id = ?", (doc_id,)).fetchone() is not None


def copy_without_document(source: Path, target: Path, doc_id: str) -> tuple[int, int]:
    """Copy the sidecar with SQLite's backup API, then delete the document's rows and fact tables.
    Returns the document rows and audit rows deleted."""
    with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(target)) as dst:
        src.backup(dst)
        with dst:
            docs = dst.execute("DELETE FROM documents WHERE doc_id = ?", (doc_id,)).rowcount
            audit = dst.execute("DELETE FROM redaction_audit WHERE doc_id = ?", (doc_id,)).rowcount
            tables = [r[0] for r in dst.execute("SELECT table_name FROM fact_tables WHERE doc_id = ?", (doc_id,))]
            for table in tables:
                dst.execute(f'DROP TABLE IF EXISTS "{table}"')
            dst.execute("DELETE FROM fact_tables WHERE doc_id = ?", (doc_id,))
        dst.execute("VACUUM")  # deleted pages must not keep the text on disk
    return docs, audit
