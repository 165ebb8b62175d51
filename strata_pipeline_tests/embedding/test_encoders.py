"""The offline MiniLM and BM25 queries run without importing fastembed and give fastembed's vectors to
the last bit: the dense encoder is compared with fastembed's model, and BM25's tokeniser and, with the
additions of embedding/analysis.py (compounds, elision) switched off, its query terms in every analysed
language with fastembed's Bm25."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
import yaml

from strata_pipeline.embedding.analysis import query_vector, tokens
from strata_pipeline.embedding.encoders import DenseEncoder
from strata_pipeline.embedding.models import (
    BM25_LANGUAGES,
    OFFLINE_MODEL,
    load_analyzer,
    load_dense_model,
    load_sparse_model,
    prepare_bm25_stopwords,
    prepare_offline_model,
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


def test_bm25_tokens_are_fastembeds() -> None:
    from fastembed.common.utils import remove_non_alphanumeric
    from fastembed.sparse.utils.tokenizer import SimpleTokenizer

    for text in [*questions(), *ODD, *documents()]:
        assert tokens(text) == SimpleTokenizer.tokenize(remove_non_alphanumeric(text)), text


@pytest.mark.parametrize("code", sorted(BM25_LANGUAGES))
def test_bm25_queries_match_fastembed_term_for_term(models_dir: Path, code: str) -> None:
    """analysis.py with fastembed's own stop words and no compound splitting: fastembed's query terms."""
    theirs = load_sparse_model("Qdrant/bm25", models_dir, code)
    with open(prepare_bm25_stopwords(models_dir) / f"{BM25_LANGUAGES[code]}.txt") as handle:  # as fastembed reads it
        stopwords = frozenset(handle.read().splitlines())
    ours = dataclasses.replace(load_analyzer(code, models_dir), stopwords=stopwords, split=None)
    for text in [*questions(), *ODD, *documents()[:10]]:
        expected = next(iter(theirs.query_embed(text)))
        indices, values = query_vector(text, [ours])
        assert sorted(indices) == sorted(expected.indices.tolist()), text
        assert values == expected.values.tolist(), text
