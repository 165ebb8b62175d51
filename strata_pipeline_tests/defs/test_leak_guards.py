"""If redaction ever lets a secret through, blocking checks stop it before it is served.

The redaction regression is injected by disabling the secret finder *inside redaction only*; the
checks use their own, intact detectors.
"""

from __future__ import annotations

from pathlib import Path

import dagster as dg
import pytest

from strata_pipeline.definitions import build_definitions
from strata_pipeline.defs.automation.jobs import index_job
from strata_pipeline.indexing.versions import current_version
from strata_pipeline.redaction import redact
from strata_pipeline.resources.factory import build_resources
from strata_pipeline_tests.conftest import make_settings, run_partition

SECRET = "ghp_7hR2kLp9Qx4Vm1Zc8Tn5Wb3Yd6Fs0Ge2Ja9K"


@pytest.fixture
def leaky(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    doc = tmp_path / "corpus" / "ops" / "deploy" / "notes.md"
    doc.parent.mkdir(parents=True)
    doc.write_text(
        f"# Deploy notes\n\nThe deploy bot authenticates with\n\ngithub_token: {SECRET}\n\nand runs nightly.\n"
    )
    monkeypatch.setattr(redact, "find_secrets", lambda text: [])  # redaction regresses: secrets pass through
    return make_settings(tmp_path / "home", tmp_path / "corpus")


def materialised(result: dg.ExecuteInProcessResult) -> set[str]:
    return {e.materialization.asset_key.path[-1] for e in result.get_asset_materialization_events()}


def test_redacted_docs_check_fails_and_nothing_downstream_runs(leaky) -> None:
    result = run_partition(leaky, dg.DagsterInstance.ephemeral(), "ops")
    checks = {e.check_name: e.passed for e in result.get_asset_check_evaluations()}
    assert checks["redacted_docs_no_secrets"] is False
    assert materialised(result) == {"discovered_docs", "classified_docs", "redacted_docs"}
    assert current_version(leaky.index_dir, "ops") is None


def test_collection_check_fails_even_without_the_first_guard(leaky) -> None:
    full = build_definitions(leaky)
    checks_without_first_guard = [c for c in full.asset_checks if c.check_key.name != "redacted_docs_no_secrets"]
    defs = dg.Definitions(assets=full.assets, asset_checks=checks_without_first_guard, jobs=[index_job],
                          resources=build_resources(leaky))  # fmt: skip
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("source_sets", ["ops"])
    result = defs.resolve_job_def("index_source_set").execute_in_process(
        instance=instance, partition_key="ops", raise_on_error=False
    )
    evaluations = {e.check_name: e for e in result.get_asset_check_evaluations()}
    leak_check = evaluations["qdrant_collection_no_leaks"]
    assert leak_check.passed is False and leak_check.metadata["leaks"].value >= 1
    assert "qdrant_collection" in materialised(result)
    assert not {"enriched_sidecar", "eval_report", "published_index"} & materialised(result)
    assert current_version(leaky.index_dir, "ops") is None  # the leaking version was never published
