"""The configured cross-encoder, loaded once per process: a plain class, so a query reranks without
importing Dagster. The pipeline's RerankerResource configures one of these."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from strata_pipeline.retrieval.rerank import DEFAULT_RERANK_CANDIDATES, ScoreFn, load_cross_encoder

if TYPE_CHECKING:
    from fastembed.rerank.cross_encoder import TextCrossEncoder


@lru_cache(maxsize=4)
def _cross_encoder(name: str, model_path: str, cache_dir: str) -> TextCrossEncoder:
    return load_cross_encoder(name, model_path, cache_dir or None)


@dataclass(frozen=True, kw_only=True)
class Reranker:
    """Optional fastembed cross-encoder over the top fused candidates. Off unless a model is set:
    no reranker installs offline, so the default is "not configured", never a stand-in.

    `model` is a fastembed reranker name (downloaded from the hub, needs a network) or, with
    `model_path`, any name for the ONNX model in that local folder (works offline).
    """

    model: str = ""  # STRATA_RERANK_MODEL; "" (and no model_path) = not configured
    model_path: str = ""  # STRATA_RERANK_MODEL_PATH: a folder with the ONNX file and tokenizer files
    floor: float | None = None  # STRATA_RERANK_FLOOR: drop candidates scoring under it (the model's units)
    candidates: int = DEFAULT_RERANK_CANDIDATES  # STRATA_RERANK_CANDIDATES: how many fused candidates to score
    models_dir: str = ""  # where hub models are cached
    batch_size: int = 16

    @property
    def enabled(self) -> bool:
        return bool(self.model or self.model_path)

    @property
    def name(self) -> str:
        """The model name reports show: the configured name, else the local folder's name."""
        if not self.enabled:
            return "not configured"
        return self.model or f"local/{Path(self.model_path).name}"

    def load(self) -> TextCrossEncoder:
        """The model, loaded once per process; RerankerUnavailable says what to set when it cannot be."""
        cache = str(Path(self.models_dir) / "hub") if self.models_dir else ""
        return _cross_encoder(self.name, self.model_path, cache)

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        return [float(s) for s in self.load().rerank(query, list(passages), batch_size=self.batch_size)]

    def scorer(self, query: str) -> ScoreFn:
        """The score function `rerank` takes, bound to one query."""
        return lambda passages: self.score(query, passages)
