"""embed_chunks with the real offline MiniLM model and fastembed BM25."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from fastembed import SparseTextEmbedding, TextEmbedding

from strata_pipeline.embedding.cache import VectorCache
from strata_pipeline.embedding.embed import embed_chunks, embedded_text, table_records
from strata_pipeline.embedding.models import (
    OFFLINE_MODEL,
    OFFLINE_MODEL_DIM,
    dense_dimension,
    load_dense_model,
    load_sparse_model,
)


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("models")


@pytest.fixture(scope="module")
def dense_model(models_dir: Path) -> TextEmbedding:
    return load_dense_model(OFFLINE_MODEL, models_dir)


@pytest.fixture(scope="module")
def sparse_model(models_dir: Path) -> SparseTextEmbedding:
    return load_sparse_model("Qdrant/bm25", models_dir)


class Embedder:
    """The real dense model, recording which texts it was asked to embed."""

    def __init__(self, model: TextEmbedding) -> None:
        self.model = model
        self.calls: list[list[str]] = []

    def __call__(self, texts: Sequence[str]) -> list[np.ndarray]:
        self.calls.append(list(texts))
        return list(self.model.embed(list(texts)))

    @property
    def embedded(self) -> list[str]:
        return [t for call in self.calls for t in call]


def sparse_fn(model: SparseTextEmbedding):
    def run(texts: Sequence[str], languages: Sequence[str]) -> list[tuple[list[int], list[float]]]:
        assert len(languages) == len(texts)
        return [(e.indices.tolist(), e.values.tolist()) for e in model.embed(list(texts))]

    return run


def chunks(texts: list[str]) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "chunk_id": [f"doc.md#{i}" for i in range(len(texts))],
            "text": texts,
            "sha256": [hashlib.sha256(t.encode()).hexdigest() for t in texts],
            "language": ["en"] * len(texts),
        }
    )


TEXTS = [
    "Employees receive 25 days of paid vacation per year.",
    "The RX-200 robot arm reaches 1,100 mm.",
    "Expense claims must be submitted within 30 days.",
    "Tighten the base bolts to 45 Nm.",
]


def test_offline_model_files_are_assembled(
    models_dir: Path, dense_model: TextEmbedding, sparse_model: SparseTextEmbedding
) -> None:
    folder = models_dir / "all-MiniLM-L6-v2-int8"
    assert (folder / "model.onnx").is_file()
    assert (folder / "tokenizer.json").is_file()
    assert dense_dimension(dense_model) == OFFLINE_MODEL_DIM == 384
    assert (models_dir / "bm25" / "english.txt").is_file()


def test_embed_adds_dense_and_sparse_columns(
    tmp_path: Path, dense_model: TextEmbedding, sparse_model: SparseTextEmbedding
) -> None:
    embedder = Embedder(dense_model)
    cache = VectorCache(tmp_path / "cache.sqlite")
    frame, embedded = embed_chunks(chunks(TEXTS), OFFLINE_MODEL, embedder, sparse_fn(sparse_model), cache)
    assert embedded == 4
    assert frame.columns == [
        "chunk_id", "text", "sha256", "language", "dense",
        "sparse_indices", "sparse_values", "ids_indices", "ids_values",
    ]  # fmt: skip
    assert frame.schema["dense"] == pl.List(pl.Float32)
    assert frame.schema["sparse_indices"] == pl.List(pl.Int64)
    assert frame.schema["sparse_values"] == pl.List(pl.Float32)
    for row in frame.iter_rows(named=True):
        assert len(row["dense"]) == 384
        assert np.linalg.norm(row["dense"]) == pytest.approx(1.0, abs=1e-3)
        assert len(row["sparse_indices"]) == len(row["sparse_values"]) > 0
    # The vectors mean something: a question about vacation is closest to the vacation chunk.
    vectors = np.array(frame["dense"].to_list())
    [question] = dense_model.embed(["How many vacation days do I get?"])
    assert int(np.argmax(vectors @ question)) == 0
    cache.close()


def test_second_call_is_a_cache_hit(
    tmp_path: Path, dense_model: TextEmbedding, sparse_model: SparseTextEmbedding
) -> None:
    cache = VectorCache(tmp_path / "cache.sqlite")
    first, n_first = embed_chunks(chunks(TEXTS), OFFLINE_MODEL, Embedder(dense_model), sparse_fn(sparse_model), cache)
    embedder = Embedder(dense_model)
    second, n_second = embed_chunks(chunks(TEXTS), OFFLINE_MODEL, embedder, sparse_fn(sparse_model), cache)
    assert (n_first, n_second) == (4, 0)
    assert embedder.calls == []
    assert second["dense"].to_list() == first["dense"].to_list()
    assert second["sparse_indices"].to_list() == first["sparse_indices"].to_list()
    # One new text: only it is embedded.
    embedder = Embedder(dense_model)
    _, n_third = embed_chunks(
        chunks([*TEXTS, "A brand new sentence."]), OFFLINE_MODEL, embedder, sparse_fn(sparse_model), cache
    )
    assert n_third == 1
    assert embedder.embedded == ["A brand new sentence."]
    # Another model name does not see these vectors.
    _, n_other = embed_chunks(chunks(TEXTS), "other-model", Embedder(dense_model), sparse_fn(sparse_model), cache)
    assert n_other == 4
    cache.close()


def test_duplicate_texts_are_embedded_once(
    tmp_path: Path, dense_model: TextEmbedding, sparse_model: SparseTextEmbedding
) -> None:
    texts = [TEXTS[0], TEXTS[1], TEXTS[0], TEXTS[0], TEXTS[1]]
    embedder = Embedder(dense_model)
    frame, embedded = embed_chunks(
        chunks(texts), OFFLINE_MODEL, embedder, sparse_fn(sparse_model), VectorCache(tmp_path / "c.sqlite")
    )
    assert embedded == 2
    assert sorted(embedder.embedded) == sorted([TEXTS[0], TEXTS[1]])
    assert frame.height == 5
    dense = frame["dense"].to_list()
    assert dense[0] == dense[2] == dense[3]
    assert dense[1] == dense[4]
    assert dense[0] != dense[1]


def test_texts_are_embedded_shortest_first_in_batches_with_progress(
    tmp_path: Path, dense_model: TextEmbedding, sparse_model: SparseTextEmbedding
) -> None:
    embedder = Embedder(dense_model)
    seen: list[tuple[int, int]] = []
    _, embedded = embed_chunks(
        chunks(TEXTS),
        OFFLINE_MODEL,
        embedder,
        sparse_fn(sparse_model),
        VectorCache(tmp_path / "c.sqlite"),
        batch_size=3,
        progress=lambda done, total: seen.append((done, total)),
    )
    assert embedded == 4
    assert [len(call) for call in embedder.calls] == [3, 1]
    assert embedder.embedded == sorted(TEXTS, key=len)
    assert seen == [(3, 4), (4, 4)]


def test_identifier_vectors_are_added_per_chunk(dense_model, sparse_model, tmp_path: Path) -> None:
    cache = VectorCache(tmp_path / "v.sqlite")
    frame, _ = embed_chunks(chunks(TEXTS), OFFLINE_MODEL, Embedder(dense_model), sparse_fn(sparse_model), cache)
    rx = frame.filter(pl.col("text").str.contains("RX-200")).row(0, named=True)
    assert len(rx["ids_indices"]) == 1 and rx["ids_values"] == [1.0]  # "rx-200" (1,100 is not an identifier)
    cache.close()


def test_table_rows_are_embedded_as_records_under_their_header() -> None:
    text = "Fees by zone.\n\nzone | hourly_rate_eur\n|---|---|\nA | 3.00\nB | \n\nMore prose.\n\nx | y\n1 | 2"
    assert table_records("Fees", text).split("\n") == [
        "Fees by zone.", "", "zone | hourly_rate_eur", "|---|---|", "zone: A; hourly rate eur: 3.00", "zone: B",
        "", "More prose.", "", "x | y", "x: 1; y: 2",
    ]  # fmt: skip
    # a chunk cut from inside a table: the chunker put the header on the context's last line
    assert table_records("Servers\nhostname | os", "bsl-db-03 | RHEL 9.2") == "hostname: bsl-db-03; os: RHEL 9.2"
    assert table_records("Fees | Marrenfeld", "A | 3.00") == "A | 3.00"  # a title with a bar is no header
    assert embedded_text("Servers\nhostname | os", "bsl-db-03 | RHEL 9.2") == (
        "Servers\nhostname | os\n\nhostname: bsl-db-03; os: RHEL 9.2"
    )
