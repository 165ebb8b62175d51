from __future__ import annotations

from pathlib import Path

from strata_pipeline.evaluation.regression import Baseline, compare_to_baseline, guarded_keys

NOW = {"recall_at_5": 0.90, "mrr": 0.80, "hybrid_recall_at_5": 0.90, "dense_mrr_at_10": 0.5, "questions": 10.0}


def test_only_the_headline_recall_and_mrr_are_guarded() -> None:
    assert guarded_keys(NOW) == ["recall_at_5", "mrr"]


def test_first_run_passes_and_a_drop_beyond_tolerance_fails() -> None:
    assert compare_to_baseline(NOW, None, 0.05).passed
    baseline = {"summary": {"recall_at_5": 0.94, "mrr": 0.90}, "fingerprint": {"index_version": "v1"}}
    verdict = compare_to_baseline(NOW, baseline, 0.05)
    assert not verdict.passed
    assert verdict.metadata == {
        "recall_at_5_baseline": 0.94, "mrr_baseline": 0.90, "recall_at_5_drop": 0.04, "mrr_drop": 0.1,
        "baseline_version": "v1",
    }  # fmt: skip
    assert "mrr fell 0.100 (from 0.900 to 0.800)" in verdict.explanation and "recall" not in verdict.explanation
    assert compare_to_baseline(NOW, baseline, 0.10).passed  # 0.1 is within a 0.10 tolerance


def test_baseline_file_round_trip(tmp_path: Path) -> None:
    baseline = Baseline(tmp_path / "ops" / "baseline.json")
    assert baseline.read() is None
    baseline.write(NOW, {"index_version": "v2"})
    assert baseline.read() == {"summary": NOW, "fingerprint": {"index_version": "v2"}}


def test_a_changed_golden_set_starts_a_new_baseline() -> None:
    baseline = {"summary": {"recall_at_5": 0.99, "mrr": 0.99}, "fingerprint": {"golden_digest": "aaa"}}
    changed = compare_to_baseline(NOW, baseline, 0.05, golden_digest="bbb")
    assert changed.passed and changed.metadata == {"baseline": "golden set changed"}
    assert "golden set changed" in changed.explanation
    same = compare_to_baseline(NOW, baseline, 0.05, golden_digest="aaa")
    assert not same.passed and same.metadata["mrr_drop"] == 0.19  # the same questions still compare
