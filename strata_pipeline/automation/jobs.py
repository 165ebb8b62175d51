import dagster as dg

from strata_pipeline.partitions import source_sets

# The whole graph for one source-set, checks included.
index_job = dg.define_asset_job(
    "index_source_set",
    selection=dg.AssetSelection.all(),
    partitions_def=source_sets,
    description="Discover, classify, redact, chunk, embed, index, enrich, evaluate and publish one source-set.",
)
