from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import dagster as dg
import numpy as np
from fastembed import SparseTextEmbedding, TextEmbedding

from strata_pipeline.classification.language import detect_language
from strata_pipeline.embedding.cache import VectorCache
from strata_pipeline.embedding.models import (
    BM25_LANGUAGES,
    DEFAULT_LANGUAGE,
    dense_dimension,
    load_dense_model,
    load_sparse_model,
)
from strata_pipeline.embedding.multilingual import MULTILINGUAL_MODEL, E5Embedding, load_multilingual_model


@lru_cache(maxsize=4)
def _dense(name: str, models_dir: str, model_path: str) -> TextEmbedding | E5Embedding:
    if name == MULTILINGUAL_MODEL:
        return load_multilingual_model()
    return load_dense_model(name, Path(models_dir), model_path)


@lru_cache(maxsize=16)
def _sparse(name: str, models_dir: str, language: str) -> SparseTextEmbedding:
    return load_sparse_model(name, Path(models_dir), language)


class EmbedderResource(dg.ConfigurableResource):
    """Dense model (fastembed, or the bundled multilingual-e5-small) plus BM25. Loaded once per process."""

    model: str
    model_path: str = ""  # a local folder for a non-default model
    sparse_model: str = "Qdrant/bm25"
    models_dir: str
    batch_size: int = 8  # small batches pad less; measured faster on 2 cores

    def _dense_model(self) -> TextEmbedding | E5Embedding:
        return _dense(self.model, self.models_dir, self.model_path)

    def _sparse_model(self, language: str = DEFAULT_LANGUAGE) -> SparseTextEmbedding:
        return _sparse(self.sparse_model, self.models_dir, language if language in BM25_LANGUAGES else DEFAULT_LANGUAGE)

    @property
    def dim(self) -> int:
        model = self._dense_model()
        return model.dim if isinstance(model, E5Embedding) else dense_dimension(model)

    def embed_dense(self, texts: Sequence[str]) -> list[np.ndarray]:
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
        return next(iter(self._dense_model().query_embed(text))).tolist()

    def query_sparse(self, text: str) -> tuple[list[int], list[float]]:
        """The query analysed in English and, when it reads as another supported language, in that one
        too: short queries are hard to identify, so both stemmings are kept (the union)."""
        weights: dict[int, float] = {}
        for language in {DEFAULT_LANGUAGE, detect_language(text) or DEFAULT_LANGUAGE}:
            vector = next(iter(self._sparse_model(language).query_embed(text)))
            for index, value in zip(vector.indices.tolist(), vector.values.tolist(), strict=True):
                weights[index] = max(weights.get(index, 0.0), value)
        return list(weights), list(weights.values())

    def vector_cache(self) -> VectorCache:
        return VectorCache(Path(self.models_dir).parent / "cache" / "vectors.sqlite")
