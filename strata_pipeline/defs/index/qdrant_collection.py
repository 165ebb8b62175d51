import dataclasses
from pathlib import Path

import dagster as dg
import polars as pl

from strata_pipeline.chunking.chunker import CHUNKER_VERSION
from strata_pipeline.dagster_support.catalog import OWNERS, asset_tags
from strata_pipeline.dagster_support.claims import claim_partition
from strata_pipeline.dagster_support.lineage import code_version, run_inputs
from strata_pipeline.dagster_support.metadata import markdown_table
from strata_pipeline.incremental.cache import memoized
from strata_pipeline.incremental.digests import digest_of
from strata_pipeline.incremental.fingerprint import Fingerprint
from strata_pipeline.indexing.store import INDEX_SCHEMA, sync_points
from strata_pipeline.indexing.versions import (
    IndexVersion,
    current_version,
    new_version_name,
    version_dir,
    write_manifest,
)
from strata_pipeline.partitions import source_sets
from strata_pipeline.progress import throttled
from strata_pipeline.redaction.mailboxes import mailbox_words
from strata_pipeline.redaction.verify import Leak, find_leaks, planted_values
from strata_pipeline.resources import CacheResource, CorpusResource, EmbedderResource, PiiResource, QdrantResource


def scanned_text(payload: dict) -> str:
    """A point's scanned fields, its text under its document's title and heading path written as Markdown
    headings, and a table's rows under their header row: the policy reads the chunk as ingestion read the
    document, where an address under a premises heading, or in a row with a company cell, is the
    organisation's, not a person's (redaction/premises.py)."""
    path = str(payload.get("heading_path") or "").split(" > ")
    heads = [h for h in [str(payload.get("title") or ""), *path, str(payload.get("heading") or "")] if h.strip()]
    text = str(payload.get("text") or "")
    if header := table_header(text, str(payload.get("context") or "")):
        text = f"{header}\n{text}"
    return "\n\n".join([*(f"{'#' * min(i + 1, 6)} {h}" for i, h in enumerate(heads)), text])


def table_header(text: str, context: str) -> str:
    """The header row the chunker put on the last line of a table row's context (chunking/context.py), when
    it has as many bars as the row `text` starts with; "" for any other chunk."""
    header = context.rsplit("\n", 1)[1] if "\n" in context else ""
    bars = text.split("\n", 1)[0].count("|")
    return header if bars and header.count("|") == bars and not text.startswith(header) else ""


@dg.asset(
    partitions_def=source_sets,
    group_name="index",
    owners=OWNERS,
    kinds={"qdrant"},
    tags=asset_tags("index", pii="redacted"),
    code_version=code_version(__file__, "indexing", "resources/qdrant.py"),
)
def qdrant_collection(
    context: dg.AssetExecutionContext,
    corpus: CorpusResource,
    qdrant: QdrantResource,
    embedder: EmbedderResource,
    embeddings: pl.DataFrame,
) -> dg.Output[IndexVersion]:
    """A new index version holding exactly this partition's chunks; not served until published.

    Embedded versions start as a copy of the served one, so only new or changed chunks are
    written and chunks of vanished documents are deleted. The manifest records the run's input
    fingerprint (from discovered_docs), which later runs compare to skip an unchanged source-set.
    """
    claim_partition(context, corpus.index_dir)  # one run writes a source-set at a time
    source_set = context.partition_key
    previous = current_version(corpus.index_dir, source_set)
    if previous is not None and (previous.model, previous.schema) != (embedder.model, INDEX_SCHEMA):
        context.log.warning(
            f"Model or index layout changed ({previous.model}, schema {previous.schema} -> {embedder.model}, "
            f"schema {INDEX_SCHEMA}): building this version from scratch."
        )
        previous = None
    name = new_version_name(context.run_id)
    folder = version_dir(corpus.index_dir, source_set, name)
    collection = qdrant.collection_for(source_set, name)
    dim = len(embeddings["dense"][0]) if embeddings.height else embedder.dim
    with qdrant.writer(folder, previous, collection, dim) as (store, seeded):
        stats = sync_points(store, embeddings, progress=throttled(context.log.info, "upserted points", every=2000))
        points = store.count()
        stored_dim = store.dim()
    version = IndexVersion(
        source_set=source_set,
        version=name,
        path=str(folder),
        collection=collection,
        model=embedder.model,
        dim=stored_dim,
        point_count=points,
        chunker=CHUNKER_VERSION,
        schema=INDEX_SCHEMA,
        fingerprint=Fingerprint(inputs).value if (inputs := run_inputs(context)) else "",
        inputs=inputs,
    )
    write_manifest(version)
    return dg.Output(
        version,
        metadata={
            "version": name,
            "collection": collection,
            "backend": qdrant.engine,
            "points": points,
            "documents_reused": stats.documents - stats.changed_docs,  # every point kept as it was
            "documents_recomputed": stats.changed_docs,  # a point written or deleted
            "upserted": stats.upserted,
            "deleted": stats.deleted,
            "unchanged": stats.unchanged,
            "documents_removed": stats.deleted_docs,
            "seeded_from": previous.version if seeded and previous else "",
            "input_fingerprint": version.fingerprint,
            "model": embedder.model,
            "dim": stored_dim,
            "path": dg.MetadataValue.path(str(folder)),
        },
    )


@dg.asset_check(
    asset=qdrant_collection, partitions_def=source_sets, blocking=True, additional_ins={"chunks": dg.AssetIn("chunks")}
)
def qdrant_collection_point_count(
    qdrant: QdrantResource, qdrant_collection: IndexVersion, chunks: pl.DataFrame
) -> dg.AssetCheckResult:
    """The new version holds exactly one point per chunk: nothing lost, nothing duplicated."""
    with qdrant.reader(qdrant_collection) as store:
        points = store.count()
    return dg.AssetCheckResult(passed=points == chunks.height, metadata={"points": points, "chunks": chunks.height})


@dg.asset_check(asset=qdrant_collection, partitions_def=source_sets, blocking=True)
def qdrant_collection_vector_dims(
    qdrant: QdrantResource, embedder: EmbedderResource, qdrant_collection: IndexVersion
) -> dg.AssetCheckResult:
    """The collection's dense vectors have the dimension the configured model produces."""
    with qdrant.reader(qdrant_collection) as store:
        stored = store.dim()
    expected = embedder.dim
    return dg.AssetCheckResult(
        passed=stored == expected and qdrant_collection.model == embedder.model,
        metadata={"collection_dim": stored, "model_dim": expected, "model": embedder.model},
    )


@dg.asset_check(asset=qdrant_collection, partitions_def=source_sets, blocking=True)
def qdrant_collection_no_leaks(
    context: dg.AssetCheckExecutionContext, corpus: CorpusResource, qdrant: QdrantResource, pii: PiiResource,
    cache: CacheResource, qdrant_collection: IndexVersion,
) -> dg.AssetCheckResult:  # fmt: skip
    """No point payload of the new version holds a secret, a planted sensitive value or personal data
    the policy redacts. Any hit blocks enrichment, evaluation and publishing.

    Every point is checked; the verdict on a payload text scanned before with the same detector,
    policy, code and planted values is remembered (the leak_scan cache holds leak kinds, no text)."""
    with qdrant.reader(qdrant_collection) as store:
        payloads = [hit.payload for hit in store.scroll()]
    texts = [(p.get("chunk_id", ""), scanned_text(p)) for p in payloads]
    planted = planted_values(Path(corpus.golden_dir), context.partition_key)
    # what the chunks say of their mailboxes' parts, as redaction read it from the documents
    evidence = mailbox_words(text for _, text in texts)
    policy = dataclasses.replace(pii.policy(), mailbox_words=evidence)
    with cache.open("leak_scan") as scans:
        kinds = memoized(
            scans,
            "leak_scan",
            digest_of([pii.digest(plan=True), planted, sorted(evidence.functions)]),
            lambda text: [leak.kind for leak in find_leaks([("", text)], planted, pii.plan_detector(), policy)],
        )
        leaks = [Leak(chunk_id, kind) for chunk_id, text in texts for kind in kinds(text)]
    preview = pl.DataFrame([leak.__dict__ for leak in leaks[:20]], schema={"doc_id": pl.String, "kind": pl.String})
    return dg.AssetCheckResult(
        passed=not leaks,
        metadata={
            "points_scanned": len(payloads),
            "leaks": len(leaks),
            "planted_values_checked": len(planted),
            "leak_preview": dg.MetadataValue.md(markdown_table(preview.rename({"doc_id": "chunk_id"}))),
        },
        description=(
            "Chunks of this version still hold what the leak scan reads as secrets or personal data, so it is not "
            "published. leak_preview names the chunks and kinds: fix the detector, or the rules that admit the "
            "document, and materialize again."
        )
        if leaks
        else None,
    )
