"""How long ago a date lies, as a condition on a date column: "more than 12 months ago", "vor mehr als 12
Monaten", "il y a plus de 12 mois", "within the last 30 days", counted back from the day the question names
("am 31.03.2025 schon mehr als 12 Monate zurück") or from today.

The phrase becomes one order filter: "more than N units ago" is a date before the day N units back, "less than"
and "within the last" one on or after it. Read on the glossed question (periods.iso_dates, vocabulary.gloss),
so days are ISO and German and French units are partly English already.
"""

from __future__ import annotations

import calendar
import datetime
import re
from dataclasses import dataclass

from strata_pipeline.facts.vocabulary import NUMBER_WORD, number_value

_UNITS = {
    "day": "days", "days": "days", "tage": "days", "tagen": "days", "jour": "days", "jours": "days",
    "week": "weeks", "weeks": "weeks", "woche": "weeks", "wochen": "weeks", "semaine": "weeks", "semaines": "weeks",
    "month": "months", "months": "months", "monat": "months", "monate": "months", "monaten": "months",
    "mois": "months", "year": "years", "years": "years", "jahr": "years", "jahre": "years", "jahren": "years",
    "ans": "years", "année": "years", "années": "years",
}  # fmt: skip
_UNIT = "|".join(sorted(_UNITS, key=len, reverse=True))
_COUNT = rf"(\d+|{NUMBER_WORD})\s+({_UNIT})"
# the older side: "more than N units ago", "vor mehr als N Monaten", "il y a plus de N mois"
_MORE = r"more than|over|longer than|mehr als|über|länger als|plus de"
_LESS = r"less than|under|fewer than|weniger als|unter|moins de"
_RECENT = r"within the last|in the last|in the past|in den letzten|innerhalb der letzten|au cours des"
_AGO = r"ago|back|zurück|zurückliegt|zurücklag|her"
_PATTERNS = (
    ("lt", rf"\b(?:vor|il y a)\s+(?:{_MORE})\s+{_COUNT}\b"),
    ("lt", rf"\b(?:{_MORE})\s+{_COUNT}\s+(?:{_AGO})\b"),
    ("ge", rf"\b(?:vor|il y a)\s+(?:{_LESS})\s+{_COUNT}\b"),
    ("ge", rf"\b(?:{_LESS})\s+{_COUNT}\s+(?:{_AGO})\b"),
    ("ge", rf"\b(?:{_RECENT})\s+{_COUNT}\b"),
)  # fmt: skip
# the day counted from: "on 2025-03-31", "am 2025-03-31", "as of", "au", "per", "Stand"
_ANCHOR = re.compile(r"\b(?:on|as of|as at|at|am|zum|per|stand|au|le|by)\s+(?:the\s+|dem\s+)?(\d{4}-\d{2}-\d{2})\b")


@dataclass(frozen=True)
class Elapsed:
    op: str  # "lt": older than the cut-off day; "ge": on it or later
    cutoff: str  # ISO day
    spans: tuple[tuple[int, int], ...]  # where the phrase and the anchor stand, to be read no further
    anchor: str  # the ISO day counted from
    said: str  # the phrase, for the evidence


def read_elapsed(lowered: str, today: datetime.date | None = None) -> Elapsed | None:
    """The elapsed-time condition a (glossed, lower-case) question states, or None."""
    for op, pattern in _PATTERNS:
        found = re.search(pattern, lowered)
        if found is None:
            continue
        anchored = _ANCHOR.search(lowered)
        day = datetime.date.fromisoformat(anchored.group(1)) if anchored else (today or datetime.date.today())
        amount, unit = int(number_value(found.group(1))), _UNITS[found.group(2)]
        spans = (found.span(), anchored.span()) if anchored else (found.span(),)
        return Elapsed(op, _back(day, amount, unit).isoformat(), spans, day.isoformat(), found.group(0))
    return None


def without_elapsed(question: str, elapsed: Elapsed) -> str:
    """The question with the phrase and its anchor blanked (offsets kept): "mehr als 12" compares no number
    column, and the anchor day is no cell value."""
    for start, end in elapsed.spans:
        question = question[:start] + " " * (end - start) + question[end:]
    return question


def _back(day: datetime.date, amount: int, unit: str) -> datetime.date:
    """`day` less `amount` units; a month or year back keeps the day of the month where it exists."""
    if unit in ("days", "weeks"):
        return day - datetime.timedelta(days=amount * (7 if unit == "weeks" else 1))
    months = day.year * 12 + day.month - 1 - amount * (12 if unit == "years" else 1)
    year, month = divmod(months, 12)
    return datetime.date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))
