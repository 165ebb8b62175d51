"""The FastAPI app, through its real routes, over the materialised sample index."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from serving.app import create_app, explained_from, hit_from
from strata_pipeline.indexing.versions import current_version
from strata_pipeline.query_engine import Explained
from strata_pipeline.retrieval.candidate import Candidate
from strata_pipeline_tests.conftest import Stack, run_partition


@pytest.fixture(scope="module")
def client(stack: Stack):
    with TestClient(create_app(stack.settings)) as test_client:
        yield test_client


def test_health_reports_collections_points_and_model(client: TestClient, stack: Stack) -> None:
    body = client.get("/health").json()
    assert body["status"] == "ok"
    assert body["model"] == stack.settings.embed_model
    assert set(body["source_sets"]) == {"handbook", "products"}
    handbook = current_version(stack.settings.index_dir, "handbook")
    assert body["source_sets"]["handbook"]["points"] == handbook.point_count
    assert body["points"] == sum(s["points"] for s in body["source_sets"].values())


def test_search_returns_the_labelled_document_with_provenance_and_ranks(client: TestClient) -> None:
    response = client.post("/search", json={"query": "How many weeks of paid parental leave do parents get?", "k": 5})
    assert response.status_code == 200
    hits = response.json()["hits"]
    assert hits[0]["doc_id"] == "hr/leave-policy.md" and hits[0]["source_set"] == "handbook"
    assert [h["rank"] for h in hits] == list(range(1, len(hits) + 1))
    fused = [h["fused_score"] for h in hits]
    assert fused == sorted(fused, reverse=True)
    top = hits[0]
    assert top["dense_rank"] is not None or top["sparse_rank"] is not None
    assert top["line_start"] <= top["line_end"] and top["chunk_id"].startswith("hr/leave-policy.md#")


def test_search_filters_by_source_set(client: TestClient) -> None:
    hits = client.post("/search", json={"query": "warranty", "k": 8, "source_set": "handbook"}).json()["hits"]
    assert hits and {h["source_set"] for h in hits} == {"handbook"}
    missing = client.post("/search", json={"query": "warranty", "source_set": "nope"})
    assert missing.status_code == 404 and "nope" in missing.json()["detail"]


def test_ask_quotes_the_source_verbatim_and_cites_supplied_sections(client: TestClient, stack: Stack) -> None:
    question = "How many weeks of paid parental leave do parents get?"
    body = client.post("/ask", json={"query": question}).json()
    assert not body["abstained"] and body["mode"] == "extractive"
    assert "16 weeks" in body["answer"]
    hits = client.post("/search", json={"query": question}).json()["hits"]
    sections = {h["parent_id"] for h in hits}
    for citation in body["citations"]:
        assert citation["chunk_id"] in sections  # answers cite the sections around the hits
        source = (stack.settings.corpus_root / "handbook" / citation["doc_id"]).read_text()
        assert citation["quote"] in source  # verbatim (this policy holds no personal data to redact)
        lines = source.splitlines()[citation["line_start"] - 1 : citation["line_end"]]
        assert citation["quote"].split("\n")[0] in "\n".join(lines)


def test_ask_abstains_with_a_reason_when_the_corpus_has_no_answer(client: TestClient) -> None:
    body = client.post("/ask", json={"query": "What is the recipe for sourdough bread with rye flour?"}).json()
    assert body["abstained"] and body["reason"] and body["citations"] == []
    assert body["abstain_code"] == "no_support"


def test_invalid_request_is_rejected(client: TestClient) -> None:
    assert client.post("/search", json={"query": "", "k": 5}).status_code == 422
    assert client.post("/search", json={"query": "x", "k": 0}).status_code == 422


def test_api_keeps_serving_while_a_run_publishes_and_then_follows_the_new_version(
    client: TestClient, stack: Stack
) -> None:
    before = client.get("/health").json()["source_sets"]["products"]["version"]
    assert client.post("/search", json={"query": "RX-300 battery", "source_set": "products"}).status_code == 200
    # The API holds the published version open while a new run writes, evaluates and publishes the next.
    result = run_partition(stack.settings, stack.instance, "products")
    assert result.success
    after = client.get("/health").json()["source_sets"]["products"]["version"]
    assert after != before
    hits = client.post("/search", json={"query": "RX-300 battery", "source_set": "products"}).json()["hits"]
    assert hits and all(h["source_set"] == "products" for h in hits)


def test_an_index_of_another_model_is_not_ready_and_503_names_the_setting(stack: Stack, tmp_path) -> None:
    """A server configured for MiniLM over the e5 index (or the reverse, after an upgrade): alive, not
    ready, and every query refused with the variable that would read the index."""
    from strata_pipeline.embedding.models import OFFLINE_MODEL
    from strata_pipeline.resources import EmbedderResource

    other = EmbedderResource(model=OFFLINE_MODEL, models_dir=str(tmp_path / "models"))
    with TestClient(create_app(stack.settings, overrides={"embedder": other})) as mismatched:
        health, ready = mismatched.get("/health"), mismatched.get("/ready")
        response = mismatched.post("/search", json={"query": "parental leave"})
    assert health.status_code == 200 and health.json()["ready"] is False
    assert ready.status_code == 503
    assert response.status_code == 503
    assert f"STRATA_EMBED_MODEL={stack.settings.embed_model}" in response.json()["detail"]


def test_no_index_gives_503_with_instructions(tmp_path) -> None:
    import dataclasses

    from strata_pipeline.settings import load_settings

    empty = dataclasses.replace(load_settings(), home=tmp_path)
    with TestClient(create_app(empty)) as empty_client:
        assert empty_client.get("/health").json()["status"] == "no_index"
        response = empty_client.post("/search", json={"query": "anything"})
        assert response.status_code == 503 and "strata materialize" in response.json()["detail"]


def test_search_explain_lists_every_candidate_with_ranks_and_fate(client: TestClient) -> None:
    body = client.post("/search", json={"query": "What does error E-204 mean?", "k": 3, "explain": True}).json()
    candidates = body["candidates"]
    kept = [c for c in candidates if c["position"] is not None]
    assert [c["chunk_id"] for c in kept] == [h["chunk_id"] for h in body["hits"]]
    assert all(c["dropped"] == "beyond top 3" for c in candidates if c["position"] is None)
    assert len(candidates) > 3 and all(c["rerank_score"] is None for c in candidates)  # no reranker configured
    assert any(c["identifier_rank"] == 1 for c in kept)  # the chunk naming E-204 is among the results
    assert client.post("/search", json={"query": "E-204"}).json()["candidates"] is None


def test_explain_and_hits_show_the_ranking_prior_and_its_rule() -> None:
    archived = Candidate(
        "p1",
        {"chunk_id": "policies/archive/v1.md#0", "doc_id": "policies/archive/v1.md", "source_set": "ops",
         "rank_rule": "superseded-version", "superseded": True},
        ranks={"dense": 1},
        fused_score=0.03,
        prior=0.8,
    )  # fmt: skip
    row = explained_from(Explained(archived, None, "beyond top 1"))
    assert (row.prior, row.rank_rule, row.dropped) == (0.8, "superseded-version", "beyond top 1")
    hit = hit_from(1, archived)
    assert (hit.prior, hit.rank_rule) == (0.8, "superseded-version")
