"""One writer per source-set: a live run's claim stops a second run; a finished run's is taken over."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from strata_pipeline.indexing.claims import PartitionBusy, claim, holder, release


def test_a_second_run_is_stopped_while_the_first_is_in_progress(tmp_path: Path) -> None:
    claim(tmp_path, "handbook", "run-a", in_progress=lambda run: True)
    with pytest.raises(PartitionBusy, match=r"being written by run run-a .*Wait for it to finish"):
        claim(tmp_path, "handbook", "run-b", in_progress=lambda run: run == "run-a")
    assert holder(tmp_path, "handbook")["run_id"] == "run-a"


def test_the_same_run_claims_again_for_each_step(tmp_path: Path) -> None:
    claim(tmp_path, "handbook", "run-a", in_progress=lambda run: True)
    claim(tmp_path, "handbook", "run-a", in_progress=lambda run: True)
    assert holder(tmp_path, "handbook")["run_id"] == "run-a"


def test_a_claim_left_by_a_finished_or_killed_run_is_taken_over(tmp_path: Path) -> None:
    claim(tmp_path, "handbook", "run-a", in_progress=lambda run: True)
    claim(tmp_path, "handbook", "run-b", in_progress=lambda run: False)  # run-a failed or was killed
    assert holder(tmp_path, "handbook")["run_id"] == "run-b"


def test_release_only_by_the_holder_and_source_sets_are_independent(tmp_path: Path) -> None:
    claim(tmp_path, "handbook", "run-a", in_progress=lambda run: True)
    claim(tmp_path, "products", "run-b", in_progress=lambda run: True)
    assert not release(tmp_path, "handbook", "run-b")
    assert release(tmp_path, "handbook", "run-a")
    assert holder(tmp_path, "handbook") is None
    assert holder(tmp_path, "products")["run_id"] == "run-b"


def _race(index_dir: str, run_id: str, results) -> None:  # a separate process: flock is per process
    try:
        claim(Path(index_dir), "handbook", run_id, in_progress=lambda run: True)
        results.put(run_id)
    except PartitionBusy:
        results.put("busy")


def test_two_processes_claiming_at_once_cannot_both_win(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    workers = [context.Process(target=_race, args=(str(tmp_path), f"run-{i}", results)) for i in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    outcomes = sorted(results.get(timeout=5) for _ in workers)
    winners = [o for o in outcomes if o != "busy"]
    assert len(winners) == 1 and outcomes.count("busy") == 3
    assert holder(tmp_path, "handbook")["run_id"] == winners[0]
