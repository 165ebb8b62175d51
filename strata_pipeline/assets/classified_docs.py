from pathlib import Path

import dagster as dg
import polars as pl

from strata_pipeline.assets.metadata import markdown_table
from strata_pipeline.classification.language import detect_language
from strata_pipeline.classification.rules import classify_docs, load_rules, reason_counts
from strata_pipeline.partitions import source_sets
from strata_pipeline.resources import CorpusResource


@dg.asset(partitions_def=source_sets, group_name="ingest", kinds={"polars"})
def classified_docs(
    context: dg.AssetExecutionContext, corpus: CorpusResource, discovered_docs: pl.DataFrame
) -> dg.Output[pl.DataFrame]:
    """Include / exclude / metadata-only per document; the first matching rule is the recorded reason."""
    rule_set = load_rules(Path(corpus.rules_dir), context.partition_key)
    classified = classify_docs(discovered_docs, rule_set).with_columns(
        pl.col("text").map_elements(detect_language, return_dtype=pl.String).alias("language")
    )
    decisions = classified["decision"].value_counts()
    count = dict(zip(decisions["decision"].to_list(), decisions["count"].to_list(), strict=True))
    return dg.Output(
        classified,
        metadata={
            "included": count.get("include", 0),
            "excluded": count.get("exclude", 0),
            "metadata_only": count.get("metadata_only", 0),
            "rules_digest": rule_set.digest,
            "rule_files": ", ".join(rule_set.sources),
            "reasons": dg.MetadataValue.md(markdown_table(reason_counts(classified))),
        },
    )
