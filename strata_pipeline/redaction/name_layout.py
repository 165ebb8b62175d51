"""Where a candidate sits in the text: its line and table cell, the header of its column, a
heading line, the lines after a sign-off, a chat message after a colon."""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from typing import NamedTuple

from strata_pipeline.redaction.name_cues import SIGN_OFFS
from strata_pipeline.redaction.tables import RULE_LINE


def _reads_like_a_message(text: str, colon_end: int) -> bool:
    """Is the rest of a "Word: ..." line a chat message rather than a field value? A value is a name,
    a number, a code or an address ("Fax: 296-210-4357", "Melder: Thijs Koopmans", "PNR: K7QX2M");
    a message has ordinary lower-case words ("Gabrjel: What a wife.")."""
    rest = text[colon_end : _line_end(text, colon_end)]
    rest = re.sub(r"\S+@\S+|https?://\S+|\b(?:ext|x)\.?\s*\d+", " ", rest)
    return any(w.islower() and len(w) >= 2 for w in re.findall(r"[^\W\d_]+", rest))


def _line_start(text: str, position: int) -> int:
    return text.rfind("\n", 0, position) + 1


def _line_end(text: str, position: int) -> int:
    end = text.find("\n", position)
    return len(text) if end < 0 else end


def _title_case_line(text: str, start: int, end: int) -> bool:
    """A heading or a title ("Encoder Mismatch After Update"): besides the candidate, the line has
    at least three words and nearly all are capitalised."""
    line_start, line_end = _line_start(text, start), _line_end(text, end)
    rest = text[line_start:start] + " " + text[end:line_end]
    words = re.findall(r"[^\W\d_]{2,}", rest)
    if len(words) < 3 or len(words) > 12 or re.search(r"[,;:|\t]", rest):
        return False  # a list of names or a table row is not a heading
    return sum(w[0].isupper() for w in words) / len(words) >= 0.8


def _after_sign_off(text: str, position: int) -> bool:
    """Is this line within two lines after a sign-off line ("Best regards," / "Beste Grüße")?"""
    lines = text[: _line_start(text, position)].rstrip("\n").split("\n")[-2:]
    for line in lines:
        cleaned = re.sub(r"[^\w\s]", "", line).strip().casefold()
        if cleaned in SIGN_OFFS:
            return True
    return False


def _cell_start(text: str, position: int) -> int:
    return max(text.rfind(sep, 0, position) for sep in "\n\t|;,") + 1


def _cell_end(text: str, position: int) -> int:
    ends = [e for e in (text.find(sep, position) for sep in "\n\t|;,") if e >= 0]
    return min(ends) if ends else len(text)


def _column_header(text: str, position: int) -> str | None:
    """The header of the table column holding `position`, for CSV/TSV/semicolon and markdown tables."""
    column = table_column(text, position)
    return None if column is None else column.header


class TableColumn(NamedTuple):
    """A column of a table block of a text: its header, and where it is (the separator, the block's first
    and last line numbers, the column's number), the key its cells and any verdict on them are cached by."""

    header: str
    separator: str
    first: int
    last: int
    number: int


def table_column(text: str, position: int) -> TableColumn | None:
    """The column of the table block holding `position`: the block is the run of non-blank lines around
    its line with as many separators (>= 1), a header line above included; None outside a table."""
    lines, starts = _lines(text)
    line_number = bisect_right(starts, position) - 1
    for separator in ("|", "\t", ";", ","):
        first, last = _blocks(text, separator)[line_number]
        if first == line_number:
            continue  # no line above: no header
        number = text[starts[line_number] : position].count(separator)
        cells = lines[first].split(separator)
        if number >= len(cells):
            return None
        return TableColumn(cells[number].strip().strip("*#\"' "), separator, first, last, number)
    return None


def column_cells(text: str, position: int) -> list[str]:
    """The body cells of the table column holding `position` (its own included), stripped; [] outside
    a table. Markdown rule lines ("|---|") are not cells."""
    column = table_column(text, position)
    return [] if column is None else list(body_cells(text, column))


@lru_cache(maxsize=64)
def body_cells(text: str, column: TableColumn) -> tuple[str, ...]:
    """The column's body cells, read once per table of a text (every candidate in it asks)."""
    lines, _ = _lines(text)
    rows = [line for line in lines[column.first + 1 : column.last + 1] if not RULE_LINE.match(line)]
    return tuple(row.split(column.separator)[column.number].strip(" *#\"'") for row in rows)


@lru_cache(maxsize=8)
def _lines(text: str) -> tuple[list[str], list[int]]:
    """The text's lines and the offset each starts at."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    return lines, starts


@lru_cache(maxsize=32)
def _blocks(text: str, separator: str) -> list[tuple[int, int]]:
    """For each line, the first and last line numbers of its table block for `separator`: the run of
    non-blank lines with as many separators as it, at least one; a line with none is a block of its own.
    One pass per text, where walking the block from each of its cells was quadratic in a long CSV."""
    lines, _ = _lines(text)
    counts = [line.count(separator) if line.strip() else 0 for line in lines]
    blocks: list[tuple[int, int]] = []
    first = 0
    for number, count in enumerate(counts):
        if number == 0 or count == 0 or count != counts[number - 1]:
            first = number
        blocks.append((first, number))
    last = len(counts) - 1
    for number in range(len(counts) - 1, -1, -1):  # fill in each block's last line, walking back
        if number == len(counts) - 1 or counts[number] == 0 or counts[number] != counts[number + 1]:
            last = number
        blocks[number] = (blocks[number][0], last)
    return blocks


def _only_list_mark(prefix: str) -> bool:
    """Is this start of a line empty or a list mark ("- ", "3. ", "2) ", "• ")?"""
    return re.fullmatch(r"[ \t]*(?:[-*•·–]|\d{1,3}[.)]|[a-z][.)])?[ \t]*", prefix) is not None


def _only_time_stamp(prefix: str) -> bool:
    """Is this start of a line empty or just a time stamp ("[09:14] ")?"""
    return re.fullmatch(r"[\s\[\]()\d:.\-APMapm]*", prefix) is not None


# Words that occur in nearly every German or English sentence and rarely in the other language.
_GERMAN_WORDS = frozenset(
    "der die das den dem des und ist sind nicht mit für auf im vom zum zur von zu wird werden bei nach oder "
    "ein eine einen einem einer eines auch wenn über unter sie es wir kann muss nur noch bis aus als wie sich".split()
)
_ENGLISH_WORDS = frozenset(
    "the and is are of to for with on be by this that or an as at from it not will can must".split()
)


def reads_german(text: str, position: int, window: int = 300) -> bool:
    """Does the text around `position` read as German? German capitalises every noun, so there a
    capital mid-sentence, or the English NER calling a capitalised word a PERSON, says little."""
    near = _verdict(text[max(0, position - window) : position + window])
    # a table row rarely holds a function word: then the whole text decides, read once per text
    return near if near is not None else bool(_whole_text_verdict(text))


def _verdict(span: str) -> bool | None:
    """German (True) or not (False) by its function words; None when too few say either way.

    A question or a heading may hold one function word or none ("Wie viele Tage Urlaub bekomme
    ich?"): then its lower-case words (verbs, pronouns, adjectives; German nouns are capitalised)
    decide by how much more often German uses them than English or French (wordfreq)."""
    words = re.findall(r"[^\W\d_]+", span)
    folded = [w.casefold() for w in words]
    german, english = sum(w in _GERMAN_WORDS for w in folded), sum(w in _ENGLISH_WORDS for w in folded)
    if german < 2 and english < 2:  # too few function words: the lower-case words lean one way or the other
        for word in {w for w in words if w.islower() and len(w) >= 3} - _GERMAN_WORDS - _ENGLISH_WORDS:
            leaning = _language_leaning(word)
            german, english = german + (leaning > 0), english + (leaning < 0)
    if german >= 2 or english >= 2:
        return german >= 2 and german > english
    return None


@lru_cache(maxsize=4096)
def _language_leaning(word: str) -> int:
    """1 for a word German uses far more often than English and French, -1 for the reverse, else 0."""
    from wordfreq import zipf_frequency

    german = zipf_frequency(word, "de")
    other = max(zipf_frequency(word, "en"), zipf_frequency(word, "fr"))
    if german >= 3.0 and german >= other + _LEANING_MARGIN:
        return 1
    if other >= 3.0 and other >= german + _LEANING_MARGIN:
        return -1
    return 0


# Zipf units (a factor of 10 each): "viele" 5.8 in German against 1.8 in English; "how" 6.2 against 4.2.
_LEANING_MARGIN = 1.5


@lru_cache(maxsize=8)
def _whole_text_verdict(text: str) -> bool | None:
    return _verdict(text)
