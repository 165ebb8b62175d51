"""What the eval remembers between index versions: computed once per input, never a stale value."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from strata_pipeline.embedding.cache import VectorCache
from strata_pipeline.evaluation import ragas_metrics
from strata_pipeline.evaluation.memo import MemoEmbedder, MemoGuard
from strata_pipeline.evaluation.ragas_metrics import RagasInput, offline_scores
from strata_pipeline.incremental.cache import DocumentCache
from strata_pipeline.redaction.guard import AnswerWithheld, Audited


class CountingEmbedder:
    model = "test/model"
    dim = 2

    def __init__(self) -> None:
        self.calls: list[str] = []

    def query_dense(self, text: str) -> list[float]:
        self.calls.append(f"q:{text}")
        return [float(len(text)), 1.0]

    def query_sparse(self, text: str) -> tuple[list[int], list[float]]:
        self.calls.append(f"s:{text}")
        return [len(text)], [0.5]

    def embed_dense(self, texts: list[str]) -> list[np.ndarray]:
        self.calls += [f"d:{t}" for t in texts]
        return [np.array([len(t), 2.0], dtype=np.float32) for t in texts]


def test_query_and_sentence_vectors_are_computed_once(tmp_path: Path) -> None:
    raw = CountingEmbedder()
    with DocumentCache(tmp_path / "memo.sqlite") as cache:
        vectors = VectorCache(tmp_path / "vectors.sqlite")
        memo = MemoEmbedder(raw, cache, vectors, "models-v1")
        assert memo.query_dense("leave?") == [6.0, 1.0] and memo.query_sparse("leave?") == ([6], [0.5])
        first = memo.embed_dense(["a", "bb", "a"])
        assert [v.tolist() for v in first] == [[1.0, 2.0], [2.0, 2.0], [1.0, 2.0]]
        memo.embed_dense(["bb", "ccc"])
        assert raw.calls == ["q:leave?", "s:leave?", "d:a", "d:bb", "d:ccc"] and memo.sentences_embedded == 3
        vectors.close()
    with DocumentCache(tmp_path / "memo.sqlite") as cache:  # the next eval, another process
        vectors = VectorCache(tmp_path / "vectors.sqlite")
        memo = MemoEmbedder(raw, cache, vectors, "models-v1")
        assert memo.query_dense("leave?") == [6.0, 1.0] and memo.query_sparse("leave?") == ([6], [0.5])
        assert [v.tolist() for v in memo.embed_dense(["ccc", "a"])] == [[3.0, 2.0], [1.0, 2.0]]
        assert len(raw.calls) == 5 and memo.sentences_embedded == 0 and memo.dim == 2
        MemoEmbedder(raw, cache, vectors, "models-v2").query_dense("leave?")  # another model: recomputed
        assert raw.calls[-1] == "q:leave?"
        vectors.close()


class FlakyGuard:
    policy = None

    def __init__(self) -> None:
        self.calls = 0
        self.fail = False

    def redact_query(self, query: str) -> Audited:
        self.calls += 1
        return Audited(query.replace("Jonas", "[PERSON_1]"), int("Jonas" in query))

    def audit_answer(self, text: str) -> Audited:
        self.calls += 1
        if self.fail:
            raise AnswerWithheld("the audit could not run")
        return Audited(text, 0)


def test_guard_results_are_remembered_but_a_failed_audit_is_not(tmp_path: Path) -> None:
    raw = FlakyGuard()
    with DocumentCache(tmp_path / "memo.sqlite") as cache:
        guard = MemoGuard(raw, cache, "detectors-v1")
        assert guard.redact_query("Where is Jonas?") == Audited("Where is [PERSON_1]?", 1)
        assert guard.redact_query("Where is Jonas?") == Audited("Where is [PERSON_1]?", 1) and raw.calls == 1
        raw.fail = True
        with pytest.raises(AnswerWithheld):
            guard.audit_answer("The answer.")
        raw.fail = False
        assert guard.audit_answer("The answer.") == Audited("The answer.", 0) and raw.calls == 3
        assert MemoGuard(raw, cache, "detectors-v2").redact_query("Where is Jonas?").redactions == 1
        assert raw.calls == 4  # a changed detector is asked again


def test_offline_ragas_scores_are_reused_for_the_same_inputs_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    items = [
        RagasInput("q1", "How long is leave?", ["hr/leave.md"], ["hr/leave.md"], "25 days of leave.", "25 days"),
        RagasInput("q2", "Who approves?", ["hr/a.md", "hr/b.md"], ["hr/b.md"], "The manager.", "manager"),
    ]
    with DocumentCache(tmp_path / "memo.sqlite") as cache:
        cold = offline_scores(items, cache)
        assert cold == offline_scores(items)  # the same figures as without a cache
        scored: list[str] = []
        real = ragas_metrics._offline_scores
        monkeypatch.setattr(
            ragas_metrics, "_offline_scores", lambda inputs: scored.extend(i.id for i in inputs) or real(inputs)
        )
        assert offline_scores(items, cache) == cold and scored == []
        changed = [items[0], RagasInput("q2", "Who approves?", ["hr/a.md"], ["hr/b.md"], "The manager.", "manager")]
        assert offline_scores(changed, cache)["q2"] != cold["q2"] and scored == ["q2"]
