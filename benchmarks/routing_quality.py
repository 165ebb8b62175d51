"""Router accuracy, aggregation exact-match and answer accuracy per route on every golden set.

    python -m benchmarks.routing_quality             # router and aggregation figures (needs `strata materialize`)
    python -m benchmarks.routing_quality --answers   # also answer accuracy per route (non-semantic questions)
    python -m benchmarks.routing_quality --answers --all   # ... and every semantic question too (slow)
    python -m benchmarks.routing_quality --misses    # also each dev question routed or counted wrongly

The scoring is the eval report's (evaluation/routing.py) through the same QueryEngine as the API. Misses
are listed for the dev part only: the parser is tuned on dev, test is only scored.
"""

from __future__ import annotations

import argparse
import dataclasses

from strata_pipeline.evaluation.golden import load_golden
from strata_pipeline.evaluation.report import answer_check, evaluate
from strata_pipeline.evaluation.results import QuestionResult
from strata_pipeline.evaluation.routing import PREFIX, RouteCheck, check_routes, figure, routing_summary
from strata_pipeline.resources.factory import build_resources
from strata_pipeline.routing import ROUTES
from strata_pipeline.serving_index import PublishedIndex
from strata_pipeline.settings import load_settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--answers", action="store_true", help="Also answer the routed (non-semantic) questions.")
    parser.add_argument("--all", action="store_true", help="With --answers: every question, semantic ones too.")
    parser.add_argument("--misses", action="store_true", help="List dev questions routed or counted wrongly.")
    parser.add_argument("--source-set", action="append", help="Only these source-sets (default: all published).")
    args = parser.parse_args()
    settings = load_settings()
    resources = build_resources(settings)
    index = PublishedIndex(
        settings.index_dir, resources["embedder"], resources["qdrant"], None, resources["pii"].guard()
    )
    versions = {n: v for n, v in index.published().items() if not args.source_set or n in args.source_set}
    index.published = lambda: versions  # type: ignore[method-assign]  # the engine serves only these
    checks: list[RouteCheck] = []
    results: list[QuestionResult] = []
    with index.engine() as engine:
        for name in sorted(versions):
            golden = load_golden(settings.golden_dir, name)
            if golden is None:
                continue
            found = check_routes(
                golden,
                route=lambda q, name=name: engine.route(q, [name]).route,
                facts=lambda q, name=name: figure(engine, q, [name]),
            )
            checks += found
            if args.answers:
                asked = [q for q in golden.questions if args.all or q.route != "semantic"]
                subset = dataclasses.replace(golden, questions=asked)
                results += evaluate(
                    subset,
                    lambda q, n: {},
                    set(),
                    answer=lambda q, name=name, k=golden.k: answer_check(engine, q, k, [name]),
                )
            if args.misses:
                for c in found:
                    if c.part == "dev" and (c.chosen_route != c.expected_route or c.exact is False):
                        print(f"  {name} {c.id}: want {c.expected_route}, got {c.chosen_route}; value {c.value}")
    summary = routing_summary(checks, results)
    print("Routing on every golden set (test part; dev in brackets)\n")
    print("| figure | test | dev |\n|---|---|---|")
    names = ["router_accuracy", *(f"router_accuracy__{r}" for r in ROUTES), "aggregation_exact_match"]
    names += [f"answer_accuracy__{r}" for r in ROUTES]
    dev = routing_summary([dataclasses.replace(c, part="test") for c in checks if c.part == "dev"], results)
    for key in names:
        test_value, dev_value = summary.get(PREFIX + key), dev.get(PREFIX + key)
        if test_value is not None or dev_value is not None:
            shown = [f"{v:.3f}" if v is not None else "-" for v in (test_value, dev_value)]
            print(f"| {key} | {shown[0]} | {shown[1]} |")
    counts = {part: sum(1 for c in checks if c.part == part) for part in ("test", "dev")}
    labelled = {r: sum(1 for c in checks if c.expected_route == r) for r in ROUTES}
    print(f"\nquestions: {counts}; labelled routes: {labelled}")


if __name__ == "__main__":
    main()
