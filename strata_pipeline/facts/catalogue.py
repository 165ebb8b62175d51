"""What a caller may aggregate over: the fact tables and `documents` rows of the sidecars it can read.

The catalogue is the whitelist: an intent names only tables and columns listed here, and execution
reads only identifiers taken from here (the sidecar's own names, never text from a question). Tables
of documents outside the caller's groups are left out, so neither their names, their columns nor
their values reach a parser, a refusal message or an answer.
"""

from __future__ import annotations

import json
import re
import sqlite3
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

from strata_pipeline.access.sidecar import open_sidecar, visible_clause, visible_doc_ids
from strata_pipeline.facts.dates import is_day_date
from strata_pipeline.facts.list_cells import lists_values
from strata_pipeline.text.placeholders import PLACEHOLDER

DOCUMENTS = "documents"
# The `documents` columns an aggregation may use (never sha256, groups or audit fields).
DOCUMENT_COLUMNS = ("doc_id", "project", "extension", "title", "category", "language")
# Only documents in the index count: not excluded ones, not ones that failed to read.
INDEXED = "documents.decision = 'include' AND documents.status = 'ok'"
MAX_VALUES = 40  # distinct values kept per text column for matching; more reads as free text
MAX_VALUE_CHARS = 60
# Lower-case Latin letters, accented ones included: "Coût CHF" is ("coût", "chf"), not ("co", "t", "chf")
LETTERS = "a-zß\u00e0-\u00f6\u00f8-\u00ff\u0153"


# What a column's name adds after what it is about: a note in brackets ("HACCP (last training)", "Warenwert
# (CHF)") or the words of a validity date ("Code 95 gültig bis", "ATP valid until"). A question names the
# column by the rest: "whose Code 95 runs out", "die letzte HACCP-Schulung".
_BRACKETED = re.compile(r"\s*\([^)]*\)")
_VALID_UNTIL = re.compile(r"\s+(?:gültig\s+bis|valid\s+until|valable\s+jusqu'au|bis|until)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Column:
    name: str
    kind: str  # "number" or "text"
    values: tuple[str, ...] = ()  # distinct values when few and short (what questions name)

    @property
    def is_date(self) -> bool:
        """A text column whose values are day dates ("2025-03-03", "03.03.2025"): it can be compared by
        order (facts/dates.py)."""
        return self.kind == "text" and bool(self.values) and all(is_day_date(v) for v in self.values)

    @property
    def is_list(self) -> bool:
        """A text column some of whose cells list several of its other values ("Augsburg, Chemnitz"): a value
        is held by every cell that lists it (facts/list_cells.py)."""
        return self.kind == "text" and lists_values(self.values)

    @property
    def words(self) -> tuple[str, ...]:
        """The column name as words: "on_hand" -> ("on", "hand")."""
        return tuple(w for w in re.split(rf"[^0-9{LETTERS}]+", self.name.lower()) if w)

    @property
    def name_words(self) -> tuple[str, ...]:
        """The words that say what the column is about: its name less a bracketed note and, for a date column, a
        closing "gültig bis" / "valid until" (when any other word remains)."""
        name = _BRACKETED.sub("", self.name)
        if self.is_date:
            name = _VALID_UNTIL.sub("", name)
        return Column(name, self.kind).words or self.words

    @property
    def said_words(self) -> tuple[str, ...]:
        """The `name_words` a question must say to name the column: those of three letters or more, and numbers
        ("Code 95")."""
        return tuple(w for w in self.name_words if len(w) > 2 or w.isdigit())


@dataclass(frozen=True)
class Table:
    name: str  # the sidecar table (`documents` or `facts_...`)
    source_set: str
    doc_id: str  # the spreadsheet it came from ("" for `documents`)
    sheet: str
    columns: tuple[Column, ...]
    row_count: int

    def column(self, name: str) -> Column | None:
        return next((c for c in self.columns if c.name == name), None)

    @property
    def label(self) -> str:
        """How people name it: the sheet's words ("price-list" -> "price list")."""
        return (
            "documents" if self.name == DOCUMENTS else " ".join(re.split(rf"[^{LETTERS}]+", self.sheet.lower())).strip()
        )


@dataclass(frozen=True)
class Catalogue:
    tables: tuple[Table, ...] = field(default_factory=tuple)

    def named(self, name: str, source_sets: tuple[str, ...] = ()) -> list[Table]:
        return [t for t in self.tables if t.name == name and (not source_sets or t.source_set in source_sets)]

    def describe(self) -> str:
        """Every table and its columns, for refusals and prompts (visible tables only)."""
        return (
            "; ".join(f"{t.source_set}/{t.name} ({', '.join(c.name for c in t.columns)})" for t in self.tables)
            or "no tables"
        )

    def to_dict(self) -> list[dict]:
        return [
            {
                "table": t.name,
                "source_set": t.source_set,
                "doc_id": t.doc_id,
                "sheet": t.sheet,
                "rows": t.row_count,
                "columns": [{"name": c.name, "kind": c.kind} for c in t.columns],
            }
            for t in self.tables
        ]


def load_catalogue(sidecars: dict[str, Path], groups: frozenset[str] | None) -> Catalogue:
    """The tables of every sidecar (source-set -> sidecar path) that a caller in `groups` may read."""
    tables: list[Table] = []
    for source_set, path in sorted(sidecars.items()):
        with closing(open_sidecar(path)) as db:
            tables.extend(_tables(db, source_set, groups))
    return Catalogue(tuple(tables))


def _tables(db: sqlite3.Connection, source_set: str, groups: frozenset[str] | None) -> list[Table]:
    visible = visible_doc_ids(db, groups)
    found = [_documents_table(db, source_set, groups, len(visible))] if visible else []
    for row in db.execute("SELECT table_name, doc_id, sheet, columns, row_count FROM fact_tables ORDER BY table_name"):
        if row["doc_id"] not in visible:
            continue
        name = str(row["table_name"])
        types = {r[1]: str(r[2]).upper() for r in db.execute("SELECT * FROM pragma_table_info(?)", (name,))}
        columns = tuple(
            _column(db, name, column, types.get(column, "TEXT"), "1", []) for column in json.loads(row["columns"])
        )
        found.append(Table(name, source_set, str(row["doc_id"]), str(row["sheet"]), columns, int(row["row_count"])))
    return found


def _documents_table(db: sqlite3.Connection, source_set: str, groups: frozenset[str] | None, rows: int) -> Table:
    clause, params = visible_clause(groups)
    columns = tuple(_column(db, DOCUMENTS, c, "TEXT", f"{clause} AND {INDEXED}", params) for c in DOCUMENT_COLUMNS)
    return Table(DOCUMENTS, source_set, "", DOCUMENTS, columns, rows)


def _column(db: sqlite3.Connection, table: str, column: str, sql_type: str, clause: str, params: list[str]) -> Column:
    if sql_type in ("INTEGER", "REAL"):
        return Column(column, "number")
    # Identifiers come from the sidecar's own schema (quoted), the condition from access.sidecar.
    quoted = '"' + column.replace('"', '""') + '"'
    sql = f'SELECT DISTINCT {quoted} FROM "{table}" WHERE {clause} AND {quoted} IS NOT NULL LIMIT {MAX_VALUES + 1}'
    values = [str(v[0]) for v in db.execute(sql, params) if str(v[0]).strip()]
    # a redacted cell ("[PERSON_1]") names nobody a question can say: no value to match
    values = [v for v in values if not PLACEHOLDER.fullmatch(v.strip())]
    if len(values) > MAX_VALUES or any(len(v) > MAX_VALUE_CHARS for v in values):
        return Column(column, "text")
    return Column(column, "text", tuple(sorted(values)))
