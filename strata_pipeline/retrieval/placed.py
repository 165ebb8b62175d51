"""Source documents first: a question answered from known documents (routing/sources.py) shows them
ahead of the fused ranking, each hit recording why (`Candidate.placed`).

Each source document's best chunk moves to the head, in the fusion's order; a source the fusion did not
return comes after those, by its first chunk (the caller fetches it). Other chunks of a source keep
their place, so a long table does not fill the results, and every other hit keeps its order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from strata_pipeline.indexing.engine import Where
from strata_pipeline.retrieval.candidate import Candidate

MAX_PLACED = 10  # at most this many source documents go first (a metadata filter may pick hundreds)
DocKey = tuple[str, str]  # (source-set, doc_id)


def doc_key(candidate: Candidate) -> DocKey:
    return candidate.payload.get("source_set", ""), candidate.doc_id


def admitted_by(payload: dict, where: Where | None) -> bool:
    """Whether a payload passes an index payload filter as the engine applies it: each field holds the
    value, or one of the values (a list field such as `groups`: any of its items)."""
    for key, wanted in (where or {}).items():
        held = payload.get(key)
        held_values = held if isinstance(held, list) else [held]
        wanted_values = wanted if isinstance(wanted, list) else [wanted]
        if not {str(v) for v in held_values if v is not None} & {str(v) for v in wanted_values}:
            return False
    return True


def absent_sources(ranked: Sequence[Candidate], documents: Sequence[DocKey], most: int = MAX_PLACED) -> list[DocKey]:
    """The source documents, in their order, that `ranked` lacks and that still fit among the first `most`."""
    present = {doc_key(c) for c in ranked} & set(documents)
    room = max(0, most - len(present))
    return [d for d in dict.fromkeys(documents) if d not in present][:room]


def sources_first(
    ranked: list[Candidate],
    documents: Sequence[DocKey],
    reason: str,
    fetched: Sequence[Candidate] = (),
    most: int = MAX_PLACED,
) -> list[Candidate]:
    """`ranked` with the best chunk of each of `documents` first (fusion order), then `fetched` (chunks
    of sources it lacked), at most `most` in all; each placed hit records `reason`."""
    wanted = set(documents)
    heads: dict[DocKey, Candidate] = {}
    for cand in (*ranked, *fetched):
        key = doc_key(cand)
        if key in wanted and key not in heads and len(heads) < most:
            heads[key] = cand
    if not heads:
        return ranked
    moved = {c.point_id for c in heads.values()}
    placed = [dataclasses.replace(c, placed=reason) for c in heads.values()]
    return placed + [c for c in ranked if c.point_id not in moved]
