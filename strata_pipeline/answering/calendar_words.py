"""Weekdays and months across languages, for the check that quoted passages mention what a question
names.

"Is the Aarlingen customer centre open on Saturdays?" names Saturday; the German page says
"Samstag", and "Montag bis Freitag" covers a question about Wednesdays. Weekday and month names are
a closed class, so they are matched through a table (text/calendar.py: en, de, fr, es, it, nl)
rather than by spelling, and a range of weekdays mentions every day inside it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

from strata_pipeline.text.calendar import MONTH_VARIANTS, MONTHS, WEEKDAY_VARIANTS, WEEKDAYS

LANGUAGES = ("en", "de", "fr", "es", "it", "nl")
# English months and weekdays are dates, which passages often write in digits ("2025-01-15"): values, not
# names, and words that name a value rather than a thing.
ENGLISH_CALENDAR_WORDS = frozenset(MONTHS["en"] + WEEKDAYS["en"])
_KEYS = {name: ("weekday", i) for language in LANGUAGES for i, name in enumerate(WEEKDAYS[language])}
_KEYS |= {name: ("weekday", i) for i, spellings in enumerate(WEEKDAY_VARIANTS) for name in spellings}
_KEYS |= {name: ("month", i) for language in LANGUAGES for i, name in enumerate(MONTHS[language])}
_KEYS |= {name: ("month", i) for i, spellings in enumerate(MONTH_VARIANTS) for name in spellings}
_WORD = re.compile(r"[^\W\d_]+")
# "Montag bis Freitag", "Monday to Friday", "du lundi au vendredi", "Mon–Fri" spelt out
_RANGE = re.compile(r"\s*(?:bis|to|through|thru|till|until|au|à|a|al|tot|[-–—])\s*", re.IGNORECASE)


@lru_cache(maxsize=4096)
def calendar_key(word: str) -> tuple[str, int] | None:
    """("weekday", 0..6) or ("month", 0..11) for a weekday or month name in any of the languages,
    plurals and German adverbs included ("Saturdays", "samstags", "samedis"); None otherwise."""
    folded = word.casefold()
    return _KEYS.get(folded) or (_KEYS.get(folded[:-1]) if folded.endswith("s") else None)


def weekdays_named(text: str) -> dict[int, str]:
    """The weekdays `text` names, in any of the languages, each as one of its words: {3: "Thursdays"}."""
    return {key[1]: w for w in _WORD.findall(text) if (key := calendar_key(w)) is not None and key[0] == "weekday"}


def _days_in_ranges(text: str) -> set[int]:
    """The weekdays inside the ranges of weekdays `text` writes ("Montag bis Freitag": 0 to 4)."""
    days: set[int] = set()
    named = [(m, key[1]) for m in _WORD.finditer(text) if (key := calendar_key(m.group())) and key[0] == "weekday"]
    for (first, a), (last, b) in pairwise(named):
        if a < b and _RANGE.fullmatch(text[first.end() : last.start()]):
            days |= set(range(a, b + 1))
    return days


def calendar_named(word: str, text: str) -> bool:
    """Whether `text` names the weekday or month `word` names, in any of the languages, or (for a
    weekday) covers it by a range ("Montag bis Freitag" names Wednesday)."""
    key = calendar_key(word)
    if key is None:
        return False
    # "may" in lower case is the verb, not the month
    if any(calendar_key(token) == key for token in _WORD.findall(text) if token != "may"):
        return True
    return key[0] == "weekday" and key[1] in _days_in_ranges(text)
