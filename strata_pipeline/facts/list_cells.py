"""Cells that list several of their column's values: a supplier's plants "Augsburg, Chemnitz" in a column
whose other cells say "Augsburg" or "Chemnitz". A value named in a question is held by every cell that lists
it, so "suppliers of the Chemnitz plant" counts the supplier of both plants too. Pure text; the runner turns
it into polars expressions."""

from __future__ import annotations

import re

SEPARATOR = re.compile(r"\s*[,;]\s*")  # "Augsburg, Chemnitz", "DE;AT"


def lists_values(values: tuple[str, ...]) -> bool:
    """Whether a column's distinct `values` are single values and lists of them: at least one cell lists two or
    more, and every listed item is a cell of its own elsewhere ("Kupferlackdraht, Wickelmaterial" beside no
    "Wickelmaterial" is one description, not a list)."""
    singles = {v.strip().lower() for v in values if not SEPARATOR.search(v.strip())}
    listed = [items(v) for v in values if SEPARATOR.search(v.strip())]
    return len(singles) >= 2 and bool(listed) and all(len(i) > 1 and set(i) <= singles for i in listed)


def items(cell: str) -> list[str]:
    """A cell's listed values, lower-cased and stripped."""
    return [i for i in (part.strip().lower() for part in SEPARATOR.split(cell.strip())) if i]
