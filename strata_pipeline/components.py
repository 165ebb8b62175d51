"""The query components, built from Settings, with no Dagster import.

The CLI and the API query through these; the pipeline's Dagster resources (resources/factory.py)
are configured with the same values, so both sides always agree on models and storage.
"""

from __future__ import annotations

from strata_pipeline.claude import Claude
from strata_pipeline.embedding.embedder import Embedder
from strata_pipeline.indexing.storage import IndexStorage
from strata_pipeline.retrieval.reranker import Reranker
from strata_pipeline.settings import Settings


def embedder(settings: Settings) -> Embedder:
    return Embedder(
        model=settings.embed_model,
        model_path=settings.embed_model_path,
        sparse_model=settings.sparse_model,
        models_dir=str(settings.models_dir),
    )


def index_storage(settings: Settings) -> IndexStorage:
    return IndexStorage(url=settings.qdrant_url, api_key=settings.qdrant_api_key)


def claude(settings: Settings) -> Claude:
    return Claude(
        api_key=settings.anthropic_api_key,
        model=settings.anthropic_model,
        judge_model=settings.judge_model,
    )


def reranker(settings: Settings) -> Reranker:
    return Reranker(
        model=settings.rerank_model,
        model_path=settings.rerank_model_path,
        floor=settings.rerank_floor,
        candidates=settings.rerank_candidates,
        models_dir=str(settings.models_dir),
    )


def pii_backend(settings: Settings) -> str:
    """STRATA_PII_BACKEND: "presidio-ner" (default) or "presidio-regex" (no NER, finds no names)."""
    return settings.pii_backend
