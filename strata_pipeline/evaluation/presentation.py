"""How the eval report reads in the Dagster UI: per-source-set trend figures and the question table.

Why trend keys carry the source-set: the UI's "Events" plot of a numeric metadata key takes every
materialisation of the asset, all partitions together, in time order, and it has no partition filter
(dagster-webserver 1.13, AssetMaterializationGraphs). A key that every partition writes therefore
zig-zags between source-sets. A key that only one partition writes (`handbook/mrr`) is a gap in every
other partition's event, so its plot holds that source-set's values alone, in time order; the plots
are sorted by key, so each source-set's figures sit together. The UI draws at most 100 plots, so the
trend keys are a short list per source-set (about 20); every other figure is in the JSON report.

Plain Python, no Dagster: the asset wraps these values in metadata.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from strata_pipeline.evaluation.report import DEV_SUFFIX, mode_key
from strata_pipeline.evaluation.results import QuestionResult

TREND_SEPARATOR = "/"
# Keys of other report parts that are trends as they stand: ragas, and the access probe's top-level
# figures (`access/cross_group_leaks`). The injection-defence figures are measured on the one red-team
# set, the same for every source-set: they are in the headline and the full report, not per-set plots
# (the UI draws at most 100).
TREND_PREFIXES = ("ragas_", "access/")
PER_QUESTION_BUDGET = 8_000  # characters of the per-question table in the UI; the report file has every row
QUESTION_CHARS = 90


def trend_key(source_set: str, name: str) -> str:
    return f"{source_set}{TREND_SEPARATOR}{name}"


def trend_names(summary: Mapping[str, float], k: int, modes: Sequence[str]) -> list[str]:
    """The summary keys plotted over time: the headline (hybrid), Recall@K and MRR@10 of each mode,
    the answer figures, the dev part's headline and gap, ragas and injection figures; in that order."""
    # Precision@K stays in the report (a question has one or two relevant documents, so it mirrors
    # recall), and hybrid's Recall@K is the headline's: the UI draws at most 100 plots per asset.
    names = [f"recall_at_{k}", "mrr", f"ndcg_at_{k}"]
    for mode in modes:
        if mode != "hybrid":
            names.append(f"{mode_key(mode)}_recall_at_{k}")
        names.append(f"{mode_key(mode)}_mrr_at_10")
    names += ["answer_accuracy", "abstention_accuracy", "citation_validity"]
    # evaluation/abstention.py; its recall is abstention_accuracy, already plotted
    names += ["abstention_precision", "false_abstention_rate"]
    names += [f"recall_at_{k}{DEV_SUFFIX}", f"mrr{DEV_SUFFIX}", f"answer_accuracy{DEV_SUFFIX}", "dev_test_gap"]
    names += [key for key in summary if key.startswith(TREND_PREFIXES) and key.count("/") <= 1]
    names += ["routing/router_accuracy", "routing/aggregation_exact_match"]  # the rest is in the full report
    return [name for name in dict.fromkeys(names) if isinstance(summary.get(name), (int, float))]


def trend_figures(source_set: str, summary: Mapping[str, float], k: int, modes: Sequence[str]) -> dict[str, float]:
    """`<source_set>/<name>` -> value for `trend_names`: numeric keys that are stable across runs of one
    source-set and never shared with another."""
    return {trend_key(source_set, name): float(summary[name]) for name in trend_names(summary, k, modes)}


def per_partition(source_set: str, figures: Mapping[str, object]) -> dict[str, object]:
    """Numeric entries renamed `<source_set>/<key>` (so they plot per source-set); others unchanged."""
    return {
        trend_key(source_set, key) if isinstance(value, (int, float)) and not isinstance(value, bool) else key: value
        for key, value in figures.items()
    }


def first_relevant_rank(result: QuestionResult, mode: str) -> int | None:
    return result.first_relevant.get(mode)


def verdict(result: QuestionResult, k: int, mode: str) -> str:
    """pass/fail of one question: its answer check when answers were checked, else whether a relevant
    document was in the top k (an unanswerable question then has nothing to find and passes)."""
    if result.answer_ok is not None:
        return "pass" if result.answer_ok else "fail"
    if result.unanswerable:
        return "pass"
    rank = first_relevant_rank(result, mode)
    return "pass" if rank is not None and rank <= k else "fail"


def _cell(text: str, limit: int = QUESTION_CHARS) -> str:
    text = " ".join(text.split()).replace("|", "\\|")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def question_table(
    results: Sequence[QuestionResult], k: int, mode: str = "hybrid", max_chars: int | None = PER_QUESTION_BUDGET,
    more: str = "the full report",
) -> str:  # fmt: skip
    """Markdown, one row per question: id, part, category, the question, the rank of the first relevant
    document in `mode` ("–" when none was found, "n/a" when the question has none) and pass/fail.
    Rows are added while the table stays within `max_chars`; the last row then says how many more
    are in `more`."""
    lines = [
        f"| id | part | category | question | first relevant rank ({mode}) | result |",
        "|---|---|---|---|---|---|",
    ]
    size = sum(len(line) + 1 for line in lines)
    for shown, r in enumerate(results):
        rank = first_relevant_rank(r, mode)
        rank_text = "n/a" if r.unanswerable else ("–" if rank is None else str(rank))
        cells = (r.id, r.part, _cell(r.category, 30), _cell(r.question), rank_text, verdict(r, k, mode))
        row = "| " + " | ".join(cells) + " |"
        if max_chars is not None and size + len(row) + 1 > max_chars - 80:  # room for the closing row
            lines.append(f"| … | | | {len(results) - shown} more questions in {more} | | |")
            break
        lines.append(row)
        size += len(row) + 1
    return "\n".join(lines)
