"""The definitions load the way Dagster loads them, and every asset says who owns it, what it is,
how it treats personal data, which code made it and what launches it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import dagster as dg
import pytest
from dagster._core.definitions.reconstruct import ReconstructableRepository

from strata_pipeline.dagster_support.catalog import DRIVERS, ON_DEMAND, PII_HANDLING
from strata_pipeline.definitions import build_definitions
from strata_pipeline.resources import AnthropicResource
from strata_pipeline.settings import PROJECT_ROOT, load_settings

GROUPS = {
    "ingest": {"discovered_docs", "classified_docs", "redacted_docs", "rule_proposals"},
    "index": {"chunks", "embeddings", "qdrant_collection", "published_index"},
    "enrich": {"enriched_sidecar"},
    "evaluate": {"eval_report", "redaction_quality"},
}
CHECKS = {
    "redacted_docs": {"redacted_docs_no_secrets"},
    "chunks": {"chunks_injection_free"},
    "qdrant_collection": {
        "qdrant_collection_point_count",
        "qdrant_collection_vector_dims",
        "qdrant_collection_no_leaks",
    },
    "eval_report": {"eval_report_no_regression"},
}
DG = Path(sys.executable).parent / "dg"


@pytest.fixture(scope="module")
def repository() -> dg.RepositoryDefinition:
    """`strata_pipeline.definitions:defs` loaded as a run worker loads it (workspace.yaml, dg)."""
    return ReconstructableRepository.for_module(
        "strata_pipeline.definitions", "defs", working_directory=str(PROJECT_ROOT)
    ).get_definition()


def test_every_group_holds_its_assets_and_checks_live_in_their_asset_folder(
    repository: dg.RepositoryDefinition,
) -> None:
    graph = repository.asset_graph
    groups: dict[str, set[str]] = {}
    for key in graph.get_all_asset_keys():
        groups.setdefault(graph.get(key).group_name, set()).add(key.to_user_string())
    assert groups == GROUPS
    checks: dict[str, set[str]] = {}
    for check in graph.asset_check_keys:
        checks.setdefault(check.asset_key.to_user_string(), set()).add(check.name)
    assert checks == CHECKS
    for group, assets in GROUPS.items():
        folder = PROJECT_ROOT / "strata_pipeline" / "defs" / group
        assert {p.stem for p in folder.glob("*.py")} - {"__init__"} == assets


def test_every_asset_has_an_owner_kinds_tags_a_code_version_and_a_driver(repository: dg.RepositoryDefinition) -> None:
    versions = set()
    for key in repository.asset_graph.get_all_asset_keys():
        spec = repository.asset_graph.get(key)
        name = key.to_user_string()
        assert spec.owners, name
        assert spec.kinds, name
        assert spec.code_version, name
        versions.add(spec.code_version)
        assert spec.tags["strata/pii"] in PII_HANDLING, name
        assert spec.tags["strata/stage"], name
        driver = spec.tags["strata/driven_by"]
        assert spec.automation_condition is not None or driver in DRIVERS, name
        if driver != ON_DEMAND:  # a schedule of that name launches a job that holds the asset
            schedule = repository.get_schedule_def(driver)
            assert key in repository.get_job(schedule.job_name).asset_layer.executable_asset_keys, name
    assert len(versions) == sum(len(assets) for assets in GROUPS.values())  # each covers its own module


def test_kinds_name_what_each_asset_really_uses(repository: dg.RepositoryDefinition) -> None:
    kinds = {
        key.to_user_string(): repository.asset_graph.get(key).kinds
        for key in repository.asset_graph.get_all_asset_keys()
    }
    assert "anthropic" not in kinds["enriched_sidecar"]  # Claude is optional; offline it is plain Python
    assert "sqlite" in kinds["enriched_sidecar"]
    assert "qdrant" not in kinds["eval_report"]  # a JSON report, not an index
    assert kinds["qdrant_collection"] == {"qdrant"} and "fastembed" in kinds["embeddings"]
    assert "presidio" in kinds["redacted_docs"]


def test_runs_execute_in_process_from_the_ui_the_schedule_and_the_cli(repository: dg.RepositoryDefinition) -> None:
    for job in repository.get_all_jobs():  # the named jobs and the UI's ad-hoc asset job
        assert job.executor_def is dg.in_process_executor, job.name


def test_loading_the_definitions_keeps_deliberate_feature_warnings_quiet() -> None:
    """The defs loader imports asset modules inside catch_warnings; the filters must outlive it."""
    script = (
        "import warnings, dagster as dg\n"
        "from strata_pipeline.definitions import build_definitions\n"
        "from strata_pipeline.settings import load_settings\n"
        "build_definitions(load_settings())\n"
        "warnings.warn('Parameter `data_version` of initializer `Output.__init__` is in beta', dg.BetaWarning)\n"
        "warnings.warn('Specifying a partitions_def on an AssetCheckSpec is in preview', dg.PreviewWarning)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=PROJECT_ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "Warning" not in done.stderr


@pytest.mark.skipif(not DG.exists(), reason="dagster-dg-cli is not installed")
def test_dg_checks_and_lists_the_project() -> None:
    env = {
        **os.environ,
        "PATH": f"{DG.parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": str(PROJECT_ROOT),  # this checkout's code, whichever the environment installed
    }
    check = subprocess.run([str(DG), "check", "defs"], cwd=PROJECT_ROOT, env=env, capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    listed = subprocess.run(
        [str(DG), "list", "defs", "--json"], cwd=PROJECT_ROOT, env=env, capture_output=True, text=True
    )
    assert listed.returncode == 0, listed.stderr
    assets = {a["asset_key"]: a for a in json.loads(listed.stdout)["assets"]}
    assert set(assets) == set().union(*GROUPS.values())
    for name, asset in assets.items():
        assert asset["owners"] == [{"team": "data-platform"}], name
        assert asset["kinds"], name
        assert {t["key"] for t in asset["tags"]} >= {"strata/stage", "strata/pii", "strata/driven_by"}, name


def test_every_loaded_module_comes_from_this_checkout(repository: dg.RepositoryDefinition) -> None:
    """strata_pipeline is a regular package, so a module missing here cannot load from another copy."""
    outside = [
        name
        for name, module in list(sys.modules.items())
        if name.split(".")[0] == "strata_pipeline"
        and getattr(module, "__file__", None)
        and not Path(module.__file__).resolve().is_relative_to(PROJECT_ROOT)
    ]
    assert not outside


SECRETS = {"llm": "ANTHROPIC_API_KEY", "qdrant": "QDRANT_API_KEY"}


def test_secrets_set_in_the_environment_reach_the_resources_as_env_vars(monkeypatch: pytest.MonkeyPatch) -> None:
    """The UI shows the variable's name, never the key; each run resolves the key from its own environment."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-not-a-real-key")
    monkeypatch.setenv("QDRANT_API_KEY", "qdrant-not-a-real-key")
    resources = build_definitions(load_settings()).resources or {}
    for key, variable in SECRETS.items():
        secret = resources[key].api_key
        assert isinstance(secret, dg.EnvVar) and secret.env_var_name == variable, key
    assert resources["llm"].enabled  # the fingerprint's "llm enabled" still sees the key

    @dg.asset
    def key_in_a_run(llm: AnthropicResource) -> str:
        return llm.api_key

    result = dg.materialize([key_in_a_run], resources={"llm": resources["llm"]})
    assert result.output_for_node("key_in_a_run") == "sk-ant-not-a-real-key"


def test_definitions_load_offline_with_no_secrets_set(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in SECRETS.values():
        monkeypatch.delenv(variable, raising=False)
    defs = build_definitions(load_settings())
    dg.Definitions.validate_loadable(defs)
    resources = defs.resources or {}
    assert {key: resources[key].api_key for key in SECRETS} == {"llm": "", "qdrant": ""}
    assert not resources["llm"].enabled
