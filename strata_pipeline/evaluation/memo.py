"""What the eval remembers between index versions, so re-evaluating a slightly changed index is cheap.

The eval asks the same golden questions of every new version. Retrieval always runs against the new
version; what does not depend on the index is remembered, keyed by its exact inputs:

- the redacted question and its dense and sparse query vectors;
- the dense vectors of the sentences the extractive answerer compares with the question;
- the privacy audit of an answer text;
- ragas's offline per-question scores (evaluation/ragas_metrics.py takes the cache).

An answer whose passages did not change is therefore recomputed from remembered pieces in a few
lookups, and one whose passages changed is computed afresh. The figures are the ones a cold eval
gives. These caches hold passage-derived data (sentence vectors, audited answer text), so
`strata remove` deletes them whole; the next eval rebuilds them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from strata_pipeline.embedding.cache import VectorCache
from strata_pipeline.incremental.cache import DocumentCache, memoized
from strata_pipeline.incremental.digests import digest_of, library_versions, source_digest
from strata_pipeline.redaction.guard import Audited, PrivacyGuard

MEMO_STAGE = "eval_memo"  # DocumentCache file: <cache dir>/eval_memo.sqlite
VECTORS_FILE = "eval_vectors.sqlite"  # VectorCache of answer sentences


def query_digest(embedder: Any) -> str:
    """Everything an embedder's query vectors depend on: its models, their code and libraries."""
    return digest_of(
        [
            embedder.model,
            embedder.model_path,
            embedder.sparse_model,
            source_digest("embedding", "resources/embedder.py", "classification/language.py"),
            library_versions("fastembed", "onnxruntime", "tokenizers", "langdetect"),
        ]
    )


class MemoGuard:
    """A PrivacyGuard whose query redaction and answer audit are remembered by text. A failed audit
    raises as before (AnswerWithheld) and is not remembered."""

    def __init__(self, guard: PrivacyGuard, cache: DocumentCache, digest: str) -> None:
        self.guard = guard
        self.policy = guard.policy
        self._redact = memoized(cache, "redact_query", digest, lambda t: _pair(guard.redact_query(t)))
        self._audit = memoized(cache, "audit_answer", digest, lambda t: _pair(guard.audit_answer(t)))

    def redact_query(self, query: str) -> Audited:
        return Audited(*self._redact(query))

    def audit_answer(self, text: str) -> Audited:
        return Audited(*self._audit(text))


def _pair(audited: Audited) -> list[Any]:
    return [audited.text, audited.redactions]


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
