"""Redacting a source-set's documents: per-document progress, skipped rows, and the cache reused."""

from __future__ import annotations

from pathlib import Path

from strata_pipeline.incremental.cache import DocumentCache
from strata_pipeline.redaction.documents import redact_documents
from strata_pipeline.redaction.pii import PiiPolicy, PresidioDetector

DOCS = [
    {"decision": "include", "status": "ok", "text": "Mail jane.roe@example.com about the rota.", "tables_json": None},
    {"decision": "exclude", "status": "ok", "text": "Excluded: bob@example.com", "tables_json": None},
    {"decision": "include", "status": "error", "text": "", "tables_json": None},
    {"decision": "include", "status": "ok", "text": "Call +44 20 7946 0958 after 5pm.", "tables_json": None},
]


def test_every_document_reports_progress_and_a_second_pass_reuses_the_cache(
    regex: PresidioDetector, tmp_path: Path
) -> None:
    loads: list[int] = []

    def detector() -> PresidioDetector:
        loads.append(1)
        return regex

    calls: list[tuple[int, int]] = []
    with DocumentCache(tmp_path / "redaction.sqlite") as cache:
        first = redact_documents(DOCS, len(DOCS), detector, PiiPolicy(), "d1", cache, lambda *a: calls.append(a))
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert "jane.roe@example.com" not in first[0]["text"] and "[EMAIL" in first[0]["text"]
    assert first[1] == first[2] == {"text": "", "tables_json": None, "audit": []}  # nothing of theirs travels
    assert first[3]["text"] == "Call [PHONE_1] after 5pm." and [a["entity"] for a in first[3]["audit"]] == ["PHONE"]
    assert loads == [1]  # loaded once, when the first document needed it

    with DocumentCache(tmp_path / "redaction.sqlite") as cache:
        second = redact_documents(DOCS, len(DOCS), detector, PiiPolicy(), "d1", cache)
        assert (cache.hits, cache.misses) == (2, 0)
    assert second == first and loads == [1]  # all from the cache: the detector never loaded again
