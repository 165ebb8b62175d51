"""Overlapping window chunking that records where every chunk came from."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

import polars as pl

CHUNKER_VERSION = "windows-v1"
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
    "title": pl.String(),
    "language": pl.String(),
    "text": pl.String(),
    "sha256": pl.String(),
}


@dataclass(frozen=True)
class ChunkingConfig:
    size: int = 900  # characters
    overlap: int = 150


def window_bounds(text: str, config: ChunkingConfig) -> list[tuple[int, int]]:
    """(start, end) offsets of overlapping windows, cut at paragraph, line, sentence or space."""
    if config.overlap >= config.size:
        raise ValueError("Chunk overlap must be smaller than chunk size.")
    bounds: list[tuple[int, int]] = []
    start = _skip_space(text, 0)
    while start < len(text):
        end = min(start + config.size, len(text))
        if end < len(text):
            end = _natural_break(text, start + config.size // 2, end)
        bounds.append((start, end))
        if end >= len(text):
            break
        next_start = max(end - config.overlap, start + 1)
        # Start the next window on a word boundary (any whitespace) rather than mid-word.
        boundary = WHITESPACE.search(text, next_start, end)
        start = _skip_space(text, boundary.end() if boundary else next_start)
    return [(s, e) for s, e in bounds if text[s:e].strip()]


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def _natural_break(text: str, lo: int, hi: int) -> int:
    for separator in ("\n\n", "\n", ". ", " "):
        cut = text.rfind(separator, lo, hi)
        if cut != -1:
            return cut + len(separator)
    return hi


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
    for index, (start, end) in enumerate(window_bounds(text, config)):
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
                "title": doc.get("title") or "",
                "language": doc.get("language") or "",
                "text": body,
                "sha256": hashlib.sha256(body.encode("utf-8")).hexdigest(),
            }
        )
    return rows


def chunk_documents(docs: pl.DataFrame, config: ChunkingConfig) -> pl.DataFrame:
    rows = [row for doc in docs.iter_rows(named=True) for row in chunk_document(doc, config)]
    return pl.DataFrame(rows, schema=CHUNK_SCHEMA, orient="row") if rows else pl.DataFrame(schema=CHUNK_SCHEMA)
