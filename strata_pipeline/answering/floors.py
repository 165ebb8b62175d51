"""The answerer's abstention floors per dense model.

The floors (`AnswerConfig.min_dense_score`, `min_score`) are cosines, and each model has its own scale:
multilingual-e5's cosines sit far higher for unrelated text than MiniLM's (a question about sourdough
bread against unrelated corpus sentences: 0.71 to 0.73 with e5, -0.02 to 0.08 with MiniLM). Each
model's pair was chosen on the dev questions (`python -m benchmarks.retrieval_quality --abstention`);
a model not listed gets MiniLM's.
"""

from __future__ import annotations

from strata_pipeline.answering.answer import AnswerConfig
from strata_pipeline.embedding.multilingual import MULTILINGUAL_MODEL

# (min_dense_score, min_score). e5's pair had the best dev answer accuracy (abstaining on an unanswerable
# question counts as right) of (0.25, 0.62) 0.717, (0.80, 0.88) 0.726 and (0.82, 0.92) 0.735.
MODEL_FLOORS: dict[str, tuple[float, float]] = {MULTILINGUAL_MODEL: (0.82, 0.92)}


def answer_config_for(model: str) -> AnswerConfig:
    """The answerer's configuration for an index embedded with `model`."""
    if model not in MODEL_FLOORS:
        return AnswerConfig()
    min_dense, min_score = MODEL_FLOORS[model]
    return AnswerConfig(min_dense_score=min_dense, min_score=min_score)
