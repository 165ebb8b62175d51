"""The query engine refuses an index whose vectors its queries cannot meet: sparse vectors analysed
differently, or dense vectors of another model."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata_pipeline.embedding.models import OFFLINE_MODEL
from strata_pipeline.indexing.readable import IndexMismatch
from strata_pipeline.indexing.store import INDEX_SCHEMA
from strata_pipeline.indexing.versions import IndexVersion
from strata_pipeline.query_engine import QueryEngine
from strata_pipeline.redaction.guard import Audited, PrivacyGuard
from strata_pipeline.redaction.pii import Finding, PiiPolicy
from strata_pipeline.resources import EmbedderResource, QdrantResource
from strata_pipeline.settings import DEFAULT_EMBED_MODEL


def _version(tmp_path: Path, model: str = DEFAULT_EMBED_MODEL, schema: int = INDEX_SCHEMA) -> IndexVersion:
    return IndexVersion(
        source_set="fieldops",
        version="v1",
        path=str(tmp_path),
        collection="strata_fieldops_v1",
        model=model,
        dim=384,
        point_count=1,
        chunker="sections-v2",
        schema=schema,
    )


def test_an_index_of_an_older_schema_is_not_queried(tmp_path: Path) -> None:
    # schema - 1: BM25 without compound splitting, whose terms no longer meet the queries'
    version = _version(tmp_path, schema=INDEX_SCHEMA - 1)
    embedder = EmbedderResource(model=DEFAULT_EMBED_MODEL, models_dir=str(tmp_path / "models"))
    with pytest.raises(IndexMismatch, match=f"schema {INDEX_SCHEMA - 1}.*strata materialize --source-set fieldops"):
        QueryEngine(embedder, QdrantResource(), {"fieldops": version})


def test_an_index_of_another_model_is_refused_with_the_variable_that_would_read_it(tmp_path: Path) -> None:
    """An index built before the default model changed: the error names the setting that queries it and
    the command that re-indexes it (the CLI prints it as an error, the API answers 503 with it)."""
    assert OFFLINE_MODEL != DEFAULT_EMBED_MODEL
    embedder = EmbedderResource(model=DEFAULT_EMBED_MODEL, models_dir=str(tmp_path / "models"))
    with pytest.raises(IndexMismatch) as refused:
        QueryEngine(embedder, QdrantResource(), {"fieldops": _version(tmp_path, model=OFFLINE_MODEL)})
    assert f"STRATA_EMBED_MODEL={OFFLINE_MODEL}" in str(refused.value)
    assert "strata materialize" in str(refused.value)


class _Vectors:
    model = DEFAULT_EMBED_MODEL

    def query_dense(self, text: str) -> list[float]:
        return [1.0, 0.0]

    def query_sparse(self, text: str) -> tuple[list[int], list[float]]:
        return [1], [1.0]

    def embed_dense(self, texts: list[str]) -> list:
        return []


class _CountingDetector:
    name = "counting"

    def __init__(self) -> None:
        self.seen: list[str] = []

    def detect(self, text: str) -> list[Finding]:
        self.seen.append(text)
        start = text.find("Jonas")
        return [] if start < 0 else [Finding("PERSON", start, start + 5, 0.9, self.name)]


def test_a_query_is_redacted_once_however_often_it_is_passed_along() -> None:
    """The CLI redacts, then searches and answers with the redacted query: its placeholder must not
    send it through the detector again (seconds of model loading on a cold start)."""
    detector = _CountingDetector()
    engine = QueryEngine(_Vectors(), QdrantResource(), {}, guard=PrivacyGuard(detector, PiiPolicy()))
    first = engine.redact_query("Where did Jonas file the claim?")
    assert first == Audited("Where did [PERSON_1] file the claim?", 1)
    assert engine.redact_query(first.text) == Audited(first.text, 0)
    assert engine.redact_query("Where did Jonas file the claim?") == first
    assert detector.seen == ["Where did Jonas file the claim?"]
