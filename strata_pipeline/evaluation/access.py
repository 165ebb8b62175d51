"""Cross-group leaks: does anything reach a caller from a document group it is not in? Must be 0.

The eval asks every golden question as a caller of each group the version holds (and as a caller of a
group no document has, who must get nothing), through the same QueryEngine.scoped the API and the CLI
use, and counts what came back from another group: hits, the passages an answer is read from, and
the sidecar documents the caller is shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from contextlib import closing
from typing import Any

from strata_pipeline.access.groups import Access
from strata_pipeline.access.sidecar import groups_by_doc, open_sidecar

PROBE_GROUP = "strata-leak-probe"  # a group no document is in: its caller must see nothing at all


def cross_group_leaks(caller: Access, returned: Iterable[Iterable[str] | None]) -> int:
    """How many returned items (each given by its document's groups) `caller` may not read."""
    return sum(1 for groups in returned if not caller.admits(groups))


def probe_callers(groups: Iterable[str]) -> list[Access]:
    """One caller per group (each also reads `public`, as every key does) and one in PROBE_GROUP only."""
    return [Access.member(g, [g]) for g in sorted(set(groups))] + [Access(PROBE_GROUP, frozenset({PROBE_GROUP}))]


def leak_probe(engine: Any, source_set: str, questions: Sequence[str], k: int) -> dict[str, int]:
    """`access/cross_group_leaks` (must be 0) and how many callers were probed, for the eval metadata."""
    with closing(open_sidecar(engine.versions[source_set].sidecar_path)) as db:
        doc_groups: Mapping[str, tuple[str, ...]] = groups_by_doc(db)
    callers = probe_callers(g for groups in doc_groups.values() for g in groups)
    leaks = 0
    for caller in callers:
        view = engine.scoped(caller)
        shown = view.visible_doc_ids(source_set)
        leaks += cross_group_leaks(caller, (doc_groups.get(d, ()) for d in shown))
        for question in questions:
            hits = view.search(question, k, [source_set])
            passages = [*hits, *view.context(hits)]
            leaks += cross_group_leaks(caller, (doc_groups.get(c.doc_id, ()) for c in passages))
    return {"access/cross_group_leaks": leaks, "access/callers_probed": len(callers)}
