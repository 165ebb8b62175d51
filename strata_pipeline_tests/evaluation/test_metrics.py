"""Document-level ranking metrics with hand-computed values."""

from __future__ import annotations

import pytest

from strata_pipeline.evaluation.golden import GoldenQuestion
from strata_pipeline.evaluation.metrics import (
    dedupe_docs,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
    relevant_count,
)

RELEVANT = {"a", "b", "c", "d"}
RANKED = ["a", "x", "b", "y", "c"]


def is_relevant(doc: str) -> bool:
    return doc in RELEVANT


def test_dedupe_keeps_the_best_rank_of_each_document() -> None:
    assert dedupe_docs(["a", "b", "a", "c", "b", "d"]) == ["a", "b", "c", "d"]
    assert dedupe_docs([]) == []


def test_relevant_count() -> None:
    assert relevant_count(RANKED, is_relevant, 5) == 3
    assert relevant_count(RANKED, is_relevant, 2) == 1
    assert relevant_count(RANKED, is_relevant, 0) == 0


def test_recall() -> None:
    assert recall_at_k(RANKED, is_relevant, 4, 5) == 0.75
    assert recall_at_k(RANKED, is_relevant, 4, 3) == 0.5
    assert recall_at_k(RANKED, is_relevant, 2, 5) == 1.0  # capped at 1
    assert recall_at_k(RANKED, is_relevant, 0, 5) == 0.0


def test_precision() -> None:
    assert precision_at_k(RANKED, is_relevant, 5) == 0.6
    assert precision_at_k(RANKED, is_relevant, 10) == 0.3  # divided by k, not by the number returned
    assert precision_at_k(RANKED, is_relevant, 0) == 0.0


def test_reciprocal_rank() -> None:
    assert reciprocal_rank(RANKED, is_relevant, 5) == 1.0
    assert reciprocal_rank(["x", "y", "a"], is_relevant, 5) == pytest.approx(1 / 3)
    assert reciprocal_rank(["x", "y", "a"], is_relevant, 2) == 0.0
    assert reciprocal_rank([], is_relevant, 5) == 0.0


def test_ndcg() -> None:
    # DCG = 1/log2(2) + 1/log2(4) + 1/log2(6); ideal with 4 relevant = 1 + 1/log2(3) + 1/log2(4) + 1/log2(5).
    assert ndcg_at_k(RANKED, is_relevant, 4, 5) == pytest.approx(1.8868528072345416 / 2.5616063116448506)
    assert ndcg_at_k(RANKED, is_relevant, 4, 5) == pytest.approx(0.7365896932159578)
    assert ndcg_at_k(["x", "y", "a"], is_relevant, 1, 3) == pytest.approx(0.5)
    assert ndcg_at_k(["a", "b"], is_relevant, 2, 5) == pytest.approx(1.0)
    assert ndcg_at_k(["x", "a"], is_relevant, 1, 5) == pytest.approx(1 / 1.584962500721156)
    assert ndcg_at_k(["x"], is_relevant, 0, 5) == 0.0


def test_folder_labels_with_a_trailing_slash() -> None:
    question = GoldenQuestion(id="q", question="?", relevant=("hr/", "travel/visa.md"))
    assert question.is_relevant("hr/leave.md")
    assert question.is_relevant("hr/policies/expenses.md")
    assert question.is_relevant("travel/visa.md")
    assert not question.is_relevant("hr")
    assert not question.is_relevant("hrx/leave.md")
    assert not question.is_relevant("travel/visa.md.bak")
    assert not question.is_relevant("archive/hr/leave.md")
    ranked = ["it/vpn.md", "hr/leave.md", "travel/visa.md"]
    assert reciprocal_rank(ranked, question.is_relevant, 5) == 0.5
    assert precision_at_k(ranked, question.is_relevant, 3) == pytest.approx(2 / 3)
