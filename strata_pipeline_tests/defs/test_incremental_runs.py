"""`strata materialize` on the real stack: an unchanged source-set is skipped, and after one file is
edited only that file is extracted, redacted, embedded and written again (counted, not timed)."""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg
from click.testing import CliRunner

from strata_pipeline.cli import main
from strata_pipeline.indexing.versions import current_version
from strata_pipeline_tests.plant import write_plant
from strata_pipeline_tests.test_cli import env_for

DOCS = {
    "guides/alpha.md": "# Alpha guide\n\nThe alpha valve must be inspected every 12 days by the night shift.\n",
    "guides/beta.md": "# Beta guide\n\nBeta pumps run at 3,000 rpm and are serviced twice a year.\n",
    "guides/gamma.txt": "Gamma sensors report humidity every 5 seconds to the control room dashboard.\n",
    "specs/delta.md": "# Delta spec\n\nThe delta conveyor carries 40 crates a minute; Jonas Weber owns it.\n",
}
GOLDEN = """source_set: plant
k: 3
questions:
  - id: p-1
    question: How often is the alpha valve inspected?
    relevant: [guides/alpha.md]
    expected_answer_contains: ["12 days"]
  - id: p-2
    question: How fast do beta pumps run?
    relevant: [guides/beta.md]
    expected_answer_contains: ["rpm"]
"""


def latest(instance: dg.DagsterInstance, asset: str) -> dict:
    records = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=dg.AssetKey(asset), asset_partitions=["plant"]), limit=1
    ).records
    return {k: v.value for k, v in records[0].asset_materialization.metadata.items()}


def test_unchanged_is_skipped_and_one_edited_file_is_all_that_is_recomputed(tmp_path: Path) -> None:
    corpus, golden = write_plant(tmp_path, DOCS, GOLDEN)
    home, dagster_home = tmp_path / "home", tmp_path / "dagster_home"
    env = env_for(home, corpus, dagster_home) | {"STRATA_GOLDEN_DIR": str(golden)}

    def materialize(*args: str) -> str:
        result = CliRunner().invoke(main, ["materialize", "--source-set", "plant", *args], env=env)
        assert result.exit_code == 0, result.output
        return result.output

    assert "rebuilding: nothing published yet" in materialize()
    first = current_version(home / "index", "plant")
    assert first.fingerprint
    assert set(first.inputs) == {"files", "stat", "rules", "golden", "removed", "settings", "code"}
    manifest = json.loads((first.folder / "manifest.json").read_text())
    assert manifest["fingerprint"] == first.fingerprint  # recorded on disk, with the version

    second = materialize()
    assert f"up to date (version {first.version}); use --force to rebuild" in second
    assert "✓" not in second and current_version(home / "index", "plant").version == first.version
    instance = dg.DagsterInstance.from_config(str(dagster_home))
    try:
        assert len(instance.get_runs()) == 1  # a skip launches nothing, so nothing can be recorded as failed

        beta = corpus / "plant" / "guides" / "beta.md"
        beta.write_text(DOCS["guides/beta.md"].replace("3,000 rpm", "3,200 rpm"))
        assert "rebuilding: files changed" in materialize()
        runs = instance.get_runs()
        assert len(runs) == 2 and runs[0].is_success
        discovered, redacted = latest(instance, "discovered_docs"), latest(instance, "redacted_docs")
        assert (discovered["documents_recomputed"], discovered["documents_reused"]) == (1, 3)
        assert (redacted["documents_recomputed"], redacted["documents_reused"]) == (1, 3)
        assert latest(instance, "embeddings")["embedded_now"] == 1  # beta's one chunk; the others came cached
        indexed = latest(instance, "qdrant_collection")
        assert (indexed["documents_recomputed"], indexed["documents_reused"], indexed["upserted"]) == (1, 3, 1)
        evaluated = latest(instance, "eval_report")
        assert evaluated["plant/recall_at_3"] == 1.0 and evaluated["plant/eval_memo_hits"] > 0
        third = current_version(home / "index", "plant")
        assert third.fingerprint != first.fingerprint
        assert f"up to date (version {third.version})" in materialize()

        assert "rebuilding: --force" in materialize("--force")  # rebuilt from caches: nothing recomputed
        assert len(instance.get_runs()) == 3
        assert latest(instance, "discovered_docs")["documents_recomputed"] == 0
        assert latest(instance, "redacted_docs")["documents_recomputed"] == 0
        assert latest(instance, "embeddings")["embedded_now"] == 0
        assert latest(instance, "qdrant_collection")["upserted"] == 0
        forced = current_version(home / "index", "plant")
        assert forced.version != third.version and forced.fingerprint == third.fingerprint
    finally:
        instance.dispose()
