from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import dagster as dg
import numpy as np
from fastembed import SparseTextEmbedding, TextEmbedding

from strata_pipeline.classification.language import detect_language
from strata_pipeline.embedding.analysis import Analyzer, document_vector, guessed, query_vector
from strata_pipeline.embedding.cache import VectorCache
from strata_pipeline.embedding.models import (
    BM25_LANGUAGES,
    BM25_MODEL,
    DEFAULT_LANGUAGE,
    QUERY_GUESSES,
    dense_dimension,
    load_analyzer,
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


@lru_cache(maxsize=16)
def _analyzer(models_dir: str, language: str) -> Analyzer:
    return load_analyzer(language, Path(models_dir))


@lru_cache(maxsize=16)
def _guessed(models_dir: str, language: str) -> Analyzer:
    return guessed(_analyzer(models_dir, language), _analyzer(models_dir, DEFAULT_LANGUAGE))


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

    def _analyzer(self, language: str) -> Analyzer:
        return _analyzer(self.models_dir, language if language in BM25_LANGUAGES else DEFAULT_LANGUAGE)

    def embed_sparse(
        self, texts: Sequence[str], languages: Sequence[str] | None = None
    ) -> list[tuple[list[int], list[float]]]:
        """BM25 vectors, each text analysed in its own language (stemmer, stop words, compounds)."""
        languages = list(languages) if languages is not None else [DEFAULT_LANGUAGE] * len(texts)
        if self.sparse_model == BM25_MODEL:
            return [document_vector(text, self._analyzer(lang)) for text, lang in zip(texts, languages, strict=True)]
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
        """BM25: the query analysed in English and in its detected language, kept together (the union).
        A query not detected as English, most often one too short to detect at all, is also analysed in
        German (compounds split, English stop words dropped): "Urlaubsantrag" or "Riemen" cannot be
        told from English, and a German chunk holds only German terms. An English question is analysed
        as before, and does not load the compound splitter."""
        language = detect_language(text)  # "" when too short to tell
        detected = language or DEFAULT_LANGUAGE
        if self.sparse_model == BM25_MODEL:
            analyzers = [self._analyzer(code) for code in dict.fromkeys([DEFAULT_LANGUAGE, detected])]
            if language != DEFAULT_LANGUAGE:
                guesses = [code for code in QUERY_GUESSES if code != detected]
                analyzers += [_guessed(self.models_dir, code) for code in guesses]
            return query_vector(text, analyzers)
        weights: dict[int, float] = {}
        for language in {DEFAULT_LANGUAGE, detected}:
            vector = next(iter(self._sparse_model(language).query_embed(text)))
            for index, value in zip(vector.indices.tolist(), vector.values.tolist(), strict=True):
                weights[index] = max(weights.get(index, 0.0), value)
        return list(weights), list(weights.values())

    def vector_cache(self) -> VectorCache:
        return VectorCache(Path(self.models_dir).parent / "cache" / "vectors.sqlite")
