"""Find an indexed quote in its source text.

Quotes come from redacted text: a placeholder ([PERSON_1], [EMAIL_ADDRESS_2], [REDACTED_SECRET])
stands where the source holds the value, so it matches any short run of text there, and a placeholder
that repeats within a quote must match the same value each time. Everything else matches exactly.
"""

from __future__ import annotations

import re
from functools import lru_cache

from strata_pipeline.evidence.packet import Place

# The placeholders redaction writes (strata_pipeline.redaction.redact and .secrets).
PLACEHOLDER = re.compile(r"\[(?:REDACTED_SECRET|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_\d+)\]")
# What one placeholder may stand for: a value is short, a secret may span a few lines; neither starts
# or ends with a space (a value found by a detector is trimmed).
VALUE = r"\S(?:[\s\S]{0,198}?\S)??"
SECRET = r"\S(?:[\s\S]{0,3998}?\S)??"


@lru_cache(maxsize=256)
def quote_pattern(quote: str) -> re.Pattern[str]:
    """The pattern a source text must hold for `quote`: literal text, placeholders as wildcards."""
    parts: list[str] = []
    named: dict[str, str] = {}
    cursor = 0
    for match in PLACEHOLDER.finditer(quote):
        parts.append(re.escape(quote[cursor : match.start()]))
        token = match.group(0)
        if token in named:
            parts.append(f"(?P={named[token]})")  # the same placeholder, the same value
        else:
            named[token] = f"p{len(named)}"
            parts.append(f"(?P<{named[token]}>{SECRET if token == '[REDACTED_SECRET]' else VALUE})")
        cursor = match.end()
    parts.append(re.escape(quote[cursor:]))
    return re.compile("".join(parts))


def place(text: str, start: int, end: int, pages: list[tuple[int, int, int]] | None = None) -> Place:
    """The Place of text[start:end]; `pages` are (page, start, end) spans of a paged source."""
    line_start = text.count("\n", 0, start) + 1
    line_end = line_start + text.count("\n", start, end)
    page = next((number for number, lo, hi in pages or () if lo <= start <= hi), None)
    return Place(line_start, line_end, start, end, page)


def match_at(text: str, quote: str, char_start: int) -> int | None:
    """The end of the quote when it starts exactly at `char_start` in `text`, else None."""
    if not quote or not 0 <= char_start <= len(text):
        return None
    found = quote_pattern(quote).match(text, char_start)
    return found.end() if found else None


def locate(text: str, quote: str, near_line: int = 1) -> tuple[int, int] | None:
    """(start, end) of the occurrence of `quote` in `text` whose first line is nearest `near_line`, or
    None when the text does not hold it."""
    if not quote:
        return None
    best: tuple[int, int, int] | None = None  # (distance in lines, start, end)
    for found in quote_pattern(quote).finditer(text):
        distance = abs(text.count("\n", 0, found.start()) + 1 - near_line)
        if best is None or distance < best[0]:
            best = (distance, found.start(), found.end())
        if distance == 0:
            break
    return None if best is None else (best[1], best[2])
