"""Agent task success on the golden sets' compound questions, over the published index.

    python -m benchmarks.agent_quality                 # dev and test figures per source-set and overall
    python -m benchmarks.agent_quality --misses        # also each dev question that failed or called other tools
    python -m benchmarks.agent_quality --source-set itops --ids it-c30 it-c31   # a subset (ids: prefixes)

The scoring is the eval report's (strata_pipeline/evaluation/agent.py), through the same QueryEngine and
agent the API uses (offline planner unless ANTHROPIC_API_KEY is set). Misses are listed for dev only:
dev is for tuning, test is only scored.
"""

from __future__ import annotations

import argparse

from strata_pipeline.evaluation.agent import AgentOutcome, agent_figures, load_compound, run_compound
from strata_pipeline.serving_index import PublishedIndex
from strata_pipeline.settings import load_settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--misses",
        action="store_true",
        help="List the dev questions that failed (miss) or called other tools than expected (tools differ).",
    )
    parser.add_argument("--source-set", action="append", help="Only these source-sets (repeatable).")
    parser.add_argument("--ids", nargs="+", help="Only the questions whose id starts with one of these.")
    args = parser.parse_args()
    settings = load_settings()
    index = PublishedIndex.from_settings(settings)
    engine = index.engine()
    everything: list[AgentOutcome] = []
    print(f"{'source-set':<12} {'part':<5} {'n':>3} {'success':>8} {'tools':>6} {'steps':>6}")
    for source_set in sorted(engine.versions):
        if args.source_set and source_set not in args.source_set:
            continue
        questions = load_compound(settings.golden_dir, source_set)
        if args.ids:
            questions = [q for q in questions if q.id.startswith(tuple(args.ids))]
        if not questions:
            continue
        outcomes = run_compound(engine, questions, source_set)
        everything += outcomes
        _rows(source_set, outcomes)
        if args.misses:
            for o in outcomes:
                if o.part == "dev" and not (o.success and o.tools_match):
                    label = "miss" if not o.success else "tools differ"
                    print(f"    {label} {o.id}: tools={list(o.tools)} answer={o.answer[:300]!r}", end=" ")
                    print(f"reason={o.reason[:200]!r}")
    _rows("all", everything)
    index.close()


def _rows(label: str, outcomes: list[AgentOutcome]) -> None:
    figures = agent_figures(outcomes)
    for part in ("test", "dev"):
        if f"agent/{part}/questions" in figures:
            print(
                f"{label:<12} {part:<5} {figures[f'agent/{part}/questions']:>3.0f} "
                f"{figures[f'agent/{part}/task_success']:>8.3f} {figures[f'agent/{part}/tool_sequence_match']:>6.3f} "
                f"{figures[f'agent/{part}/mean_steps']:>6.2f}"
            )


if __name__ == "__main__":
    main()
