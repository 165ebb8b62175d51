from pathlib import Path

import dagster as dg
import polars as pl

from strata_pipeline.classification.rules import load_rules
from strata_pipeline.dagster_support.catalog import OWNERS, asset_tags
from strata_pipeline.dagster_support.claims import claim_partition
from strata_pipeline.dagster_support.lineage import code_version, run_chunking
from strata_pipeline.dagster_support.metadata import markdown_table
from strata_pipeline.discovery.discover import discover_source_set
from strata_pipeline.freshness import input_parts, listing_digest
from strata_pipeline.incremental.digests import digest_of, extraction_digest
from strata_pipeline.incremental.fingerprint import Fingerprint, files_digest
from strata_pipeline.maintenance import removed_doc_ids
from strata_pipeline.partitions import source_sets
from strata_pipeline.progress import throttled
from strata_pipeline.resources import (
    AnthropicResource,
    CacheResource,
    CorpusResource,
    EmbedderResource,
    PiiResource,
    QdrantResource,
    RerankerResource,
)


@dg.asset(
    partitions_def=source_sets,
    group_name="ingest",
    owners=OWNERS,
    kinds={"python", "polars"},
    tags=asset_tags("discover", pii="raw"),
    code_version=code_version(__file__, "discovery", "freshness.py"),
)
def discovered_docs(
    context: dg.AssetExecutionContext,
    corpus: CorpusResource,
    cache: CacheResource,
    embedder: EmbedderResource,
    pii: PiiResource,
    qdrant: QdrantResource,
    llm: AnthropicResource,
    reranker: RerankerResource,
) -> dg.Output[pl.DataFrame]:
    """Every file of the source-set with its extracted text, or the reason it could not be read.

    Files whose bytes were extracted before by the same extractor code reuse that result (the
    extraction cache). Its metadata records the run's input fingerprint, taken before any file is
    read; the index version built in this run keeps it, so an unchanged source-set is skipped later.
    The other resources are read for their settings only (they are part of the fingerprint).
    """
    claim_partition(context, corpus.index_dir)  # one run writes a source-set at a time
    source_set = context.partition_key
    source_dir = corpus.source_dir(source_set)
    if not source_dir.is_dir():
        raise dg.Failure(
            f"Source-set folder {source_dir} does not exist. Create it under the corpus root "
            f"({corpus.root}) or remove the partition {source_set!r}."
        )
    resources = {"corpus": corpus, "embedder": embedder, "pii": pii, "qdrant": qdrant, "llm": llm, "reranker": reranker}
    parts = input_parts(resources, source_set, run_chunking(context)) | {"stat": listing_digest(corpus, source_set)}

    progress = throttled(context.log.info, "extracted files", every=200)
    adapter = corpus.get_adapter(load_rules(Path(corpus.rules_dir), source_set).adapter)
    removed = frozenset(removed_doc_ids(corpus.home_path, source_set))
    with cache.open("extraction") as extractions:
        docs = discover_source_set(source_dir, source_set, adapter, corpus.limits(), progress, removed, extractions)
    reused, extracted = extractions.hits, extractions.misses
    parts["files"] = files_digest(docs.select("doc_id", "sha256", "size_bytes").iter_rows())
    errors = docs.filter(pl.col("status") == "error")
    by_ext = docs.group_by("extension").agg(pl.len().alias("files")).sort("files", descending=True)
    return dg.Output(
        docs,
        # the frame is a function of the files read, the extractor code and the limits
        data_version=dg.DataVersion(digest_of([parts["files"], extraction_digest(), corpus.limits(), adapter.name])),
        metadata={
            "files": docs.height,
            "documents_reused": reused,
            "documents_recomputed": extracted,  # files read and extracted in this run
            "extracted": docs.height - errors.height,
            "errors": errors.height,
            "adapter": adapter.name,
            "with_warnings": docs.filter(pl.col("warnings").list.len() > 0).height,
            "bytes": int(docs["size_bytes"].sum() or 0),
            "by_extension": dg.MetadataValue.md(markdown_table(by_ext)),
            "error_preview": dg.MetadataValue.md(
                markdown_table(errors.select("doc_id", "error_code", "error_message"))
            ),
            "input_fingerprint": Fingerprint(parts).value,
            "input_parts": dg.MetadataValue.json(parts),
        },
    )
