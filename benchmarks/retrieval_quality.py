"""Retrieval quality of the published index on every golden set, test part first, dev beside it.

    python -m benchmarks.retrieval_quality            # the table (needs `strata materialize` first)
    python -m benchmarks.retrieval_quality --misses   # also each dev question that is not ranked first
    python -m benchmarks.retrieval_quality --answers  # also answer accuracy (the offline answerer; slower)
    python -m benchmarks.retrieval_quality --abstention  # answers, and abstention recall/precision per set

The scoring is the eval report's (document level, 50 candidate chunks, the same QueryEngine as the
API). Misses are listed for the dev part only: dev is for tuning, test is only scored, so this tool
never shows which test questions fail.
"""

from __future__ import annotations

import argparse
from contextlib import closing

from strata_pipeline.enrichment.sidecar import indexed_doc_ids
from strata_pipeline.evaluation.abstention import abstention_figures
from strata_pipeline.evaluation.golden import GoldenSet, load_golden
from strata_pipeline.evaluation.report import answer_check, evaluate, summarise
from strata_pipeline.evaluation.results import AnswerFn, QuestionResult
from strata_pipeline.indexing.store import INDEX_SCHEMA
from strata_pipeline.resources.factory import build_resources
from strata_pipeline.serving_index import PublishedIndex
from strata_pipeline.settings import load_settings

MODES = ("dense", "sparse", "hybrid")
COLUMNS = ("recall_at_5", "mrr_at_10", "ndcg_at_10")


def indexed_docs(sidecar_path: object) -> set[str]:
    from strata_pipeline.resources.sidecar import SidecarResource

    with closing(SidecarResource().connect(sidecar_path)) as db:
        return indexed_doc_ids(db)


def row(label: str, results: list[QuestionResult], answers: bool) -> str:
    scored = summarise(results, 5, MODES)
    cells = [f"{scored[f'hybrid_{c}']:.3f}" for c in COLUMNS]
    cells += [f"{scored['dense_mrr_at_10']:.3f}", f"{scored['sparse_mrr_at_10']:.3f}"]
    if answers:
        cells += [f"{scored['answer_accuracy']:.3f}", f"{scored['citation_validity']:.3f}"]
    answerable = sum(1 for r in results if "hybrid" in r.scores)
    return f"| {label} | {answerable} | " + " | ".join(cells) + " |"


def abstention_row(label: str, results: list[QuestionResult]) -> str:
    """Unanswerable questions, abstention recall and precision, false abstention on answerable ones."""
    f = abstention_figures(results)
    answerable = len(results) - int(f.get("unanswerable_questions", 0))
    cells = [f"{f[key]:.3f}" if key in f else "–" for key in ("abstention_recall", "abstention_precision")]
    cells.append(f"{f['false_abstention_rate']:.3f}" if "false_abstention_rate" in f else "–")
    return f"| {label} | {int(f.get('unanswerable_questions', 0))} | {answerable} | " + " | ".join(cells) + " |"


ABSTENTION_HEADER = (
    "| set, part | unanswerable | answerable | abstention recall | abstention precision | false abstention |"
)


def answerer(engine: object, name: str, k: int) -> AnswerFn:
    """The eval report's answer check, on one source-set."""
    return lambda question: answer_check(engine, question, k, [name])


def print_misses(name: str, results: list[QuestionResult], golden: GoldenSet) -> None:
    by_id = {q.id: q for q in golden.questions}
    for r in results:
        if r.part != "dev" or "hybrid" not in r.scores or r.scores["hybrid"]["mrr_at_10"] == 1.0:
            continue
        print(f"  {name} {r.id} [{r.category}] RR {r.scores['hybrid']['mrr_at_10']:.2f}: {r.question}")
        print(f"      relevant {list(by_id[r.id].relevant)}; ranked {r.ranked_docs['hybrid'][:4]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--misses", action="store_true", help="List dev questions whose first hit is wrong.")
    parser.add_argument("--answers", action="store_true", help="Also score the offline answers.")
    parser.add_argument(
        "--abstention", action="store_true", help="Also abstention recall/precision and false abstention (answers)."
    )
    parser.add_argument("--source-set", action="append", help="Only these source-sets (default: all published).")
    args = parser.parse_args()
    args.answers = args.answers or args.abstention
    settings = load_settings()
    resources = build_resources(settings)
    # The query is redacted as the API and the eval redact it (a name-like word changes what is searched).
    index = PublishedIndex(
        settings.index_dir, resources["embedder"], resources["qdrant"], None, resources["pii"].guard()
    )
    versions = {n: v for n, v in index.published().items() if not args.source_set or n in args.source_set}
    for name in [n for n, v in versions.items() if v.schema != INDEX_SCHEMA]:
        print(f"skipping {name}: its published index has an older schema; run `strata materialize --source-set {name}`")
        del versions[name]
    index.published = lambda: versions  # type: ignore[method-assign]  # the engine serves only these
    pooled: dict[str, list[QuestionResult]] = {"test": [], "dev": []}
    header = "| set, part | questions | Recall@5 | MRR@10 | nDCG@10 | dense MRR | BM25 MRR |"
    header += " answer accuracy | citation validity |" if args.answers else ""
    lines = [header, "|---" * header.count(" |") + "|"]
    misses = []
    abstention = [ABSTENTION_HEADER, "|---" * 6 + "|"]
    with index.engine() as engine:
        for name, version in sorted(versions.items()):
            golden = load_golden(settings.golden_dir, name)
            if golden is None or not golden.questions:
                continue

            def search(question: str, n: int, name: str = name) -> dict[str, list[str]]:
                ranked = engine.search_modes(question, n, [name])
                return {mode: [c.doc_id for c in hits] for mode, hits in ranked.items()}

            answer = answerer(engine, name, golden.k) if args.answers else None
            results = evaluate(golden, search, indexed_docs(version.sidecar_path), answer=answer)
            for part in ("test", "dev"):
                in_part = [r for r in results if r.part == part]
                if in_part:
                    lines.append(row(f"{name}, {part}", in_part, args.answers))
                    abstention.append(abstention_row(f"{name}, {part}", in_part))
                    pooled[part] += in_part
            misses.append((name, results, golden))
    for part in ("test", "dev"):
        if pooled[part]:
            lines.append(row(f"**all sets, {part}**", pooled[part], args.answers))
            abstention.append(abstention_row(f"**all sets, {part}**", pooled[part]))
    print("Retrieval quality of the published index, document level (hybrid unless named)\n")
    print("\n".join(lines))
    if args.abstention:
        print("\nAbstention: unanswerable questions should abstain (recall), answerable ones should not\n")
        print("\n".join(abstention))
    if args.misses:
        print("\nDev questions whose first hit is not relevant:")
        for name, results, golden in misses:
            print_misses(name, results, golden)


if __name__ == "__main__":
    main()
