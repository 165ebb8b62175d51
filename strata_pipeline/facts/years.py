"""A year the question names that a table cannot speak for.

"Which holidays does the Munich office observe in 2026?" over a holiday list whose dates are all in 2025
(and whose file is `public-holidays-2025.csv`) would list 2025's holidays as 2026's. A table speaks for
the years of its dates, of its cells that are years, and of its file name; a year outside them is a
period the table does not cover, and the aggregation refuses rather than answer for another year.
"""

from __future__ import annotations

import re

from strata_pipeline.facts.catalogue import Table
from strata_pipeline.facts.periods import named_years, years_in


def table_years(table: Table) -> set[str] | None:
    """The years a table speaks for, or None when it cannot tell (no dated column whose values are
    listed, and no year in its file name)."""
    from_name = years_in(table.doc_id)
    dated = [c for c in table.columns if c.is_date]
    if not dated and not from_name:
        return None
    years = from_name | {v.strip()[:4] for c in dated for v in c.values}
    years |= {v.strip() for c in table.columns for v in c.values if re.fullmatch(r"(?:19|20)\d{2}", v.strip())}
    return years


def uncovered_year(question: str, table: Table) -> str:
    """Why `table` cannot answer for a year the question names, or "" when it can (or cannot tell)."""
    covered = table_years(table)
    if covered is None:
        return ""
    missing = [y for y in named_years(question) if y not in covered]
    if not missing:
        return ""
    span = ", ".join(sorted(covered)) or "none"
    return f"names {', '.join(missing)}, but the table covers only {span}"
