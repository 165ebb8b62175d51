"""A routed question's facts sources go first: each source's best chunk in fused order, then sources the
fusion missed, each placed hit saying why; every other hit keeps its order."""

from strata_pipeline.retrieval.candidate import Candidate
from strata_pipeline.retrieval.placed import absent_sources, admitted_by, sources_first

WHY = "facts source (aggregation route: count printers where status = repair): the table it reads"


def cand(point_id: str, doc_id: str, source_set: str = "ops") -> Candidate:
    return Candidate(point_id, {"doc_id": doc_id, "source_set": source_set})


RANKED = [
    cand("a", "kb/printer-queue.md"),
    cand("b", "sites/printers-basel.md"),
    cand("t1", "inventory/printers.csv"),
    cand("c", "sites/printers-zurich.md"),
    cand("t2", "inventory/printers.csv"),
]


def test_the_best_chunk_of_the_source_goes_first_and_records_why() -> None:
    placed = sources_first(RANKED, [("ops", "inventory/printers.csv")], WHY)
    assert [c.point_id for c in placed] == ["t1", "a", "b", "c", "t2"]  # its second chunk keeps its place
    assert placed[0].placed == WHY
    assert [c.placed for c in placed[1:]] == ["", "", "", ""]
    assert RANKED[2].placed == ""  # the caller's candidates are not changed


def test_several_sources_keep_the_fusions_order_then_fetched_ones_follow() -> None:
    sources = [("ops", "inventory/printers.csv"), ("ops", "sites/printers-zurich.md"), ("ops", "net/vlans.csv")]
    fetched = [cand("v0", "net/vlans.csv")]
    placed = sources_first(RANKED, sources, WHY, fetched)
    assert [c.point_id for c in placed] == ["t1", "c", "v0", "a", "b", "t2"]
    assert [bool(c.placed) for c in placed] == [True, True, True, False, False, False]


def test_at_most_a_few_sources_are_placed() -> None:
    sources = [("ops", d) for d in ("sites/printers-zurich.md", "kb/printer-queue.md", "inventory/printers.csv")]
    placed = sources_first(RANKED, sources, WHY, most=2)
    assert [c.point_id for c in placed] == ["a", "t1", "b", "c", "t2"]


def test_no_source_in_reach_leaves_the_ranking_as_it_is() -> None:
    assert sources_first(RANKED, [], WHY) is RANKED
    assert sources_first(RANKED, [("ops", "other/table.csv")], WHY) is RANKED
    # a document of the same name in another source-set is another document
    assert sources_first(RANKED, [("hr", "inventory/printers.csv")], WHY) is RANKED


def test_absent_sources_are_those_missing_that_still_fit() -> None:
    sources = [("ops", "inventory/printers.csv"), ("ops", "x.csv"), ("ops", "y.csv"), ("ops", "x.csv")]
    assert absent_sources(RANKED, sources) == [("ops", "x.csv"), ("ops", "y.csv")]
    assert absent_sources(RANKED, sources, most=2) == [("ops", "x.csv")]  # one place is the present source's
    assert absent_sources(RANKED, sources, most=1) == []


def test_a_fetched_source_passes_the_payload_filter_as_the_engine_applies_it() -> None:
    payload = {"doc_id": "net/vlans.csv", "groups": ["it", "ops"]}
    assert admitted_by(payload, None) and admitted_by(payload, {})
    assert admitted_by(payload, {"groups": ["finance", "ops"]})  # any of a list field's items
    assert not admitted_by(payload, {"groups": ["finance"]})
    assert admitted_by(payload, {"doc_id": "net/vlans.csv", "groups": "it"})
    assert not admitted_by(payload, {"doc_id": ["guides/valves.md"]})
    assert not admitted_by({"doc_id": "x"}, {"groups": ["it"]})  # no groups: fails closed
