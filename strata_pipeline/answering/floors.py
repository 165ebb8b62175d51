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
# question counts as right) of (0.25, 0.62) 0.717, (0.80, 0.88) 0.726 and (0.82, 0.92) 0.735. With the
# answer-type and twin checks (answering/near_miss.py) catching near misses by their wording, min_score
# 0.86 had the best dev accuracy of 0.84 to 0.92 (0.746 against 0.738 at 0.92) and the fewest misses and
# false abstentions together (7 false abstentions of 193 answerable dev questions instead of 20, 15
# unanswerable ones answered instead of 10): a paraphrased question scores 0.84 to 0.92 as often as a
# near miss does, so the score cannot tell them apart (docs/abstention.md).
MODEL_FLOORS: dict[str, tuple[float, float]] = {MULTILINGUAL_MODEL: (0.82, 0.86)}


def answer_config_for(model: str) -> AnswerConfig:
    """The answerer's configuration for an index embedded with `model`."""
    if model not in MODEL_FLOORS:
        return AnswerConfig()
    min_dense, min_score = MODEL_FLOORS[model]
    return AnswerConfig(min_dense_score=min_dense, min_score=min_score)
