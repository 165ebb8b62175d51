"""Router and aggregation scoring (evaluation/routing.py): exact values, per route, test and dev apart."""

from __future__ import annotations

import pytest

from strata_pipeline.evaluation.golden import GoldenQuestion, GoldenSet
from strata_pipeline.evaluation.results import QuestionResult
from strata_pipeline.evaluation.routing import check_routes, routing_markdown, routing_summary, values_match


@pytest.mark.parametrize(
    ("expected", "actual", "match"),
    [
        (18, 18, True),
        (0.35, 0.3500001, True),
        (1.85, 1.86, False),
        (121.36, 121.3636, True),
        (["b", "a"], ["a", "b"], True),
        (["a"], ["a", "b"], False),
        ({"ZRH": 18, "BSL": 11}, {"BSL": 11, "ZRH": 18}, True),
        ({"ZRH": 18}, {"ZRH": 17}, False),
        (4, "refused: no table", False),
        (4, None, False),
    ],
)
def test_values_match(expected: object, actual: object, match: bool) -> None:
    assert values_match(expected, actual) is match


def _q(qid: str, part: str, route: str, value: object = None) -> GoldenQuestion:
    return GoldenQuestion(id=qid, question=qid, part=part, route=route, expected_value=value)


GOLDEN = GoldenSet(
    "s",
    5,
    [
        _q("agg-t1", "test", "aggregation", 3),
        _q("agg-t2", "test", "aggregation", 5),
        _q("sem-t1", "test", "semantic"),
        _q("look-t1", "test", "lookup"),
        _q("agg-d1", "dev", "aggregation", 7),
        _q("sem-d1", "dev", "semantic"),
    ],
)
ROUTED = {"agg-t1": "aggregation", "agg-t2": "semantic", "sem-t1": "semantic", "look-t1": "lookup"}
VALUES = {"agg-t1": 3, "agg-t2": 6, "agg-d1": 7}


def _facts(question: str) -> object:
    if question == "agg-t2":
        raise ValueError("No table 'x'")  # an IntentRefused is a miss, not a crash
    return VALUES[question]


def test_summary_per_route_on_test_with_dev_beside_it() -> None:
    checks = check_routes(
        GOLDEN, route=lambda q: ROUTED.get(q, "aggregation" if "agg" in q else "semantic"), facts=_facts
    )
    assert [c.exact for c in checks] == [True, False, None, None, True, None]
    results = [
        QuestionResult(id=i, category="c", question=i, unanswerable=False, ranked_docs={}, scores={}, answer_ok=ok)
        for i, ok in (("agg-t1", True), ("agg-t2", False), ("sem-t1", True), ("look-t1", False))
    ]
    summary = routing_summary(checks, results)
    assert summary == {
        "routing/router_accuracy": 0.75,
        "routing/router_accuracy__semantic": 1.0,
        "routing/router_accuracy__aggregation": 0.5,
        "routing/router_accuracy__lookup": 1.0,
        "routing/aggregation_exact_match": 0.5,
        "routing/aggregation_questions": 2.0,
        "routing/answer_accuracy__semantic": 1.0,
        "routing/answer_accuracy__aggregation": 0.5,
        "routing/answer_accuracy__lookup": 0.0,
        "routing/router_accuracy_dev": 1.0,
        "routing/aggregation_exact_match_dev": 1.0,
        "routing/aggregation_questions_dev": 1.0,
    }
    line = routing_markdown(summary)
    assert (
        line is not None and "router accuracy 0.750 (1.000)" in line and "aggregation exact-match 0.500 (1.000)" in line
    )
    assert routing_markdown({}) is None


def test_golden_questions_carry_a_route_and_an_expected_value(tmp_path) -> None:
    from strata_pipeline.evaluation.golden import load_golden

    (tmp_path / "s.yaml").write_text(
        "questions:\n  - id: a\n    question: How many?\n    route: aggregation\n    expected_value: {X: 2}\n"
        "  - id: b\n    question: Why?\n",
        encoding="utf-8",
    )
    golden = load_golden(tmp_path, "s")
    assert golden is not None
    assert [(q.route, q.expected_value) for q in golden.questions] == [("aggregation", {"X": 2}), ("semantic", None)]
    (tmp_path / "t.yaml").write_text("questions:\n  - id: a\n    question: Q?\n    route: magic\n", encoding="utf-8")
    with pytest.raises(ValueError, match="route is 'magic'"):
        load_golden(tmp_path, "t")
