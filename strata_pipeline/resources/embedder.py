from __future__ import annotations

from collections.abc import Sequence

import dagster as dg
import numpy as np

from strata_pipeline.embedding.cache import VectorCache
from strata_pipeline.embedding.embedder import DEFAULT_SPARSE_MODEL, Embedder


class EmbedderResource(dg.ConfigurableResource):
    """Dagster config for an `Embedder` (embedding/embedder.py), which does the work: dense model
    (fastembed, or the bundled multilingual-e5-small) plus BM25, loaded once per process."""

    model: str
    model_path: str = ""  # a local folder for a non-default model
    sparse_model: str = DEFAULT_SPARSE_MODEL
    models_dir: str
    batch_size: int = 8  # small batches pad less; measured faster on 2 cores

    def embedder(self) -> Embedder:
        return Embedder(
            model=self.model,
            models_dir=self.models_dir,
            model_path=self.model_path,
            sparse_model=self.sparse_model,
            batch_size=self.batch_size,
        )

    @property
    def dim(self) -> int:
        return self.embedder().dim

    def embed_dense(self, texts: Sequence[str]) -> list[np.ndarray]:
        return self.embedder().embed_dense(texts)

    def embed_sparse(
        self, texts: Sequence[str], languages: Sequence[str] | None = None
    ) -> list[tuple[list[int], list[float]]]:
        return self.embedder().embed_sparse(texts, languages)

    def query_dense(self, text: str) -> list[float]:
        return self.embedder().query_dense(text)

    def query_sparse(self, text: str) -> tuple[list[int], list[float]]:
        return self.embedder().query_sparse(text)

    def vector_cache(self) -> VectorCache:
        return self.embedder().vector_cache()
