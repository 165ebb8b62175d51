"""Aggregation rows in an evidence packet: pin each counted row to its sheet, and check it again later.

An aggregate reads a whole sheet (a count over a filter changes when any row starts or stops matching),
so a row is pinned with the file's sha256 and a sha256 of its sheet's cells: an unchanged sheet keeps
every row intact even when the file changed elsewhere (another sheet of a workbook); a changed sheet
drifts every row read from it, and the reason says whether the row itself is still at its place,
moved (with its new row) or gone. Cells are compared as the sidecar holds them: placeholders in a
redacted cell match the value the source holds (evidence.locate), numbers by value.
"""

from __future__ import annotations

import csv
import hashlib
import json
from typing import Any

import polars as pl

from strata_pipeline.evidence.locate import quote_pattern
from strata_pipeline.evidence.packet import EvidenceRow, RowCheck
from strata_pipeline.evidence.sources import Source

DOCUMENTS = "documents"  # facts.catalogue.DOCUMENTS: per-document facets, not cells of a file
NOT_FOUND = "document not found"  # the same words as a citation's (verify.NOT_FOUND)


def cell_text(value: Any) -> str:
    """A cell as the sidecar shows it (facts.runner._text after the JSON and SQLite round trip): no value
    is "", a whole number has no decimals, a boolean is 1 or 0."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else str(value)
    return str(value)


def sheet_cells(frame: pl.DataFrame) -> list[list[str]]:
    """Every data row of a sheet as cell texts, the way ingestion stored it (JSON values, in column order)."""
    if frame.height == 0:
        return []
    records = json.loads(frame.write_json())  # dates and times become text exactly as the sidecar got them
    return [[cell_text(record.get(column)) for column in frame.columns] for record in records]


def sheet_sha256(frame: pl.DataFrame) -> str:
    """A fingerprint of the sheet's header and cells (not of the file: another sheet may change alone)."""
    content = json.dumps([list(frame.columns), sheet_cells(frame)], ensure_ascii=False)
    return hashlib.sha256(content.encode("utf-8")).hexdigest()


def line_cells(line: str) -> list[str]:
    """The cells of a row's CSV line (facts.runner writes it with csv.writer)."""
    return next(csv.reader([line]), [])


def cells_match(pinned: list[str], now: list[str]) -> bool:
    """Whether a row read now holds the pinned cells: placeholders match the value they stand for,
    numbers match by value ("12" and "12.0"), everything else exactly."""
    return len(pinned) == len(now) and all(_cell_match(p, n) for p, n in zip(pinned, now, strict=True))


def _cell_match(pinned: str, now: str) -> bool:
    if pinned == now:
        return True
    try:
        return float(pinned) == float(now)
    except ValueError:
        return quote_pattern(pinned).fullmatch(now) is not None


def find_row(rows: list[list[str]], pinned: list[str], near: int) -> int | None:
    """The 1-based row holding `pinned` nearest to row `near`, or None."""
    found = [number for number, cells in enumerate(rows, start=1) if cells_match(pinned, cells)]
    return min(found, key=lambda number: abs(number - near)) if found else None


def sheet_of(source: Source | None, sheet: str) -> pl.DataFrame | None:
    if source is None or source.extraction is None:
        return None
    return source.extraction.tables.get(sheet)


def check_row(index: int, pinned: EvidenceRow, source: Source | None) -> RowCheck:
    """One packet row against its source as it is now (None: not there, or not the caller's)."""

    def report(status: str, reason: str, moved_to_row: int | None = None) -> RowCheck:
        return RowCheck(index, pinned.doc_id, pinned.source_set, pinned.sheet, pinned.row, status, reason,  # type: ignore[arg-type]
                        moved_to_row)  # fmt: skip

    if source is None:
        return report("missing", NOT_FOUND)
    if pinned.sha256 and source.sha256 == pinned.sha256:
        return report("intact", "file unchanged (sha256 matches)")
    if pinned.table == DOCUMENTS:
        return report("drifted", "the document changed since its facets were counted")
    frame = sheet_of(source, pinned.sheet)
    if frame is None:
        return report("drifted", "the document no longer holds the sheet")
    if pinned.sheet_sha256 and sheet_sha256(frame) == pinned.sheet_sha256:
        return report("intact", "sheet unchanged (the file changed elsewhere)")
    rows, cells = sheet_cells(frame), line_cells(pinned.line)
    if 0 < pinned.row <= len(rows) and cells_match(cells, rows[pinned.row - 1]):
        return report("drifted", "the row is at its place but the sheet changed: the figure may differ")
    moved = find_row(rows, cells, pinned.row)
    if moved is not None:
        return report("drifted", "the row moved", moved)
    return report("drifted", "the sheet no longer holds the row")
