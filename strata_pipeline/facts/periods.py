"""Periods written as people write them, read as ranges over a column of ISO dates (en, de, fr):

- a month: "in March 2025", "im März 2025", "en mars 2025", "03/2025", "3.2025", "2025-03";
- a quarter or half year: "Q2 2025", "2. Quartal 2025", "premier trimestre 2025", "second half of 2025";
- two dates: "between 2025-05-01 and 2025-07-31", "zwischen ... und ...", "entre ... et ..." (both included).

Each period is a half-open range [start, end) of ISO prefixes ("2025-03" <= d < "2025-04"): ISO dates
order as text, so a day inside March compares between them. The text read is returned too, so that the
year in it is not read again as a cell value or a document's number.
"""

from __future__ import annotations

import re
from functools import partial

MONTHS: dict[str, int] = {
    # en, de, fr; abbreviations people write with or without a dot
    "january": 1, "jan": 1, "januar": 1, "jänner": 1, "janvier": 1, "janv": 1,
    "february": 2, "feb": 2, "februar": 2, "février": 2, "fevrier": 2, "févr": 2,
    "march": 3, "mar": 3, "märz": 3, "maerz": 3, "mars": 3,
    "april": 4, "apr": 4, "avril": 4, "avr": 4,
    "may": 5, "mai": 5,
    "june": 6, "jun": 6, "juni": 6, "juin": 6,
    "july": 7, "jul": 7, "juli": 7, "juillet": 7, "juil": 7,
    "august": 8, "aug": 8, "août": 8, "aout": 8,
    "september": 9, "sep": 9, "sept": 9, "septembre": 9,
    "october": 10, "oct": 10, "oktober": 10, "okt": 10, "octobre": 10,
    "november": 11, "nov": 11, "novembre": 11,
    "december": 12, "dec": 12, "dezember": 12, "dez": 12, "décembre": 12, "decembre": 12, "déc": 12,
}  # fmt: skip
ORDINALS: dict[str, int] = {
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "last": 4,
    "erste": 1, "ersten": 1, "zweite": 2, "zweiten": 2, "dritte": 3, "dritten": 3, "vierte": 4, "vierten": 4,
    "letzte": 4, "letzten": 4, "premier": 1, "1er": 1, "deuxième": 2, "troisième": 3,
    "quatrième": 4, "dernier": 4, "1.": 1, "2.": 2, "3.": 3, "4.": 4,
}  # fmt: skip
_MONTH = "|".join(re.escape(m) for m in sorted(MONTHS, key=len, reverse=True))
_ORDINAL = "|".join(re.escape(o) for o in sorted(ORDINALS, key=len, reverse=True))
YEAR = r"((?:19|20)\d{2})"
ISO = r"(\d{4}-\d{2}-\d{2}|\d{4}-\d{2})"
PATTERNS: tuple[tuple[str, str], ...] = (
    ("between", rf"\b(?:between|zwischen|entre)\s+(?:dem\s+|le\s+)?{ISO}\s+(?:and|und|et)\s+(?:dem\s+|le\s+)?{ISO}"),
    (
        "month_range",  # "between March and May 2025", "von März bis Mai 2025", "entre mars et mai 2025"
        rf"\b(?:between|from|zwischen|von|entre|de)\s+({_MONTH})\.?\s+(?:and|to|until|through|und|bis|et|à)\s+"
        rf"({_MONTH})\.?\s+(?:of\s+)?{YEAR}(?!\d)",
    ),
    ("month", rf"(?<![\w-])({_MONTH})\.?\s+(?:of\s+)?{YEAR}(?!\d)"),
    ("numeric_month", rf"(?<![\w./-])(0?[1-9]|1[0-2])[/.]{YEAR}(?![\d./-])"),
    ("quarter", rf"(?<![\w-])q([1-4])\s*(?:/\s*)?{YEAR}(?!\d)|(?<![\w-]){YEAR}\s*[-/ ]?\s*q([1-4])(?!\w)"),
    (
        "named_quarter",
        rf"(?<![\w-])({_ORDINAL})\s+(quarter|quartal|trimestre|half|halbjahr|semestre)\s+(?:of\s+|de\s+|des\s+)?"
        rf"(?:the\s+year\s+)?{YEAR}(?!\d)",
    ),
)
# a year alone after "in" ("registered in 2024", "im Jahr 2024", "en 2024"): a period only over a table
# with dates, since "the 2026 fee schedule" and "in 2026" may also name a document
YEAR_PERIOD = ("year", rf"\b(?:in|im|during|während|en|pendant)\s+(?:(?:the\s+)?year\s+|(?:dem\s+)?jahr\s+|l'année\s+)?"
               rf"{YEAR}(?![\d-])")  # fmt: skip
SPAN_MONTHS = {"quarter": 3, "quartal": 3, "trimestre": 3, "half": 6, "halbjahr": 6, "semestre": 6}


def read_periods(question: str, years: bool = True) -> tuple[list[tuple[str, str, str, str]], list[str]]:
    """The periods the question names, each (start op, start, end op, end), and the texts they were read
    from. A text inside one already read is not read again. `years`: also a year alone ("in 2024")."""
    found = _periods(question.lower(), (*PATTERNS, YEAR_PERIOD) if years else PATTERNS)
    return [f for f, _ in found], [text for _, text in found]


def _periods(lowered: str, patterns: tuple[tuple[str, str], ...]) -> list[tuple[tuple[str, str, str, str], str]]:
    found: list[tuple[int, int, tuple[str, str, str, str], str]] = []
    for kind, pattern in patterns:
        for match in re.finditer(pattern, lowered):
            if any(a < match.end() and match.start() < b for a, b, *_ in found):
                continue  # inside a period already read ("between 2025-05-01 and ...")
            span = _span(kind, match)
            if span is not None:
                found.append((match.start(), match.end(), span, match.group()))
    return [(span, text) for *_, span, text in sorted(found)]


def _span(kind: str, match: re.Match[str]) -> tuple[str, str, str, str] | None:
    groups = [g for g in match.groups() if g is not None]
    if kind == "between":
        return ("ge", groups[0], "le" if len(groups[1]) == 10 else "lt", _after(groups[1]))
    if kind == "year":
        return _months(int(groups[0]), 1, 12)
    if kind == "month_range":
        first, last = MONTHS[groups[0]], MONTHS[groups[1]]
        return _months(int(groups[2]), first, last - first + 1) if first <= last else None
    if kind == "month":
        month, year = MONTHS[groups[0]], int(groups[1])
        return _months(year, month, 1)
    if kind == "numeric_month":
        return _months(int(groups[1]), int(groups[0]), 1)
    if kind == "quarter":
        quarter, year = (int(groups[0]), int(groups[1])) if len(groups[0]) == 1 else (int(groups[1]), int(groups[0]))
        return _months(year, 3 * quarter - 2, 3)
    size = SPAN_MONTHS[groups[1]]
    index = ORDINALS[groups[0]]
    if size == 6 and index > 2:
        index = 2 if groups[0] in ("last", "letzte", "letzten", "dernier") else 0
    if not index:
        return None
    return _months(int(groups[2]), size * (index - 1) + 1, size)


def _after(value: str) -> str:
    """The end of "between ... and X": X itself for a day (included with le), the next month for a month."""
    if len(value) == 10:
        return value
    year, month = int(value[:4]), int(value[5:7])
    return f"{year + month // 12:04d}-{month % 12 + 1:02d}"


def _months(year: int, first: int, count: int) -> tuple[str, str, str, str]:
    """[first month of year, the month `count` later)."""
    end = first - 1 + count
    return ("ge", f"{year:04d}-{first:02d}", "lt", f"{year + end // 12:04d}-{end % 12 + 1:02d}")


_DAY = r"(0?[1-9]|[12]\d|3[01])"
DAY_DATES: tuple[tuple[str, str], ...] = (  # (pattern, order of day, month, year in its groups)
    (rf"(?<![\w.-]){_DAY}\.(0?[1-9]|1[0-2])\.{YEAR}(?![\w.])", "dmy"),  # 01.03.2025, 1.3.2025
    (rf"(?<![\w.-]){_DAY}(?:\.|er)?\s+({_MONTH})\.?\s+{YEAR}(?!\d)", "dMy"),  # 1. März 2025, 1er mars 2025
    (rf"(?<![\w-])({_MONTH})\.?\s+{_DAY}(?:st|nd|rd|th)?,?\s+{YEAR}(?!\d)", "Mdy"),  # March 3, 2025
)


ISO_DAY = re.compile(r"(?<![\w-])\d{4}-\d{2}-\d{2}(?![\w-])")  # what iso_dates writes


def iso_dates(text: str) -> str:
    """Day dates as ISO dates, so they compare with a column of ISO dates: "01.03.2025", "1. März 2025",
    "3 mars 2025", "March 3, 2025" -> "2025-03-01" ... (a month and year alone stay: they are periods)."""
    for pattern, order in DAY_DATES:
        text = re.sub(pattern, partial(_iso, order=order), text, flags=re.IGNORECASE)
    return text


def _iso(match: re.Match[str], order: str) -> str:
    parts = dict(zip(order, match.groups(), strict=True))
    month = int(parts["m"]) if "m" in parts else MONTHS[parts["M"].lower()]
    return f"{int(parts['y']):04d}-{month:02d}-{int(parts['d']):02d}"


# a year on its own: not inside a date, a version, an amount or a code ("2025-03", "v2025", "2,025")
_LONE_YEAR = re.compile(r"(?<![\w.,/-])((?:19|20)\d{2})(?![\w.,/-]\d|\w)")
# any year, a date's included ("2025-12-26")
_ANY_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")


def named_years(question: str) -> list[str]:
    """The years a question names on their own, in order, each once ("in 2026", "2024 and 2025")."""
    return list(dict.fromkeys(_LONE_YEAR.findall(question)))


def years_in(text: str) -> set[str]:
    """Every year a text holds, in dates, file names and titles too ("2025-12-26", "tariffs-2026.csv")."""
    return set(_ANY_YEAR.findall(text))
