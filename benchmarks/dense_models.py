"""The two offline dense models side by side, on the same chunks in the same run
(`python -m benchmarks.dense_models`).

- **documents**: every chunk of the sample corpus, embedded as the `embeddings` stage does (dense
  only, length-sorted, batches of the resource's batch size). The chunks are dealt into rounds and
  the models take turns round by round, so load from other processes falls on both alike;
- **queries**: every golden question embedded one at a time (what a search does), the models
  alternating question by question: median and 95th-percentile latency.

Retrieval quality is `benchmarks.retrieval_quality`, run once per model on an index materialised with
that model (separate STRATA_HOME).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

import yaml

from benchmarks.embedding import sample_chunks
from strata_pipeline.embedding.embed import embedding_inputs
from strata_pipeline.embedding.models import OFFLINE_MODEL
from strata_pipeline.embedding.multilingual import MULTILINGUAL_MODEL
from strata_pipeline.resources.embedder import EmbedderResource
from strata_pipeline.settings import PROJECT_ROOT

MODELS = (OFFLINE_MODEL, MULTILINGUAL_MODEL)
ROUNDS = 3


def golden_questions() -> list[str]:
    questions = []
    for path in sorted((PROJECT_ROOT / "golden").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        questions += [q["question"] for q in data.get("questions", [])]
    return questions


def main() -> None:
    texts = embedding_inputs(sample_chunks())
    questions = golden_questions()
    with tempfile.TemporaryDirectory() as scratch:
        embedders = {m: EmbedderResource(model=m, models_dir=str(Path(scratch) / "models")) for m in MODELS}
        for embedder in embedders.values():
            embedder.embed_dense(["warm up"])
            embedder.query_dense("warm up")
        doc_seconds = dict.fromkeys(MODELS, 0.0)
        for r in range(ROUNDS):
            batch = sorted(texts[r::ROUNDS], key=len)
            for model, embedder in embedders.items():
                started = time.perf_counter()
                embedder.embed_dense(batch)
                doc_seconds[model] += time.perf_counter() - started
        query_ms: dict[str, list[float]] = {m: [] for m in MODELS}
        for question in questions:
            for model, embedder in embedders.items():
                started = time.perf_counter()
                embedder.query_dense(question)
                query_ms[model].append(1000 * (time.perf_counter() - started))
    n = len(texts)
    print(f"{n} chunks of the sample corpus ({sum(map(len, texts)):,} characters), {len(questions)} golden questions")
    print("| model | dim | chunks/s | query p50 ms | query p95 ms |")
    print("|---|---|---|---|---|")
    for model in MODELS:
        p95 = statistics.quantiles(query_ms[model], n=20)[-1]
        print(
            f"| {model} | {embedders[model].dim} | {n / doc_seconds[model]:.1f} | "
            f"{statistics.median(query_ms[model]):.1f} | {p95:.1f} |"
        )
    ratio = doc_seconds[MULTILINGUAL_MODEL] / doc_seconds[OFFLINE_MODEL]
    print(f"{MULTILINGUAL_MODEL} takes {ratio:.2f}x the time of {OFFLINE_MODEL} per chunk")


if __name__ == "__main__":
    main()
