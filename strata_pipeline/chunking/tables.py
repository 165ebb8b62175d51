"""What a spreadsheet table is about, for the child that stands for the whole table.

Each row of a spreadsheet is a child of its own, so a question about one row finds it. A question
about the table ("how many printers per site", "VLANs pro Standort", "the servers on standby")
matches no row better than another, and the table's many rows each carry only a sliver of it. The
header row therefore is a child too, and its context names the values of the table's categorical
columns ("site: BSL, LYO, STG, ZRH; environment: prod, standby, test"): what the table can be asked
about, in the words a question uses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

# A column is categorical when it has at most this many distinct values, each repeated on average
# (at most half as many distinct values as filled cells), each short: sites, states, teams, waves. Names,
# addresses and free text have a value per row and say nothing about the table as a whole.
MAX_CATEGORIES = 8
MAX_VALUE_CHARS = 40


def row_cells(line: str) -> list[str]:
    """The cells of a spreadsheet row as the extractors write it ("a | b | c")."""
    stripped = line.strip()
    if stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1:
        stripped = stripped[1:-1]
    return [cell.strip() for cell in stripped.split("|")]


def categorical_columns(header: str, rows: list[str]) -> list[tuple[str, list[str]]]:
    """(column name, its distinct values in first-seen order) for each categorical column."""
    names = [name.replace("_", " ").strip() for name in row_cells(header)]
    cells = [row_cells(row) for row in rows]
    cells = [c for c in cells if len(c) == len(names)]
    found = []
    for index, name in enumerate(names):
        filled = [c[index] for c in cells if c[index]]
        values = list(dict.fromkeys(filled))
        if not name or not values or len(values) > MAX_CATEGORIES or len(values) * 2 > len(filled):
            continue
        if any(len(v) > MAX_VALUE_CHARS for v in values):
            continue
        found.append((name, values))
    return found


def table_summary(header: str, rows: list[str]) -> str:
    """ "site: BSL, LYO; environment: prod, standby", or "" when no column is categorical."""
    return "; ".join(f"{name}: {', '.join(values)}" for name, values in categorical_columns(header, rows))


def rows_below(text: str, header_end: int, is_row: Callable[[str], bool]) -> list[str]:
    """The table rows that follow a header row ending at `header_end`, up to the first other line."""
    rows = []
    for line in text[header_end:].lstrip("\n").split("\n"):
        if not line.strip() or not is_row(line):
            break
        rows.append(line)
    return rows


def lines_above(text: str, line_start: int) -> Iterator[str]:
    """The lines above the line that starts at `line_start`, nearest first."""
    end = line_start - 1
    while end >= 0:
        begin = text.rfind("\n", 0, end) + 1
        yield text[begin:end]
        end = begin - 1


def rows_above(lines: Iterable[str], is_row: Callable[[str], bool]) -> tuple[list[str], str | None]:
    """The table rows right above a line, top first (its table's header row first), read from the
    lines above it nearest first, and the line that ends them: a rendered table's "## sheet" heading,
    say; None when the rows reach the top of the text."""
    rows: list[str] = []
    for line in lines:
        if not is_row(line):
            return rows[::-1], line
        rows.append(line)
    return rows[::-1], None
