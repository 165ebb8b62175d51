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

# (min_dense_score, min_score) for a passage in another language than the question (cross_language.py).
# e5 on the dev questions (16 cross-language ones among them, German and French over English and the
# reverse): min_score 0.86 (the same floor) 17 false abstentions of 234, 0.84 14, 0.82 14, 0.80 12, and
# 0.78 to 0.74 no fewer; with min_dense_score 0.80 as well 11 (0.78, 0.76 no fewer). Recall on the
# unanswerable ones was 0.660 with the same floors and 0.623 with these.
CROSS_LANGUAGE_FLOORS: dict[str, tuple[float, float]] = {MULTILINGUAL_MODEL: (0.80, 0.80)}

# When the best sentences state no value of the kind asked (a time, an amount), a sentence of a passage in
# another language that does is quoted first within this much of the best score: "On which evening is network
# maintenance done for the Lyon office?" is answered by the German FAQ's "in Lyon donnerstags von 20:00 bis
# 22:00 Uhr" (0.07 below the best, an English sentence on Lyon's VLANs). e5, replay of 392 dev questions
# (benchmarks/abstention_replay.py): at 0.06 no outcome changes, at 0.08 and 0.10 one false abstention
# fewer, at 0.12 to 0.20 two fewer (a German question on a frozen meter answered from the English page),
# with no unanswerable question answered at any of them. Only when a sentence in the question's language is among
# the best (answer.py): the margin offsets the model's preference for that language.
CROSS_LANGUAGE_KIND_MARGIN: dict[str, float] = {MULTILINGUAL_MODEL: 0.12}


def answer_config_for(model: str) -> AnswerConfig:
    """The answerer's configuration for an index embedded with `model`."""
    if model not in MODEL_FLOORS:
        return AnswerConfig()
    min_dense, min_score = MODEL_FLOORS[model]
    cross_dense, cross_score = CROSS_LANGUAGE_FLOORS.get(model, (None, None))
    return AnswerConfig(
        min_dense_score=min_dense,
        min_score=min_score,
        cross_language_min_dense_score=cross_dense,
        cross_language_min_score=cross_score,
        cross_language_kind_margin=CROSS_LANGUAGE_KIND_MARGIN.get(model, 0.0),
    )
