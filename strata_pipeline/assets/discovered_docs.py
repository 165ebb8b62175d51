from pathlib import Path

import dagster as dg
import polars as pl

from strata_pipeline.assets.metadata import markdown_table
from strata_pipeline.classification.rules import load_rules
from strata_pipeline.discovery.discover import discover_source_set
from strata_pipeline.maintenance import removed_doc_ids
from strata_pipeline.partitions import source_sets
from strata_pipeline.resources import CorpusResource


@dg.asset(partitions_def=source_sets, group_name="ingest", kinds={"polars"})
def discovered_docs(context: dg.AssetExecutionContext, corpus: CorpusResource) -> dg.Output[pl.DataFrame]:
    """Every file of the source-set with its extracted text, or the reason it could not be read."""
    source_set = context.partition_key
    source_dir = corpus.source_dir(source_set)
    if not source_dir.is_dir():
        raise dg.Failure(
            f"Source-set folder {source_dir} does not exist. Create it under the corpus root "
            f"({corpus.root}) or remove the partition {source_set!r}."
        )

    def progress(done: int, total: int) -> None:
        if done % 500 == 0 or done == total:
            context.log.info(f"read {done}/{total} files")

    adapter = corpus.get_adapter(load_rules(Path(corpus.rules_dir), source_set).adapter)
    removed = frozenset(removed_doc_ids(corpus.home_path, source_set))
    docs = discover_source_set(source_dir, source_set, adapter, corpus.limits(), progress, removed)
    errors = docs.filter(pl.col("status") == "error")
    by_ext = docs.group_by("extension").agg(pl.len().alias("files")).sort("files", descending=True)
    return dg.Output(
        docs,
        metadata={
            "files": docs.height,
            "extracted": docs.height - errors.height,
            "errors": errors.height,
            "adapter": adapter.name,
            "with_warnings": docs.filter(pl.col("warnings").list.len() > 0).height,
            "bytes": int(docs["size_bytes"].sum() or 0),
            "by_extension": dg.MetadataValue.md(markdown_table(by_ext)),
            "error_preview": dg.MetadataValue.md(
                markdown_table(errors.select("doc_id", "error_code", "error_message"))
            ),
        },
    )
