"""`strata materialize` as a real process: killed with SIGKILL at three points of a run, and run twice
at once. Killed runs must leave the published version served, be marked failed by the next CLI
start, and a rerun converges to what an uninterrupted run gives; two runs of one partition never
both write. Kill points are found from the run's own progress lines, not from sleeps."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import dagster as dg
import pytest

from strata_pipeline.indexing.versions import current_version, current_version_name, published_history
from strata_pipeline.serving_index import PublishedIndex
from strata_pipeline.settings import PROJECT_ROOT
from strata_pipeline_tests.conftest import make_settings
from strata_pipeline_tests.plant import PUMPS, SENSORS, VALVE_QUESTION, VALVES, write_plant
from strata_pipeline_tests.test_cli import env_for

# This checkout's CLI, whichever checkout the environment installed
STRATA = [sys.executable, "-c", "from strata_pipeline.cli import main; main()"]
DOCS = {"guides/valves.md": VALVES, "guides/pumps.md": PUMPS, "sensors.txt": SENSORS}
# Each point: (the progress line to wait for, the step that must not have finished when the kill
# lands; checked from the run's event log). The printer reports a step once it has finished, so each
# kill lands inside a later step; for the last, the test also checks that the index was written.
KILL_POINTS = {
    "during classification and redaction": ("✓ discovered_docs", "redacted_docs"),
    "during embedding and upsert": ("✓ chunks", "qdrant_collection"),
    "after the index is written, before publication": ("✓ qdrant_collection", "published_index"),
}


class Plant:
    def __init__(self, root: Path) -> None:
        corpus, golden = write_plant(root, DOCS, VALVE_QUESTION)
        self.home, self.dagster_home = root / "home", root / "dagster_home"
        self.index_dir = self.home / "index"
        self.env = os.environ | env_for(self.home, corpus, self.dagster_home)
        self.env |= {"STRATA_GOLDEN_DIR": str(golden), "PYTHONPATH": str(PROJECT_ROOT)}
        self.settings = make_settings(self.home, corpus)
        self.folder = corpus / "plant"

    def start(self, *args: str) -> subprocess.Popen[str]:
        """`strata materialize --source-set plant` in its own process group, output merged, line by line."""
        return subprocess.Popen(
            [*STRATA, "materialize", "--source-set", "plant", *args],
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
            start_new_session=True,
        )

    def materialize(self, *args: str) -> str:
        process = self.start(*args)
        output, _ = process.communicate(timeout=600)
        assert process.returncode == 0, output
        return output

    @contextmanager
    def instance(self) -> Iterator[dg.DagsterInstance]:
        instance = dg.DagsterInstance.from_config(str(self.dagster_home))
        try:
            yield instance
        finally:
            instance.dispose()


def read_until(process: subprocess.Popen[str], marker: str) -> str:
    """The process's output up to and including the first line containing `marker`."""
    seen = []
    assert process.stdout is not None
    for line in process.stdout:
        seen.append(line)
        if marker in line:
            return "".join(seen)
    process.wait()
    pytest.fail(f"the run ended (exit {process.returncode}) before {marker!r}:\n{''.join(seen)}")


def eval_line(output: str) -> str:
    return next(line.split("eval:", 1)[1].strip() for line in output.splitlines() if "eval:" in line)


def versions_on_disk(plant: Plant) -> set[str]:
    return {p.name for p in (plant.index_dir / "plant" / "versions").iterdir()}


def test_runs_killed_at_three_points_leave_the_published_version_served_and_a_rerun_converges(
    tmp_path: Path,
) -> None:
    plant = Plant(tmp_path)
    baseline_output = plant.materialize()
    baseline = current_version(plant.index_dir, "plant")
    assert baseline is not None and baseline.point_count == 3
    served = PublishedIndex.from_settings(plant.settings)
    try:
        for point, (marker, unfinished) in KILL_POINTS.items():
            before = versions_on_disk(plant)
            # a new file each time, so that its redaction and embedding do real work (a rerun of cached
            # inputs passes those steps faster than the progress printer reports them)
            (plant.folder / "extra.md").write_text(f"# Extra\n\nThe {unfinished} pump idles {len(before)} hours.\n")
            process = plant.start()
            read_until(process, marker)
            os.killpg(process.pid, signal.SIGSTOP)  # frozen mid-run: still in flight while we query
            try:
                assert current_version_name(plant.index_dir, "plant") == baseline.version, point
                hits = served.engine().search("How often is the alpha valve inspected?", k=1)
                assert hits[0].doc_id == "guides/valves.md", point
                assert served.published()["plant"].version == baseline.version, point
                written = versions_on_disk(plant) - before
                if marker == "✓ qdrant_collection":  # this run's index is complete but not published
                    assert (
                        len(written) == 1
                        and (plant.index_dir / "plant" / "versions" / written.pop() / "manifest.json").exists()
                    )
            finally:
                os.killpg(process.pid, signal.SIGKILL)  # kill -9: nothing is cleaned up
                process.wait()
            assert process.returncode == -signal.SIGKILL
            with plant.instance() as instance:  # Dagster still believes the killed run is going
                run = instance.get_runs(limit=1)[0]
                assert run.status == dg.DagsterRunStatus.STARTED, point
                finished = {e.step_key for e in instance.all_logs(run.run_id, of_type=dg.DagsterEventType.STEP_SUCCESS)}
                assert marker.removeprefix("✓ ") in finished and unfinished not in finished, (point, finished)

        (plant.folder / "extra.md").unlink()  # back to the baseline's files
        rerun = plant.materialize("--force")
        with plant.instance() as instance:
            runs = instance.get_runs()  # newest first
            killed = [run.run_id for run in runs[1:4]]
            assert [run.status for run in runs] == [dg.DagsterRunStatus.SUCCESS] + [dg.DagsterRunStatus.FAILURE] * 3 + [
                dg.DagsterRunStatus.SUCCESS
            ]
        # each CLI start marked the run killed before it failed; the rerun marked the last one
        assert f"marked run {killed[0]} failed: the strata process running it is gone" in rerun

        final = current_version(plant.index_dir, "plant")
        assert final is not None and final.version != baseline.version
        assert final.point_count == baseline.point_count
        assert eval_line(rerun) == eval_line(baseline_output)
        assert served.engine().search("How fast do beta pumps run?", k=1)[0].doc_id == "guides/pumps.md"
        assert served.published()["plant"].version == final.version  # the server follows the flip
        # pruning kept the served version and its predecessor, the evaluated rollback target
        assert published_history(plant.index_dir, "plant") == [baseline.version, final.version]
        assert {baseline.version, final.version} <= versions_on_disk(plant)
        assert (baseline.folder / "manifest.json").exists() and (baseline.store_path).is_dir()
    finally:
        served.close()


def test_two_runs_of_one_partition_at_once_one_fails_clearly_and_the_other_publishes(tmp_path: Path) -> None:
    plant = Plant(tmp_path)
    first, second = plant.start(), plant.start()
    outputs = [p.communicate(timeout=600)[0] for p in (first, second)]
    codes = [first.returncode, second.returncode]
    assert sorted(codes) == [0, 1], outputs
    won, lost = (outputs[0], outputs[1]) if codes[0] == 0 else (outputs[1], outputs[0])

    with plant.instance() as instance:
        runs = {run.status: run for run in instance.get_runs()}
        assert set(runs) == {dg.DagsterRunStatus.SUCCESS, dg.DagsterRunStatus.FAILURE}, lost
        winner = runs[dg.DagsterRunStatus.SUCCESS].run_id
        assert instance.get_dynamic_partitions("source_sets") == ["plant"]  # registered once
    assert f"✗ discovered_docs: Source-set 'plant' is being written by run {winner}" in lost
    assert "Failed source-sets: plant" in lost and "✓" not in lost  # it wrote nothing
    assert "check eval_report_no_regression: passed" in won and "✓ published_index" in won

    published = current_version(plant.index_dir, "plant")
    assert published is not None and versions_on_disk(plant) == {published.version}  # one writer, one version
    assert published.point_count == 3
    with sqlite3.connect(published.sidecar_path) as sidecar:
        assert sidecar.execute("select count(*) from documents").fetchone()[0] == len(DOCS)
