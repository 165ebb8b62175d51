"""Abstention floors follow the index's dense model."""

from __future__ import annotations

from strata_pipeline.answering.answer import AnswerConfig
from strata_pipeline.answering.floors import MODEL_FLOORS, answer_config_for
from strata_pipeline.embedding.multilingual import MULTILINGUAL_MODEL


def test_a_listed_model_gets_its_own_floors_and_any_other_minilms() -> None:
    min_dense, min_score = MODEL_FLOORS[MULTILINGUAL_MODEL]
    e5 = answer_config_for(MULTILINGUAL_MODEL)
    assert (e5.min_dense_score, e5.min_score) == (min_dense, min_score)
    assert e5.max_sentences == AnswerConfig().max_sentences  # only the floors differ
    assert answer_config_for("strata/all-MiniLM-L6-v2-int8") == AnswerConfig()
    assert answer_config_for("some/other-model") == AnswerConfig()
