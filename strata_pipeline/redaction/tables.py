"""Cells of the tables inside a text, with their column headers.

A table is a block of two or more lines with the same number (>= 1) of tabs or pipes: `scan_text`
has already turned unquoted CSV and semicolon separators into tabs. Markdown rule lines
("|---|---|") are skipped. Also reads one-field-per-line forms ("Town: Cardiff").
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Cell:
    header: str  # the column's header, stripped and case-folded
    start: int
    end: int
    row: int  # cells of one table row share a number; all form fields of a text are row 0


RULE_LINE = re.compile(r"^[\s|:\-+]*$")
FORM_FIELD = re.compile(
    r"(?m)^[ \t]*(?P<label>[^\W\d_][^\W\d_ /\-]*(?:[ /\-][^\W\d_]+){0,3})[ \t]*:[ \t]*(?P<value>\S[^\n]*?)[ \t]*$"
)


def _cells_of(line: str, offset: int, separator: str) -> list[tuple[int, int]]:
    spans, position = [], 0
    for part in line.split(separator):
        start = position + len(part) - len(part.lstrip())
        end = position + len(part.rstrip())
        spans.append((offset + start, offset + max(start, end)))
        position += len(part) + 1
    return spans


def table_cells(text: str) -> list[Cell]:
    """Every non-empty body cell of every table block in `text`, with its header."""
    cells: list[Cell] = []
    lines = text.split("\n")
    offsets = [0]
    for line in lines[:-1]:
        offsets.append(offsets[-1] + len(line) + 1)
    row_number = 0  # table rows count from 1
    for separator in ("\t", "|"):
        k = 0
        while k < len(lines):
            # a line with pipes is a pipe table's row: tabs in it stand for commas inside its cells
            count = 0 if separator == "\t" and "|" in lines[k] else lines[k].count(separator)
            end = k
            while end + 1 < len(lines) and count >= 1 and lines[end + 1].count(separator) == count:
                end += 1
            if count >= 1 and end > k:
                header = [text[s:e].strip(" *#\"'").casefold() for s, e in _cells_of(lines[k], offsets[k], separator)]
                for r in range(k + 1, end + 1):
                    if RULE_LINE.match(lines[r]):
                        continue
                    row_number += 1
                    for column, (s, e) in enumerate(_cells_of(lines[r], offsets[r], separator)):
                        if e > s and column < len(header) and header[column]:
                            cells.append(Cell(header[column], s, e, row_number))
            k = end + 1
    for match in FORM_FIELD.finditer(text):
        if "\t" in match.group(0) or "|" in match.group(0):
            continue
        # a form is one record: its fields share row 0
        cells.append(Cell(match.group("label").casefold(), match.start("value"), match.end("value"), 0))
    return cells
