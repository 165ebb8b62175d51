"""Where Dagster, `dg` and the tests find the project: `strata_pipeline.definitions:defs`.

`defs` loads every module under strata_pipeline/defs/ with `dg.load_from_defs_folder`: one folder
per asset group (its assets and their checks), automation/ (jobs, schedule, sensor), resources.py
and execution.py. `build_definitions` gives the same graph bound to other settings: the CLI and the
tests use it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import dagster as dg

from strata_pipeline.dagster_support.deliberate import silence_deliberate_feature_warnings
from strata_pipeline.discovery.plugins import load_plugins
from strata_pipeline.resources.factory import dagster_resources
from strata_pipeline.settings import Settings, load_settings

PROJECT_DIR = Path(__file__).parent  # pyproject.toml's [tool.dg.project] is found from here

silence_deliberate_feature_warnings()  # here, not only in the asset modules: see dagster_support/deliberate.py


def build_definitions(settings: Settings, overrides: dict[str, Any] | None = None) -> dg.Definitions:
    """The definitions of strata_pipeline/defs/ with every resource built from `settings`;
    `overrides` replaces resources by key (tests use it to stand in for Claude).

    Adapter plugins from STRATA_PLUGINS_DIR are imported here, so every process that loads the
    definitions (the UI, the daemon, each run worker) knows the same adapters.
    """
    load_plugins(settings.plugins_dir)
    loaded = dg.load_from_defs_folder(path_within_project=PROJECT_DIR)
    return dg.Definitions(
        assets=loaded.assets,
        asset_checks=loaded.asset_checks,
        jobs=loaded.jobs,
        schedules=loaded.schedules,
        sensors=loaded.sensors,
        resources={**(loaded.resources or {}), **dagster_resources(settings), **(overrides or {})},
        executor=loaded.executor,
        loggers=loaded.loggers,
        metadata=loaded.metadata,
        component_tree=loaded.component_tree,
    )


@dg.definitions
def defs() -> dg.Definitions:
    return build_definitions(load_settings())
