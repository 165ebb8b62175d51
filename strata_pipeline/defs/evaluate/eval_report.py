import time
from contextlib import ExitStack, closing
from dataclasses import asdict
from pathlib import Path
from typing import Any, cast

import dagster as dg

from strata_pipeline.classification.rules import load_rules
from strata_pipeline.dagster_support.catalog import OWNERS, asset_tags
from strata_pipeline.dagster_support.claims import claim_partition
from strata_pipeline.dagster_support.lineage import code_version
from strata_pipeline.enrichment.sidecar import indexed_doc_ids
from strata_pipeline.evaluation.access import leak_probe
from strata_pipeline.evaluation.agent import agent_figures, agent_trends, load_compound, run_compound
from strata_pipeline.evaluation.golden import load_golden
from strata_pipeline.evaluation.injection import injection_figures
from strata_pipeline.evaluation.memo import MEMO_STAGE, VECTORS_FILE, MemoEmbedder, MemoGuard, query_digest
from strata_pipeline.evaluation.presentation import per_partition, question_table, trend_figures, trend_key
from strata_pipeline.evaluation.ragas_metrics import score_ragas
from strata_pipeline.evaluation.regression import Baseline, compare_to_baseline
from strata_pipeline.evaluation.report import (
    answer_check,
    evaluate,
    summarise_parts,
    summary_markdown,
    unknown_labels,
)
from strata_pipeline.evaluation.report_files import report_url, write_report
from strata_pipeline.evaluation.results import AnswerCheck
from strata_pipeline.evaluation.routing import check_routes, figure, routing_markdown, routing_summary
from strata_pipeline.indexing.versions import IndexVersion
from strata_pipeline.partitions import source_sets
from strata_pipeline.progress import throttled
from strata_pipeline.query_engine import QueryEngine
from strata_pipeline.resources import (
    AnthropicResource,
    CacheResource,
    CorpusResource,
    EmbedderResource,
    PiiResource,
    QdrantResource,
    RerankerResource,
    SidecarResource,
)


@dg.asset(
    partitions_def=source_sets,
    group_name="evaluate",
    owners=OWNERS,
    # The value is a JSON report scored in Python (ragas metrics on top); it reads the index but is none.
    kinds={"python", "ragas"},
    tags=asset_tags("evaluate", pii="redacted") | {"strata/llm": "optional"},
    code_version=code_version(
        __file__,
        "evaluation",
        "answering",
        "retrieval",
        "query_engine.py",
        "progress.py",
        "redaction/guard.py",
        "enrichment/sidecar.py",
        "injection",
        "access",  # the cross-group leak probe
        "facts",  # aggregation exact-match
        "routing",  # router accuracy
    ),
)
def eval_report(
    context: dg.AssetExecutionContext,
    corpus: CorpusResource,
    embedder: EmbedderResource,
    qdrant: QdrantResource,
    sidecar: SidecarResource,
    llm: AnthropicResource,
    pii: PiiResource,
    reranker: RerankerResource,
    cache: CacheResource,
    enriched_sidecar: IndexVersion,
) -> dg.Output[dict]:
    """Retrieval and answer quality of the new index version on `golden/<source_set>.yaml`.

    Dense, sparse and hybrid retrieval, and hybrid+rerank when a reranker is configured, side by side,
    overall and per category, through the same QueryEngine the API uses, before the version is
    published (the headline figures stay plain hybrid: they judge the index); the headline also names the
    redaction figures, which the unpartitioned `redaction_quality` asset reports in full. Numeric metadata
    keys are stable and named `<source_set>/...`, so the UI plots each source-set's trend on its own; the
    full report (every figure, every question) is served by the API at `/reports/<source_set>`. ragas
    metrics (evaluation/ragas_metrics.py) come on top: ID-based context precision/recall and string
    similarity always; faithfulness and answer relevancy, judged by a second Claude model, with a key.

    Every question is searched on the new version. What does not depend on the index (the redacted
    question, query vectors, answer-sentence vectors, answer audits, offline ragas scores) is
    remembered between evals (evaluation/memo.py), so an unchanged answer costs a few lookups.
    """
    claim_partition(context, corpus.index_dir)  # one run writes a source-set at a time
    started = time.perf_counter()
    version = enriched_sidecar
    rules = load_rules(Path(corpus.rules_dir), context.partition_key)
    fingerprint = {
        "index_version": version.version,
        "collection": version.collection,
        "model": version.model,
        "dim": version.dim,
        "chunker": version.chunker,
        "rules_digest": rules.digest,
        "points": version.point_count,
    }
    golden = load_golden(Path(corpus.golden_dir), context.partition_key)
    if golden is not None:
        fingerprint["golden_digest"] = golden.digest
    if golden is None or not golden.questions:
        context.log.warning(f"No golden set at {corpus.golden_dir}/{context.partition_key}.yaml: nothing to score.")
        return dg.Output(
            {"fingerprint": fingerprint, "summary": {}},
            metadata={
                "golden_set": "missing",
                "fingerprint": dg.MetadataValue.json(fingerprint),
                "index_version": str(fingerprint["index_version"]),
                "model": str(fingerprint["model"]),
            },
        )

    with closing(sidecar.connect(version.sidecar_path)) as db:
        known_docs = indexed_doc_ids(db)
    missing = unknown_labels(golden, known_docs)
    if missing:
        raise dg.Failure(
            f"The golden set labels documents that are not in the index, so its scores would be wrong: "
            f"{'; '.join(missing[:20])}. Fix golden/{context.partition_key}.yaml or the rules that excluded them.",
            metadata={"unknown_labels": len(missing)},
        )
    judge = llm.judge() if llm.enabled else None  # fails here if the judge is the generator model
    stack = ExitStack()
    memo = stack.enter_context(cache.open(MEMO_STAGE))
    sentence_vectors = cache.vectors(VECTORS_FILE)
    if sentence_vectors is not None:
        stack.callback(sentence_vectors.close)
    memo_embedder = MemoEmbedder(embedder, memo, sentence_vectors, query_digest(embedder))
    guard = MemoGuard(pii.guard(), memo, pii.digest())
    with (
        stack,
        QueryEngine(
            memo_embedder, qdrant, {version.source_set: version}, llm=llm, guard=guard, reranker=reranker
        ) as engine,
    ):
        modes, reranker_name = engine.modes, engine.reranker_name

        def search(question: str, n: int) -> dict[str, list[str]]:
            return {mode: [c.doc_id for c in hits] for mode, hits in engine.search_modes(question, n).items()}

        def answer(question: str) -> AnswerCheck:
            return answer_check(engine, question, golden.k)

        progress = throttled(context.log.info, "evaluated golden questions", every=10, seconds=10)
        results = evaluate(golden, search=search, known_docs=known_docs, answer=answer, progress=progress)
        ragas = score_ragas(
            golden,
            results,
            known_docs,
            complete=judge.complete if judge else None,
            embed_query=embedder.query_dense,
            cache=memo,
            progress=throttled(context.log.info, "judged answers (ragas)", every=10, seconds=10),
        )
        reuse = {
            "eval_memo_hits": memo.hits,
            "eval_memo_misses": memo.misses,
            "eval_sentences_embedded": memo_embedder.sentences_embedded,
        }
        access = leak_probe(engine, version.source_set, [q.question for q in golden.questions], golden.k)
        routes = check_routes(golden, route=lambda q: engine.route(q).route, facts=lambda q: figure(engine, q))
        # the agent on the compound questions: task success and mean steps (evaluation/agent.py)
        compound = load_compound(Path(corpus.golden_dir), context.partition_key)
        agent = agent_figures(run_compound(engine, compound, version.source_set, golden.k))
    privacy = pii.privacy_figures(corpus.golden_dir)  # cached; the redaction_quality asset reports it in full
    summary = summarise_parts(results, golden.k, modes) | ragas | privacy | injection_figures(Path(corpus.golden_dir))
    summary |= access  # access/cross_group_leaks: must be 0
    summary |= routing_summary(routes, results)  # routing/...: router accuracy, aggregation exact-match
    summary |= agent
    report = {"fingerprint": fingerprint, "k": golden.k, "summary": summary, "questions": [asdict(r) for r in results]}
    report["routing"] = [asdict(c) for c in routes]
    headline = "\n\n".join(filter(None, (summary_markdown(summary, modes), routing_markdown(summary))))
    write_report(
        Path(corpus.reports_dir),
        context.partition_key,
        version.version,
        report,
        headline + "\n\n" + question_table(results, golden.k, max_chars=None),
    )
    return dg.Output(
        report,
        metadata=eval_metadata(
            context.partition_key,
            report_url(context.partition_key, corpus.api_url),
            headline,
            question_table(results, golden.k, more=report_url(context.partition_key, corpus.api_url)),
            trend_figures(context.partition_key, summary, golden.k, modes)
            | {trend_key(context.partition_key, key): value for key, value in agent_trends(agent).items()},
            fingerprint,
            {
                **reuse,
                "seconds": round(time.perf_counter() - started, 2),
                "answerer": "llm" if llm.enabled else "extractive",
                "reranker": reranker_name,
                "ragas_judge": judge.model if judge else "not configured",
            },
        ),
    )


def eval_metadata(
    source_set: str,
    report_link: str,
    headline: str,
    per_question: str,
    trends: dict[str, float],
    fingerprint: dict,
    run_facts: dict,
) -> dict[str, Any]:
    """The report's metadata in reading order (the UI lists keys as given): the headline, the
    question table, the link to the full report, then the per-source-set trend figures
    (evaluation/presentation.py says why each carries the source-set), the index fingerprint and how
    the run went. Every numeric key is `<source_set>/...`, so no plot mixes source-sets."""
    return {
        "summary": dg.MetadataValue.md(headline),
        "per_question": dg.MetadataValue.md(per_question),
        "report": dg.MetadataValue.url(report_link),  # served by the query API
        **trends,
        "fingerprint": dg.MetadataValue.json(fingerprint),
        "index_version": fingerprint["index_version"],
        "model": fingerprint["model"],
        **per_partition(source_set, run_facts),
    }


class RegressionSettings(dg.Config):
    tolerance: float = 0.05  # how far hybrid Recall@K or MRR may drop below the last passing run


@dg.asset_check(asset=eval_report, partitions_def=source_sets, blocking=True)
def eval_report_no_regression(
    context: dg.AssetCheckExecutionContext, config: RegressionSettings, corpus: CorpusResource, eval_report: dict
) -> dg.AssetCheckResult:
    """Hybrid Recall@K and MRR have not dropped by more than the tolerance below the last passing
    materialisation of this partition. Blocking: a worse index is never published."""
    summary = eval_report.get("summary") or {}
    if not summary:
        return dg.AssetCheckResult(passed=True, metadata={"status": "no golden set"})
    baseline = Baseline(Path(corpus.reports_dir) / context.partition_key / "baseline.json")
    verdict = compare_to_baseline(
        summary, baseline.read(), config.tolerance, eval_report["fingerprint"].get("golden_digest", "")
    )
    if verdict.passed:
        baseline.write(summary, eval_report["fingerprint"])
    return dg.AssetCheckResult(
        passed=verdict.passed,
        # per source-set numeric keys: the check's plots, like the asset's, never mix source-sets
        metadata=cast(
            dict[str, Any], per_partition(context.partition_key, {**verdict.metadata, "tolerance": config.tolerance})
        ),
        description=verdict.explanation,
    )
