"""Day dates in table cells, as writers in Europe keep them: ISO ("2025-03-03") or day first with dots
("03.03.2025", "3.3.2025"). A column of either compares by date order; the cells keep their text, so
cited rows still match their source (evidence/rows.py), and only comparisons read them as ISO."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # polars loads only when a table is read: `strata ask` and `search` start without it
    import polars as pl

# A whole cell that is a day date. Dotted dates are day first in every language that writes them
# (de, fr-CH, nl, ...); slashed ones are not read: "03/04/2025" is March in the US and April elsewhere.
DAY_DATE = re.compile(r"\d{4}-\d{2}-\d{2}|\d{1,2}\.\d{1,2}\.\d{4}")
_DOTTED = r"^(\d{1,2})\.(\d{1,2})\.(\d{4})$"


def is_day_date(text: str) -> bool:
    return DAY_DATE.fullmatch(text.strip()) is not None


def iso_day(text: str) -> str:
    """A dotted day date as an ISO date ("1.7.2022" -> "2022-07-01"); any other text stripped, unchanged."""
    found = re.fullmatch(_DOTTED, text.strip())
    return f"{found[3]}-{int(found[2]):02d}-{int(found[1]):02d}" if found else text.strip()


def as_iso(text: pl.Expr) -> pl.Expr:
    """`text` (a string expression) with dotted day dates rewritten as ISO dates; other text unchanged,
    so ISO order is date order for every day date."""
    import polars as pl

    text = text.str.strip_chars()
    parts = text.str.extract_groups(_DOTTED)
    iso = pl.concat_str(
        [
            parts.struct.field("3"),
            parts.struct.field("2").str.zfill(2),
            parts.struct.field("1").str.zfill(2),
        ],
        separator="-",
    )
    return pl.when(text.str.contains(_DOTTED)).then(iso).otherwise(text)
