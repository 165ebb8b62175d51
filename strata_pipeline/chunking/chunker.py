"""Structure-aware parent/child chunking that records where every chunk came from.

A document is cut into sections at its headings; a section (or, when long, a window of it) is a
*parent*, the passage an answer is read from. Each parent is cut into small overlapping *children*,
the units that are embedded and searched. Children never cross a heading, and breaks inside a table
are avoided, so a table row stays with its header.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

import polars as pl

from strata_pipeline.chunking.context import chunk_context
from strata_pipeline.chunking.tables import lines_above, rows_above, rows_below, table_summary
from strata_pipeline.discovery.extractors.dispatch import TABLE_EXTENSIONS  # spreadsheets: a row per child

CHUNKER_VERSION = "sections-v4"  # v3: spreadsheet rows are children, under their header row; v4: and the header
WHITESPACE = re.compile(r"\s+")
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*$", re.MULTILINE)

CHUNK_SCHEMA: dict[str, pl.DataType] = {
    "chunk_id": pl.String(),
    "source_set": pl.String(),
    "doc_id": pl.String(),
    "project": pl.String(),
    "chunk_index": pl.Int64(),
    "char_start": pl.Int64(),
    "char_end": pl.Int64(),
    "line_start": pl.Int64(),
    "line_end": pl.Int64(),
    "page": pl.Int64(),  # null unless the document is paged (PDF)
    "heading": pl.String(),
    "heading_path": pl.String(),  # "Policy > Carry-over > Deadline"
    "parent_id": pl.String(),
    "parent_start": pl.Int64(),
    "parent_end": pl.Int64(),
    "parent_line_start": pl.Int64(),
    "parent_text": pl.String(),
    "context": pl.String(),  # title and heading path, embedded with the text so a child knows its section
    "title": pl.String(),
    "language": pl.String(),
    "rank_weight": pl.Float64(),  # the document's ranking prior (classification's ranking rules)
    "rank_rule": pl.String(),
    "superseded": pl.Boolean(),
    "groups": pl.List(pl.String()),  # the document's access groups (classification's access rules)
    "text": pl.String(),
    "sha256": pl.String(),
}


@dataclass(frozen=True)
class ChunkingConfig:
    size: int = 700  # characters per child
    overlap: int = 120
    parent_size: int = 3000  # longer sections are split into parent windows of this size


def window_bounds(text: str, config: ChunkingConfig, lo: int = 0, hi: int | None = None) -> list[tuple[int, int]]:
    """(start, end) offsets of overlapping windows of text[lo:hi], cut at paragraph, line, sentence
    or space, never inside a table when another break is available."""
    if config.overlap >= config.size:
        raise ValueError("Chunk overlap must be smaller than chunk size.")
    hi = len(text) if hi is None else hi
    bounds: list[tuple[int, int]] = []
    start = _skip_space(text, lo, hi)
    while start < hi:
        end = min(start + config.size, hi)
        if end < hi:
            end = _natural_break(text, start + config.size // 2, end)
        bounds.append((start, end))
        if end >= hi:
            break
        next_start = max(end - config.overlap, start + 1)
        # Start the next window at a line start (a whole table row, a whole list item) when the
        # overlap holds one, else on a word boundary rather than mid-word.
        line = text.find("\n", next_start, min(end - 1, next_start + config.overlap // 2))
        boundary = WHITESPACE.search(text, next_start, end)
        resume = line + 1 if line != -1 else (boundary.end() if boundary else next_start)
        if _mid_row(text, resume):  # never start a child halfway through a table row
            row_end = text.find("\n", resume, end)
            resume = row_end + 1 if row_end != -1 else resume
        start = _skip_space(text, resume, hi)
    return [(s, e) for s, e in bounds if text[s:e].strip()]


def _skip_space(text: str, pos: int, hi: int | None = None) -> int:
    hi = len(text) if hi is None else hi
    while pos < hi and text[pos].isspace():
        pos += 1
    return pos


def _natural_break(text: str, lo: int, hi: int) -> int:
    for separator in ("\n\n", "\n", ". ", " "):
        cut = text.rfind(separator, lo, hi)
        while cut != -1 and separator != "\n\n" and _inside_table(text, cut, separator):
            cut = text.rfind(separator, lo, cut)
        if cut != -1:
            return cut + len(separator)
    row_boundary = text.rfind("\n", lo, hi)  # a table longer than the window: cut between rows
    return row_boundary + 1 if row_boundary != -1 else hi


def _inside_table(text: str, pos: int, separator: str) -> bool:
    """Whether cutting at `pos` would split a table: inside a row, or between two rows."""
    line_start = text.rfind("\n", 0, pos + (0 if separator == "\n" else 1)) + 1
    line_end = text.find("\n", line_start)
    this_line = text[line_start : line_end if line_end != -1 else len(text)]
    if separator != "\n":
        return _is_row(this_line)
    if line_end == -1:
        return False
    next_end = text.find("\n", line_end + 1)
    return _is_row(this_line) and _is_row(text[line_end + 1 : next_end if next_end != -1 else len(text)])


def _mid_row(text: str, pos: int) -> bool:
    line_start = text.rfind("\n", 0, pos) + 1
    line_end = text.find("\n", pos)
    return pos != line_start and _is_row(text[line_start : line_end if line_end != -1 else len(text)])


def _is_row(line: str) -> bool:
    stripped = line.strip()
    return stripped.startswith("|") or stripped.count(" | ") >= 1


def row_bounds(text: str, config: ChunkingConfig, lo: int = 0, hi: int | None = None) -> list[tuple[int, int]]:
    """(start, end) of every row of the tables in text[lo:hi]. A body row's context carries the header
    row (table_header_above); the header row is a child too, the one that stands for the whole table
    (chunking/tables.py). Lines that are not rows (a sheet's heading) are left to the parent. A row
    longer than a child is cut into windows."""
    hi = len(text) if hi is None else hi
    bounds: list[tuple[int, int]] = []
    position = lo
    while position < hi:
        end = text.find("\n", position, hi)
        end = hi if end == -1 else end
        line = text[position:end]
        if line.strip() and _is_row(line) and (table_header_above(text, position) or _heads_table(text, end, hi)):
            if end - position > config.size:
                bounds += window_bounds(text, config, position, end)
            else:
                bounds.append((position, end))
        position = end + 1
    return bounds


def _heads_table(text: str, end: int, hi: int) -> bool:
    """Whether the row ending at `end` is followed by another row (so it is a table's header)."""
    following = text.find("\n", end + 1, hi)
    return end < hi and _is_row(text[end + 1 : hi if following == -1 else following])


def table_context(doc: dict, text: str, start: int, end: int, path: str) -> str:
    """A chunk's context (chunk_context); for a spreadsheet's header row, the values of its
    categorical columns on a line of their own (chunking/tables.py)."""
    context = chunk_context(doc.get("title") or "", path, table_header_above(text, start))
    if doc.get("extension") not in TABLE_EXTENSIONS or not _is_row(text[start:end]) or "\n" in context:
        return context
    summary = table_summary(text[start:end], rows_below(text, end, _is_row))
    return f"{context}\n{summary}" if context and summary else context or summary


def sections(text: str) -> list[tuple[int, int, str]]:
    """(start, end, heading path) of each section; the text before the first heading is one too."""
    starts: list[tuple[int, int, str]] = [(m.start(), len(m.group(1)), m.group(2)) for m in HEADING.finditer(text)]
    found: list[tuple[int, int, str]] = []
    path: list[tuple[int, str]] = []
    if not starts or starts[0][0] > 0:
        found.append((0, starts[0][0] if starts else len(text), ""))
    for i, (start, level, title) in enumerate(starts):
        path = [(lvl, t) for lvl, t in path if lvl < level] + [(level, title)]
        end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
        found.append((start, end, " > ".join(t for _, t in path)))
    return [(s, e, p) for s, e, p in found if text[s:e].strip()]


def parent_bounds(text: str, config: ChunkingConfig) -> list[tuple[int, int, str]]:
    """Parents: sections, with sections longer than `parent_size` split into windows."""
    parents = []
    window = ChunkingConfig(size=config.parent_size, overlap=0, parent_size=config.parent_size)
    for start, end, path in sections(text):
        if end - start <= config.parent_size:
            parents.append((start, end, path))
        else:
            parents += [(s, e, path) for s, e in window_bounds(text, window, start, end)]
    return parents


def heading_at(text: str, offset: int) -> str:
    """The last markdown heading that starts before `offset` ("" if none), read in full even when
    `offset` falls inside the heading line."""
    line_end = text.find("\n", offset)
    found = ""
    for match in HEADING.finditer(text, 0, len(text) if line_end == -1 else line_end):
        if match.start() < offset:
            found = match.group(2)
    return found


def chunk_document(doc: dict, config: ChunkingConfig) -> list[dict]:
    """Chunk one redacted document row (needs doc_id, source_set, project, text, extension)."""
    text: str = doc["text"] or ""
    paged = doc.get("extension") == ".pdf"
    rows = []
    children_of = row_bounds if doc.get("extension") in TABLE_EXTENSIONS else window_bounds
    children = [
        (start, end, parent_index, parent)
        for parent_index, parent in enumerate(parent_bounds(text, config))
        for start, end in children_of(text, config, parent[0], parent[1])
    ]
    for index, (start, end, parent_index, (p_start, p_end, path)) in enumerate(children):
        body = text[start:end].strip()
        rows.append(
            {
                "chunk_id": f"{doc['doc_id']}#{index}",
                "source_set": doc["source_set"],
                "doc_id": doc["doc_id"],
                "project": doc.get("project", ""),
                "chunk_index": index,
                "char_start": start,
                "char_end": end,
                "line_start": text.count("\n", 0, start) + 1,
                "line_end": text.count("\n", 0, start + len(text[start:end].rstrip())) + 1,
                "page": text.count("\f", 0, start) + 1 if paged else None,
                "heading": heading_at(text, start + 1),
                "heading_path": path,
                "parent_id": f"{doc['doc_id']}#s{parent_index}",
                "parent_start": p_start,
                "parent_end": p_end,
                "parent_line_start": text.count("\n", 0, p_start) + 1,
                "parent_text": text[p_start:p_end].strip(),
                "context": table_context(doc, text, start, end, path),
                "title": doc.get("title") or "",
                "language": doc.get("language") or "",
                "rank_weight": doc.get("rank_weight") or 1.0,
                "rank_rule": doc.get("rank_rule") or "",
                "superseded": bool(doc.get("superseded")),
                "groups": list(doc.get("groups") or []),  # none: only the operator reads it (fail closed)
                "text": body,
                "sha256": hashlib.sha256(body.encode("utf-8")).hexdigest(),
            }
        )
    return rows


def table_header_above(text: str, start: int) -> str:
    """The header row of the table a chunk starting at `start` is cut from, when that row lies above
    the chunk: rows of a long table say "3 | 12.50 | weekly" and only the header says what the
    columns are. "" when the chunk does not start inside a table."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", line_start)
    if not _is_row(text[line_start : line_end if line_end != -1 else len(text)]):
        return ""
    rows, _ = rows_above(lines_above(text, line_start), _is_row)
    return rows[0].strip() if rows else ""  # none above: the chunk starts at the header itself


def chunk_documents(docs: pl.DataFrame, config: ChunkingConfig) -> pl.DataFrame:
    rows = [row for doc in docs.iter_rows(named=True) for row in chunk_document(doc, config)]
    return pl.DataFrame(rows, schema=CHUNK_SCHEMA, orient="row") if rows else pl.DataFrame(schema=CHUNK_SCHEMA)
