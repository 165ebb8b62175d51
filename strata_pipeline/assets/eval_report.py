import json
from contextlib import closing
from dataclasses import asdict
from pathlib import Path

import dagster as dg

from strata_pipeline.evaluation.golden import load_golden
from strata_pipeline.evaluation.report import evaluate, markdown_table, summarise
from strata_pipeline.indexing.versions import IndexVersion
from strata_pipeline.partitions import source_sets
from strata_pipeline.query_engine import QueryEngine
from strata_pipeline.resources import (
    AnthropicResource,
    CorpusResource,
    EmbedderResource,
    PiiResource,
    QdrantResource,
    SidecarResource,
)


@dg.asset(partitions_def=source_sets, group_name="evaluate", kinds={"qdrant"})
def eval_report(
    context: dg.AssetExecutionContext,
    corpus: CorpusResource,
    embedder: EmbedderResource,
    qdrant: QdrantResource,
    sidecar: SidecarResource,
    llm: AnthropicResource,
    pii: PiiResource,
    enriched_sidecar: IndexVersion,
) -> dg.Output[dict]:
    """Retrieval quality of the new index version on `golden/<source_set>.yaml`.

    Runs the golden questions through the same QueryEngine the API uses, before the version is
    published. Numeric metadata keys are stable, so the UI plots them across materialisations.
    """
    version = enriched_sidecar
    golden = load_golden(Path(corpus.golden_dir), context.partition_key)
    fingerprint = {
        "index_version": version.version,
        "collection": version.collection,
        "model": version.model,
        "dim": version.dim,
        "chunker": version.chunker,
        "points": version.point_count,
    }
    if golden is None or not golden.questions:
        context.log.warning(f"No golden set at {corpus.golden_dir}/{context.partition_key}.yaml: nothing to score.")
        return dg.Output({"fingerprint": fingerprint, "summary": {}}, metadata={**fingerprint, "golden_set": "missing"})

    with closing(sidecar.connect(version.sidecar_path)) as db:
        known_docs = {
            r[0] for r in db.execute("SELECT doc_id FROM documents WHERE decision = 'include' AND status = 'ok'")
        }
    with QueryEngine(embedder, qdrant, {version.source_set: version}, llm=llm, guard=pii.guard()) as engine:
        results = evaluate(
            golden,
            search=lambda q, n: [c.doc_id for c in engine.search(q, n)],
            known_docs=known_docs,
            answer=lambda q: _answer(engine, q, golden.k),
        )
    summary = summarise(results, golden.k)
    report = {"fingerprint": fingerprint, "k": golden.k, "summary": summary, "questions": [asdict(r) for r in results]}
    report_dir = Path(corpus.reports_dir) / context.partition_key
    report_dir.mkdir(parents=True, exist_ok=True)
    report_path = report_dir / f"{version.version}.json"
    report_path.write_text(json.dumps(report, indent=2), encoding="utf-8")
    return dg.Output(
        report,
        metadata={
            **summary,
            **fingerprint,
            "answerer": "llm" if llm.enabled else "extractive",
            "report": dg.MetadataValue.path(str(report_path)),
            "per_question": dg.MetadataValue.md(markdown_table(results, max_rows=25)),
        },
    )


def _answer(engine: QueryEngine, question: str, k: int) -> tuple[bool, str]:
    answer = engine.ask(question, k)
    return answer.abstained, answer.text
