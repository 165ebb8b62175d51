import warnings

import dagster as dg

# Partitioned asset checks are a Dagster "preview" feature; we rely on them deliberately (a check
# must evaluate one partition, not load them all), so the warning is noise for our users.
warnings.filterwarnings(
    "ignore", message="Specifying a partitions_def on an AssetCheckSpec", category=dg.PreviewWarning
)

# One partition per top-level folder of the corpus root, added by the sensor or `strata materialize`.
source_sets = dg.DynamicPartitionsDefinition(name="source_sets")
