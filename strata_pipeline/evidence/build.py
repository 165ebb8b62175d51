"""Build an evidence packet from an answer: each quote pinned to its place in the source file."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime

from strata_pipeline.answering.answer import Answer, Citation
from strata_pipeline.evidence.locate import locate, place
from strata_pipeline.evidence.packet import EvidenceCitation, EvidencePacket, EvidenceRow
from strata_pipeline.evidence.rows import DOCUMENTS, sheet_of, sheet_sha256
from strata_pipeline.evidence.sources import Source
from strata_pipeline.facts.intent import FactRow
from strata_pipeline.indexing.versions import IndexVersion

Reader = Callable[[str, str], Source | None]  # (source_set, doc_id) -> the document as it is now
Recorded = Callable[[str, str], str | None]  # (source_set, doc_id) -> the sha256 the index recorded


def now_utc() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def build_packet(
    question: str,
    answer: Answer,
    versions: Mapping[str, IndexVersion],
    read: Reader,
    recorded: Recorded | None = None,
    created_at: str | None = None,
) -> EvidencePacket:
    """The packet of `answer`: for each citation its quote and its place in the source file as read now.

    A quote found in its file (the occurrence nearest the cited line) is pinned to that file's sha256 and
    the quote's line and character range. A quote the file no longer holds, or a file that cannot be read,
    keeps the index's lines with no character range (and, unreadable, the sha256 the index recorded), so
    verifying the packet reports it as drifted or missing rather than vouching for it.
    """
    read_once: dict[tuple[str, str], Source | None] = {}

    def source_of(source_set: str, doc_id: str) -> Source | None:
        key = (source_set, doc_id)
        if key not in read_once:
            read_once[key] = read(*key)
        return read_once[key]

    def recorded_of(source_set: str, doc_id: str) -> str | None:
        return recorded(source_set, doc_id) if recorded else None

    cited = [
        _pinned(c, source_of(c.source_set, c.doc_id), versions.get(c.source_set), recorded_of(c.source_set, c.doc_id))
        for c in answer.citations
    ]
    counted = answer.facts.rows if answer.facts is not None else []
    rows = [
        _pinned_row(
            r, source_of(r.source_set, r.doc_id), versions.get(r.source_set), recorded_of(r.source_set, r.doc_id)
        )
        for r in counted
    ]
    named = {c.source_set for c in answer.citations} | {r.source_set for r in counted}
    used = {name: versions[name] for name in sorted(named) if name in versions}
    return EvidencePacket(
        question=question,
        answer=answer.text,
        citations=cited,
        model=next((v.model for v in (used or versions).values()), ""),
        index_versions={name: v.version for name, v in used.items()},
        created_at=created_at or now_utc(),
        mode=answer.mode,
        rows=rows,
    )


def _pinned(c: Citation, source: Source | None, version: IndexVersion | None, recorded: str | None) -> EvidenceCitation:
    pinned = EvidenceCitation(
        quote=c.quote,
        doc_id=c.doc_id,
        source_set=c.source_set,
        chunk_id=c.chunk_id,
        sha256=source.sha256 if source is not None else recorded or "",
        line_start=c.line_start,
        line_end=c.line_end,
        page=c.page,
        index_version=version.version if version else "",
    )
    if source is None or source.extraction is None:
        return pinned
    found = locate(source.extraction.text, c.quote, c.line_start)
    if found is not None:
        spot = place(source.extraction.text, *found, source.pages)
        pinned.line_start, pinned.line_end = spot.line_start, spot.line_end
        pinned.char_start, pinned.char_end = spot.char_start, spot.char_end
        pinned.page = spot.page if source.pages else c.page
    return pinned


def _pinned_row(r: FactRow, source: Source | None, version: IndexVersion | None, recorded: str | None) -> EvidenceRow:
    """A counted row pinned to its file (sha256) and, for a spreadsheet row, its sheet's cells (sha256)."""
    frame = None if r.table == DOCUMENTS else sheet_of(source, r.sheet)
    return EvidenceRow(
        doc_id=r.doc_id,
        source_set=r.source_set,
        table=r.table,
        sheet=r.sheet,
        row=r.row,
        line=r.line,
        sha256=source.sha256 if source is not None else recorded or "",
        sheet_sha256=sheet_sha256(frame) if frame is not None else "",
        index_version=version.version if version else "",
    )
