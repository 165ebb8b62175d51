"""Abstention figures: does the answerer say "I don't know" exactly when the corpus does not know?

- recall: the share of unanswerable questions it abstains on (target at least 0.9);
- precision: the share of its abstentions that were on unanswerable questions;
- false abstention rate: the share of answerable questions it abstains on (target at most 0.05).

Computed from the per-question results of the eval (report.evaluate with an answer check), so the
figures are the engine's as the API serves it.
"""

from __future__ import annotations

from collections.abc import Sequence

from strata_pipeline.evaluation.results import QuestionResult

FIGURES = ("abstention_recall", "abstention_precision", "false_abstention_rate")


def abstention_figures(results: Sequence[QuestionResult]) -> dict[str, float]:
    """`abstention_recall`, `abstention_precision`, `false_abstention_rate` and the counts they come
    from, over the questions whose answer was checked; {} when none was. A figure with nothing to
    divide by (no abstention, no unanswerable question) is left out rather than shown as 0 or 1."""
    checked = [r for r in results if r.abstained is not None]
    if not checked:
        return {}
    unanswerable = [r for r in checked if r.unanswerable]
    answerable = [r for r in checked if not r.unanswerable]
    abstained = [r for r in checked if r.abstained]
    right = sum(1 for r in abstained if r.unanswerable)
    figures = {
        "unanswerable_questions": float(len(unanswerable)),
        "abstentions": float(len(abstained)),
    }
    if unanswerable:
        figures["abstention_recall"] = round(right / len(unanswerable), 4)
    if abstained:
        figures["abstention_precision"] = round(right / len(abstained), 4)
    if answerable:
        figures["false_abstention_rate"] = round(sum(1 for r in answerable if r.abstained) / len(answerable), 4)
    return figures
