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
from strata_pipeline.redaction.guard import AnswerWithheld, Audited, PrivacyGuard
from strata_pipeline.redaction.pii import Finding, PiiPolicy


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


class FlakyDetector:
    name = "test"

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.fail = False

    def detect(self, text: str) -> list[Finding]:
        self.calls.append(text)
        if self.fail:
            raise RuntimeError("the detector could not run")
        start = text.find("Jonas")
        return [] if start < 0 else [Finding("PERSON", start, start + len("Jonas"), 0.9, self.name)]


def test_findings_are_remembered_but_a_failed_audit_is_not(tmp_path: Path) -> None:
    raw = FlakyDetector()
    with DocumentCache(tmp_path / "memo.sqlite") as cache:
        guard = MemoGuard(PrivacyGuard(raw, PiiPolicy()), cache, "detectors-v1")
        assert guard.redact_query("Where is Jonas?") == Audited("Where is [PERSON_1]?", 1)
        assert guard.redact_query("Where is Jonas?") == Audited("Where is [PERSON_1]?", 1)
        assert raw.calls == ["Where is Jonas?"]
        raw.fail = True
        with pytest.raises(AnswerWithheld):
            guard.audit_answer("Jonas answered.")
        raw.fail = False
        assert guard.audit_answer("Jonas answered.") == Audited("[PERSON_1] answered.", 1)
        assert guard.audit_answer("Jonas answered.") == Audited("[PERSON_1] answered.", 1) and len(raw.calls) == 3
        again = MemoGuard(PrivacyGuard(raw, PiiPolicy()), cache, "detectors-v2").redact_query("Where is Jonas?")
        assert again.redactions == 1 and len(raw.calls) == 4  # a changed detector is asked again


def test_what_a_query_keeps_is_decided_by_the_index_evaluated_not_remembered(tmp_path: Path) -> None:
    """Query redaction spares a value the index shows verbatim, so the redacted question depends on
    the index: only the detector's findings are remembered, never one index's decision."""
    raw = FlakyDetector()
    with DocumentCache(tmp_path / "memo.sqlite") as cache:
        guard = MemoGuard(PrivacyGuard(raw, PiiPolicy()), cache, "detectors-v1")
        assert guard.redact_query("Where is Jonas?", shown=lambda value: False).text == "Where is [PERSON_1]?"
        shown = guard.redact_query("Where is Jonas?", shown=lambda value: value == "Jonas")
        assert shown == Audited("Where is Jonas?", 0)  # another index prints the value in clear
        assert guard.redact_query("Where is Jonas?", shown=lambda value: False).redactions == 1
        assert raw.calls == ["Where is Jonas?"]  # the detector ran once for all three


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
