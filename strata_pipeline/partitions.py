import dagster as dg

from strata_pipeline.dagster_support.deliberate import silence_deliberate_feature_warnings

# Partitioned asset checks are a Dagster "preview" feature we rely on deliberately (a check must
# evaluate one partition, not load them all), so the warning is noise for our users.
silence_deliberate_feature_warnings()

# One partition per top-level folder of the corpus root, added by the sensor or `strata materialize`.
SOURCE_SETS = "source_sets"  # the partitions definition's name, typed as the str the instance calls take
source_sets = dg.DynamicPartitionsDefinition(name=SOURCE_SETS)
