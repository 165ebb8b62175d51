"""Re-running a partition: unchanged chunks are neither re-embedded nor re-written; vanished docs go."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
import pytest

from strata_pipeline.indexing.versions import current_version
from strata_pipeline_tests.conftest import Stack, make_settings, run_partition

DOCS = {
    "guides/alpha.md": "# Alpha guide\n\nThe alpha valve must be inspected every 12 days by the night shift.\n",
    "guides/beta.md": "# Beta guide\n\nBeta pumps run at 3,000 rpm and are serviced twice a year.\n",
    "guides/gamma.txt": "Gamma sensors report humidity every 5 seconds to the control room dashboard.\n",
}


@pytest.fixture
def small(tmp_path: Path) -> Stack:
    corpus = tmp_path / "corpus"
    for rel, text in DOCS.items():
        path = corpus / "plant" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return Stack(make_settings(tmp_path / "home", corpus), dg.DagsterInstance.ephemeral(), {})


def test_rerun_reuses_vectors_and_points_and_deletion_removes_a_document(small: Stack) -> None:
    first = run_partition(small.settings, small.instance, "plant")
    assert first.success
    v1 = current_version(small.settings.index_dir, "plant")
    assert small.materialization(first, "qdrant_collection")["upserted"] == 3
    assert small.materialization(first, "eval_report")["golden_set"] == "missing"

    second = run_partition(small.settings, small.instance, "plant")
    assert second.success
    assert small.materialization(second, "embeddings")["embedded_now"] == 0
    meta = small.materialization(second, "qdrant_collection")
    assert (meta["upserted"], meta["deleted"], meta["unchanged"], meta["points"]) == (0, 0, 3, 3)
    assert meta["seeded_from"] == v1.version
    v2 = current_version(small.settings.index_dir, "plant")
    assert v2.version != v1.version  # a new version was published; v1 was never modified

    (small.settings.corpus_root / "plant" / "guides" / "beta.md").unlink()
    third = run_partition(small.settings, small.instance, "plant")
    assert third.success
    meta = small.materialization(third, "qdrant_collection")
    assert (meta["deleted"], meta["documents_removed"], meta["points"]) == (1, 1, 2)
    assert current_version(small.settings.index_dir, "plant").point_count == 2


def test_missing_source_set_folder_fails_with_an_actionable_message(small: Stack) -> None:
    result = run_partition(small.settings, small.instance, "nowhere")
    assert not result.success
    failure = next(e for e in result.all_events if e.is_step_failure)
    assert "does not exist" in failure.step_failure_data.error.message
