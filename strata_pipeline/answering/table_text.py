"""Table rows in passage text, as the answerer and the agent's row answers read them.

Two forms of table reach a passage: markdown tables ("| a | b |" over a "|---|---|" line) and the
tables the pipeline renders from CSV and spreadsheet files (discovery/extractors/tables.py): a
"## sheet" heading, then the header row and the rows, cells joined by " | ".
"""

from __future__ import annotations

from collections.abc import Sequence

from strata_pipeline.chunking.tables import rows_above


def cells(line: str) -> list[str]:
    """The cells of a "| a | b |" or "a | b" row, stripped. A rendered row ends in "|" when its last
    cell is empty ("STG | 360 | static |"): that cell counts."""
    line = line.strip()
    if line.startswith("|"):
        line = line[1:].removesuffix("|")
    return [cell.strip() for cell in line.split("|")]


def as_record(names: Sequence[str], values: Sequence[str]) -> str:
    """A row read with its column names, "name: value; ...", empty cells left out: alone,
    "| Saturday | 09:00 - 12:00 |" says nothing about opening hours."""
    return "; ".join(f"{name}: {value}" for name, value in zip(names, values, strict=True) if value)


def record_cells(text: str) -> list[tuple[str, str]]:
    """The (name, value) cells of a row read as a record, as as_record writes it ("line: motor;
    hourly_rate_eur: 120"); a title before the first name ("adjuster-fees: band: M2") is left out,
    and so is a piece with no "name: " in it."""
    found = []
    for piece in text.split("; "):
        if ": " in piece:
            name, value = piece.rsplit(": ", 1)
            found.append((name.rsplit(": ", 1)[-1].strip(), value.strip()))
    return found


def _is_separator(line: str) -> bool:
    return set(line.strip()) <= set("|-: ") and "-" in line


def _rendered_block(text: str, start: int) -> list[str] | None:
    """The lines of a rendered table from its header row down to the line at `start`: the run of
    " | " lines that the line belongs to, under a "## " heading (or the blank line under a sheet's title
    lines, discovery/extractors/tables.py); None when the line is not in one."""
    block, above = rows_above(reversed(text[:start].splitlines()), _is_rendered_row)
    return block if above is not None and (above.startswith("## ") or not above.strip()) else None


def _is_rendered_row(line: str) -> bool:
    return " | " in line and not line.lstrip().startswith("|")


def _is_markdown_row(line: str) -> bool:
    return line.lstrip().startswith("|")


def is_table_line(line: str) -> bool:
    """Whether a line is a row of either form of table (markdown or rendered), its header and separator
    included."""
    return _is_markdown_row(line) or _is_rendered_row(line)


def is_header_row(text: str, start: int, end: int, spreadsheet: bool = False) -> bool:
    """Whether the line at text[start:end] is a table's header row: a markdown row directly above its
    |---|---| separator line, or in a `spreadsheet`'s text the first row of a rendered table, right
    under its "## sheet" heading. (Rows of docx and HTML tables are rendered alike, but their first
    row may be data: "Phone | 0711 …" under "## Contact".)"""
    following = text[end:].lstrip("\n").split("\n", 1)[0].strip()
    if following.startswith("|") and _is_separator(following):
        return True
    line = text[start:end]
    return spreadsheet and _is_rendered_row(line) and _rendered_block(text, start) == []


def header_hint(context: str) -> str:
    """The header row a rendered table's row chunk carries in its context (chunking/chunker.py's
    table_header_above: the context's last line), "" when it carries none."""
    last = context.rstrip().rsplit("\n", 1)[-1]
    return last if " | " in last else ""


def row_with_header(text: str, start: int, sentence: str, hint: str = "", spreadsheet: bool = False) -> str | None:
    """A table row (markdown, or rendered from a `spreadsheet`) as "column: value; ..." using its
    table's header row; None for anything else, a header row included. A rendered row in a passage cut
    below its header row (a long table's second section) is read with `hint` (header_hint of its
    chunk's context)."""
    if _is_markdown_row(sentence):
        rows, _ = rows_above(reversed(text[:start].splitlines()), _is_markdown_row)
        header = next((line for line in rows if not _is_separator(line)), None)
    elif spreadsheet and " | " in sentence and (block := _rendered_block(text, start)) is not None:
        header = block[0] if block else None
    elif spreadsheet and " | " in sentence and hint:
        header = hint
    else:
        return None
    if header is None:
        return None  # the row is the header itself
    names, values = cells(header), cells(sentence)
    if len(names) != len(values):
        return None
    return as_record(names, values)
