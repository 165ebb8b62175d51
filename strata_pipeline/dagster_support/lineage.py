"""What Dagster is told about where an asset's value came from: code versions and a run's inputs.

Each asset's `code_version` is a digest of the code that computes it (its own module under defs/
and the stage packages it calls), so the UI marks a materialisation stale when that code changes
(and Dagster derives data versions downstream of discovered_docs, whose data version is the digest
of the files it read). Whether a *run* is needed at all is decided before it starts, by the input
fingerprint (freshness.py), because rules, golden sets and settings are inputs Dagster does not see.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import dagster as dg

from strata_pipeline.chunking.chunker import ChunkingConfig
from strata_pipeline.dagster_support.deliberate import silence_deliberate_feature_warnings
from strata_pipeline.dagster_support.run_config import ChunkingSettings
from strata_pipeline.incremental.digests import PACKAGE_ROOT, source_digest


def code_version(asset_module: str, *relative: str) -> str:
    """A short digest of an asset's own module (pass `__file__`) and of the modules or packages of
    strata_pipeline it calls (paths relative to the package). Files are named relative to the
    package, so every checkout of the same code gets the same version."""
    return source_digest(str(Path(asset_module).resolve().relative_to(PACKAGE_ROOT)), *relative)[:12]


# Output(data_version=...) is "beta" in Dagster 1.13; we use it deliberately (see above).
silence_deliberate_feature_warnings()

# The assets that turn files into points: a fingerprint is recorded only when all of them ran in one run.
INDEX_CHAIN = ("discovered_docs", "classified_docs", "redacted_docs", "chunks", "embeddings", "qdrant_collection")


def run_chunking(context: dg.AssetExecutionContext) -> ChunkingConfig:
    """The chunking this run uses: the `chunks` op's run config over the defaults."""
    try:
        run_config: dict[str, Any] = dict(context.run.run_config or {})  # typed as object
        ops = run_config.get("ops") or {}
    except Exception:  # a directly invoked asset has no run
        ops = {}
    return ChunkingSettings(**((ops.get("chunks") or {}).get("config") or {})).to_config()


def run_inputs(context: dg.AssetExecutionContext) -> dict[str, str]:
    """The fingerprint parts discovered_docs recorded in *this* run, when the run computed every step
    from the files to the points; {} otherwise (a partial run mixes in older values, so what it
    built from is unknown, and its version must never pass as up to date)."""
    try:
        selection = context.run.asset_selection
        if selection and not set(INDEX_CHAIN) <= {key.to_user_string() for key in selection}:  # empty: whole job
            return {}
        records = context.instance.fetch_materializations(
            dg.AssetRecordsFilter(asset_key=dg.AssetKey("discovered_docs"), asset_partitions=[context.partition_key]),
            limit=1,
        ).records
    except Exception:  # a directly invoked asset has no run or instance records
        return {}
    if not records or records[0].run_id != context.run_id:
        return {}
    materialization = records[0].asset_materialization
    value: Any = materialization.metadata.get("input_parts") if materialization else None
    return {str(k): str(v) for k, v in (value.value if value is not None else {}).items()}
