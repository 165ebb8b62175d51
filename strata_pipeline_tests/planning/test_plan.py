from __future__ import annotations

import polars as pl

from strata_pipeline.chunking.chunker import ChunkingConfig
from strata_pipeline.planning.plan import build_plan, estimate_chunks


def classified(rows: list[dict]) -> pl.DataFrame:
    base = {"status": "ok", "error_code": None, "doc_type": "text", "kind": "text", "warnings": []}
    return pl.DataFrame([{**base, **r} for r in rows])


LONG = "Word " * 400  # 2,000 characters: several chunks


def test_plan_totals_blind_spots_outliers_and_redactions() -> None:
    rows = [
        {"doc_id": "hr/a.md", "project": "hr", "decision": "include", "rule": "default-include", "text": LONG},
        {"doc_id": "it/b.md", "project": "it", "decision": "include", "rule": "default-include", "text": LONG},
        {"doc_id": "ops/c.md", "project": "ops", "decision": "include", "rule": "default-include", "text": LONG},
        {"doc_id": "big/d.md", "project": "big", "decision": "include", "rule": "default-include", "text": LONG * 10},
        {"doc_id": "cfg/e.json", "project": "cfg", "decision": "exclude", "rule": "config-files", "text": "{}"},
        {"doc_id": "cfg/f.csv", "project": "cfg", "decision": "metadata_only", "rule": "tables-are-facts", "text": "a"},
    ]
    config = ChunkingConfig(size=500, overlap=100)
    plan = build_plan(classified(rows), config, lambda text: (text.count("KEY"), text.count("Word") // 400))
    per_doc = dict(plan.documents.select("doc_id", "estimated_chunks").iter_rows())
    assert per_doc["hr/a.md"] == estimate_chunks(LONG, config) > 1
    assert per_doc["cfg/e.json"] == per_doc["cfg/f.csv"] == 0  # never embedded
    assert plan.blind_spots == ["cfg"]
    assert plan.outliers == ["big"]
    totals = plan.totals()
    assert (totals["files"], totals["included"], totals["excluded"], totals["metadata_only"]) == (6, 4, 1, 1)
    assert totals["estimated_chunks"] == sum(per_doc.values())
    assert totals["pii_to_redact"] == 3 + 10  # the counter ran on included and metadata-only text, not excluded
    assert totals["blind_spots"] == 1 and totals["outliers"] == 1


def test_excluded_documents_are_never_scanned_for_redactions() -> None:
    seen: list[str] = []
    rows = [{"doc_id": "x.md", "project": "", "decision": "exclude", "rule": "too-short", "text": "tiny"}]
    build_plan(classified(rows), ChunkingConfig(), lambda text: seen.append(text) or (0, 0))
    assert seen == []
