"""Re-read the sources of an evidence packet and say, per citation, whether its quote still stands.

The report holds statuses and positions, never text read from a source: a source holds the personal
data its quotes replaced by placeholders.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from strata_pipeline.evidence.build import now_utc
from strata_pipeline.evidence.locate import locate, match_at, place
from strata_pipeline.evidence.packet import CitationCheck, EvidenceCitation, EvidencePacket, Place, VerifyReport
from strata_pipeline.evidence.rows import NOT_FOUND, check_row  # NOT_FOUND: gone or another group's alike
from strata_pipeline.evidence.sources import Source, read_source

Readable = Callable[[str, str], bool]  # (source_set, doc_id) -> whether the caller may read it


def verify_packet(
    packet: EvidencePacket, corpus_root: Path, readable: Readable | None = None, checked_at: str | None = None
) -> VerifyReport:
    """Check every citation and counted row of `packet` against its source under `corpus_root` as it is now
    (rows: evidence.rows.check_row).

    - intact: the file is byte for byte the one the packet pinned (sha256 fast path: nothing is
      extracted), or its text still holds the quote at the pinned character offset (lines when the
      packet has no offset).
    - drifted: the quote is not there; `moved_to` gives its new place when it is elsewhere in the
      document, null when the document no longer holds it.
    - missing: no such file, or `readable` says the caller may not read it (reported alike).
    Placeholders in a quote match the value the source holds (evidence.locate).
    """
    read = partial(read_source, corpus_root)
    sources: dict[tuple[str, str], Source | None] = {}

    def source_of(source_set: str, doc_id: str) -> Source | None:
        key = (source_set, doc_id)
        if readable is not None and not readable(*key):
            return None
        if key not in sources:
            sources[key] = read(*key)
        return sources[key]

    checks = [
        _check(index, cited, source_of(cited.source_set, cited.doc_id)) for index, cited in enumerate(packet.citations)
    ]
    rows = [check_row(index, row, source_of(row.source_set, row.doc_id)) for index, row in enumerate(packet.rows)]
    statuses = [c.status for c in checks] + [r.status for r in rows]
    counts = {status: statuses.count(status) for status in ("intact", "drifted", "missing")}
    return VerifyReport(
        ok=counts["intact"] == len(statuses),
        counts=counts,
        citations=checks,
        checked_at=checked_at or now_utc(),
        schema_version=packet.schema_version,
        rows=rows,
    )


def _check(index: int, cited: EvidenceCitation, source: Source | None) -> CitationCheck:
    def report(status: str, reason: str, moved_to: Place | None = None) -> CitationCheck:
        return CitationCheck(index, cited.doc_id, cited.source_set, status, reason, moved_to)  # type: ignore[arg-type]

    if source is None:
        return report("missing", NOT_FOUND)
    pinned = cited.char_start is not None
    if pinned and cited.sha256 and source.sha256 == cited.sha256:
        return report("intact", "file unchanged (sha256 matches)")
    if source.extraction is None:
        return report("drifted", "the document no longer yields text")
    text = source.extraction.text
    if cited.char_start is not None and match_at(text, cited.quote, cited.char_start) is not None:
        return report("intact", "quote at its place (the file changed elsewhere)")
    found = locate(text, cited.quote, cited.line_start)
    if found is None:
        return report("drifted", "the document no longer holds the quote")
    now = place(text, *found, source.pages)
    if not pinned and now.line_start == cited.line_start:
        return report("intact", "quote on its lines")
    return report("drifted", "the quote moved", now)
