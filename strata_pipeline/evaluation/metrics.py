"""Document-level ranking metrics. Chunks are collapsed to their documents first, best rank kept."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence


def dedupe_docs(doc_ids: Sequence[str]) -> list[str]:
    """Ranked chunk doc ids -> ranked distinct documents."""
    seen: dict[str, None] = {}
    for doc_id in doc_ids:
        seen.setdefault(doc_id, None)
    return list(seen)


def relevant_count(ranked: Sequence[str], is_relevant: Callable[[str], bool], k: int) -> int:
    return sum(1 for doc in ranked[:k] if is_relevant(doc))


def recall_at_k(ranked: Sequence[str], is_relevant: Callable[[str], bool], total_relevant: int, k: int) -> float:
    if total_relevant == 0:
        return 0.0
    return min(relevant_count(ranked, is_relevant, k), total_relevant) / total_relevant


def precision_at_k(ranked: Sequence[str], is_relevant: Callable[[str], bool], k: int) -> float:
    return relevant_count(ranked, is_relevant, k) / k if k else 0.0


def reciprocal_rank(ranked: Sequence[str], is_relevant: Callable[[str], bool], k: int) -> float:
    for rank, doc in enumerate(ranked[:k], start=1):
        if is_relevant(doc):
            return 1.0 / rank
    return 0.0


def ndcg_at_k(ranked: Sequence[str], is_relevant: Callable[[str], bool], total_relevant: int, k: int) -> float:
    dcg = sum(1.0 / math.log2(rank + 1) for rank, doc in enumerate(ranked[:k], start=1) if is_relevant(doc))
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(total_relevant, k) + 1))
    return dcg / ideal if ideal else 0.0
