"""Dagster warnings about features this project uses on purpose, silenced for the whole process.

- Partitioned asset checks are a "preview" feature; a check must evaluate one partition, not load
  them all (partitions.py).
- `Output(data_version=...)` is "beta"; discovered_docs gives Dagster the digest of the files it
  read (dagster_support/lineage.py).

strata_pipeline.definitions installs these filters when it is imported, before the defs folder
loads: the loader imports the asset modules inside `warnings.catch_warnings()`, which drops any
filter a module installs while it is being imported.
"""

from __future__ import annotations

import warnings

import dagster as dg


def silence_deliberate_feature_warnings() -> None:
    warnings.filterwarnings(
        "ignore", message="Specifying a partitions_def on an AssetCheckSpec", category=dg.PreviewWarning
    )
    warnings.filterwarnings("ignore", message="Parameter `data_version`", category=dg.BetaWarning)
