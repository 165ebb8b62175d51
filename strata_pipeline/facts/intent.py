"""A structured aggregation intent, its result, and the refusal a bad intent gets.

Text-to-intent, not text-to-SQL: a question (or a client) produces an `Intent`; validation checks it
against the catalogue and execution runs it with fixed polars expressions.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

OPERATIONS = (
    "count", "list", "sum", "avg", "min", "max", "group_by", "intersect", "distinct", "share", "argmax", "argmin",
)  # fmt: skip
# share: the rows matching `filters` as a percentage of the rows matching `base`.
# argmax/argmin: the `group_by` values whose total of `columns[0]` (their row count with no column) is highest/lowest;
# over a column of ISO dates, the latest/earliest date ("the newest vehicle").
NUMERIC_OPERATIONS = ("sum", "avg", "min", "max")
FILTER_OPS = ("eq", "ne", "gt", "ge", "lt", "le", "contains", "in")  # in: one of several texts
ORDER_OPS = ("gt", "ge", "lt", "le")


class IntentRefused(ValueError):
    """An intent the catalogue cannot answer; the message names the tables and columns that exist
    (those the caller may see, nothing else)."""


@dataclass(frozen=True)
class Filter:
    column: str
    op: str
    value: str | float | tuple[str, ...]  # a tuple only for `in`


@dataclass(frozen=True)
class Intent:
    operation: str
    table: str  # a catalogue table name; `documents` for per-document metadata
    columns: tuple[str, ...] = ()  # the measured column (sum/avg/min/max), shown or compared ones
    filters: tuple[Filter, ...] = ()
    group_by: tuple[str, ...] = ()
    source_sets: tuple[str, ...] = ()
    # intersect: a second table sharing the key column, or (one table) the values of one filtered
    # column whose key sets are intersected, e.g. warehouse in (PDX, MUC)
    tables: tuple[str, ...] = ()
    base: tuple[Filter, ...] = ()  # share: the rows the percentage is of (every row when empty)
    limit: int = 0  # argmax/argmin: this many groups, best first (0: every group tied for the best)
    per: str = ""  # argmax/argmin: the best of `group_by` within each value of this column ("in each category")
    # rows of `table` whose `key` has no row in this table ("servers with no patch-wave entry": an anti-join)
    absent_from: str = ""
    # rows of `table` whose `key` a row of this table meeting `through_filters` holds (a semi-join): "which articles
    # do we buy from Bodensee Tiefkühlkost", a supplier the article master knows only by its number
    through: str = ""
    through_filters: tuple[Filter, ...] = ()
    # the column both tables (absent_from's or through's) hold, compared as text ("" with absent_from: the pair
    # whose values overlap)
    key: str = ""
    other_key: str = ""  # the other table's column for `key`, when it is named differently ("fahrzeug")
    # conditions on each group's figure (column "value"): "which sites have more than 5 VLANs"
    having: tuple[Filter, ...] = ()
    # the figure is how many groups meet `having` ("how many sites have more than 5 VLANs"), or how many keys an
    # intersect finds ("combien de fournisseurs livrent à la fois Augsburg et Chemnitz")
    count_groups: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Intent:
        """An intent from a client's JSON; shape errors are refusals, not crashes."""
        try:
            filters, base, having, through_filters = (
                tuple(Filter(str(f["column"]), str(f.get("op", "eq")), _value(f["value"])) for f in data.get(key) or ())
                for key in ("filters", "base", "having", "through_filters")
            )
            return cls(
                operation=str(data["operation"]),
                table=str(data.get("table") or ""),
                columns=tuple(str(c) for c in data.get("columns") or ()),
                filters=filters,
                group_by=tuple(str(c) for c in data.get("group_by") or ()),
                source_sets=tuple(str(s) for s in data.get("source_sets") or ()),
                tables=tuple(str(t) for t in data.get("tables") or ()),
                base=base,
                having=having,
                limit=int(data.get("limit") or 0),
                per=str(data.get("per") or ""),
                absent_from=str(data.get("absent_from") or ""),
                through=str(data.get("through") or ""),
                through_filters=through_filters,
                key=str(data.get("key") or ""),
                other_key=str(data.get("other_key") or ""),
                count_groups=bool(data.get("count_groups")),
            )
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise IntentRefused(
                f"An intent needs 'operation' (one of {', '.join(OPERATIONS)}), 'table', and filters as "
                f"{{column, op, value}}: {exc}"
            ) from exc

    def describe(self, names: dict[str, str] | None = None) -> str:
        """One line a reader can check: `count servers where site = ZRH`; `names` shows tables by their
        sheet and document instead of the sidecar's table names."""
        names = names or {}
        tables = [names.get(t, t) for t in (self.table, *self.tables)]
        # a count with a column counts that column's distinct values ("how many towns": 3 of 11 rows)
        parts = ["count distinct" if self.operation == "count" and self.columns else self.operation]
        if self.columns:
            parts.append(", ".join(self.columns) + " of")
        parts.append(" ∩ ".join(tables))
        if self.filters:
            parts.append("where " + " and ".join(_described(f) for f in self.filters))
        if self.base:
            parts.append("among rows where " + " and ".join(_described(f) for f in self.base))
        if self.absent_from:
            joined = "and" if self.filters else "where"
            other = names.get(self.absent_from, self.absent_from)
            if not self.key:
                parts.append(f"{joined} no row in {other} shares the value of the columns whose values overlap")
            else:
                by = f" (compared with its {self.other_key})" if self.other_key and self.other_key != self.key else ""
                parts.append(f"{joined} {self.key} has no row in {other}{by}")
        if self.through:
            joined = "and" if self.filters or self.absent_from else "where"
            other = names.get(self.through, self.through)
            by = f" (as its {self.other_key})" if self.other_key and self.other_key != self.key else ""
            picked = " where " + " and ".join(map(_described, self.through_filters)) if self.through_filters else ""
            parts.append(f"{joined} {self.key or 'the shared key'} is held{by} by a row of {other}{picked}")
        if self.group_by:
            parts.append("per " + ", ".join(self.group_by))
        if self.per:
            parts.append(f"within each {self.per}")
        if self.having:
            parts.append("keeping groups whose " + " and ".join(_described(f) for f in self.having))
        if self.count_groups:
            parts.append("and counting those " + ("keys" if self.operation == "intersect" else "groups"))
        if self.limit:
            parts.append(f"(the {self.limit} best)")
        return " ".join(parts)


_SYMBOL = {"eq": "=", "ne": "≠", "gt": ">", "ge": "≥", "lt": "<", "le": "≤", "contains": "contains", "in": "in"}


def _described(f: Filter) -> str:
    value = f"({', '.join(map(str, f.value))})" if isinstance(f.value, tuple) else f.value
    return f"{f.column} {_SYMBOL.get(f.op, f.op)} {value}"


def _value(raw: object) -> str | float | tuple[str, ...]:
    if isinstance(raw, (list, tuple)):
        return tuple(str(v) for v in raw)  # the values of an `in` filter
    if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
        raise TypeError(f"filter value {raw!r} is not a string or a number")
    return float(raw) if isinstance(raw, (int, float)) else raw


@dataclass(frozen=True)
class FactRow:
    """A counted row as a citation: where it is in the spreadsheet and what it says."""

    doc_id: str
    source_set: str
    table: str
    sheet: str
    row: int  # 1-based data row (the header is row 0)
    line: str  # the row as a CSV line (redacted cells, as the sidecar holds them)


@dataclass
class FactResult:
    intent: Intent
    value: Any  # an int/float, a list of values, or {group: value}
    answer: str  # one sentence that states the exact figure
    rows: list[FactRow] = field(default_factory=list)
    abstain_code: str = ""  # "zero_rows" when no row matched: nothing was counted
    row_count: int = 0  # rows that matched (rows may be capped for the response)

    @property
    def abstained(self) -> bool:
        return bool(self.abstain_code)


def format_value(value: Any) -> str:
    """The figure as the answer states it: 12, 16.67, "a, b, c", "PDX: 3; MUC: 2"."""
    if isinstance(value, dict):
        return "; ".join(f"{k}: {format_value(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return str(value)
