"""The rerank stage: the pure reorder/floor logic, the fastembed loader with a real (tiny) ONNX
cross-encoder, and the QueryEngine over the materialised sample index."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from strata_pipeline.query_engine import QueryEngine
from strata_pipeline.resources import RerankerResource
from strata_pipeline.resources.factory import build_resources
from strata_pipeline.retrieval.candidate import Candidate
from strata_pipeline.retrieval.rerank import (
    RERANK,
    RERANKED_MODE,
    RerankerUnavailable,
    find_model_file,
    load_cross_encoder,
    passage,
    rerank,
)
from strata_pipeline.retrieval.search import MODES
from strata_pipeline.serving_index import PublishedIndex
from strata_pipeline.settings import load_settings
from strata_pipeline_tests.conftest import Stack
from strata_pipeline_tests.retrieval.tiny_cross_encoder import build_tiny_cross_encoder, expected_score

MODEL_NAME = "strata-test/tiny-keyword-reranker"
# The model scores a passage 5 per "unpaid" and 3 per "probation" in it; anything else scores 0.
WEIGHTS = {"unpaid": 5.0, "probation": 3.0}
QUESTION = "How many weeks of paid parental leave do parents get?"


def cand(name: str, text: str = "", **payload: str) -> Candidate:
    return Candidate(name, {"chunk_id": name, "text": text or name, **payload}, fused_score=0.1)


def test_rerank_orders_by_score_and_keeps_fused_order_on_ties() -> None:
    pool = [cand("a"), cand("b"), cand("c"), cand("d")]
    scores = {"a": 0.1, "b": 0.9, "c": 0.5, "d": 0.5}
    out = rerank(pool, lambda texts: [scores[t] for t in texts], keep=4)
    assert [r.candidate.chunk_id for r in out] == ["b", "c", "d", "a"]
    assert [r.score for r in out] == [0.9, 0.5, 0.5, 0.1] and all(r.dropped is None for r in out)
    assert out[0].candidate.scores[RERANK] == 0.9 and out[0].candidate.fused_score == 0.1  # fused score kept
    assert RERANK not in pool[1].scores  # the input candidates are not mutated


def test_rerank_floor_drops_with_reason_and_only_the_top_n_are_scored() -> None:
    pool = [cand("a"), cand("b"), cand("c"), cand("d")]
    seen: list[list[str]] = []

    def score(texts: list[str]) -> list[float]:
        seen.append(texts)
        return [{"a": 0.2, "b": 0.8, "c": 0.35}[t] for t in texts]

    out = rerank(pool, score, floor=0.3, keep=3)
    assert seen == [["a", "b", "c"]]  # d is beyond the top 3 and never scored
    assert [(r.candidate.chunk_id, r.dropped) for r in out] == [
        ("b", None),
        ("c", None),
        ("a", "below rerank floor 0.3"),
        ("d", "beyond top 3 fused (not reranked)"),
    ]
    assert out[3].score is None and RERANK not in out[3].candidate.scores


def test_rerank_of_nothing_and_a_miscounting_model() -> None:
    assert rerank([], lambda texts: [], floor=0.5) == []
    with pytest.raises(ValueError, match="2 passages"):
        rerank([cand("a"), cand("b")], lambda texts: [1.0])


def test_passage_is_the_child_with_its_section_context() -> None:
    c = cand("x", "Ten days per year.", title="Leave Policy", heading_path="Leave Policy > Sick Leave")
    assert passage(c) == "Leave Policy > Sick Leave\n\nTen days per year."
    assert passage(cand("y", "bare text")) == "bare text"


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_cross_encoder(tmp_path_factory.mktemp("reranker"), WEIGHTS)


def test_loader_runs_the_onnx_model_from_a_local_folder(model_dir: Path) -> None:
    encoder = load_cross_encoder(MODEL_NAME, str(model_dir))
    passages = ["An unpaid sabbatical, probation first.", "Probation lasts 90 days.", "Parking fines."]
    scores = list(encoder.rerank(QUESTION, passages))
    assert scores == [pytest.approx(expected_score(model_dir, WEIGHTS, QUESTION, p)) for p in passages]
    assert scores[0] > scores[1] > scores[2] == 0.0
    assert load_cross_encoder(MODEL_NAME, str(model_dir)) is not encoder  # loading twice registers once


def test_loader_errors_say_what_to_set(tmp_path: Path, model_dir: Path) -> None:
    with pytest.raises(RerankerUnavailable, match=r"STRATA_RERANK_MODEL_PATH=.* is not a folder"):
        load_cross_encoder(MODEL_NAME, str(tmp_path / "missing"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(RerankerUnavailable, match=r"tokenizer\.json, tokenizer_config\.json"):
        load_cross_encoder(MODEL_NAME, str(tmp_path / "empty"))
    with pytest.raises(RerankerUnavailable, match=r"not a fastembed reranker.*STRATA_RERANK_MODEL_PATH"):
        load_cross_encoder("nobody/no-such-reranker")
    # A name fastembed knows expects that model's own layout in the folder (onnx/model.onnx).
    with pytest.raises(RerankerUnavailable, match=r"expects onnx/model\.onnx"):
        load_cross_encoder("Xenova/ms-marco-MiniLM-L-6-v2", str(model_dir))
    with pytest.raises(RerankerUnavailable, match="found none"):
        find_model_file(tmp_path / "empty")


def test_a_hub_name_offline_fails_with_instructions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # no download attempt: the cache is empty, so it must fail
    with pytest.raises(RerankerUnavailable, match="offline, set STRATA_RERANK_MODEL_PATH"):
        load_cross_encoder("Xenova/ms-marco-MiniLM-L-6-v2", cache_dir=str(tmp_path))


def test_settings_and_factory_configure_the_reranker_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, model_dir: Path
) -> None:
    assert not build_resources(load_settings())["reranker"].enabled  # off by default
    assert build_resources(load_settings())["reranker"].name == "not configured"
    monkeypatch.setenv("STRATA_RERANK_MODEL_PATH", str(model_dir))
    monkeypatch.setenv("STRATA_RERANK_FLOOR", "0.5")
    monkeypatch.setenv("STRATA_RERANK_CANDIDATES", "12")
    reranker = build_resources(load_settings())["reranker"]
    assert reranker.enabled and (reranker.floor, reranker.candidates) == (0.5, 12)
    assert reranker.name == f"local/{model_dir.name}"
    monkeypatch.setenv("STRATA_RERANK_CANDIDATES", "0")
    with pytest.raises(ValueError, match="STRATA_RERANK_CANDIDATES must be at least 1"):
        load_settings()
    monkeypatch.setenv("STRATA_RERANK_FLOOR", "high")
    with pytest.raises(ValueError, match="STRATA_RERANK_FLOOR='high' is not a number"):
        load_settings()


@pytest.fixture(scope="module")
def engines(stack: Stack, model_dir: Path):
    """Engines over the published sample index: without a reranker, with one, and with one and a floor."""
    resources = build_resources(stack.settings)
    reranker = RerankerResource(model=MODEL_NAME, model_path=str(model_dir), candidates=20)
    built = {
        name: PublishedIndex(stack.settings.index_dir, resources["embedder"], resources["qdrant"], None, reranker=r)
        for name, r in (
            ("plain", None),
            ("reranked", reranker),
            ("floored", RerankerResource(model=MODEL_NAME, model_path=str(model_dir), floor=4.0)),
        )
    }
    engines = {name: index.engine() for name, index in built.items()}
    for engine in engines.values():  # rerank order as the model gives it, not diversified per document
        engine.config = dataclasses.replace(engine.config, per_document=0)
    yield engines
    for index in built.values():
        index.close()


def test_reranking_reorders_real_search_results_as_the_model_dictates(
    engines: dict[str, QueryEngine], model_dir: Path
) -> None:
    fused = engines["plain"].search(QUESTION, 20, ["handbook"])
    reranked = engines["reranked"].search(QUESTION, 20, ["handbook"])
    assert "Parental Leave" in fused[0].payload["text"]  # the fused winner
    assert {c.chunk_id for c in reranked} == {c.chunk_id for c in fused}  # the same 20, reordered
    assert "Probation" in reranked[0].payload["text"] and "unpaid sabbatical" in reranked[1].payload["text"]
    scores = [c.scores[RERANK] for c in reranked]
    assert scores == sorted(scores, reverse=True) and scores[0] > scores[1] > 0.0
    for c in reranked:  # every score is what the model's weights give the passage
        assert c.scores[RERANK] == pytest.approx(expected_score(model_dir, WEIGHTS, QUESTION, passage(c)))
    # Ties (score 0) keep their fused order.
    zero = [c.chunk_id for c in reranked if c.scores[RERANK] == 0.0]
    assert zero == [c.chunk_id for c in fused if c.chunk_id in set(zero)]
    # The fused candidates keep their fused scores and ranks.
    by_id = {c.chunk_id: c for c in fused}
    assert all(c.fused_score == by_id[c.chunk_id].fused_score for c in reranked)


def test_the_floor_drops_candidates_and_explain_says_why(engines: dict[str, QueryEngine]) -> None:
    hits = engines["floored"].search(QUESTION, 5, ["handbook"])
    assert hits and all(c.scores[RERANK] >= 4.0 for c in hits)
    assert len(hits) < 5  # only passages saying "unpaid" or "probation" twice clear the floor
    explained = engines["floored"].explain(QUESTION, 1, ["handbook"])
    kept = [e for e in explained if e.position is not None]
    assert [e.candidate.chunk_id for e in kept] == [hits[0].chunk_id] and kept[0].rerank_score == hits[0].scores[RERANK]
    reasons = [e.dropped for e in explained if e.dropped]
    assert "beyond top 1" in reasons  # the second passage clears the floor but k is 1
    assert reasons.count("below rerank floor 4") >= 10
    assert "beyond top 40 fused (not reranked)" not in reasons
    assert all(e.rerank_score is not None for e in explained[:20])
    assert all(e.dropped == "beyond top 20 fused (not reranked)" and e.rerank_score is None for e in explained[20:])
    assert len(explained) > 20


def test_search_modes_add_hybrid_plus_rerank_only_when_configured(engines: dict[str, QueryEngine]) -> None:
    assert engines["plain"].modes == MODES and engines["plain"].reranker_name == "not configured"
    assert engines["reranked"].modes == (*MODES, RERANKED_MODE) and engines["reranked"].reranker_name == MODEL_NAME
    modes = engines["reranked"].search_modes(QUESTION, 5, ["handbook"])
    assert set(modes) == {"dense", "sparse", "hybrid", RERANKED_MODE} and all(len(v) == 5 for v in modes.values())
    plain = engines["plain"].search_modes(QUESTION, 5, ["handbook"])
    for mode in MODES:  # the plain modes are untouched by the reranker
        assert [c.chunk_id for c in modes[mode]] == [c.chunk_id for c in plain[mode]]
    assert [c.chunk_id for c in modes[RERANKED_MODE]] == [
        c.chunk_id for c in engines["reranked"].search(QUESTION, 5, ["handbook"])
    ]
    assert [c.chunk_id for c in engines["reranked"].search(QUESTION, 5, ["handbook"], mode="hybrid")] == [
        c.chunk_id for c in modes[RERANKED_MODE]
    ]  # served hybrid search is the reranked one
    with pytest.raises(ValueError, match="needs a reranker: set STRATA_RERANK_MODEL"):
        engines["plain"].search_modes(QUESTION, 5, None, (RERANKED_MODE,))


def test_an_unloadable_reranker_fails_when_the_engine_is_built(stack: Stack, tmp_path: Path) -> None:
    resources = build_resources(stack.settings)
    index = PublishedIndex(
        stack.settings.index_dir,
        resources["embedder"],
        resources["qdrant"],
        None,
        reranker=RerankerResource(model_path=str(tmp_path / "nowhere")),
    )
    with pytest.raises(RerankerUnavailable, match="STRATA_RERANK_MODEL_PATH"):
        index.engine()
    index.close()
