"""The opening-times row a superlative asks for: "An welchem Tag hat das Kundencenter am längsten geöffnet?" is
answered by the row with the longest span ("Donnerstag | 9:00 – 19:00"), "on which day does it open earliest"
by the earliest opening and "le plus tard" by the latest closing, not by the row the model scores highest:
a similarity cannot compare clock times. Pure functions over the question and the sentences' text (en, de,
fr); the answerer (answer.py) calls `at_extreme` after choosing its sentences.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

T = TypeVar("T")

# "9:00 – 19:00", "08.30-12.00", "9h00 à 12h00", "9:00 bis 16:00"
SPAN = re.compile(
    r"(?<!\d)([01]?\d|2[0-4])[:.h]([0-5]\d)\s*(?:[-–—]|bis|to|until|à)\s*([01]?\d|2[0-4])[:.h]([0-5]\d)(?!\d)",
    re.IGNORECASE,
)
# the superlative, by what it compares: a span's length, its start, its end
LONGEST = re.compile(r"\b(?:longest|am\s+längsten|le\s+plus\s+longtemps|the\s+most\s+hours)\b", re.IGNORECASE)
EARLIEST = re.compile(r"\b(?:earliest|am\s+frühesten|le\s+plus\s+tôt)\b", re.IGNORECASE)
LATEST = re.compile(r"\b(?:latest|am\s+spätesten|le\s+plus\s+tard)\b", re.IGNORECASE)
# what the superlative is about: being open or staffed ("the latest version" compares no clock times)
OPEN = re.compile(
    r"\b(?:open|opens|opened|staffed|geöffnet|offen|öffnet|besetzt|erreichbar|ouvert|ouverte|ouverts|ouvre)\b",
    re.IGNORECASE,
)


def _minutes(hour: str, minute: str) -> int:
    return int(hour) * 60 + int(minute)


def spans(text: str) -> list[tuple[int, int]]:
    """The clock-time spans a sentence states, as (start, end) in minutes after midnight."""
    return [(_minutes(m[1], m[2]), _minutes(m[3], m[4])) for m in SPAN.finditer(text)]


def _measure(question: str) -> Callable[[tuple[int, int]], int] | None:
    """How to rank a span for the superlative the question asks, larger is better; None when it asks none."""
    if not OPEN.search(question):
        return None
    if LONGEST.search(question):
        return lambda span: span[1] - span[0]
    if EARLIEST.search(question):
        return lambda span: -span[0]
    if LATEST.search(question):
        return lambda span: span[1]
    return None


def at_extreme(
    question: str,
    ranked: Sequence[tuple[float, T]],
    chosen: Sequence[tuple[float, T]],
    scored: Callable[[T], str],
    passage: Callable[[T], Hashable],
    limit: int,
) -> list[tuple[float, T]]:
    """The sentences to quote when the question asks which time is open longest, earliest or latest: of the
    `ranked` sentences (above the floor) from the passage of the first chosen one, the one whose span is the
    extreme, then the other chosen ones. [] when the question asks no such thing, no sentence of that
    passage states a span, or the first chosen sentence already holds the extreme (the caller keeps its
    choice)."""
    measure = _measure(question)
    if measure is None or not chosen:
        return []
    home = passage(chosen[0][1])
    best: tuple[int, tuple[float, T]] | None = None
    for item in ranked:
        if passage(item[1]) != home:
            continue
        for span in spans(scored(item[1])):
            if best is None or measure(span) > best[0]:
                best = (measure(span), item)
    if best is None:
        return []
    first = spans(scored(chosen[0][1]))
    if first and max(measure(span) for span in first) >= best[0]:
        return []
    return [best[1], *(c for c in chosen if c[1] is not best[1][1])][:limit]
