"""`strata remove`: a document disappears from the index, the sidecar, the audit, stored asset values,
the vector cache and the incremental caches, while the API keeps serving; later runs do not bring it back."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import dagster as dg
import polars as pl
from click.testing import CliRunner
from fastapi.testclient import TestClient

from serving.app import create_app
from strata_pipeline.cli import main
from strata_pipeline.embedding.cache import VectorCache
from strata_pipeline.freshness import freshness
from strata_pipeline.indexing.engine import EdgeStore
from strata_pipeline.indexing.versions import current_version
from strata_pipeline.resources.factory import build_resources
from strata_pipeline_tests.conftest import make_settings, run_partition
from strata_pipeline_tests.test_cli import env_for

DOCS = {
    "team/review.md": "# Review of Maria Fernandes\n\nMaria Fernandes (maria.fernandes@corp.example) exceeded her "
    "goals this year; her salary band moves to L5 in April.\n",
    "team/rota.md": "# Rota\n\nThe early shift starts at 06:00 and the late shift ends at 22:00 on weekdays.\n",
}


def test_remove_deletes_a_document_everywhere_and_keeps_it_out(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    for rel, text in DOCS.items():
        (corpus / "ops" / rel).parent.mkdir(parents=True, exist_ok=True)
        (corpus / "ops" / rel).write_text(text)
    settings = make_settings(tmp_path / "home", corpus)
    instance = dg.DagsterInstance.ephemeral()
    assert run_partition(settings, instance, "ops").success
    before = current_version(settings.index_dir, "ops")
    hashes = (
        pl.read_parquet(settings.assets_dir / "chunks" / "ops.parquet")
        .filter(pl.col("doc_id") == "team/review.md")["sha256"]
        .to_list()
    )
    assert hashes

    # The incremental caches hold its extracted and redacted text (and the eval's, sentence data).
    assert any(b"salary band" in p.read_bytes() for p in settings.cache_dir.glob("*.sqlite*"))
    (settings.cache_dir / "eval_vectors.sqlite").write_bytes(b"stand-in for the eval's sentence vectors")

    with TestClient(create_app(settings)) as api:  # the API holds the published version open
        assert api.post("/search", json={"query": "salary band review"}).json()["hits"][0]["doc_id"] == "team/review.md"
        result = CliRunner().invoke(main, ["remove", "ops", "team/review.md"], env=env_for(settings.home, corpus))
        assert result.exit_code == 0, result.output
        assert "removed team/review.md from ops" in result.output
        hits = api.post("/search", json={"query": "salary band review", "k": 10}).json()["hits"]
        assert hits and all(h["doc_id"] != "team/review.md" for h in hits)
        assert api.get("/audit/team/review.md").status_code == 404

    after = current_version(settings.index_dir, "ops")
    assert after.version != before.version and not before.folder.exists()  # older versions are gone
    # The removal list is an input: the next `strata materialize` rebuilds once, without the document.
    assert freshness(build_resources(settings), "ops")[0].changed == ("removed",)
    with EdgeStore.open(after.store_path) as store:  # read while nothing else holds it, and in place
        docs = {hit.payload["doc_id"] for hit in store.scroll(["doc_id"])}
    assert docs == {"team/rota.md"} and after.point_count == 1
    db = sqlite3.connect(after.sidecar_path)
    try:
        assert db.execute("SELECT COUNT(*) FROM documents WHERE doc_id = 'team/review.md'").fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM redaction_audit WHERE doc_id = 'team/review.md'").fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM documents").fetchone()[0] == 1
    finally:
        db.close()
    for path in settings.assets_dir.glob("*/ops.parquet"):
        frame = pl.read_parquet(path)
        if "doc_id" in frame.columns:
            assert "team/review.md" not in frame["doc_id"].to_list(), path
    cache = VectorCache(settings.cache_dir / "vectors.sqlite")
    try:
        assert cache.get_many(settings.embed_model, hashes) == {}
    finally:
        cache.close()
    for path in settings.cache_dir.glob("*.sqlite*"):  # no cache keeps its text, not even in free pages
        assert b"salary band" not in path.read_bytes() and b"exceeded her" not in path.read_bytes(), path.name
    assert not (settings.cache_dir / "eval_vectors.sqlite").exists()

    # The file is still in the corpus: the next run lists it but never reads or indexes it.
    assert run_partition(settings, instance, "ops").success
    rows = pl.read_parquet(settings.assets_dir / "discovered_docs" / "ops.parquet")
    review = rows.filter(pl.col("doc_id") == "team/review.md").row(0, named=True)
    assert (review["error_code"], review["text"], review["sha256"]) == ("removed_on_request", "", "")
    assert current_version(settings.index_dir, "ops").point_count == 1


def test_removing_an_unknown_document_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["remove", "ops", "nope.md"], env=env_for(tmp_path / "home", tmp_path))
    assert result.exit_code == 1 and "no published index" in result.output
