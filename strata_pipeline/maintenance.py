"""Removing a document everywhere: index, sidecar, audit, stored asset values and vector cache.

Published versions are immutable, so removal publishes a *new* version without the document,
then deletes every older version (they all hold it). A tombstone keeps later runs from reading the
file again while it is still in the corpus.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from strata_pipeline.embedding.cache import VectorCache
from strata_pipeline.enrichment.sidecar import copy_without_document, holds_document
from strata_pipeline.home import HomeLayout
from strata_pipeline.incremental.cache import DocumentCache
from strata_pipeline.incremental.digests import text_sha256
from strata_pipeline.indexing.engine import PointRecord, PointStore
from strata_pipeline.indexing.versions import (
    current_version,
    new_version_name,
    prune_versions_with_manifests,
    version_dir,
    version_sidecar,
    write_manifest,
)
from strata_pipeline.resources import QdrantResource


class DocumentNotFound(LookupError):
    pass


@dataclass(frozen=True)
class Removal:
    source_set: str
    doc_id: str
    version: str  # the new published version
    points_removed: int
    sidecar_rows_removed: int
    audit_rows_removed: int
    asset_rows_removed: int
    cached_vectors_removed: int
    old_versions_deleted: int
    cache_entries_removed: int = 0  # extracted and redacted text kept for incremental runs


def tombstone_path(home: Path, source_set: str) -> Path:
    return HomeLayout(home).tombstone(source_set)


def removed_doc_ids(home: Path, source_set: str) -> set[str]:
    path = tombstone_path(home, source_set)
    return {ln for ln in path.read_text(encoding="utf-8").splitlines() if ln} if path.exists() else set()


def remove_document(home: Path, qdrant: QdrantResource, source_set: str, doc_id: str) -> Removal:
    layout = HomeLayout(home)
    index_dir = layout.index_dir
    current = current_version(index_dir, source_set)
    if current is None:
        raise DocumentNotFound(f"Source-set {source_set!r} has no published index under {index_dir}.")
    if not holds_document(current.sidecar_path, doc_id):
        raise DocumentNotFound(f"No document {doc_id!r} in the published {source_set!r} index.")

    name = new_version_name("remove")
    folder = version_dir(index_dir, source_set, name)
    folder.mkdir(parents=True)
    collection = qdrant.collection_for(source_set, name)
    with qdrant.writer(folder, current, collection, current.dim) as (store, seeded):
        if not seeded:  # a server: copy every other point into the new collection
            with qdrant.reader(current) as source:
                _copy_points_except(source, store, doc_id)
        before = store.count() if seeded else current.point_count
        store.delete_where({"doc_id": doc_id})
        points = store.count()
    sidecar_rows, audit_rows = copy_without_document(current.sidecar_path, version_sidecar(folder), doc_id)
    version = dataclasses.replace(current, version=name, path=str(folder), collection=collection, point_count=points)
    write_manifest(version)
    qdrant.publish(index_dir, version)
    pruned = prune_versions_with_manifests(index_dir, source_set, keep=1, grace_s=0)  # every copy goes
    qdrant.drop_versions([m for _, m in pruned if m is not None])

    hashes = _chunk_hashes(layout, source_set, doc_id)
    cache_entries = _purge_document_caches(layout, source_set, doc_id)
    asset_rows = _scrub_asset_values(layout.assets_dir, source_set, doc_id)
    cache = VectorCache(layout.vector_cache)
    try:
        cached = cache.delete_many(hashes)
    finally:
        cache.close()
    tombstone = tombstone_path(home, source_set)
    tombstone.parent.mkdir(parents=True, exist_ok=True)
    with tombstone.open("a", encoding="utf-8") as handle:
        handle.write(doc_id + "\n")
    return Removal(
        source_set, doc_id, name, before - points, sidecar_rows, audit_rows, asset_rows, cached, len(pruned),
        cache_entries,
    )  # fmt: skip


def _copy_points_except(source: PointStore, target: PointStore, doc_id: str) -> None:
    batch: list[PointRecord] = []
    for record in source.records():
        if record.payload.get("doc_id") == doc_id:
            continue
        batch.append(record)
        if len(batch) == 256:
            target.upsert(batch)
            batch = []
    if batch:
        target.upsert(batch)


def _chunk_hashes(layout: HomeLayout, source_set: str, doc_id: str) -> list[str]:
    path = layout.asset_value("chunks", source_set)
    if not path.exists():
        return []
    return pl.read_parquet(path).filter(pl.col("doc_id") == doc_id)["sha256"].to_list()


# Caches of the eval that hold passage-derived data (sentence vectors, audited answers) without a
# link to their document: removal deletes them whole, and the next eval rebuilds them.
EVAL_CACHE_FILES = ("eval_memo.sqlite", "eval_vectors.sqlite")


def _purge_document_caches(layout: HomeLayout, source_set: str, doc_id: str) -> int:
    """Delete the document's extraction and redaction cache entries (they hold its text) and the
    eval's caches. Reads the stored discovered_docs value, so it runs before that is scrubbed."""
    path = layout.asset_value("discovered_docs", source_set)
    files, texts = [], []
    if path.exists():
        rows = pl.read_parquet(path, columns=["doc_id", "sha256", "text"]).filter(pl.col("doc_id") == doc_id)
        files = [sha for sha in rows["sha256"].to_list() if sha]
        texts = [text_sha256(text) for text in rows["text"].to_list() if text]
    removed = 0
    for stage, contents in (("extraction", files), ("redaction", texts)):
        if layout.stage_cache(stage).exists():
            with DocumentCache(layout.stage_cache(stage)) as cache:
                removed += cache.purge(contents)
    for name in EVAL_CACHE_FILES:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{layout.cache_dir / name}{suffix}").unlink(missing_ok=True)
    return removed


def _scrub_asset_values(assets_dir: Path, source_set: str, doc_id: str) -> int:
    """Rewrite every stored asset frame of the partition without the document's rows."""
    removed = 0
    for path in sorted(assets_dir.glob(f"*/{source_set}.parquet")):
        frame = pl.read_parquet(path)
        if "doc_id" not in frame.columns:
            continue
        kept = frame.filter(pl.col("doc_id") != doc_id)
        if kept.height != frame.height:
            removed += frame.height - kept.height
            kept.write_parquet(path)
    return removed
