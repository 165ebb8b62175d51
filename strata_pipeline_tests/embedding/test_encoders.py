"""The encoders that run the offline MiniLM and BM25 queries without importing fastembed give fastembed's
vectors to the last bit: queries are compared with what fastembed indexed and ranked."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from strata_pipeline.embedding.encoders import Bm25QueryEncoder, DenseEncoder
from strata_pipeline.embedding.models import (
    BM25_LANGUAGES,
    OFFLINE_MODEL,
    load_dense_model,
    load_sparse_model,
    prepare_bm25_stopwords,
    prepare_offline_model,
    punctuation_file,
)
from strata_pipeline.settings import PROJECT_ROOT

GOLDEN = PROJECT_ROOT / "golden"
ODD = [
    "",
    "   ",
    "E-1042",
    "NR-4471-B v3.2 4.2.1",
    "What's the 'old' policy?! (2023) -- see §4.1",
    "Wie lange dauert die Probezeit für neue Mitarbeiter?",
    "Combien de jours de congés payés ? L'ancienne politique",
    "¿Cuántas semanas de permiso parental pagado?",
    "Quante settimane di congedo parentale retribuito?",
    "Hoeveel weken betaald ouderschapsverlof?",
    "Quantas semanas de licença parental remunerada?",
    "東京の営業所の営業時間 snake_case __init__ ÄÖÜ ß Ǆ",
    "password [REDACTED_SECRET] and [PERSON_1] at [EMAIL_2]",
]


def questions() -> list[str]:
    found = []
    for path in sorted(GOLDEN.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        found += [q["question"] for q in data.get("questions", [])]
    return found


def documents() -> list[str]:
    """Sample corpus texts, several past the model's 512-token window (truncated the same way)."""
    paths = sorted(p for p in (GOLDEN / "corpus").rglob("*") if p.suffix in {".md", ".txt"})
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in paths[:40]]
    return [*texts, "\n\n".join(texts[:8]), " ".join(texts[8:12])]


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("models")


def test_dense_queries_and_batches_match_fastembed(models_dir: Path) -> None:
    theirs = load_dense_model(OFFLINE_MODEL, models_dir)
    ours = DenseEncoder(prepare_offline_model(models_dir))
    texts = [*questions(), *ODD]
    assert len(texts) > 100
    for text in texts:  # a query is a batch of one
        expected = next(iter(theirs.query_embed(text)))
        got = ours.embed([text])[0]
        assert got.dtype == expected.dtype and np.array_equal(got, expected), text
    docs = documents()
    assert max(len(d) for d in docs) > 5000
    # batches of 8 padded to their longest text, as the pipeline embeds chunks and the answerer sentences
    mixed = [*docs, *texts[:60]]
    expected = list(theirs.embed(mixed, batch_size=8))
    got = ours.embed(mixed, batch_size=8)
    assert len(got) == len(expected) and all(np.array_equal(g, e) for g, e in zip(got, expected, strict=True))


@pytest.mark.parametrize("code", sorted(BM25_LANGUAGES))
def test_bm25_queries_match_fastembed_term_for_term(models_dir: Path, code: str) -> None:
    theirs = load_sparse_model("Qdrant/bm25", models_dir, code)
    name = BM25_LANGUAGES[code]
    ours = Bm25QueryEncoder(prepare_bm25_stopwords(models_dir) / f"{name}.txt", punctuation_file(models_dir), name)
    for text in [*questions(), *ODD, *documents()[:10]]:
        expected = next(iter(theirs.query_embed(text)))
        indices, values = ours.embed(text)
        assert (indices, values) == (expected.indices.tolist(), expected.values.tolist()), text  # same order too
