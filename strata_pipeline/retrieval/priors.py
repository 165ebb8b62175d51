"""Ranking priors applied at query time.

Classification records a prior per document (`rank_weight`, from the `ranking:` rules): archived
versions that a current twin supersedes count less, say. Here a candidate's score is multiplied
by its prior and the list re-sorted. A superseded document keeps full weight when the query asks
about earlier versions: "the old policy" should find the old policy.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from strata_pipeline.retrieval.search import Candidate

# Words that ask about an earlier state, in the languages BM25 analyses (en, de, fr, es, it, pt, nl).
HISTORY_WORDS = (
    r"old|older|previous(ly)?|prior|former(ly)?|earlier|archived?|deprecated|superseded|obsolete|legacy"
    r"|outdated|used to|no longer|before the (current|new)"
    r"|alte[nmrs]?|früher\w*|vorherige\w*|veraltet\w*|archiviert\w*|ehemalige\w*|bisherige\w*"
    r"|ancien(ne)?s?|précédente?s?|archivée?s?|obsolètes?|auparavant|autrefois"
    r"|anterior(es)?|antigu[oa]s?|obsolet[oa]s?|precedente|vecchi[oa]|oud(e|ere)?|vorige"
)
_HISTORY = re.compile(rf"\b({HISTORY_WORDS})\b", re.IGNORECASE)


def asks_about_history(query: str) -> bool:
    """Whether the query asks about an earlier version ("the old policy", "vor der Änderung")."""
    return _HISTORY.search(query) is not None


def prior_of(payload: dict, historical: bool) -> float:
    """The multiplier for one chunk: its document's weight, or 1 for a superseded document when the
    query asks about history. Points indexed before priors existed count 1."""
    if historical and payload.get("superseded"):
        return 1.0
    weight = payload.get("rank_weight")
    return float(weight) if weight else 1.0


def weighted(score: float, prior: float) -> float:
    """`score` scaled by the prior in the right direction, also for a negative (cosine) score."""
    return score * prior if score >= 0 else score / prior


def apply_priors(ranked: list[Candidate], historical: bool) -> list[Candidate]:
    """The candidates re-sorted by prior-weighted score; equal scores keep their order (Qdrant's)."""
    with_priors = [dataclasses.replace(c, prior=prior_of(c.payload, historical)) for c in ranked]
    if all(c.prior == 1.0 for c in with_priors):
        return with_priors
    return sorted(with_priors, key=lambda c: -weighted(c.fused_score, c.prior))
