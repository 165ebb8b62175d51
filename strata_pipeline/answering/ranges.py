"""Bands and ranges: which row of a banded table a question's figure falls in.

Fee, rate and tariff tables are banded: "M2 | motor | 7501 | 25000 | 410" (a claim worth 7,501 to
25,000 €), "10 to 40 kWp | 6.88". A question that gives a figure ("a motor claim worth 12,000 €",
"a 60 kWp system") is answered by the row whose band holds it, and by no row when no band does:
then the table does not cover the case. Read here: the question's figures with their unit (a
currency or a unit word, `abstention.values`; not a base such as "per 1,000 €"), and a row's
bands, written in words ("up to 10 kWp", "10 to 40 kWp", "über 40 kWp", "de 10 à 40 kWp") or as a
pair of columns ("claim_value_from_eur: 7501; claim_value_to_eur: 25000", an empty upper bound
open).

Plain functions over text.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from strata_pipeline.answering.abstention import values
from strata_pipeline.answering.table_text import record_cells
from strata_pipeline.facts.numbers import AFTER_WORDS, COMPARE_WORDS, parse_number

_NUMBER = r"(\d[\d.,' ]*\d|\d)"
_UNIT = r"\s?([^\W\d_][\w/]*|€|\$|£|%)?"
# "per 1,000 €", "je 1.000 €", "pour 1 000 €": the base of a rate, not the case asked about; "more than
# 10,000 €", "40 hours or more": a bound, which a band starting at 10,001 answers
_BASE = re.compile(r"\b(?:per|pro|je|par|pour)\s+\d[\d.,' ]*\s?(?:€|\$|£|[^\W\d_]+)?", re.IGNORECASE)
_BOUND_WORDS = "|".join(words for op, words in COMPARE_WORDS.items() if op != "eq")
_BOUND = re.compile(
    rf"\b(?:{_BOUND_WORDS})\s+\S+(?:\s+\S+)?|\d[\d.,' ]*\s?\S*\s+(?:{'|'.join(AFTER_WORDS.values())})\b",
    re.IGNORECASE,
)
_BETWEEN = re.compile(
    rf"(?:\b(?:from|von|de|between|zwischen|entre)\s+)?{_NUMBER}{_UNIT}\s*(?:-|–|to|bis|à|and|und|et)\s*{_NUMBER}{_UNIT}",
    re.IGNORECASE,
)
_UP_TO = re.compile(
    rf"\b(?:up to|upto|under|below|less than|max(?:imum)?|bis|unter|jusqu'à|jusqu’à|moins de)\s+{_NUMBER}{_UNIT}",
    re.IGNORECASE,
)
_FROM = re.compile(
    rf"\b(?:over|above|more than|from|ab|über|mehr als|plus de|au-delà de|dès)\s+{_NUMBER}{_UNIT}", re.IGNORECASE
)
_LOW_COLUMN = re.compile(r"(?:^|_)(?:from|min|lower|von|ab|de)(?:_|$)", re.IGNORECASE)
_HIGH_COLUMN = re.compile(r"(?:^|_)(?:to|max|upper|bis|until|à)(?:_|$)", re.IGNORECASE)
_CURRENCY_WORDS = {"eur": "EUR", "euro": "EUR", "euros": "EUR", "usd": "USD", "gbp": "GBP", "chf": "CHF"}


@dataclass(frozen=True)
class Band:
    low: float
    high: float  # inf when open
    unit: str  # as abstention.values names it: "EUR", "kwp", "km"

    def holds(self, value: float) -> bool:
        return self.low <= value <= self.high


def _float(text: str) -> float | None:
    try:
        return parse_number(text.strip().strip("'"))
    except ValueError:
        return None


def _unit_of(number: str, unit: str | None) -> str | None:
    """The unit a number and the word after it state, named as abstention.values names it."""
    if not unit:
        return None
    found = values(f"{number} {unit}") if unit not in "€$£" else values(f"{unit}{number}")
    return next(iter(found), None)


def figures(question: str) -> list[tuple[float, str]]:
    """The figures a question gives with their unit ("a motor claim worth 12,000 €" -> (12000.0,
    "EUR")), less a rate's base ("per 1,000 €") and bounds ("more than 10,000 €")."""
    found = []
    for unit, numbers in values(_BOUND.sub(" ", _BASE.sub(" ", question))).items():
        if unit in ("time", "date", "%"):
            continue
        for number in numbers:
            value = _float(number)
            if value is not None:
                found.append((value, unit))
    return found


def _column_unit(name: str) -> str | None:
    """The unit a column's name ends in: "claim_value_to_eur" -> "EUR", "size_kwp" -> "kwp"."""
    last = name.lower().rsplit("_", 1)[-1]
    if last in _CURRENCY_WORDS:
        return _CURRENCY_WORDS[last]
    return _unit_of("1", last)


def bands(text: str) -> list[Band]:
    """The bands a sentence or row states, in words or as a pair of from/to columns."""
    found: list[Band] = []
    for match in _BETWEEN.finditer(text):
        unit = _unit_of(match.group(3), match.group(4)) or _unit_of(match.group(1), match.group(2))
        low, high = _float(match.group(1)), _float(match.group(3))
        if unit and low is not None and high is not None and low < high:
            found.append(Band(low, high, unit))
    rest = _BETWEEN.sub(" ", text)
    for pattern, upper in ((_UP_TO, True), (_FROM, False)):
        for match in pattern.finditer(rest):
            unit, bound = _unit_of(match.group(1), match.group(2)), _float(match.group(1))
            if unit and bound is not None:
                found.append(Band(0.0, bound, unit) if upper else Band(bound, math.inf, unit))
    cells = dict(record_cells(text))
    for name, value in cells.items():
        if not _LOW_COLUMN.search(name) or (unit := _column_unit(name)) is None:
            continue
        partner = next((n for n in cells if n != name and _HIGH_COLUMN.search(n) and _column_unit(n) == unit), None)
        low = _float(value)
        high = _float(cells[partner]) if partner and cells[partner] else math.inf
        if low is not None and high is not None:
            found.append(Band(low, high, unit))
    return found


def fits(question: str, text: str) -> bool | None:
    """Whether a band of `text` holds a figure of `question` in the same unit: True when one does,
    False when `text` has bands in that unit and none holds it, None when it has none (nothing to say)."""
    asked = figures(question)
    if not asked:
        return None
    stated = bands(text)
    verdict: bool | None = None
    for value, unit in asked:
        same = [b for b in stated if b.unit == unit]
        if any(b.holds(value) for b in same):
            return True
        if same:
            verdict = False
    return verdict
