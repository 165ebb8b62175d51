"""A year the question names that a table cannot speak for.

"Which holidays does the Munich office observe in 2026?" over a holiday list whose dates are all in 2025
(and whose file is `public-holidays-2025.csv`) would list 2025's holidays as 2026's. A table speaks for
the years of its dates, of its cells that are years, and of its file name; a year outside them is a
period the table does not cover, and the aggregation refuses rather than answer for another year.

A year compared with a column of years ("machines built before 2016" over a `Baujahr` column) is a
condition on that column instead (`year_conditions`).
"""

from __future__ import annotations

import re

from strata_pipeline.facts.catalogue import Table
from strata_pipeline.facts.dates import iso_day
from strata_pipeline.facts.intent import Filter
from strata_pipeline.facts.periods import named_years, years_in


def table_years(table: Table) -> set[str] | None:
    """The years a table speaks for, or None when it cannot tell (no dated column whose values are
    listed, and no year in its file name)."""
    from_name = years_in(table.doc_id)
    dated = [c for c in table.columns if c.is_date]
    if not dated and not from_name:
        return None
    years = from_name | {iso_day(v)[:4] for c in dated for v in c.values}
    years |= {v.strip() for c in table.columns for v in c.values if re.fullmatch(r"(?:19|20)\d{2}", v.strip())}
    return years


def uncovered_year(question: str, table: Table) -> str:
    """Why `table` cannot answer for a year the question names, or "" when it can (or cannot tell)."""
    covered = table_years(table)
    if covered is None:
        return ""
    # a year in a column's name is that column, not a period: "Einkaufsvolumen 2024" of `Jahresvolumen 2024 (CHF)`
    named = {w for c in table.columns for w in c.words}
    missing = [y for y in named_years(question) if y not in covered and y not in named]
    if not missing:
        return ""
    span = ", ".join(sorted(covered)) or "none"
    return f"names {', '.join(missing)}, but the table covers only {span}"


# A comparison with a year: "built before 2016", "vor 2016 gebaut", "mises en service après 2019", "seit 2020".
YEAR_COMPARE = {
    "lt": r"before|prior to|earlier than|vor|avant",
    "gt": r"after|later than|nach|après|apres",
    "ge": r"since|seit|depuis",
    "le": r"until|up to|bis|jusqu'en|jusqu'à",
}
# Words that end the name of a column of years: "year", "model_year", "Baujahr", "Année de construction".
YEAR_COLUMN_WORDS = ("year", "jahr", "année", "annee", "jahrgang")


def year_conditions(question: str, table: Table) -> list[Filter]:
    """Filters for the year comparisons the question writes, on the table's one number column of years
    ("Baujahr", "year_built"); none when the table has no such column, or more than one."""
    held = [c for c in table.columns if c.kind == "number" and any(w.endswith(YEAR_COLUMN_WORDS) for w in c.words)]
    if len(held) != 1:
        return []
    found = []
    for op, pattern in YEAR_COMPARE.items():
        said = rf"\b(?:{pattern})\s+(?:(?:dem|the|l')\s*(?:jahr|year|année)\s+)?((?:19|20)\d{{2}})\b"
        found += [Filter(held[0].name, op, float(m.group(1))) for m in re.finditer(said, question.lower())]
    return found


def year_or_date_filters(
    dated: list[Filter], dated_named: bool, by_year: list[Filter]
) -> tuple[list[Filter], list[Filter]]:
    """Which reading of a year comparison holds: on the table's date column (`dated`) or on its column of
    years (`by_year`). "vor 2016 gebaut" in a machine list with Baujahr and a "Letzte Wartung" date: the
    years, unless the question names the date column (`dated_named`). Returns (dated, by_year), one empty."""
    if by_year and dated and not dated_named:
        return [], by_year
    return dated, ([] if dated else by_year)
