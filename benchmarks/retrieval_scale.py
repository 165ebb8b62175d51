"""Retrieval quality and /search latency when the fieldops golden corpus is buried among ~10,000 and
~50,000 chunks in Qdrant Edge, searched as the API serves it (the Retriever over Edge shards).
Run with `make bench` (or `python -m benchmarks.retrieval_scale`).

The fieldops documents are chunked and embedded for real (offline MiniLM + BM25). Embedding tens of
thousands of real texts on two cores would take an hour, so the extra chunks ("distractors") are
synthetic, built from the real vectors so they sit where real documents sit; the printed header
says exactly how. Everything else is the project's own code: EdgeStore, sync_points, point_id, the
Retriever and the evaluation report. All figures come from one run on one machine.
"""

from __future__ import annotations

import statistics
import string
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from strata_pipeline.chunking.chunker import ChunkingConfig, chunk_documents
from strata_pipeline.classification.rules import classify_docs, load_rules
from strata_pipeline.discovery.adapters import FolderAdapter
from strata_pipeline.discovery.discover import discover_source_set
from strata_pipeline.embedding.cache import VectorCache
from strata_pipeline.embedding.embed import embed_chunks
from strata_pipeline.embedding.identifiers import identifier_vector, identifiers
from strata_pipeline.embedding.models import OFFLINE_MODEL
from strata_pipeline.enrichment.extract import guess_title
from strata_pipeline.evaluation.golden import GoldenSet, load_golden
from strata_pipeline.evaluation.report import evaluate, summarise, unknown_labels
from strata_pipeline.indexing.engine import EdgeStore, PointRecord, PointStore, Where
from strata_pipeline.indexing.store import PAYLOAD_COLUMNS, point_id, sync_points
from strata_pipeline.resources.embedder import EmbedderResource
from strata_pipeline.retrieval.search import (
    DEFAULT_WEIGHTS,
    MODES,
    RANK_FIELDS,
    RRF_K,
    QueryVectors,
    Retriever,
    complete_payloads,
    query_lists,
    rank,
)
from strata_pipeline.settings import PROJECT_ROOT

GOLDEN_DIR = PROJECT_ROOT / "golden"
SOURCE_SET = "fieldops"
OTHER_SET = "supplier-docs"  # a second source-set made of distractors only
MIXED = "all-source-sets"  # one shard holding both source-sets, filtered by payload
SCALES = (10_000, 50_000)  # points in the fieldops shard: real chunks + distractors
PASSES = 3  # latency passes over every golden question
SEARCH_K = 5  # /search's default k
CANDIDATES = 40  # the Retriever's (and QueryEngine's) candidates per list
NOISE = 0.02  # std of the Gaussian noise added to each component of a distractor's dense vector
UPSERT_BATCH = 500
SEED = 20261202
METRICS = (("R@1", "recall_at_1"), ("R@5", "recall_at_5"), ("R@10", "recall_at_10"), ("MRR@10", "mrr_at_10"),
           ("nDCG@10", "ndcg_at_10"))  # fmt: skip


@dataclass(frozen=True)
class RealCorpus:
    frame: pl.DataFrame  # embedded chunks: the chunk table plus dense, sparse_* and ids_* columns
    dense: np.ndarray  # (chunks, dim) float32, unit length
    sparse: list[dict[int, float]]  # BM25 term id -> weight, per chunk
    payloads: list[dict]  # what sync_points stores for each chunk
    codes: set[str]  # identifiers the real chunks contain (distractor codes avoid them)
    docs: set[str]  # indexed document ids


def real_corpus(embedder: EmbedderResource, cache_path: Path) -> RealCorpus:
    """The fieldops source-set as the pipeline indexes it: discovered, classified, chunked, embedded.
    It holds no personal data, so the classified text is chunked as is (redaction would not change it)."""
    discovered = discover_source_set(GOLDEN_DIR / "corpus" / SOURCE_SET, SOURCE_SET, FolderAdapter())
    classified = classify_docs(discovered, load_rules(PROJECT_ROOT / "rules", SOURCE_SET))
    indexable = classified.filter((pl.col("decision") == "include") & (pl.col("status") == "ok")).with_columns(
        pl.struct("text", "doc_id")
        .map_elements(lambda r: guess_title(r["text"], r["doc_id"]), return_dtype=pl.String)
        .alias("title")
    )
    chunks = chunk_documents(indexable, ChunkingConfig())
    frame, _ = embed_chunks(
        chunks, embedder.model, embedder.embed_dense, embedder.embed_sparse, VectorCache(cache_path)
    )
    dense = np.asarray(frame["dense"].to_list(), dtype=np.float32)
    sparse = [
        dict(zip(i, v, strict=True))
        for i, v in zip(frame["sparse_indices"].to_list(), frame["sparse_values"].to_list(), strict=True)
    ]
    payloads = [{key: row[key] for key in PAYLOAD_COLUMNS} for row in frame.iter_rows(named=True)]
    codes = {code for text in frame["text"].to_list() for code in identifiers(text)}
    return RealCorpus(frame, dense, sparse, payloads, codes, set(indexable["doc_id"].to_list()))


def look_alike_codes(rng: np.random.Generator, avoid: set[str]) -> list[str]:
    """0-3 codes shaped like the corpus's error codes and part numbers, never one the corpus holds."""
    wanted, codes = int(rng.integers(0, 4)), []
    while len(codes) < wanted:
        if rng.random() < 0.5:
            code = f"E-{rng.integers(1000, 3000)}"
        else:
            code = f"NR-44{rng.integers(0, 100):02d}-{string.ascii_uppercase[rng.integers(0, 6)]}"
        if code.lower() not in avoid:
            codes.append(code)
    return codes


def distractors(real: RealCorpus, count: int, source_set: str, seed: int) -> Iterator[list[PointRecord]]:
    """`count` synthetic chunks in batches, each a mixture of 2-3 random real chunks (see header)."""
    rng = np.random.default_rng(seed)
    n_real, dim = real.dense.shape
    for start in range(0, count, UPSERT_BATCH):
        size = min(UPSERT_BATCH, count - start)
        bases = rng.integers(0, n_real, size=(size, 3))
        weights = rng.dirichlet(np.ones(3), size=size)
        weights[rng.random(size) < 0.5, 2] = 0.0  # half of them mix two chunks, half three
        weights /= weights.sum(axis=1, keepdims=True)
        dense = np.einsum("nk,nkd->nd", weights, real.dense[bases]) + rng.normal(0.0, NOISE, (size, dim))
        dense /= np.linalg.norm(dense, axis=1, keepdims=True)
        batch = []
        for row in range(size):
            used = [int(b) for b, w in zip(bases[row], weights[row], strict=True) if w > 0]
            terms: dict[int, float] = {}
            for base in used:
                terms |= real.sparse[base]
            length = round(statistics.mean(len(real.sparse[b]) for b in used))
            picked = sorted(rng.choice(list(terms), size=min(length, len(terms)), replace=False).tolist())
            ids = identifier_vector(" ".join(look_alike_codes(rng, real.codes)))
            doc_id = f"distractor/{start + row:07d}.md"
            payload = real.payloads[used[0]] | {
                "chunk_id": f"{doc_id}#0",
                "source_set": source_set,
                "doc_id": doc_id,
                "chunk_index": 0,
                "parent_id": f"{doc_id}#s0",
            }
            batch.append(
                PointRecord(
                    point_id(source_set, doc_id, 0),
                    dense[row].astype(np.float32).tolist(),
                    (picked, [terms[t] for t in picked]),
                    ids,
                    payload,
                )
            )
        yield batch


def build_stores(folder: Path, real: RealCorpus, scale: int, seed: int) -> dict[str, EdgeStore]:
    """Three Edge shards: fieldops (real + distractors), the other source-set (distractors only), and
    both together in one shard for the payload-filter comparison. Sealed, then reopened to read."""
    dim = real.dense.shape[1]
    stores = {name: EdgeStore.create(folder / name, dim) for name in (SOURCE_SET, OTHER_SET, MIXED)}
    sync_points(stores[SOURCE_SET], real.frame, batch_size=UPSERT_BATCH)
    sync_points(stores[MIXED], real.frame, batch_size=UPSERT_BATCH)
    for source_set, offset in ((SOURCE_SET, 0), (OTHER_SET, 1)):
        for batch in distractors(real, scale - len(real.payloads), source_set, seed + offset):
            stores[source_set].upsert(batch)
            stores[MIXED].upsert(batch)
    for store in stores.values():
        store.seal()
        store.close()
    return {name: EdgeStore.open(folder / name) for name in stores}


class PrecomputedRetriever(Retriever):
    """The serving Retriever with each question's vectors computed once, so timings hold no embedding."""

    def __init__(self, query_vectors: dict[str, QueryVectors], indexes: dict[str, PointStore]) -> None:
        super().__init__(lambda q: query_vectors[q].dense, lambda q: query_vectors[q].sparse, indexes)
        self.query_vectors = query_vectors

    def vectors(self, query: str) -> QueryVectors:
        return self.query_vectors[query]


def filtered_hybrid(store: PointStore, vectors: QueryVectors, where: Where, limit: int) -> list[str]:
    """The same hybrid query on the mixed shard, every list restricted by a payload filter: what a
    single shared collection (or a document-group filter) costs."""
    lists = query_lists(store, vectors, CANDIDATES, RRF_K, DEFAULT_WEIGHTS, where, list_fields=RANK_FIELDS)
    return [c.doc_id for c in complete_payloads(rank(lists, "hybrid")[:limit], {SOURCE_SET: store})]


def quality(retriever: Retriever, golden: GoldenSet, docs: set[str]) -> dict[str, float]:
    """The eval report's scoring (document level, candidate_chunks=50) on one collection."""

    def search(question: str, n: int) -> dict[str, list[str]]:
        hits = retriever.search_modes(question, n, [SOURCE_SET])
        return {mode: [c.doc_id for c in ranked] for mode, ranked in hits.items()}

    return summarise(evaluate(golden, search, docs), golden.k, MODES)


def timed_ms(run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return (time.perf_counter() - started) * 1000


def percentiles(samples: list[float]) -> tuple[float, float]:
    return float(np.percentile(samples, 50)), float(np.percentile(samples, 95))


def latencies(
    mixed: PointStore, retriever: Retriever, matrix: np.ndarray, query_vectors: dict[str, QueryVectors]
) -> dict[str, list[float]]:
    """Milliseconds per question for each variant, interleaved question by question so that every
    variant sees the same machine state."""
    where: Where = {"source_set": SOURCE_SET}
    samples: dict[str, list[float]] = {"numpy": [], "per-source-set": [], "payload-filter": []}
    for _ in range(PASSES):
        for question in query_vectors:
            vectors = query_vectors[question]
            query = np.asarray(vectors.dense, dtype=np.float32)
            samples["numpy"].append(timed_ms(lambda q=query: exact_top(matrix, q)))
            samples["per-source-set"].append(
                timed_ms(lambda q=question: retriever.search(q, SEARCH_K, [SOURCE_SET], "hybrid"))
            )
            samples["payload-filter"].append(timed_ms(lambda v=vectors: filtered_hybrid(mixed, v, where, SEARCH_K)))
    return samples


def exact_top(matrix: np.ndarray, query: np.ndarray, top: int = CANDIDATES) -> np.ndarray:
    scores = matrix @ query
    best = np.argpartition(-scores, top)[:top]
    return best[np.argsort(-scores[best])]


def store_matrix(store: PointStore) -> np.ndarray:
    """The shard's dense vectors as stored (unit length), as one float32 matrix."""
    return np.asarray([record.dense for record in store.records()], dtype=np.float32)


def quality_table(results: dict[str, dict[str, float]]) -> list[str]:
    lines = [f"{'corpus':<16}{'mode':<8}" + "".join(f"{label:>9}" for label, _ in METRICS)]
    for corpus, summary in results.items():
        for mode in MODES:
            lines.append(f"{corpus:<16}{mode:<8}" + "".join(f"{summary[f'{mode}_{key}']:>9.3f}" for _, key in METRICS))
    return lines


def latency_table(results: dict[int, dict[str, list[float]]]) -> list[str]:
    lines = [f"{'points':>8}  {'variant':<22}{'n':>5}{'p50 ms':>10}{'p95 ms':>10}{'p50 / np':>10}{'p95 / np':>10}"]
    for scale, samples in results.items():
        base50, base95 = percentiles(samples["numpy"])
        for variant, values in samples.items():
            p50, p95 = percentiles(values)
            lines.append(
                f"{scale:>8,}  {variant:<22}{len(values):>5}{p50:>10.2f}{p95:>10.2f}"
                f"{p50 / base50:>9.1f}x{p95 / base95:>9.1f}x"
            )
    return lines


def header(real: RealCorpus, golden: GoldenSet) -> None:
    print("Retrieval at scale: fieldops golden set among synthetic distractors, embedded Qdrant")
    print(
        f"Real corpus: {len(real.docs)} fieldops documents -> {real.dense.shape[0]} chunks "
        f"(ChunkingConfig() defaults), embedded with {OFFLINE_MODEL} + BM25; "
        f"{len(golden.questions)} golden questions."
    )
    print(
        "Distractors (synthetic; only the fieldops chunks are real text):\n"
        "  dense     a random convex combination (Dirichlet weights) of 2 or 3 random real chunk vectors,\n"
        f"            plus Gaussian noise (std {NOISE} per component), re-normalised: near real documents, hard\n"
        "            negatives rather than random noise\n"
        "  BM25      term ids sampled without replacement from the union of those same chunks' BM25 vectors,\n"
        "            as many as the chunks hold on average, each with its real weight\n"
        "  ids       identifier_vector of 0-3 random look-alike codes (E-1000..E-2999, NR-44xx-A..F), never\n"
        "            one the real corpus contains\n"
        "  payload   a copy of its first base chunk's payload (real sizes), doc_id distractor/NNNNNNN.md"
    )
    n_real = real.dense.shape[0]
    print(
        f"Caveat: every distractor recycles the {n_real} real chunks, so each real chunk has about "
        + ", ".join(f"{round((scale - n_real) * 2.5 / n_real):,}" for scale in SCALES)
        + f" partial look-alikes\nat {', '.join(f'{s:,}' for s in SCALES)} points, and a rare query term "
        "recurs in proportion. The quality figures are a stress\nbound, not a forecast for a real corpus of that size."
    )
    print(
        f"Per scale, three Qdrant Edge shards (no WAL, sealed, then reopened for reading): '{SOURCE_SET}' (real +\n"
        f"distractors = the scale), '{OTHER_SET}' (as many distractors, another source-set) and '{MIXED}' (both)."
    )
    print(
        f"Latency: /search's retrieval (Retriever.search, hybrid, k={SEARCH_K}, {CANDIDATES} candidates per list, "
        f"one query_batch\nof dense, BM25 and identifier lists plus their weighted RRF on the Edge shard) with the "
        f"query vectors computed\nbeforehand, {PASSES} passes over every question; numpy baseline = float32 matrix @ "
        f"query, argpartition top {CANDIDATES}.\nThe payload-filter variant runs the same query on '{MIXED}' (twice "
        f"the points) with source_set == {SOURCE_SET} on every list."
    )


def main() -> None:
    started = time.perf_counter()
    golden = load_golden(GOLDEN_DIR, SOURCE_SET)
    assert golden is not None, "golden/fieldops.yaml is missing"
    with tempfile.TemporaryDirectory() as scratch:
        scratch_dir = Path(scratch)
        embedder = EmbedderResource(model=OFFLINE_MODEL, models_dir=str(scratch_dir / "models"))
        t0 = time.perf_counter()
        real = real_corpus(embedder, scratch_dir / "cache" / "vectors.sqlite")
        embed_s = time.perf_counter() - t0
        missing = unknown_labels(golden, real.docs)
        assert not missing, f"golden labels not in the corpus: {missing}"
        header(real, golden)
        print(f"\nChunked and embedded the real corpus in {embed_s:.1f} s.")
        query_vectors = {
            q.question: QueryVectors(embedder.query_dense(q.question), embedder.query_sparse(q.question),
                                     identifier_vector(q.question))
            for q in golden.questions
        }  # fmt: skip

        quality_by_corpus: dict[str, dict[str, float]] = {}
        latency_by_scale: dict[int, dict[str, list[float]]] = {}
        build_rate: dict[int, float] = {}
        small = EdgeStore.create(scratch_dir / "small", real.dense.shape[1])
        sync_points(small, real.frame)
        quality_by_corpus[f"{real.dense.shape[0]} real only"] = quality(
            PrecomputedRetriever(query_vectors, {SOURCE_SET: small}), golden, real.docs
        )
        small.close()

        for scale in SCALES:
            t0 = time.perf_counter()
            stores = build_stores(scratch_dir / f"scale-{scale}", real, scale, SEED + scale)
            seconds = time.perf_counter() - t0
            counts = {name: store.count() for name, store in stores.items()}
            build_rate[scale] = sum(counts.values()) / seconds
            print(
                f"\n[{scale:,}] built in {seconds:.1f} s ({build_rate[scale]:,.0f} points/s): "
                + ", ".join(f"{name} {n:,}" for name, n in sorted(counts.items()))
            )
            served = {SOURCE_SET: stores[SOURCE_SET], OTHER_SET: stores[OTHER_SET]}
            retriever = PrecomputedRetriever(query_vectors, served)
            t0 = time.perf_counter()
            quality_by_corpus[f"{scale:,}"] = quality(retriever, golden, real.docs)
            print(f"[{scale:,}] quality pass in {time.perf_counter() - t0:.1f} s")
            t0 = time.perf_counter()
            matrix = store_matrix(stores[SOURCE_SET])
            latency_by_scale[scale] = latencies(stores[MIXED], retriever, matrix, query_vectors)
            print(f"[{scale:,}] latency passes in {time.perf_counter() - t0:.1f} s")
            for store in stores.values():
                store.close()

    print("\n" + "=" * 100)
    print("SUMMARY")
    print("=" * 100)
    print("Quality on the fieldops golden set (document level, the eval report's metrics), per corpus size:")
    print("\n".join(quality_table(quality_by_corpus)))
    print("\nLatency per question (query embedding excluded):")
    print("\n".join(latency_table(latency_by_scale)))
    print(
        "  numpy             exact dense top-40 over the fieldops shard's vectors (the baseline)\n"
        "  per-source-set    Retriever.search over the fieldops shard (what /search runs)\n"
        f"  payload-filter    the same hybrid query on '{MIXED}', every list filtered by source_set"
    )
    top = max(SCALES)
    base95 = percentiles(latency_by_scale[top]["numpy"])[1]
    for variant in ("per-source-set", "payload-filter"):
        p95 = percentiles(latency_by_scale[top][variant])[1]
        ratio = p95 / base95
        verdict = "within" if ratio <= 2 else "outside"
        print(
            f"At {top:,} points, {variant} hybrid p95 is {p95:.1f} ms, {ratio:.1f}x the numpy exact dense scan's "
            f"{base95:.1f} ms: {verdict} the 2x target."
        )
    rates = ", ".join(f"{scale:,}: {rate:,.0f} points/s" for scale, rate in build_rate.items())
    print(f"Upsert rate while building the three shards: {rates}")
    print(f"Wall time: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
