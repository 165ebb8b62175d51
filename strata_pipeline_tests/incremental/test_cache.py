"""Per-document caches: hits, misses, invalidation, survival of a killed run, and discovery's use of them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import polars as pl
import pytest

from strata_pipeline.discovery.adapters import FolderAdapter
from strata_pipeline.discovery.discover import discover_source_set
from strata_pipeline.incremental import digests
from strata_pipeline.incremental.cache import DocumentCache, NoCache, cache_key, memoized
from strata_pipeline.resources.pii import PiiResource
from strata_pipeline_tests.discovery.test_discover import build_source_set


def test_a_value_is_found_by_its_key_after_reopening_and_only_then(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "stage.sqlite"
    with DocumentCache(path) as cache:
        assert cache.get("k1") is None
        cache.put("k1", "content-1", {"text": "redacted", "audit": [{"score": 0.85}]})
        assert cache.get("k1") == {"text": "redacted", "audit": [{"score": 0.85}]}  # before it is flushed, too
        assert (cache.hits, cache.misses) == (1, 1)
    with DocumentCache(path) as cache:
        assert cache.get("k1") == {"text": "redacted", "audit": [{"score": 0.85}]}
        assert cache.get("k2") is None
        assert (cache.hits, cache.misses) == (1, 1)


def test_committed_values_survive_a_run_that_dies_before_closing(tmp_path: Path) -> None:
    path = tmp_path / "stage.sqlite"
    cache = DocumentCache(path, flush_every=2)
    for number in range(5):
        cache.put(f"k{number}", f"c{number}", number)
    # no close(): the process "dies" here; the first two batches were committed, the fifth was pending
    survivor = DocumentCache(path)
    try:
        assert [survivor.get(f"k{n}") for n in range(5)] == [0, 1, 2, 3, None]
    finally:
        survivor.close()
        cache._db.close()  # what the dying process would have released


def test_an_unreadable_cache_file_is_set_aside_and_the_run_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "stage.sqlite"
    path.write_bytes(b"this is not a database, it is what a crash or a bad disk leaves" * 100)
    with DocumentCache(path) as cache:
        assert cache.available and cache.get("k") is None
        cache.put("k", "c", "v")
    with DocumentCache(path) as cache:
        assert cache.get("k") == "v"
    assert len(list(tmp_path.glob("stage.sqlite.corrupt-*"))) == 1


def test_purge_deletes_every_entry_of_a_content_and_leaves_no_text_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "stage.sqlite"
    with DocumentCache(path) as cache:
        cache.put("a", "doc-1", "the salary of Maria Fernandes is 91,000")
        cache.put("b", "doc-1", "another value of the same document")
        cache.put("c", "doc-2", "kept")
        cache.flush()
        assert cache.purge(["doc-1"]) == 2
        assert (cache.get("a"), cache.get("b"), cache.get("c")) == (None, None, "kept")
    assert all(b"Maria Fernandes" not in p.read_bytes() for p in tmp_path.glob("stage.sqlite*"))


def test_no_cache_misses_every_time_and_writes_nothing() -> None:
    cache = NoCache()
    cache.put("k", "c", "v")
    assert cache.get("k") is None and (cache.hits, cache.misses) == (0, 1) and len(cache) == 0


def test_memoized_computes_once_per_text_and_digest(tmp_path: Path) -> None:
    calls: list[str] = []

    def count(text: str) -> tuple[int, int]:
        calls.append(text)
        return len(text), text.count("x")

    with DocumentCache(tmp_path / "memo.sqlite") as cache:
        v1 = memoized(cache, "counts", "detector-v1", count)
        assert v1("xyz") == [3, 1] and v1("xyz") == [3, 1] and v1("abc") == [3, 0]
        assert calls == ["xyz", "abc"]
        v2 = memoized(cache, "counts", "detector-v2", count)  # a changed detector: a new key
        assert v2("xyz") == [3, 1] and calls == ["xyz", "abc", "xyz"]


def test_cache_key_depends_on_every_part() -> None:
    base = cache_key("redaction", "sha-a", None, "digest-1")
    assert base == cache_key("redaction", "sha-a", None, "digest-1")
    variants = [
        cache_key("redaction", "sha-b", None, "digest-1"),
        cache_key("redaction", "sha-a", "tables", "digest-1"),
        cache_key("redaction", "sha-a", None, "digest-2"),
        cache_key("extraction", "sha-a", None, "digest-1"),
    ]
    assert len({base, *variants}) == 5


def test_redaction_digest_changes_with_backend_thresholds_and_code(monkeypatch: pytest.MonkeyPatch) -> None:
    base = PiiResource().digest()
    assert base == PiiResource().digest()
    assert PiiResource(backend="presidio-regex").digest() != base
    assert PiiResource(thresholds={"PERSON": 0.99}).digest() != base
    assert PiiResource().digest(plan=True) == PiiResource(backend="presidio-regex").digest()
    monkeypatch.setattr(digests, "source_digest", lambda *a, **k: "edited redaction code")
    digests.redaction_code_digest.cache_clear()
    try:
        assert PiiResource().digest() != base
    finally:
        monkeypatch.undo()
        digests.redaction_code_digest.cache_clear()


def _outcomes(frame: pl.DataFrame) -> dict[str, tuple]:
    return {r["doc_id"]: (r["status"], r["text"], r["error_code"], r["kind"]) for r in frame.iter_rows(named=True)}


def test_discovery_reuses_extractions_and_recomputes_only_changed_files(tmp_path: Path) -> None:
    source = build_source_set(tmp_path)
    cache_path = tmp_path / "cache" / "extraction.sqlite"
    with DocumentCache(cache_path) as cache:
        cold = discover_source_set(source, "handbook", FolderAdapter(), cache=cache)
    read = cold.filter(pl.col("sha256") != "").height  # symlinks and the like are never read
    assert (cache.hits, cache.misses) == (0, read)

    with DocumentCache(cache_path) as cache:
        warm = discover_source_set(source, "handbook", FolderAdapter(), cache=cache)
    assert (cache.hits, cache.misses) == (read, 0)
    assert warm.drop("mtime").equals(cold.drop("mtime"))  # parse errors included, the same rows

    (source / "hr" / "leave.md").write_bytes(b"# Leave policy\n\nEmployees get 30 days of paid vacation per year.\n")
    with DocumentCache(cache_path) as cache:
        edited = discover_source_set(source, "handbook", FolderAdapter(), cache=cache)
    assert (cache.hits, cache.misses) == (read - 1, 1)
    assert "30 days" in _outcomes(edited)["hr/leave.md"][1]


def test_a_new_extractor_version_extracts_everything_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = build_source_set(tmp_path)
    with DocumentCache(tmp_path / "extraction.sqlite") as cache:
        discover_source_set(source, "handbook", FolderAdapter(), cache=cache)
    monkeypatch.setattr("strata_pipeline.discovery.discover.extraction_digest", lambda: "extractors edited")
    with DocumentCache(tmp_path / "extraction.sqlite") as cache:
        discover_source_set(source, "handbook", FolderAdapter(), cache=cache)
        assert cache.hits == 0 and cache.misses > 0


def test_timeouts_and_crashes_are_never_cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "set"
    source.mkdir()
    (source / "a.md").write_text("# A\n\nSome text that is long enough to be a document of its own.\n")

    def crash(data: bytes, name: str, limits: object) -> None:
        raise RuntimeError("the parser fell over")

    monkeypatch.setattr("strata_pipeline.discovery.discover.extract", crash)
    with DocumentCache(tmp_path / "extraction.sqlite") as cache:
        failed = discover_source_set(source, "set", FolderAdapter(), cache=cache)
        assert failed.row(0, named=True)["error_code"] == "extract_failed"
    monkeypatch.undo()
    with DocumentCache(tmp_path / "extraction.sqlite") as cache:
        retried = discover_source_set(source, "set", FolderAdapter(), cache=cache)
        assert (cache.hits, cache.misses) == (0, 1)
    assert retried.row(0, named=True)["status"] == "ok"


def test_a_cache_that_breaks_mid_run_costs_nothing_but_speed(tmp_path: Path) -> None:
    source = build_source_set(tmp_path)
    path = tmp_path / "extraction.sqlite"
    with DocumentCache(path) as cache:
        expected = discover_source_set(source, "handbook", FolderAdapter(), cache=cache)
    cache = DocumentCache(path)
    cache._db.close()
    cache._db = sqlite3.connect(":memory:")  # a connection whose table is gone: every call fails
    frame = discover_source_set(source, "handbook", FolderAdapter(), cache=cache)
    assert frame.drop("mtime").equals(expected.drop("mtime"))
