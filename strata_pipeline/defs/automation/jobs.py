import dagster as dg

from strata_pipeline.partitions import source_sets

# The whole index graph for one source-set, checks included; the rule advisor runs on demand only.
index_job = dg.define_asset_job(
    "index_source_set",
    selection=dg.AssetSelection.all() - dg.AssetSelection.assets("rule_proposals"),
    partitions_def=source_sets,
    description="Discover, classify, redact, chunk, embed, index, enrich, evaluate and publish one source-set.",
)

propose_rules_job = dg.define_asset_job(
    "propose_rules",
    selection=dg.AssetSelection.assets("rule_proposals"),
    partitions_def=source_sets,
    description="Ask Claude to propose rule changes toward the corpus intent (shown as a diff, never applied).",
)
