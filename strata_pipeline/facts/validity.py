"""A validity date said as lapsed or still running on a day: "out of warranty on 1 April 2025" is the rows
whose `Warranty until` is before that day; "still under warranty on 2025-04-01" those whose is on or after it.
The column is the date column the question names ("warranty" for `Warranty until`, see Column.name_words)."""

from __future__ import annotations

import re

from strata_pipeline.facts.intent import Filter

DAY = r"(\d{4}-\d{2}-\d{2})"  # the question's dates are ISO by now (periods.iso_dates)
ON = r"(?:on|by|as of|at|am|zum|per|au|le|en date du)\s+(?:the\s+|dem\s+)?"
# words between the state and the day: "out of warranty on", "nicht mehr gültig am", "hors garantie au"
BETWEEN = r"(?:[\w\-'/]+\s+){0,4}?"
LAPSED = re.compile(
    rf"\b(?:out of|no longer (?:in|under|valid)|expired|lapsed|abgelaufen|nicht mehr|hors|expiré\w*|périmé\w*)\s+"
    rf"{BETWEEN}{ON}{DAY}"
)
RUNNING = re.compile(rf"\b(?:still (?:in|under|valid)|noch (?:in|gültig)|encore (?:sous|valable))\s+{BETWEEN}{ON}{DAY}")


def validity_conditions(lowered: str, column: str) -> tuple[list[Filter], list[str]]:
    """Filters on `column` (a validity date) for each day the (lower-case, ISO-dated) question says it had
    lapsed or was still running on, and the days read."""
    found: list[Filter] = []
    days: list[str] = []
    for pattern, op in ((LAPSED, "lt"), (RUNNING, "ge")):
        for match in pattern.finditer(lowered):
            found.append(Filter(column, op, match.group(1)))
            days.append(match.group(1))
    return found, days
