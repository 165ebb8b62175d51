"""The sidecar filter: which rows of a version's SQLite sidecar a caller may read.

Plain sqlite3 (no polars), so the query path pays nothing for it. Documents carry their groups as a
JSON list (`documents.groups`); anything else in the sidecar (audit rows, fact tables) belongs to a
document and is read only through `visible_doc_ids`.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path


def open_sidecar(path: Path) -> sqlite3.Connection:
    """A read-only connection: queries never write to a published version."""
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=60)
    db.row_factory = sqlite3.Row
    return db


def visible_clause(groups: frozenset[str] | None, table: str = "documents") -> tuple[str, list[str]]:
    """The SQL condition (and its parameters) that keeps rows of `table` whose document shares a group
    with `groups`; None is the operator, who reads every row."""
    if groups is None:
        return "1", []
    marks = ", ".join("?" * len(groups))
    return f"EXISTS (SELECT 1 FROM json_each({table}.groups) WHERE json_each.value IN ({marks}))", sorted(groups)


def visible_doc_ids(db: sqlite3.Connection, groups: frozenset[str] | None, doc_id: str | None = None) -> set[str]:
    """The documents (or just `doc_id`, when it is one of them) that a caller in `groups` may read.
    A sidecar written before documents had groups shows a restricted caller nothing (fail closed)."""
    clause, params = visible_clause(groups)
    if doc_id is not None:
        clause, params = f"doc_id = ? AND {clause}", [doc_id, *params]
    try:
        return {row[0] for row in db.execute(f"SELECT doc_id FROM documents WHERE {clause}", params)}
    except sqlite3.OperationalError as exc:
        if groups is not None and "no such column" in str(exc):
            return set()
        raise


def groups_by_doc(db: sqlite3.Connection) -> dict[str, tuple[str, ...]]:
    """Every document's groups (empty for a sidecar written before documents had groups)."""
    try:
        rows = db.execute("SELECT doc_id, groups FROM documents").fetchall()
    except sqlite3.OperationalError as exc:
        if "no such column" not in str(exc):
            raise
        return {row[0]: () for row in db.execute("SELECT doc_id FROM documents")}
    return {doc_id: tuple(json.loads(groups or "[]")) for doc_id, groups in rows}


def audit_rows(db: sqlite3.Connection, doc_id: str) -> list[dict]:
    """The redaction decisions recorded for `doc_id`, in document order (masked: offsets and types)."""
    rows = db.execute("SELECT * FROM redaction_audit WHERE doc_id = ? ORDER BY start", (doc_id,))
    return [dict(r) for r in rows]
