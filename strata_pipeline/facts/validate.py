"""The whitelist check: an intent names only tables and columns of the caller's catalogue, with
operations that suit their types. A refusal names what exists (visible tables only)."""

from __future__ import annotations

import dataclasses
import re

from strata_pipeline.facts.catalogue import Catalogue, Table
from strata_pipeline.facts.intent import (
    FILTER_OPS,
    NUMERIC_OPERATIONS,
    OPERATIONS,
    ORDER_OPS,
    Filter,
    Intent,
    IntentRefused,
)

ISO_DATE = re.compile(r"\d{4}(?:-\d{2}(?:-\d{2})?)?")  # a year, a year-month or a date


def validate(intent: Intent, catalogue: Catalogue) -> Intent:
    """The intent with defaults filled in (the shown column of a list), or IntentRefused."""
    if intent.operation not in OPERATIONS:
        raise IntentRefused(f"Unknown operation {intent.operation!r}; use one of {', '.join(OPERATIONS)}.")
    tables = catalogue.named(intent.table, intent.source_sets)
    if not tables:
        raise IntentRefused(f"No table {intent.table!r}. Tables and their columns: {catalogue.describe()}.")
    first = tables[0]
    for name in (*intent.columns, *intent.group_by, *(f.column for f in (*intent.filters, *intent.base))):
        _column(tables, name)
    if intent.base and intent.operation != "share":
        raise IntentRefused("'base' belongs to a share only: the rows its percentage is of.")
    if intent.operation == "share" and not intent.filters:
        raise IntentRefused(f"A share needs filters: which of the rows of {first.name} to count as a percentage.")
    if intent.limit and (intent.operation not in ("argmax", "argmin") or not 0 < intent.limit <= 100):
        raise IntentRefused("'limit' (1 to 100) belongs to argmax or argmin only: how many of the best to name.")
    if intent.operation in ("argmax", "argmin"):
        if len(intent.group_by) != 1:
            raise IntentRefused(
                f"{intent.operation} needs one group_by column (what to name); columns of {first.name}: "
                f"{', '.join(c.name for c in first.columns)}."
            )
        if (
            intent.columns
            and _column(tables, intent.columns[0]) != "number"
            and not _date_column(tables, intent.columns[0])
        ):
            raise IntentRefused(
                f"{intent.operation} totals a numeric column or takes the latest date of a date column; numeric "
                f"columns: {_numeric(first)}."
            )
    if intent.per:
        if intent.operation not in ("argmax", "argmin") or intent.per in intent.group_by:
            raise IntentRefused(
                "'per' belongs to argmax or argmin only: the column within whose values to name the best."
            )
        _column(tables, intent.per)
    if intent.absent_from and intent.through:
        raise IntentRefused("An intent joins one other table: 'absent_from' (an anti-join) or 'through', not both.")
    through_filters: tuple[Filter, ...] = ()
    if intent.absent_from or intent.through:
        others = _joined(intent, catalogue, tables)
        through_filters = tuple(_filter(others, f) for f in intent.through_filters)
    elif intent.through_filters:
        raise IntentRefused("'through_filters' belong to 'through': the rows of that table that pick the keys.")
    having = tuple(_having(intent, f) for f in intent.having)
    if intent.count_groups and not having and intent.operation != "intersect":
        raise IntentRefused(
            "'count_groups' counts the groups that meet 'having' (or an intersect's keys); name that condition."
        )
    if intent.operation in NUMERIC_OPERATIONS:
        if len(intent.columns) != 1:
            raise IntentRefused(
                f"{intent.operation} needs one numeric column of {first.name}; numeric columns: {_numeric(first)}."
            )
        if _column(tables, intent.columns[0]) != "number":
            raise IntentRefused(
                f"Cannot {intent.operation} {intent.columns[0]!r}: it holds text. "
                f"Numeric columns of {first.name}: {_numeric(first)}."
            )
    filters = tuple(_filter(tables, f) for f in intent.filters)
    base = tuple(_filter(tables, f) for f in intent.base)
    columns = intent.columns
    if intent.operation in ("list", "distinct", "intersect") and not columns:
        columns = (first.columns[0].name,)
    if intent.operation == "intersect":
        _intersect(intent, catalogue, columns[0], filters)
    return dataclasses.replace(
        intent, columns=columns, filters=filters, base=base, having=having, through_filters=through_filters
    )


def _column(tables: list[Table], name: str) -> str:
    """The column's kind (number/text) in every table of that name, or a refusal naming the columns."""
    kinds = {c.kind for t in tables for c in t.columns if c.name == name}
    if not kinds or any(t.column(name) is None for t in tables):
        raise IntentRefused(
            f"Unknown column {name!r} in {tables[0].name}; its columns: {', '.join(c.name for c in tables[0].columns)}."
        )
    return "number" if kinds == {"number"} else "text"


def _filter(tables: list[Table], f: Filter) -> Filter:
    if f.op not in FILTER_OPS:
        raise IntentRefused(f"Unknown filter operator {f.op!r}; use one of {', '.join(FILTER_OPS)}.")
    kind = _column(tables, f.column)
    if f.op == "in" or isinstance(f.value, tuple):
        if f.op != "in" or not isinstance(f.value, tuple) or not f.value:
            raise IntentRefused(f"{f.column!r}: a list of values needs op 'in', and 'in' needs a non-empty list.")
        if kind == "number":
            raise IntentRefused(f"Cannot use 'in' on {f.column!r}: it holds numbers. Use eq, gt, ge, lt or le.")
        return dataclasses.replace(f, value=tuple(str(v) for v in f.value))
    if f.op in ORDER_OPS and kind != "number" and _dates(tables, f):
        return dataclasses.replace(f, value=str(f.value))  # ISO dates compare as text: "2025-07-01" > "2025"
    if f.op in ORDER_OPS or (kind == "number" and f.op in ("eq", "ne")):
        if kind != "number":
            raise IntentRefused(f"Cannot compare {f.column!r} with {f.op}: it holds text. Use eq, ne or contains.")
        try:
            return dataclasses.replace(f, value=float(f.value))
        except ValueError as exc:
            raise IntentRefused(f"{f.column!r} holds numbers; {f.value!r} is not one.") from exc
    return dataclasses.replace(f, value=str(f.value))


def _dates(tables: list[Table], f: Filter) -> bool:
    """An order comparison of ISO dates: the value is a year, a year-month or a date, and the column's
    known values are dates."""
    if not isinstance(f.value, str) or not ISO_DATE.fullmatch(f.value):
        return False
    columns = [c for t in tables for c in t.columns if c.name == f.column]
    return all(c.is_date for c in columns)


def _intersect(intent: Intent, catalogue: Catalogue, key: str, filters: tuple[Filter, ...]) -> None:
    if intent.tables:
        for name in intent.tables:
            others = catalogue.named(name, intent.source_sets)
            if not others:
                raise IntentRefused(f"No table {name!r}. Tables and their columns: {catalogue.describe()}.")
            _column(others, key)
        return
    by_column: dict[str, int] = {}
    for f in filters:
        if f.op == "eq":
            by_column[f.column] = by_column.get(f.column, 0) + 1
    if not any(n >= 2 for n in by_column.values()):
        raise IntentRefused(
            "intersect needs a second table (`tables`) or two values of one column (two eq filters on it), "
            f"e.g. {key} present under both."
        )


def _having(intent: Intent, f: Filter) -> Filter:
    """A condition on each group's figure: a number compared with column "value", on a grouped figure."""
    if intent.operation not in ("group_by", "count", *NUMERIC_OPERATIONS) or not intent.group_by:
        raise IntentRefused("'having' belongs to a figure per group (group_by): the groups whose figure to keep.")
    if f.column != "value" or f.op not in ("eq", "ne", *ORDER_OPS) or isinstance(f.value, tuple):
        raise IntentRefused(
            "'having' compares column 'value' (each group's figure) with a number: eq, ne, gt, ge, lt, le."
        )
    try:
        return dataclasses.replace(f, value=float(f.value))
    except ValueError as exc:
        raise IntentRefused(f"'having' compares with a number; {f.value!r} is not one.") from exc


def _date_column(tables: list[Table], name: str) -> bool:
    return all(c.is_date for t in tables for c in t.columns if c.name == name)


def _joined(intent: Intent, catalogue: Catalogue, tables: list[Table]) -> list[Table]:
    """The other table of an anti-join (`absent_from`) or a semi-join (`through`): visible, holding the key column
    too (or `other_key`, its own name for it). A semi-join's filters are checked against it by the caller."""
    name = intent.absent_from or intent.through
    others = catalogue.named(name, intent.source_sets)
    if not others:
        raise IntentRefused(f"No table {name!r}. Tables and their columns: {catalogue.describe()}.")
    if not intent.key:
        if intent.other_key:
            raise IntentRefused("'other_key' needs 'key': the column of the rows it is compared with.")
        return others  # no key named: execution compares the pair of text columns whose values overlap
    _column(tables, intent.key)
    _column(others, intent.other_key or intent.key)
    return others


def _numeric(table: Table) -> str:
    return ", ".join(c.name for c in table.columns if c.kind == "number") or "none"
