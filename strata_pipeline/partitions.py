import dagster as dg

# One partition per top-level folder of the corpus root, added by the sensor or `strata materialize`.
source_sets = dg.DynamicPartitionsDefinition(name="source_sets")
