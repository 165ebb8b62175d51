"""Cells that list several of their column's values: a supplier's plants "Augsburg, Chemnitz" in a column
whose other cells say "Augsburg" or "Chemnitz". A value named in a question is held by every cell that lists
it, so "suppliers of the Chemnitz plant" counts the supplier of both plants too. Pure text; the runner turns
it into polars expressions."""

from __future__ import annotations

import re
from collections import Counter

SEPARATOR = re.compile(r"\s*[,;]\s*")  # "Augsburg, Chemnitz", "DE;AT"


def lists_values(values: tuple[str, ...]) -> bool:
    """Whether a column's distinct `values` are single values and lists of them: at least one cell lists two or
    more, and every listed item is a cell of its own elsewhere or is listed in another cell too ("Innsbruck,
    Linz" beside "Linz" and "St. Gallen, Innsbruck"). "Kupferlackdraht, Wickelmaterial" beside no other
    "Wickelmaterial" is one description, not a list."""
    singles = {v.strip().lower() for v in values if not SEPARATOR.search(v.strip())}
    listed = [items(v) for v in values if SEPARATOR.search(v.strip())]
    cells_listing = Counter(item for i in listed for item in set(i))
    recurring = singles | {item for item, cells in cells_listing.items() if cells > 1}
    return len(recurring) >= 2 and bool(listed) and all(len(i) > 1 and set(i) <= recurring for i in listed)


def listed_items(values: tuple[str, ...]) -> list[str]:
    """The items a list column's cells list that are no cell of their own, as written ("Innsbruck" of
    "Innsbruck, Linz"): values a question names as it names a single cell."""
    singles = {v.strip().lower() for v in values}
    found = [part.strip() for v in values for part in SEPARATOR.split(v.strip()) if part.strip()]
    return list(dict.fromkeys(f for f in found if f.lower() not in singles))


def items(cell: str) -> list[str]:
    """A cell's listed values, lower-cased and stripped."""
    return [i for i in (part.strip().lower() for part in SEPARATOR.split(cell.strip())) if i]
