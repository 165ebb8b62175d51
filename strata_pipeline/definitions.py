"""The one Definitions object: assets, checks, automation and resources built from the environment."""

from __future__ import annotations

from typing import Any

import dagster as dg

from strata_pipeline.assets.chunks import chunks
from strata_pipeline.assets.classified_docs import classified_docs
from strata_pipeline.assets.discovered_docs import discovered_docs
from strata_pipeline.assets.embeddings import embeddings
from strata_pipeline.assets.enriched_sidecar import enriched_sidecar
from strata_pipeline.assets.eval_report import eval_report, eval_report_no_regression
from strata_pipeline.assets.published_index import published_index
from strata_pipeline.assets.qdrant_collection import (
    qdrant_collection,
    qdrant_collection_no_leaks,
    qdrant_collection_point_count,
    qdrant_collection_vector_dims,
)
from strata_pipeline.assets.redacted_docs import redacted_docs, redacted_docs_no_secrets
from strata_pipeline.assets.rule_proposals import rule_proposals
from strata_pipeline.automation.jobs import index_job, propose_rules_job
from strata_pipeline.automation.schedules import nightly_reindex
from strata_pipeline.automation.sensors import new_source_set_sensor
from strata_pipeline.discovery.plugins import load_plugins
from strata_pipeline.resources.factory import build_resources
from strata_pipeline.settings import Settings, load_settings

ASSETS = [
    discovered_docs,
    classified_docs,
    redacted_docs,
    chunks,
    embeddings,
    qdrant_collection,
    enriched_sidecar,
    eval_report,
    published_index,
    rule_proposals,
]
CHECKS = [
    redacted_docs_no_secrets,
    qdrant_collection_point_count,
    qdrant_collection_vector_dims,
    qdrant_collection_no_leaks,
    eval_report_no_regression,
]


def build_definitions(settings: Settings, overrides: dict[str, Any] | None = None) -> dg.Definitions:
    """`overrides` replaces resources by key (tests use it to stand in for Claude).

    Adapter plugins from STRATA_PLUGINS_DIR are imported here, so every process that loads the
    definitions (the UI, the daemon, each run worker) knows the same adapters.
    """
    load_plugins(settings.plugins_dir)
    return dg.Definitions(
        assets=ASSETS,
        asset_checks=CHECKS,
        jobs=[index_job, propose_rules_job],
        sensors=[new_source_set_sensor],
        schedules=[nightly_reindex],
        resources={**build_resources(settings), **(overrides or {})},
    )


defs = build_definitions(load_settings())
