import dagster as dg

from strata_pipeline.partitions import source_sets

# The whole index graph for one source-set, checks included; the rule advisor runs on demand only, and
# redaction_quality (unpartitioned, the same for every source-set) has its own job.
index_job = dg.define_asset_job(
    "index_source_set",
    selection=dg.AssetSelection.all() - dg.AssetSelection.assets("rule_proposals", "redaction_quality"),
    partitions_def=source_sets,
    description="Discover, classify, redact, chunk, embed, index, enrich, evaluate and publish one source-set.",
)

propose_rules_job = dg.define_asset_job(
    "propose_rules",
    selection=dg.AssetSelection.assets("rule_proposals"),
    partitions_def=source_sets,
    description="Ask Claude to propose rule changes toward the corpus intent (shown as a diff, never applied).",
)

redaction_quality_job = dg.define_asset_job(
    "measure_redaction",  # not the asset's own name: a job may not share its name with an op
    selection=dg.AssetSelection.assets("redaction_quality"),
    description="Score the configured redaction on the labelled PII and secret sets (the same for every source-set).",
)
