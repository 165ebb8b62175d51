"""Words a question shares with part of a text cell: "Welche Lieferanten gewähren Skonto?" over payment terms
"30 Tage netto, 14 Tage 2 % Skonto"; "ein Zahlungsziel von 60 Tagen" over "60 Tage netto". Such a word picks
the rows whose cell contains it (`contains`), when it is read by nothing else: no table, column or whole
value names it, and it is in some but not every cell of exactly one text column."""

from __future__ import annotations

import re

from strata_pipeline.facts.catalogue import Column, Table
from strata_pipeline.facts.intent import Filter
from strata_pipeline.facts.wording import forms, words

MIN_LETTERS = 5  # shorter words are too often parts of names and codes to pick rows by
NEGATED = re.compile(r"\b(?:not|no|without|nicht|kein\w*|ohne|sans|pas|aucun\w*)\s+(?:\w+\s+)?$", re.IGNORECASE)


def contained_words(question: str, table: Table, filters: list[Filter]) -> list[Filter]:
    """A `contains` filter for each phrase of the question, as written, that some but not all distinct cells of
    one text column hold, in the cell's own writing. A phrase is a number with the word after it ("60 Tagen"),
    or a capitalised word of five letters or more inside the question: a German noun or a name ("Skonto",
    "Python"), not an English word that says what the rows are ("the monitoring servers")."""
    named = {f for w in words(table.label) for f in forms(w)} | {
        f for c in table.columns for w in c.words for f in forms(w)
    }
    taken = {f.column for f in filters}
    held_by_filters = {w for f in filters for w in words(str(f.value).lower())}
    columns = [c for c in table.columns if c.kind == "text" and c.values and not c.is_date and not c.is_list]
    found: list[Filter] = []
    read: dict[str, tuple[str, ...]] = {}  # the phrase each column's filter was read from
    for phrase in _phrases(question):
        if forms(phrase[-1]) & named or phrase[-1] in held_by_filters:
            continue
        holders = [(c, shown) for c in columns if (shown := _held(phrase, c))]
        if len(holders) != 1:
            continue
        column, shown = holders[0]
        if column.name not in taken:
            found.append(Filter(column.name, "contains", shown))
            taken.add(column.name)
            read[column.name] = phrase
        elif column.name in read and not _together(read[column.name], phrase, column):
            # a second part of the column's cells, never in one cell with the first ("von Thermo King und wie viele
            # von Carrier"), is kept for the caller to refuse: either alone would count other rows than asked
            found.append(Filter(column.name, "contains", shown))
    return found


def _together(first: tuple[str, ...], second: tuple[str, ...], column: Column) -> bool:
    """Whether one cell holds both phrases ("Rocky" and "Linux" of "Rocky Linux 9"): one part, said in words."""
    return any(_position(first, cell) >= 0 and _position(second, cell) >= 0 for cell in map(words, column.values))


def two_parts_of_one_column(filters: list[Filter]) -> str:
    """The column two `contains` filters read ("Kühlaggregat": 'Thermo', 'Carrier'), "" when none: a figure for
    each part, or for rows with either, is no intent the runner holds, and both together match no row."""
    seen: set[str] = set()
    for f in filters:
        if f.op == "contains":
            if f.column in seen:
                return f.column
            seen.add(f.column)
    return ""


def _phrases(question: str) -> list[tuple[str, ...]]:
    """Numbers with the word after them ("60 tagen"), then capitalised words of five letters or more after
    the question's first word, lower-cased; none said after a negation ("ohne Skonto" keeps no such rows)."""
    found = [(m.start(), m.group(0)) for m in re.finditer(r"[^\W_]+", question)]
    kept = [(at, w) for at, w in found if not NEGATED.search(question[:at])]
    numbered = [
        (w, kept[i + 1][1].lower()) for i, (_, w) in enumerate(kept[:-1]) if w.isdigit() and kept[i + 1][1].isalpha()
    ]
    single = [
        (w.lower(),) for at, w in kept if at > found[0][0] and len(w) >= MIN_LETTERS and w.isalpha() and w[0].isupper()
    ]
    return [*numbered, *single]


def _held(phrase: tuple[str, ...], column: Column) -> str:
    """The phrase as the column's cells write it, when some but not all of its distinct cells hold it."""
    shown = ""
    holding = 0
    for value in column.values:
        cell = words(value.lower())
        at = _position(phrase, cell)
        if at < 0:
            continue
        holding += 1
        shown = shown or _written(value, cell[at : at + len(phrase)])
    return shown if 0 < holding < len(column.values) and not _whole_value(phrase, column) else ""


def _position(phrase: tuple[str, ...], cell: list[str]) -> int:
    """Where the phrase starts among the cell's words (-1 when it does not): numbers as written, words as written
    or inflected ("Tagen" for "Tage"), never translated ("Lager" is not a cell's "Warehouse")."""
    for at in range(len(cell) - len(phrase) + 1):
        if all(_inflected(a, b) for a, b in zip(phrase, cell[at:], strict=False)):
            return at
    return -1


def _inflected(said: str, written: str) -> bool:
    """The same word, or one with an inflection ending more ("Tagen" for "Tage", "Rabatts"); "Basel" is no
    "base". Numbers as written only."""
    if said.isdigit() or written.isdigit():
        return said == written
    short, long = sorted((said, written), key=len)
    return said == written or (len(short) >= 4 and long.startswith(short) and long[len(short) :] in ENDINGS)


ENDINGS = frozenset("n en e s es er ern".split())  # German and French plural and case endings


def _whole_value(phrase: tuple[str, ...], column: Column) -> bool:
    """A phrase that is a whole cell is a value (matched as one elsewhere), not part of a cell."""
    return any(words(v.lower()) == list(phrase) for v in column.values)


def _written(value: str, cell_words: list[str]) -> str:
    """The matched words as the cell writes them ("60 Tage"), found case-insensitively in the cell."""
    lowered = value.lower()
    start = lowered.find(cell_words[0])
    end = lowered.find(cell_words[-1], start) + len(cell_words[-1])
    return value[start:end] if start >= 0 and end > start else " ".join(cell_words)
