"""Router and aggregation figures of a golden set: router accuracy per route, aggregation exact-match
and answer accuracy per route, on the test part (the dev part beside it with a `_dev` suffix).

Keys are `routing/<figure>` (per route: `routing/<figure>__<route>`), so the eval report plots them
per source-set as `<source_set>/routing/<figure>`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from strata_pipeline.evaluation.golden import ROUTES, GoldenSet
from strata_pipeline.evaluation.results import QuestionResult

PREFIX = "routing/"
DEV_SUFFIX = "_dev"
TOLERANCE = 0.005  # a figure matches when it rounds to the expected one at two decimals

RouteFn = Callable[[str], str]  # question -> chosen route
FactsFn = Callable[[str], Any]  # question -> the aggregation's value (raises when refused)


@dataclass(frozen=True)
class RouteCheck:
    id: str
    part: str
    expected_route: str
    chosen_route: str
    exact: bool | None = None  # aggregation questions: the figure equals expected_value
    value: Any = None


def values_match(expected: Any, actual: Any) -> bool:
    """Numbers within TOLERANCE, lists as sets of values (case-sensitive), mappings key by key."""
    if isinstance(expected, dict):
        return (
            isinstance(actual, dict)
            and {str(k) for k in expected} == {str(k) for k in actual}
            and all(values_match(v, actual[k] if k in actual else actual.get(str(k))) for k, v in expected.items())
        )
    if isinstance(expected, list):
        return isinstance(actual, list) and sorted(map(str, expected)) == sorted(map(str, actual))
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        return isinstance(actual, (int, float)) and abs(float(expected) - float(actual)) <= TOLERANCE
    return str(expected) == str(actual)


def figure(engine: Any, question: str, source_sets: list[str] | None = None) -> Any:
    """The figure `engine` (a QueryEngine) gives for `question`: a retrieval-first hybrid's through `ask`,
    since its rows are the ones the retrieved documents name; any other through the facts engine. Raises
    ValueError when nothing could be counted."""
    if engine.route(question, source_sets).direction == "retrieval_first":
        answer = engine.ask(question, 5, source_sets)
        if answer.facts is None:
            raise ValueError(answer.reason or answer.routing.reason)
        return answer.facts.value
    return engine.query_facts(question, source_sets).value


def check_routes(golden: GoldenSet, route: RouteFn, facts: FactsFn) -> list[RouteCheck]:
    checks = []
    for q in golden.questions:
        chosen = route(q.question)
        exact, value = None, None
        if q.expected_value is not None:
            try:
                value = facts(q.question)
            except ValueError as exc:  # IntentRefused: the parser could not read it
                value = f"refused: {exc}"
            exact = values_match(q.expected_value, value)
        checks.append(RouteCheck(q.id, q.part, q.route, chosen, exact, value))
    return checks


def _mean(values: list[bool]) -> float:
    return round(sum(values) / len(values), 4) if values else 0.0


def _figures(checks: list[RouteCheck], results: list[QuestionResult]) -> dict[str, float]:
    figures = {"router_accuracy": _mean([c.chosen_route == c.expected_route for c in checks])}
    for name in ROUTES:
        labelled = [c for c in checks if c.expected_route == name]
        if labelled:
            figures[f"router_accuracy__{name}"] = _mean([c.chosen_route == name for c in labelled])
    exact = [c.exact for c in checks if c.exact is not None]
    if exact:
        figures["aggregation_exact_match"] = _mean(exact)
        figures["aggregation_questions"] = float(len(exact))
    by_id = {c.id: c.expected_route for c in checks}
    for name in ROUTES:
        answered = [r.answer_ok for r in results if by_id.get(r.id) == name and r.answer_ok is not None]
        if answered:
            figures[f"answer_accuracy__{name}"] = _mean([bool(ok) for ok in answered])
    return figures


def routing_summary(checks: list[RouteCheck], results: Sequence[QuestionResult] = ()) -> dict[str, float]:
    """`routing/...` figures of the test part, and the dev part's with a `_dev` suffix."""
    test = [c for c in checks if c.part == "test"]
    dev = [c for c in checks if c.part == "dev"]
    summary = {f"{PREFIX}{k}": v for k, v in _figures(test, list(results)).items()}
    if dev:
        summary |= {f"{PREFIX}{k}{DEV_SUFFIX}": v for k, v in _figures(dev, list(results)).items() if "__" not in k}
    return summary


def routing_markdown(summary: dict[str, float]) -> str | None:
    """One line for the report's headline, when the figures are present."""
    if f"{PREFIX}router_accuracy" not in summary:
        return None

    def shown(key: str) -> str:
        value = f"{summary.get(PREFIX + key, float('nan')):.3f}"
        dev = summary.get(f"{PREFIX}{key}{DEV_SUFFIX}")
        return f"{value} ({dev:.3f})" if dev is not None else value

    per_route = ", ".join(
        f"{name} {summary[f'{PREFIX}router_accuracy__{name}']:.3f}"
        for name in ROUTES
        if f"{PREFIX}router_accuracy__{name}" in summary
    )
    line = f"routing (test, dev in brackets): router accuracy {shown('router_accuracy')} [{per_route}]"
    if f"{PREFIX}aggregation_exact_match" in summary or f"{PREFIX}aggregation_exact_match{DEV_SUFFIX}" in summary:
        line += f", aggregation exact-match {shown('aggregation_exact_match')}"
    return line
