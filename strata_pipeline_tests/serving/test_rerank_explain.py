"""/search and `strata search --explain` with a reranker configured: a real (tiny) ONNX cross-encoder
loaded from a local folder through the same environment variables a deployment sets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from serving.app import create_app
from strata_pipeline.cli import main
from strata_pipeline.resources import RerankerResource
from strata_pipeline_tests.conftest import Stack
from strata_pipeline_tests.retrieval.tiny_cross_encoder import build_tiny_cross_encoder

WEIGHTS = {"unpaid": 5.0, "probation": 3.0}
QUESTION = "How many weeks of paid parental leave do parents get?"


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_cross_encoder(tmp_path_factory.mktemp("reranker"), WEIGHTS)


def test_search_explain_shows_numeric_rerank_scores_and_floor_drops(stack: Stack, model_dir: Path) -> None:
    reranker = RerankerResource(model="strata-test/api-reranker", model_path=str(model_dir), floor=4.0)
    with TestClient(create_app(stack.settings, overrides={"reranker": reranker})) as client:
        assert client.get("/health").json()["reranker"] == "strata-test/api-reranker"
        body = client.post("/search", json={"query": QUESTION, "k": 5, "explain": True}).json()
    hits, candidates = body["hits"], body["candidates"]
    assert hits and "Probation" in hits[0]["text"]  # the model's favourite, not the fused winner
    assert all(h["rerank_score"] >= 4.0 for h in hits)
    scores = [h["rerank_score"] for h in hits]
    assert scores == sorted(scores, reverse=True)
    kept = [c for c in candidates if c["position"] is not None]
    assert [c["chunk_id"] for c in kept] == [h["chunk_id"] for h in hits]
    assert [c["rerank_score"] for c in kept] == scores
    floored = [c for c in candidates if c["dropped"] == "below rerank floor 4"]
    assert floored and all(isinstance(c["rerank_score"], float) and c["rerank_score"] < 4.0 for c in floored)
    assert all(c["rerank_score"] is None for c in candidates if "not reranked" in (c["dropped"] or ""))
    assert all(isinstance(c["fused_score"], float) for c in candidates)


def test_an_unloadable_reranker_gives_503_saying_what_to_set(stack: Stack, tmp_path: Path) -> None:
    broken = RerankerResource(model_path=str(tmp_path / "nowhere"))
    with TestClient(create_app(stack.settings, overrides={"reranker": broken})) as client:
        response = client.post("/search", json={"query": QUESTION})
    assert response.status_code == 503 and "STRATA_RERANK_MODEL_PATH" in response.json()["detail"]


def test_cli_explain_prints_rerank_scores_from_the_environment(stack: Stack, model_dir: Path) -> None:
    env = {
        "STRATA_HOME": str(stack.settings.home),
        "STRATA_CORPUS_ROOT": str(stack.settings.corpus_root),
        "QDRANT_URL": "",
        "ANTHROPIC_API_KEY": "",
        "STRATA_RERANK_MODEL_PATH": str(model_dir),
        "STRATA_RERANK_FLOOR": "4",
    }
    result = CliRunner().invoke(main, ["search", QUESTION, "--explain", "--k", "2"], env=env)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["pos", "dense", "bm25", "ids", "rrf", "prior", "rerank", "chunk"]
    assert lines[1].split()[0] == "1" and float(lines[1].split()[6]) >= 4.0  # a number, where "not configured" was
    assert "not configured" not in result.output
    assert any("(dropped: below rerank floor 4)" in line for line in lines)
    assert any("(dropped: beyond top 2)" in line for line in lines)
    hits = json.loads(CliRunner().invoke(main, ["search", QUESTION, "--json"], env=env).output)["hits"]
    assert f"{hits[0]['rerank_score']:.3f}" == lines[1].split()[6] and "Probation" in hits[0]["text"]
