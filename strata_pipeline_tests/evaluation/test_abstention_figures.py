"""Abstention recall, precision and false-abstention rate over checked answers (evaluation/abstention.py)."""

from __future__ import annotations

from strata_pipeline.evaluation.abstention import abstention_figures
from strata_pipeline.evaluation.report import evaluate, summarise_parts
from strata_pipeline.evaluation.results import QuestionResult
from strata_pipeline_tests.evaluation.test_golden_report import ANSWERS, GOLDEN, KNOWN, MODES, _split, search


def result(qid: str, unanswerable: bool, abstained: bool | None) -> QuestionResult:
    return QuestionResult(qid, "c", "q?", unanswerable, {}, {}, abstained=abstained)


def test_recall_precision_and_false_abstention() -> None:
    results = [
        result("u1", True, True),
        result("u2", True, True),
        result("u3", True, False),  # a confident answer to an unanswerable question
        result("a1", False, False),
        result("a2", False, True),  # a false abstention
        result("a3", False, False),
        result("a4", False, False),
        result("n1", False, None),  # answers not checked: left out
    ]
    assert abstention_figures(results) == {
        "unanswerable_questions": 3.0,
        "abstentions": 3.0,
        "abstention_recall": 0.6667,  # 2 of 3 unanswerable abstained
        "abstention_precision": 0.6667,  # 2 of 3 abstentions were right
        "false_abstention_rate": 0.25,  # 1 of 4 answerable abstained
    }


def test_figures_with_nothing_to_divide_by_are_left_out() -> None:
    assert abstention_figures([result("n1", False, None)]) == {}
    answered = abstention_figures([result("a1", False, False)])
    assert answered == {"unanswerable_questions": 0.0, "abstentions": 0.0, "false_abstention_rate": 0.0}


def test_the_eval_summary_carries_them_for_test_and_dev() -> None:
    results = evaluate(_split({"q1", "q3"}), search, KNOWN, answer=lambda q: ANSWERS[q])
    summary = summarise_parts(results, GOLDEN.k, MODES)
    # test part: q2 (answered) and q4 (abstained, answerable); dev part: q1 (answered) and q3 (unanswerable, abstained)
    assert (summary["false_abstention_rate"], summary["abstentions"]) == (0.5, 1.0)
    assert "abstention_recall" not in summary and summary["abstention_precision"] == 0.0
    assert (summary["abstention_recall_dev"], summary["abstention_precision_dev"]) == (1.0, 1.0)
    assert summary["false_abstention_rate_dev"] == 0.0
