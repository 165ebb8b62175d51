"""Run a validated intent with polars over the sidecar rows the caller may read.

Each table is loaded with one fixed, parameterless SELECT on its quoted name from the catalogue (the
`documents` rows through access.sidecar's group condition); filters and aggregates are polars
expressions. Nothing from a question is ever spliced into SQL.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import re
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from strata_pipeline.access.sidecar import open_sidecar, visible_clause, visible_doc_ids
from strata_pipeline.facts.catalogue import DOCUMENT_COLUMNS, DOCUMENTS, INDEXED, Catalogue, Table
from strata_pipeline.facts.dates import as_iso, is_day_date, iso_day
from strata_pipeline.facts.intent import FactResult, FactRow, Filter, Intent, IntentRefused, format_value
from strata_pipeline.facts.key_overlap import normalised, overlapping_columns
from strata_pipeline.facts.list_cells import SEPARATOR
from strata_pipeline.facts.validate import validate

ROW = "__row"  # 1-based data row of the sheet
ORIGIN = "__table"  # which loaded table a row came from (index into the frames)
MAX_CITED_ROWS = 50
MAX_CITED_PICKS = 10  # a semi-join's rows of the other table, cited after the rows counted


@dataclass(frozen=True)
class Documents:
    """The `documents` rows of several sidecars in one frame; ORIGIN indexes `tables`."""

    tables: tuple[Table, ...]
    frame: pl.DataFrame


def execute(
    intent: Intent, catalogue: Catalogue, sidecars: dict[str, Path], groups: frozenset[str] | None
) -> FactResult:
    """The exact figure for `intent` (validated here), its answer sentence and the rows it counted."""
    intent = validate(intent, catalogue)
    tables = catalogue.named(intent.table, intent.source_sets)
    frame = _load(tables, sidecars, groups)
    if intent.absent_from:  # the anti-join first: every other condition reads only the rows with no match
        other = _load(catalogue.named(intent.absent_from, intent.source_sets), sidecars, groups)
        if not intent.key:  # differently named keys: the pair of columns whose values overlap
            intent = _joined(intent, frame, other, tables[0])
        frame = frame.filter(_absent(frame, other, intent.key, intent.other_key or intent.key))
    picked: pl.DataFrame = pl.DataFrame()
    picked_from: list[Table] = []
    if intent.through:  # the semi-join first too: only the rows whose key a picked row of the other table holds
        picked_from = catalogue.named(intent.through, intent.source_sets)
        other = _load(picked_from, sidecars, groups)
        if not intent.key:
            intent = _joined(intent, frame, other, tables[0])
        other_lists = frozenset(c.name for t in picked_from for c in t.columns if c.is_list)
        picked = other.filter(_conditions(intent.through_filters, for_intersect=False, lists=other_lists))
        frame = frame.filter(_key_in(frame, intent.key, set(_texts(picked, intent.other_key or intent.key))))
    lists = frozenset(c.name for t in tables for c in t.columns if c.is_list)  # "Augsburg, Chemnitz" cells
    matched = frame.filter(_conditions(intent.filters, for_intersect=intent.operation == "intersect", lists=lists))
    value: Any
    if intent.operation == "intersect":
        value, matched = _intersect(intent, catalogue, frame, matched, sidecars, groups, lists)
        if intent.count_groups and value:  # "how many suppliers deliver to both plants": the keys, counted
            return _groups_counted(intent, value, matched, tables, _readable(catalogue, intent))
    elif intent.operation == "share":
        base = frame.filter(_conditions(intent.base, for_intersect=False, lists=lists))
        matched = base.filter(_conditions(intent.filters, for_intersect=False, lists=lists))
        value = _number(100.0 * matched.height / base.height) if base.height else None
    else:
        value = _compute(intent, _each_item(matched, intent, lists))
        if intent.having and isinstance(value, dict) and len(intent.group_by) == 1:  # cite the kept groups' rows
            read = matched.height
            matched = matched.filter(pl.col(intent.group_by[0]).cast(pl.Utf8).is_in([str(k) for k in value]))
            if intent.count_groups and read:  # "how many sites have more than 5 VLANs": none is an answer too
                return _groups_counted(intent, value, matched, tables, _readable(catalogue, intent))
    # the rows counted, then the other table's rows that picked them ("Bodensee Tiefkühlkost AG", its number)
    cited = _citations(matched, tables) + _citations(picked, picked_from)[:MAX_CITED_PICKS]
    if (matched.height == 0 and intent.operation != "share") or value in ([], None, {}):
        return FactResult(
            intent,
            value,
            f"No rows match: {intent.describe(_readable(catalogue, intent))}. Nothing was counted, so there is "
            "no figure to give.",
            cited,
            abstain_code="zero_rows",
        )
    named = _sentence(intent, value, matched.height, _readable(catalogue, intent))
    holders = _holders(intent, value, matched, tables[0], frame)
    if holders:  # "what is the cheapest IT course": the figure, and the row(s) that hold it
        named = f"{named[:-1]} Held by {', '.join(holders)}."
    best = _best_figure(intent, value, matched)
    if best:  # "when was the most recent order placed": the row, and the date that made it the newest
        named = (
            f"{named[:-1]} Its {intent.columns[0]}: {best}." if intent.columns else f"{named[:-1]} {best} row(s) each."
        )
    return FactResult(intent, value, named, cited, row_count=matched.height)


def _best_figure(intent: Intent, value: Any, rows: pl.DataFrame) -> str:
    """The figure the best group of an argmax or argmin holds (its latest date, its total of the measured column,
    or its row count: "the most contracts, and how many"); "" for any other intent, for the n best or the best
    within each group (one figure each)."""
    if intent.operation not in ("argmax", "argmin") or intent.per or intent.limit:
        return ""
    if not isinstance(value, list) or not value or (intent.columns and intent.columns[0] not in rows.columns):
        return ""
    key = intent.group_by[0]
    mine = rows.filter(pl.col(key).cast(pl.Utf8) == str(value[0]))
    if not intent.columns:
        return str(mine.height) if mine.height else ""
    column = intent.columns[0]
    held = mine.get_column(column).drop_nulls()
    if held.len() == 0:
        return ""
    if rows.schema[column] == pl.Utf8:  # day dates: the latest or earliest, as _extreme reads them
        dates = held.to_frame().with_columns(as_iso(pl.col(column)).alias("_iso")).sort("_iso")
        return str(dates.get_column(column)[-1 if intent.operation == "argmax" else 0])  # as the cell writes it
    return format_value(_number(held.sum()))


def column_values(
    table: str, column: str, catalogue: Catalogue, sidecars: dict[str, Path], groups: frozenset[str] | None
) -> list[str]:
    """The distinct values of one whitelisted text column, over the rows `groups` may read (for matching
    the values that passages name; the catalogue keeps only short value lists)."""
    validate(Intent("distinct", table, (column,)), catalogue)
    frame = _load(catalogue.named(table), sidecars, groups)
    return sorted(set(_texts(frame, column)), key=str.casefold) if column in frame.columns else []


def documents_table(catalogue: Catalogue, sidecars: dict[str, Path], groups: frozenset[str] | None) -> Documents:
    """Every source-set's `documents` rows `groups` may read, loaded once for `matching_documents`."""
    tables = catalogue.named(DOCUMENTS)
    return Documents(tuple(tables), _load(tables, sidecars, groups))


def matching_documents(
    documents: Documents, filters: tuple[Filter, ...], source_sets: tuple[str, ...] = ()
) -> list[tuple[str, str]]:
    """(source-set, doc_id) of the documents a metadata filter picks, in sidecar order: the same
    conditions as an aggregation over `documents`, so the documents counted are the ones named."""
    if documents.frame.height == 0:
        return []
    matched = documents.frame.filter(_conditions(filters, for_intersect=False))
    keys = [(documents.tables[row[ORIGIN]].source_set, str(row["doc_id"])) for row in matched.iter_rows(named=True)]
    return [key for key in keys if not source_sets or key[0] in source_sets]


def _load(tables: list[Table], sidecars: dict[str, Path], groups: frozenset[str] | None) -> pl.DataFrame:
    frames = []
    for number, table in enumerate(tables):
        with closing(open_sidecar(sidecars[table.source_set])) as db:
            frames.append(_read(db, table, groups).with_columns(pl.lit(number).alias(ORIGIN)))
    return pl.concat(frames, how="diagonal_relaxed") if frames else pl.DataFrame()


def _read(db: sqlite3.Connection, table: Table, groups: frozenset[str] | None) -> pl.DataFrame:
    names = [c.name for c in table.columns]
    if table.name == DOCUMENTS:
        clause, params = visible_clause(groups)
        cols = ", ".join(f'"{c}"' for c in DOCUMENT_COLUMNS)
        sql = f"SELECT rowid, {cols} FROM documents WHERE {clause} AND {INDEXED} ORDER BY rowid"
        rows = db.execute(sql, params).fetchall()
    else:
        if table.doc_id not in visible_doc_ids(db, groups, table.doc_id):
            return pl.DataFrame()  # checked again at read time: the catalogue may be older than the index
        quoted = ", ".join('"' + n.replace('"', '""') + '"' for n in names)
        rows = db.execute(f'SELECT rowid, {quoted} FROM "{table.name}" ORDER BY rowid').fetchall()
    kinds = {c.name: (pl.Float64 if c.kind == "number" else pl.Utf8) for c in table.columns}
    data = {ROW: [r[0] for r in rows]} | {n: [r[i + 1] for r in rows] for i, n in enumerate(names)}
    return pl.DataFrame(data, schema={ROW: pl.Int64, **kinds}, strict=False)


def _conditions(filters: tuple[Filter, ...], for_intersect: bool, lists: frozenset[str] = frozenset()) -> pl.Expr:
    """All filters ANDed; for intersect, eq filters on one column are its sets and are ORed here. A column in
    `lists` holds a value in every cell that lists it."""
    expr = pl.lit(True)
    sets: dict[str, list[pl.Expr]] = {}
    for f in filters:
        condition = _condition(f, f.column in lists)
        if for_intersect and f.op == "eq":
            sets.setdefault(f.column, []).append(condition)
        else:
            expr = expr & condition
    for conditions in sets.values():
        expr = expr & pl.any_horizontal(conditions)
    return expr


def _condition(f: Filter, listed: bool = False) -> pl.Expr:
    column = pl.col(f.column)
    if listed and isinstance(f.value, str) and f.op in ("eq", "ne"):  # "Augsburg, Chemnitz" holds Chemnitz
        held = _cell_items(column).list.contains(f.value.lower().strip()).fill_null(False)
        return held if f.op == "eq" else ~held
    if listed and isinstance(f.value, tuple):  # `in`: a cell listing any of the values
        wanted_items = [v.lower().strip() for v in f.value]
        return _cell_items(column).list.eval(pl.element().is_in(wanted_items)).list.any().fill_null(False)
    if isinstance(f.value, float):
        return {
            "eq": column == f.value, "ne": column != f.value, "gt": column > f.value,
            "ge": column >= f.value, "lt": column < f.value, "le": column <= f.value,
        }[f.op].fill_null(False)  # fmt: skip
    text = column.cast(pl.Utf8).str.to_lowercase().str.strip_chars()
    if isinstance(f.value, tuple):  # `in`: one of the listed values
        return text.is_in([v.lower().strip() for v in f.value]).fill_null(False)
    wanted = f.value.lower().strip()
    if f.op == "contains":  # a number as a whole number: "60 Tage" is not in "160 Tage"
        found = text.str.contains(r"(?:^|\D)" + re.escape(wanted)) if wanted[:1].isdigit() else None
        return (text.str.contains(wanted, literal=True) if found is None else found).fill_null(False)
    if f.op in ("gt", "ge", "lt", "le"):  # day dates (validate allows nothing else): ISO order is date order
        text = as_iso(text)
        return {"gt": text > wanted, "ge": text >= wanted, "lt": text < wanted, "le": text <= wanted}[f.op].fill_null(
            False
        )
    if is_day_date(wanted):  # a day, written either way, is the same day in a cell written either way
        text, wanted = as_iso(text), iso_day(wanted)
    return (text == wanted).fill_null(False) if f.op == "eq" else (text != wanted).fill_null(True)


def _absent(frame: pl.DataFrame, other: pl.DataFrame, key: str, other_key: str) -> pl.Expr:
    """Rows whose key (compared as text, case-insensitively) is in no row of `other` (its column `other_key`);
    a row with no key is left out, since it cannot be told to match or not."""
    held = {v.lower().strip() for v in _texts(other, other_key)} if other_key in other.columns else set()
    text = pl.col(key).cast(pl.Utf8).str.to_lowercase().str.strip_chars()
    return (text.is_not_null() & ~text.is_in(sorted(held))).fill_null(False)


def _key_in(frame: pl.DataFrame, key: str, held: set[str]) -> pl.Series:
    """Rows whose key, as the answer writes it and without regard to case or outer spaces, is `held`."""
    wanted = {v.lower().strip() for v in held}
    keys = frame.get_column(key).to_list() if frame.height else []
    return pl.Series([v is not None and _text(v).lower().strip() in wanted for v in keys], dtype=pl.Boolean)


def _joined(intent: Intent, frame: pl.DataFrame, other: pl.DataFrame, table: Table) -> Intent:
    """The join's key pair read from the loaded rows: the text columns whose values overlap most."""
    found = overlapping_columns(_text_sets(frame), _text_sets(other), prefer=table.columns[0].name)
    if found is None:
        raise IntentRefused(
            f"No column of {intent.table!r} shares its values with a column of "
            f"{intent.absent_from or intent.through!r}: there is no key to join their rows by."
        )
    return dataclasses.replace(intent, key=found[0], other_key=found[1])


def _text_sets(frame: pl.DataFrame) -> dict[str, set[str]]:
    texts = [c for c in frame.columns if c not in (ROW, ORIGIN) and frame.schema[c] == pl.Utf8]
    return {c: normalised(_texts(frame, c)) for c in texts}


def _groups_counted(
    intent: Intent, groups: dict[str, Any] | list[str], rows: pl.DataFrame, tables: list[Table], names: dict[str, str]
) -> FactResult:
    """How many groups meet the condition (or keys an intersect found), named with their figures, rows cited."""
    kept = format_value(groups) or "none"
    which = "keys" if intent.operation == "intersect" else "groups"
    answer = f"The answer is {len(groups)} ({intent.describe(names)}; the {which}: {kept})."
    return FactResult(intent, len(groups), answer, _citations(rows, tables), row_count=rows.height)


def _compute(intent: Intent, rows: pl.DataFrame) -> Any:
    op = "count" if intent.operation == "group_by" else intent.operation
    if op in ("argmax", "argmin"):
        if intent.per:  # the best within each value of `per` ("the most expensive product in each category")
            parts = rows.get_column(intent.per).drop_nulls().unique().to_list() if rows.height else []
            ranked = {_text(p): _extreme(intent, rows.filter(pl.col(intent.per) == p)) for p in parts}
            return {k: ranked[k] for k in sorted(ranked, key=str.casefold) if ranked[k]}
        return _extreme(intent, rows)
    if intent.group_by and op in ("list", "distinct"):  # "which X per Y": the values within each group
        keys, column = list(intent.group_by), intent.columns[0]
        grouped = rows.filter(pl.col(column).is_not_null()).group_by(keys).agg(pl.col(column))
        listed = {
            " / ".join(_text(r[k]) for k in keys): [_text(v) for v in r[column]] for r in grouped.iter_rows(named=True)
        }
        if op == "distinct":
            listed = {k: sorted(set(v), key=str.casefold) for k, v in listed.items()}
        return {k: listed[k] for k in sorted(listed, key=str.casefold)}
    if intent.group_by:
        keys = list(intent.group_by)
        grouped = rows.group_by(keys, maintain_order=True).agg(_aggregate(op, intent.columns).alias("value"))
        if intent.having:  # "which sites have more than 5 VLANs": only the groups whose figure meets it
            grouped = grouped.filter(_conditions(intent.having, for_intersect=False))
        return {
            " / ".join(_text(r[k]) for k in keys): _number(r["value"]) for r in grouped.sort(keys).iter_rows(named=True)
        }
    if op in ("list", "distinct"):
        column = intent.columns[0]
        values = rows.get_column(column).drop_nulls() if rows.height else pl.Series([], dtype=pl.Utf8)
        shown = [_text(v) for v in values.to_list()]
        return sorted(set(shown), key=str.casefold) if op == "distinct" else shown
    if rows.height == 0:
        return None
    return _number(rows.select(_aggregate(op, intent.columns)).item())


def _extreme(intent: Intent, rows: pl.DataFrame) -> list[str]:
    """The group values whose total (of columns[0], or their row count) is the highest or lowest; ties all."""
    if rows.height == 0:
        return []
    key = intent.group_by[0]
    dated = bool(intent.columns) and rows.schema[intent.columns[0]] == pl.Utf8  # day dates: the latest or earliest
    if dated:
        rows = rows.with_columns(as_iso(pl.col(intent.columns[0])).alias(intent.columns[0]))
    measure = ("max" if intent.operation == "argmax" else "min") if dated else "sum" if intent.columns else "count"
    totals = (
        rows.filter(pl.col(key).is_not_null()).group_by(key).agg(_aggregate(measure, intent.columns).alias("value"))
    )
    if totals.height == 0:
        return []
    if intent.limit:  # the n best, best first; equal totals in the key's order
        ranked = totals.sort(["value", key], descending=[intent.operation == "argmax", False], nulls_last=True)
        return [_text(v) for v in ranked.head(intent.limit).get_column(key).to_list()]
    best = totals.get_column("value").max() if intent.operation == "argmax" else totals.get_column("value").min()
    if best is None:
        return []
    named = totals.filter(pl.col("value") == best).get_column(key).to_list()
    return sorted((_text(v) for v in named), key=str.casefold)


def _aggregate(op: str, columns: tuple[str, ...]) -> pl.Expr:
    if op == "count":
        return pl.col(columns[0]).drop_nulls().n_unique() if columns else pl.len()
    column = pl.col(columns[0])
    return {"sum": column.sum(), "avg": column.mean(), "min": column.min(), "max": column.max()}[op]


def _intersect(
    intent: Intent,
    catalogue: Catalogue,
    frame: pl.DataFrame,
    matched: pl.DataFrame,
    sidecars: dict[str, Path],
    groups: frozenset[str] | None,
    lists: frozenset[str] = frozenset(),
) -> tuple[list[str], pl.DataFrame]:
    """Key values present in every set, and the rows that hold them."""
    key = intent.columns[0]
    if intent.tables:
        keysets = [set(_texts(matched, key))]
        for name in intent.tables:
            other = _load(catalogue.named(name, intent.source_sets), sidecars, groups)
            keysets.append(set(_texts(other, key)))
    else:
        column = next(f.column for f in intent.filters if f.op == "eq")
        values = [str(f.value).lower() for f in intent.filters if f.op == "eq" and f.column == column]
        keysets = [
            set(_texts(matched.filter(_condition(Filter(column, "eq", v), column in lists)), key)) for v in values
        ]
    common = sorted(set.intersection(*keysets), key=str.casefold) if keysets else []
    # keys compared as the answer writes them: a number key 700412 is "700412", not polars' "700412.0"
    held = pl.Series([_text(v) in common for v in matched.get_column(key).to_list()], dtype=pl.Boolean)
    return common, matched.filter(held) if matched.height else matched


def _cell_items(column: pl.Expr) -> pl.Expr:
    """A list cell's values, lower-cased ("Augsburg, Chemnitz" -> ["augsburg", "chemnitz"])."""
    return _listed(column.cast(pl.Utf8).str.to_lowercase())


def _listed(text: pl.Expr) -> pl.Expr:
    """A cell's values split where list_cells.SEPARATOR splits them, each stripped."""
    return text.str.replace_all(SEPARATOR.pattern, ",").str.split(",").list.eval(pl.element().str.strip_chars())


def _each_item(rows: pl.DataFrame, intent: Intent, lists: frozenset[str]) -> pl.DataFrame:
    """Rows once per listed value of a list column the intent groups by or counts the values of ("suppliers
    per plant": the supplier of Augsburg and Chemnitz is in both groups), each value as its cells write it."""
    listed = [c for c in intent.group_by if c in lists]
    if intent.operation == "distinct" or (intent.operation == "count" and intent.columns):
        listed += [c for c in intent.columns if c in lists and c not in listed]
    for column in listed:
        rows = rows.with_columns(_listed(pl.col(column).cast(pl.Utf8)).alias(column)).explode(column)
    return rows


def _texts(frame: pl.DataFrame, column: str) -> list[str]:
    return [_text(v) for v in frame.get_column(column).drop_nulls().to_list()] if frame.height else []


def _citations(rows: pl.DataFrame, tables: list[Table]) -> list[FactRow]:
    cited = []
    for row in rows.head(MAX_CITED_ROWS).iter_rows(named=True):
        table = tables[row[ORIGIN]]
        cells = [_text(row.get(c.name)) for c in table.columns]
        out = io.StringIO()
        csv.writer(out, lineterminator="").writerow(cells)
        doc_id = str(row.get("doc_id")) if table.name == DOCUMENTS else table.doc_id
        cited.append(FactRow(doc_id, table.source_set, table.name, table.sheet, int(row[ROW]), out.getvalue()))
    return cited


def _number(value: Any) -> Any:
    if isinstance(value, float):
        return int(value) if value.is_integer() else round(value, 4)
    return value


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else str(value)
    return str(value)


def _readable(catalogue: Catalogue, intent: Intent) -> dict[str, str]:
    """Tables as readers know them: "servers (inventory/servers.csv)", "documents"."""
    return {
        t.name: t.label if t.name == DOCUMENTS else f"{t.label} ({t.doc_id})"
        for name in (intent.table, *intent.tables, *(n for n in (intent.absent_from, intent.through) if n))
        for t in catalogue.named(name, intent.source_sets)[:1]
    }


def _holders(
    intent: Intent, value: Any, rows: pl.DataFrame, table: Table, whole: pl.DataFrame, most: int = 5
) -> list[str]:
    """The key values (the table's first column) of the rows a minimum or maximum is read from, each with its
    label when the table has one (`whole`, all its rows, tells a label column); [] for any other figure, or when
    more than `most` rows hold it."""
    if intent.operation not in ("min", "max") or intent.group_by or not isinstance(value, (int, float)):
        return []
    key = table.columns[0].name if table.columns else ""
    if not key or key == intent.columns[0] or key not in rows.columns:
        return []
    holding = rows.filter(pl.col(intent.columns[0]) == value)
    held = _texts(holding, key)
    if not 0 < len(held) <= most:
        return []
    label = _label_column(whole, [c.name for c in table.columns], (key, intent.columns[0]))
    if not label:
        return held
    # "ADH-4471 (Hip replacement)": a code alone does not say what holds the figure; read row by row, so a key
    # keeps its own row's label
    return [
        f"{_text(k)} ({_text(name)})" if name is not None else _text(k)
        for k, name in holding.select(key, label).iter_rows()
        if k is not None
    ]


_WORDED = re.compile(r"[^\W\d_]{3,}\s")


def _label_column(rows: pl.DataFrame, columns: list[str], skip: tuple[str, ...]) -> str:
    """The first text column of the table's `columns` besides `skip` whose every value is its row's own
    ("procedure", "description"): what names a row whose key is a code; "" when none does."""
    for column in columns:
        if column in skip or column not in rows.columns or rows.schema[column] != pl.Utf8:
            continue
        values = rows.get_column(column).drop_nulls()
        # mostly words ("Hip replacement", "RX Dock charging station"), not dates, codes or "yes"
        worded = values.len() > 0 and sum(bool(_WORDED.search(v)) for v in values.to_list()) >= 0.8 * values.len()
        if values.len() == rows.height > 2 and values.n_unique() == values.len() and worded:
            return column
    return ""


def _sentence(intent: Intent, value: Any, matched: int, names: dict[str, str]) -> str:
    figure = format_value(value)
    what = intent.describe(names)
    if intent.operation in ("list", "distinct", "intersect"):
        return f"{len(value)} value(s): {figure} ({what}; {matched} row(s) read)."
    if intent.operation in ("argmax", "argmin"):
        return f"{figure} ({what}; {matched} row(s) read)."
    if intent.operation == "share":
        return f"The answer is {figure}% ({what}; {matched} row(s) matched)."
    if intent.group_by or intent.operation == "group_by":
        return f"{figure} ({what}; {matched} row(s) counted)."
    return f"The answer is {figure} ({what}; {matched} row(s) counted)."
