from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import dagster as dg

from strata_pipeline.retrieval.rerank import ScoreFn
from strata_pipeline.retrieval.reranker import Reranker

if TYPE_CHECKING:
    from fastembed.rerank.cross_encoder import TextCrossEncoder


class RerankerResource(dg.ConfigurableResource):
    """Dagster config for a `Reranker` (retrieval/reranker.py), which does the work: an optional
    fastembed cross-encoder over the top fused candidates, off unless a model is set.

    `model` is a fastembed reranker name (downloaded from the hub, needs a network) or, with
    `model_path`, any name for the ONNX model in that local folder (works offline).
    """

    # the fields and defaults of `Reranker`, which documents them
    model: str = Reranker.model
    model_path: str = Reranker.model_path
    floor: float | None = Reranker.floor
    candidates: int = Reranker.candidates
    models_dir: str = Reranker.models_dir
    batch_size: int = Reranker.batch_size

    def reranker(self) -> Reranker:
        return Reranker(
            model=self.model,
            model_path=self.model_path,
            floor=self.floor,
            candidates=self.candidates,
            models_dir=self.models_dir,
            batch_size=self.batch_size,
        )

    @property
    def enabled(self) -> bool:
        return self.reranker().enabled

    @property
    def name(self) -> str:
        return self.reranker().name

    def load(self) -> TextCrossEncoder:
        return self.reranker().load()

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        return self.reranker().score(query, passages)

    def scorer(self, query: str) -> ScoreFn:
        return self.reranker().scorer(query)
