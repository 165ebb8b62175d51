"""A chunk's section context and the text embedded for it.

Plain string functions, apart from the chunker (which needs polars), so that answering and
reranking a query do not import polars.
"""

from __future__ import annotations


def chunk_context(title: str, heading_path: str, table_header: str = "") -> str:
    """ "Title > Section > Subsection", without repeating a title that is also the first heading;
    then the header row of a table the chunk starts inside, on its own line."""
    path = heading_path if heading_path.startswith(title) else " > ".join(p for p in (title, heading_path) if p)
    return f"{path}\n{table_header}" if path and table_header else path or table_header


def embedded_text(context: str, text: str) -> str:
    """What is embedded for one chunk: its text, led by its section context when it has one, so a
    child cut from the middle of "Lisbon depot > Opening hours" still says where it is from. Table
    rows are embedded as records (see table_records)."""
    text = table_records(context, text)
    return f"{context}\n\n{text}" if context else text


def _cells(line: str) -> list[str] | None:
    """The cells of a pipe-table row ("a | b | c"), None for any other line."""
    stripped = line.strip()
    if " | " not in stripped and not stripped.startswith("|") and not stripped.endswith(" |"):
        return None
    if stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1:
        stripped = stripped[1:-1]  # markdown's outer bars
    return [cell.strip() for cell in stripped.split("|")]


def _is_rule(cells: list[str]) -> bool:
    """A markdown table's rule line, "|---|:---:|"."""
    return all(set(cell) <= set("-: ") for cell in cells)


def table_records(context: str, text: str) -> str:
    """Table rows rewritten as records, "zone: B; hourly rate eur: 2.50", for the embedding input only.

    A row of bare values ("B | 2.50 | 3") says nothing about what the values are; a question names
    the column ("the hourly rate in zone B"). The header is the first row of the table in the text,
    or the header row the chunker put on the context's last line. Other lines are kept as they are.
    """
    header = _cells(context.rsplit("\n", 1)[1]) if "\n" in context else None  # the chunker's header line
    out = []
    for line in text.split("\n"):
        cells = _cells(line)
        if cells is None:
            out.append(line)
            if line.strip():
                header = None  # prose between tables: the next table brings its own header
            continue
        if _is_rule(cells):
            out.append(line)
            continue
        if header is None or len(cells) != len(header):
            header = cells  # the first row of a table names its columns
            out.append(line)
            continue
        names = [h.replace("_", " ").strip() for h in header]
        out.append("; ".join(f"{name}: {value}" for name, value in zip(names, cells, strict=True) if value))
    return "\n".join(out)
