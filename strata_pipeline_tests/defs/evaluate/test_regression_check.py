"""The eval's blocking regression check: a run whose retrieval got worse is never published."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import dagster as dg

from strata_pipeline.indexing.versions import current_version
from strata_pipeline_tests.conftest import make_settings, run_partition

DOCS = {
    "plant/valves.md": "# Valves\n\nThe alpha valve is inspected every 12 days by the night shift.\n",
    "plant/pumps.md": "# Pumps\n\nBeta pumps run at 3,000 rpm and are serviced twice a year.\n",
    "plant/canteen.md": "# Canteen\n\nThe canteen serves lunch from 11:30 to 14:00 on weekdays.\n",
}
GOLDEN = """source_set: ops
k: 5
questions:
  - id: q1
    question: "How often is the alpha valve inspected?"
    category: maintenance
    relevant: [plant/valves.md]
  - id: q2
    question: "How fast do the beta pumps run?"
    category: maintenance
    relevant: [plant/pumps.md]
  - id: q3
    question: "When does the canteen serve lunch?"
    category: facilities
    relevant: [plant/canteen.md]
"""


def test_a_retrieval_regression_blocks_publishing(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus" / "ops"
    for rel, text in DOCS.items():
        (corpus / rel).parent.mkdir(parents=True, exist_ok=True)
        (corpus / rel).write_text(text)
    golden = tmp_path / "golden"
    golden.mkdir()
    (golden / "ops.yaml").write_text(GOLDEN)
    settings = dataclasses.replace(make_settings(tmp_path / "home", tmp_path / "corpus"), golden_dir=golden)
    instance = dg.DagsterInstance.ephemeral()

    first = run_partition(settings, instance, "ops")
    assert first.success
    published = current_version(settings.index_dir, "ops")
    baseline = json.loads((settings.reports_dir / "ops" / "baseline.json").read_text())
    assert baseline["summary"]["recall_at_5"] == 1.0 and baseline["fingerprint"]["index_version"] == published.version

    # Content drift: the valve document no longer says anything about valves.
    (corpus / "plant" / "valves.md").write_text("# Parking\n\nVisitors park in the north lot next to gate B.\n")
    second = run_partition(settings, instance, "ops")
    check = next(e for e in second.get_asset_check_evaluations() if e.check_name == "eval_report_no_regression")
    assert check.passed is False
    # With three documents every one is in the top 5, so recall holds; the valve answer drops in rank.
    # numeric check metadata is per source-set, so the check's plots never mix source-sets
    assert check.metadata["ops/mrr_drop"].value > 0.05 and check.metadata["ops/recall_at_5_drop"].value == 0.0
    materialised = {e.materialization.asset_key.path[-1] for e in second.get_asset_materialization_events()}
    assert "eval_report" in materialised and "published_index" not in materialised
    assert current_version(settings.index_dir, "ops").version == published.version  # still the good one
    assert json.loads((settings.reports_dir / "ops" / "baseline.json").read_text()) == baseline
