"""A text column whose cells are all one number with one unit ("18 t", "3,5 t", "12 m"): a question that names
such an amount ("die 40-Tonner", glossed "40 t") means the rows whose cell writes it. When no cell does, the
rows it means cannot be told, so the parser refuses rather than count or sum every row."""

from __future__ import annotations

import re

from strata_pipeline.facts.catalogue import Column, Table
from strata_pipeline.facts.intent import Filter

_AMOUNT = r"(\d+(?:[.,]\d+)?)\s?([a-zäöü°²³]{1,4})"
_CELL = re.compile(rf"^{_AMOUNT}$", re.IGNORECASE)


def cell_unit(column: Column) -> str:
    """The one unit every listed cell of a text column writes after its number ("t" for "18 t"), else ""."""
    if column.kind != "text" or not column.values or column.is_date:
        return ""
    units = {m.group(2).lower() if (m := _CELL.match(v.strip())) else "" for v in column.values}
    return units.pop() if len(units) == 1 and "" not in units else ""


def unheld_amount(question: str, table: Table, filters: list[Filter]) -> str:
    """An amount the question names in a unit only a text column's cells write, which no cell of it holds
    ("zul. GG 40 t"); "" when none, or when a filter already reads that column."""
    filtered = {f.column for f in filters}
    for column in table.columns:
        unit = cell_unit(column)
        if not unit or column.name in filtered:
            continue
        held = {v.strip().lower().replace(" ", "") for v in column.values}
        for match in re.finditer(rf"\b{_AMOUNT}(?![\w.,])", question.lower()):
            if match.group(2) == unit and f"{match.group(1)}{unit}" not in held:
                return f"{column.name} {match.group(0)}"
    return ""
