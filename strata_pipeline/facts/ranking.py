"""The n best rows or groups: "the three cheapest vehicles", "die 5 teuersten Kurse", "les trois véhicules
les moins chers", "top 3". An argmax or argmin with a limit names that many, best first, instead of
every value tied for the best. And what measures the best when the question does not say it after the
extreme word: a date ("the newest vehicle") or a column named before it, as French puts it.
"""

from __future__ import annotations

import dataclasses
import re

from strata_pipeline.facts.catalogue import Table
from strata_pipeline.facts.intent import Intent
from strata_pipeline.facts.phrasing import DATE_EXTREMES, EXTREMES, money_columns
from strata_pipeline.facts.vocabulary import NUMBER_WORDS, UNITS
from strata_pipeline.facts.wording import column_named, stem_word, stems, words
from strata_pipeline.facts.years import YEAR_COLUMN_WORDS

_COUNT = "|".join(re.escape(w) for w in sorted(NUMBER_WORDS, key=len, reverse=True) if not w.startswith("a "))
_EXTREME = "|".join(f"(?:{p})" for p in EXTREMES.values())
# "the three cheapest X", "top 3 X", "die drei teuersten X"; French puts the noun before the superlative
TOP_N = rf"\b(?:the|die|den|les|top)\s+(?:top\s+)?(\d{{1,2}}|{_COUNT})\s+(?:(?:{_EXTREME})\s+)?([\wäöüéèàç\-]+)"
MAX_LIMIT = 20


def top_n(question: str) -> tuple[int, str]:
    """(n, the noun of the rows asked for) for "the three cheapest vehicles"; (0, "") when no number of
    best rows is asked (one, or more than MAX_LIMIT, is no list of the best)."""
    lowered = question.lower()
    if not re.search(_EXTREME, lowered):
        return 0, ""
    for found in re.finditer(TOP_N, lowered):
        said = found.group(1)
        n = int(NUMBER_WORDS.get(said, said)) if (said.isdigit() or said in NUMBER_WORDS) else 0
        if 2 <= n <= MAX_LIMIT:
            return n, found.group(2)
    return 0, ""


def dated_measure(question: str, said: set[str], table: Table) -> list[str]:
    """The date column "the newest" or "the oldest" measures: the table's one date column, or the one named."""
    if not re.search(DATE_EXTREMES, question.lower()):
        return []
    dated = [c for c in table.columns if c.is_date]
    named = [c for c in dated if column_named(said, c)]
    chosen = named or (dated if len(dated) == 1 else [])
    if not chosen:  # "the oldest vehicle" where the age is a year of build: the lowest `Baujahr`, `year_built`
        years = [c for c in table.columns if c.kind == "number" and any(w.endswith(YEAR_COLUMN_WORDS) for w in c.words)]
        chosen = [c for c in years if column_named(said, c)] or years
    return [chosen[0].name] if len(chosen) == 1 else []


def said_before(question: str, op: str, table: Table, excluded: set[str]) -> list[str]:
    """A number column named in full right before the extreme word, as French puts it ("le délai de réponse
    le plus court", "la durée la plus longue"); [] when none is."""
    lowered = question.lower()
    found = re.search(EXTREMES[op], lowered)
    if not found:
        return []
    before = stems(" ".join(words(lowered[: found.start()])[-4:]))
    numeric = [c for c in table.columns if c.kind == "number" and c.name not in excluded]
    return [c.name for c in numeric if all(stem_word(w) in before for w in c.words if w not in UNITS.values())]


# Extremes of time: "the longest", "am längsten", "le plus long", "the shortest", "am kürzesten", "le plus court"
LENGTH_EXTREMES = r"\b(?:longest|shortest|längste\w*|kürzeste\w*|plus (?:long|court)\w*)\b"
TIME_WORDS = frozenset("duration length time days hours weeks months minutes dauer durée h".split())


def lasting_columns(question: str, table: Table, excluded: set[str]) -> list[str]:
    """The one number column that says how long a row lasts, when the question asks for the longest or
    shortest and names no measure ("which course lasts longest": duration_days); [] otherwise."""
    if not re.search(LENGTH_EXTREMES, question.lower()):
        return []
    timed = [
        c.name for c in table.columns if c.kind == "number" and c.name not in excluded and TIME_WORDS & set(c.words)
    ]
    return timed if len(timed) == 1 else []


def sole_measure(question: str, table: Table, group: str) -> list[str]:
    """What ranks the rows themselves when no measure is named ("the largest order", "the three biggest
    orders"): the one column of money the question asks for, else the table's only number column."""
    if group != table.columns[0].name:
        return []  # "which site has the most servers": a count of rows per site
    numeric = [c.name for c in table.columns if c.kind == "number"]
    return money_columns(question, table) or (numeric if len(numeric) == 1 else [])


# a second clause that asks for the figure itself: "..., and how many working days is it?", "und was kostet er?"
FIGURE_TOO = (
    r"(?:,\s*|\s)(?:and|und|et)\s+(?:how (?:many|much|long)|what (?:is|does|was)|wie (?:viele?|lange|hoch)|"
    r"was kostet|combien|quel(?:le)? est)\b"
)


def with_figure(intent: Intent, question: str, table: Table) -> Intent:
    """An argmax or argmin over the rows themselves that also asks for its figure is that figure, a max or min of
    a number column whose holding rows the answer names: "which item has the longest lead time, and how many
    working days is it?" is 20, held by HW-103. A best group ("which site has the most servers, and how many?")
    and a date stay as they are: a group's figure is no column's maximum, and dates are not numbers."""
    if intent.operation not in ("argmax", "argmin") or intent.per or intent.limit or len(intent.columns) != 1:
        return intent
    measured = table.column(intent.columns[0])
    rows = table.columns[0].name if table.columns else ""
    if measured is None or measured.kind != "number" or intent.group_by != (rows,):
        return intent
    if not re.search(FIGURE_TOO, question.lower()):
        return intent
    return dataclasses.replace(intent, operation=intent.operation[3:], group_by=())
