"""Fusion across languages, for a dense model that reads several languages.

Two lists meet in the fusion, and across languages neither is fair to a chunk that is not in the
query's language:

- BM25 matches it only for the words the two languages share (names, codes), so its absence from
  the BM25 list, or a low place there, is no evidence against it. Reciprocal-rank fusion reads the
  absence as evidence all the same: a German chunk first in the dense list of an English question
  scores less than an English chunk twentieth in both. Such a chunk takes its dense place in the
  lexical list when that is better (`places`).
- A multilingual dense model scores a passage in the query's language higher than an equally
  relevant one in another language. The dense list is re-sorted with a small offset added to the
  other-language chunks' cosines (`calibrated`); the offset is the model's, chosen on dev questions.

Off (no `QueryLanguage`) for English-only models such as MiniLM, whose cosines across languages
mean little, and for queries too short for their language to be told.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from strata_pipeline.embedding.multilingual import MULTILINGUAL_MODEL
from strata_pipeline.indexing.engine import DENSE, SPARSE
from strata_pipeline.retrieval.candidate import Candidate

# The cosine gap one model leaves between languages. multilingual-e5-small, on the dev questions of
# every golden set (hybrid MRR@10): 0.930 with no offset, 0.932 with 0.01 and 0.02, 0.923 with 0.03.
OFFSETS = {MULTILINGUAL_MODEL: 0.01}


@dataclass(frozen=True)
class QueryLanguage:
    """The query's language (ISO 639-1) and the model's cosine offset for chunks in other languages."""

    code: str
    offset: float = 0.0


def cross_language_offset(model: str) -> float | None:
    """The offset of a dense model that reads across languages, None for any other."""
    return OFFSETS.get(model)


def query_language_for(code: str, offset: float | None) -> QueryLanguage | None:
    """What fusion needs to know about a query's language; None when it is not known or the model
    is not multilingual."""
    return QueryLanguage(code, offset) if code and offset is not None else None


def in_other_language(cand: Candidate, language: QueryLanguage) -> bool:
    """Whether the chunk is in another language than the query (a chunk that does not say is not)."""
    return (cand.payload.get("language") or language.code) != language.code


def calibrated(candidates: list[Candidate], language: QueryLanguage) -> list[Candidate]:
    """The candidates with dense ranks recomputed after adding the offset to the cosine of every chunk
    in another language than the query's. Ties keep their dense order."""
    if language.offset <= 0:
        return candidates

    def score(c: Candidate) -> float:
        return c.scores[DENSE] + (language.offset if in_other_language(c, language) else 0.0)

    in_dense = sorted((c for c in candidates if DENSE in c.scores), key=lambda c: (-score(c), c.ranks.get(DENSE, 0)))
    place = {c.point_id: rank for rank, c in enumerate(in_dense, start=1)}
    return [
        dataclasses.replace(c, ranks=c.ranks | {DENSE: place[c.point_id]}) if c.point_id in place else c
        for c in candidates
    ]


def places(cand: Candidate, lists: tuple[str, ...], language: QueryLanguage | None = None) -> dict[str, int]:
    """A candidate's rank in each of `lists`; a chunk in another language than the query's takes its
    dense place in BM25 when that is better, or when BM25 did not return it."""
    ranks = {name: rank for name, rank in cand.ranks.items() if name in lists}
    if language is not None and DENSE in ranks and SPARSE in lists and in_other_language(cand, language):
        ranks[SPARSE] = min(ranks.get(SPARSE, ranks[DENSE]), ranks[DENSE])
    return ranks
