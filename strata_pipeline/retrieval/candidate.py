"""A retrieved chunk with its rank and score in every list: the type that search, priors, reranking,
answering and the API share. It lives apart so that those modules import it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from strata_pipeline.indexing.engine import DENSE, IDS, SPARSE


@dataclass
class Candidate:
    point_id: str
    payload: dict
    ranks: dict[str, int] = field(default_factory=dict)  # list name -> 1-based rank in that list
    scores: dict[str, float] = field(default_factory=dict)  # list name -> that list's score
    fused_score: float = 0.0  # RRF score in hybrid mode, else the single list's score
    prior: float = 1.0  # the document's ranking prior applied to fused_score (see retrieval/priors.py)
    partial: bool = False  # the payload holds only RANK_FIELDS (see complete_payloads)
    placed: str = ""  # why a rule put it ahead of the fused order (retrieval/placed.py), "" when none did

    @property
    def dense_rank(self) -> int | None:
        return self.ranks.get(DENSE)

    @property
    def sparse_rank(self) -> int | None:
        return self.ranks.get(SPARSE)

    @property
    def identifier_rank(self) -> int | None:
        return self.ranks.get(IDS)

    @property
    def dense_score(self) -> float | None:
        return self.scores.get(DENSE)

    @property
    def sparse_score(self) -> float | None:
        return self.scores.get(SPARSE)

    @property
    def chunk_id(self) -> str:
        return self.payload.get("chunk_id", "")

    @property
    def doc_id(self) -> str:
        return self.payload.get("doc_id", "")
