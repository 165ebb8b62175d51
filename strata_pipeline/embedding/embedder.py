"""Dense (fastembed) and BM25 sparse vectors, with each model loaded once per process.

A plain class, so a query (the CLI, the API) embeds without importing Dagster; the pipeline's
EmbedderResource configures one of these and hands the work to it. The offline MiniLM and BM25
queries run on embedding/encoders.py (fastembed's numbers without fastembed's import cost).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from strata_pipeline.classification.language import detect_language
from strata_pipeline.embedding.encoders import Bm25QueryEncoder, DenseEncoder
from strata_pipeline.embedding.models import (
    BM25_LANGUAGES,
    DEFAULT_LANGUAGE,
    OFFLINE_MODEL,
    load_dense_model,
    load_sparse_model,
    prepare_bm25_stopwords,
    prepare_offline_model,
    punctuation_file,
)

if TYPE_CHECKING:
    from fastembed import SparseTextEmbedding, TextEmbedding

    from strata_pipeline.embedding.cache import VectorCache

DEFAULT_SPARSE_MODEL = "Qdrant/bm25"


@lru_cache(maxsize=4)
def _dense(name: str, models_dir: str, model_path: str) -> TextEmbedding:
    return load_dense_model(name, Path(models_dir), model_path)


@lru_cache(maxsize=16)
def _sparse(name: str, models_dir: str, language: str) -> SparseTextEmbedding:
    return load_sparse_model(name, Path(models_dir), language)


@lru_cache(maxsize=4)
def _offline_encoder(models_dir: str) -> DenseEncoder:
    return DenseEncoder(prepare_offline_model(Path(models_dir)))


@lru_cache(maxsize=16)
def _bm25_query_encoder(models_dir: str, language: str) -> Bm25QueryEncoder:
    folder, name = Path(models_dir), BM25_LANGUAGES[language]
    return Bm25QueryEncoder(prepare_bm25_stopwords(folder) / f"{name}.txt", punctuation_file(folder), name)


@dataclass(frozen=True, kw_only=True)
class Embedder:
    """fastembed dense model plus BM25 sparse model."""

    model: str
    models_dir: str
    model_path: str = ""  # a local folder for a non-default model
    sparse_model: str = DEFAULT_SPARSE_MODEL
    batch_size: int = 8  # small batches pad less; measured faster on 2 cores

    def _dense_model(self) -> TextEmbedding:
        return _dense(self.model, self.models_dir, self.model_path)

    def _sparse_model(self, language: str = DEFAULT_LANGUAGE) -> SparseTextEmbedding:
        return _sparse(self.sparse_model, self.models_dir, _bm25_language(language))

    @property
    def dim(self) -> int:
        return len(self.embed_dense(["dimension probe"])[0])

    def embed_dense(self, texts: Sequence[str]) -> list[np.ndarray]:
        if self.model == OFFLINE_MODEL:
            return _offline_encoder(self.models_dir).embed(texts, batch_size=self.batch_size)
        return list(self._dense_model().embed(list(texts), batch_size=self.batch_size))

    def embed_sparse(
        self, texts: Sequence[str], languages: Sequence[str] | None = None
    ) -> list[tuple[list[int], list[float]]]:
        """BM25 vectors, each text analysed in its own language (stemmer and stop words)."""
        languages = list(languages) if languages is not None else [DEFAULT_LANGUAGE] * len(texts)
        vectors: list[tuple[list[int], list[float]]] = [([], [])] * len(texts)
        for language in set(languages):
            positions = [i for i, lang in enumerate(languages) if lang == language]
            embedded = self._sparse_model(language).embed([texts[i] for i in positions])
            for i, e in zip(positions, embedded, strict=True):
                vectors[i] = (e.indices.tolist(), e.values.tolist())
        return vectors

    def query_dense(self, text: str) -> list[float]:
        if self.model == OFFLINE_MODEL:
            return _offline_encoder(self.models_dir).embed([text])[0].tolist()  # query_embed: one batch
        return next(iter(self._dense_model().query_embed(text))).tolist()

    def query_sparse(self, text: str) -> tuple[list[int], list[float]]:
        """The query analysed in English and, when it reads as another supported language, in that one
        too: short queries are hard to identify, so both stemmings are kept (the union)."""
        weights: dict[int, float] = {}
        for language in {DEFAULT_LANGUAGE, detect_language(text) or DEFAULT_LANGUAGE}:
            for index, value in zip(*self._query_terms(text, language), strict=True):
                weights[index] = max(weights.get(index, 0.0), value)
        return list(weights), list(weights.values())

    def _query_terms(self, text: str, language: str) -> tuple[list[int], list[float]]:
        if self.sparse_model == DEFAULT_SPARSE_MODEL:
            return _bm25_query_encoder(self.models_dir, _bm25_language(language)).embed(text)
        vector = next(iter(self._sparse_model(language).query_embed(text)))
        return vector.indices.tolist(), vector.values.tolist()

    def vector_cache(self) -> VectorCache:
        from strata_pipeline.embedding.cache import VectorCache  # sqlite: ingestion only

        return VectorCache(Path(self.models_dir).parent / "cache" / "vectors.sqlite")


def _bm25_language(language: str) -> str:
    return language if language in BM25_LANGUAGES else DEFAULT_LANGUAGE
