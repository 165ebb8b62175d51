"""Fusion fair to chunks in another language than the query's, for a multilingual dense model."""

from __future__ import annotations

import pytest

from strata_pipeline.embedding.models import OFFLINE_MODEL
from strata_pipeline.embedding.multilingual import MULTILINGUAL_MODEL
from strata_pipeline.indexing.engine import DENSE, SPARSE
from strata_pipeline.retrieval.candidate import Candidate
from strata_pipeline.retrieval.crosslingual import (
    QueryLanguage,
    calibrated,
    cross_language_offset,
    places,
    query_language_for,
)
from strata_pipeline.retrieval.search import DEFAULT_WEIGHTS, RRF_K, hybrid_order, rrf_term

ENGLISH = QueryLanguage("en", 0.01)


def chunk(name: str, language: str, ranks: dict[str, int], dense: float | None = None) -> Candidate:
    scores = {DENSE: dense} if dense is not None else {}
    return Candidate(name, {"doc_id": f"{name}.md", "chunk_id": f"{name}#0", "language": language}, ranks, scores)


def test_a_chunk_in_another_language_takes_its_dense_place_in_bm25() -> None:
    german = chunk("de", "de", {DENSE: 2})
    assert places(german, (DENSE, SPARSE), ENGLISH) == {DENSE: 2, SPARSE: 2}
    # a better BM25 place of its own (a shared name or code) is kept
    assert places(chunk("de", "de", {DENSE: 5, SPARSE: 1}), (DENSE, SPARSE), ENGLISH) == {DENSE: 5, SPARSE: 1}
    # and a worse one is replaced
    assert places(chunk("de", "de", {DENSE: 3, SPARSE: 30}), (DENSE, SPARSE), ENGLISH) == {DENSE: 3, SPARSE: 3}


def test_a_chunk_in_the_querys_language_keeps_its_miss() -> None:
    english = chunk("en", "en", {DENSE: 2})
    assert places(english, (DENSE, SPARSE), ENGLISH) == {DENSE: 2}
    assert places(chunk("x", "", {DENSE: 2}), (DENSE, SPARSE), ENGLISH) == {DENSE: 2}  # no language: not other
    assert places(chunk("de", "de", {DENSE: 2}), (DENSE, SPARSE), None) == {DENSE: 2}  # off


def test_places_reads_only_the_lists_asked_for() -> None:
    german = chunk("de", "de", {DENSE: 4, "ids": 1})
    assert places(german, (DENSE,), ENGLISH) == {DENSE: 4}  # no BM25 in the fusion: nothing imputed


def test_calibration_lifts_other_language_chunks_by_the_offset_only() -> None:
    candidates = [
        chunk("en1", "en", {DENSE: 1}, dense=0.860),
        chunk("en2", "en", {DENSE: 2}, dense=0.855),
        chunk("de1", "de", {DENSE: 3}, dense=0.851),  # within 0.01 of both: passes them
        chunk("de2", "de", {DENSE: 4}, dense=0.840),  # 0.015 below en2: stays below it
    ]
    ranks = {c.point_id: c.ranks[DENSE] for c in calibrated(candidates, ENGLISH)}
    assert ranks == {"de1": 1, "en1": 2, "en2": 3, "de2": 4}


def test_no_offset_leaves_the_dense_list_as_it_was() -> None:
    candidates = [chunk("en", "en", {DENSE: 1}, dense=0.9), chunk("de", "de", {DENSE: 2}, dense=0.899)]
    assert calibrated(candidates, QueryLanguage("en", 0.0)) == candidates


def test_only_a_multilingual_model_with_a_known_query_language_fuses_across_languages() -> None:
    assert cross_language_offset(OFFLINE_MODEL) is None  # MiniLM reads English only
    offset = cross_language_offset(MULTILINGUAL_MODEL)
    assert offset is not None and 0.0 < offset < 0.05
    assert query_language_for("de", offset) == QueryLanguage("de", offset)
    assert query_language_for("", offset) is None  # a query too short to tell
    assert query_language_for("de", None) is None


def fused_docs(language: QueryLanguage | None) -> list[str]:
    # An English question: a German chunk first in the dense list but, its words being German, not
    # in BM25; English chunks fairly high in both lists.
    candidates = [
        chunk("german-answer", "de", {DENSE: 1}, dense=0.88),
        chunk("english-a", "en", {DENSE: 4, SPARSE: 3}, dense=0.85),
        chunk("english-b", "en", {DENSE: 6, SPARSE: 1}, dense=0.84),
    ]
    fused = sorted(candidates, key=lambda c: -sum(rrf_term(r, RRF_K, DEFAULT_WEIGHTS[n]) for n, r in c.ranks.items()))
    return [c.doc_id for c in hybrid_order(candidates, fused, RRF_K, DEFAULT_WEIGHTS, False, language)]


def test_hybrid_order_is_fair_to_the_chunk_bm25_cannot_see() -> None:
    assert fused_docs(None)[-1] == "german-answer.md"  # plain RRF reads the BM25 miss as evidence
    assert fused_docs(ENGLISH)[0] == "german-answer.md"


@pytest.mark.parametrize("language", [None, ENGLISH])
def test_same_language_candidates_fuse_as_qdrant_does(language: QueryLanguage | None) -> None:
    candidates = [
        chunk("a", "en", {DENSE: 1, SPARSE: 5}, dense=0.9),
        chunk("b", "en", {DENSE: 3, SPARSE: 1}, dense=0.8),
        chunk("c", "en", {SPARSE: 2}),
    ]
    fused = sorted(candidates, key=lambda c: -sum(rrf_term(r, RRF_K, DEFAULT_WEIGHTS[n]) for n, r in c.ranks.items()))
    ranked = hybrid_order(candidates, fused, RRF_K, DEFAULT_WEIGHTS, False, language)
    assert [c.doc_id for c in ranked] == [c.doc_id for c in fused]
