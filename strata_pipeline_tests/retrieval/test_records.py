"""A table row keyed by an identifier the query names comes right after the fusion's first choice."""

from strata_pipeline.indexing.engine import DENSE, IDS
from strata_pipeline.retrieval.candidate import Candidate
from strata_pipeline.retrieval.priors import history_of
from strata_pipeline.retrieval.records import records_of, records_second, row_key
from strata_pipeline.retrieval.search import DEFAULT_WEIGHTS, RRF_K, hybrid_order


def cand(point_id: str, text: str, doc_id: str = "") -> Candidate:
    return Candidate(point_id, {"text": text, "doc_id": doc_id or f"{point_id}.md"})


def test_row_key_reads_the_first_cell_of_a_row() -> None:
    assert row_key("zrh-db-03 | ZRH | ERP PostgreSQL 16 primary | Rocky Linux 9.4") == "zrh-db-03"
    assert row_key("  E-1042 | Encoder fault") == "e-1042"


def test_prose_and_markdown_tables_are_no_records() -> None:
    assert row_key("RX-300 battery swap: park the robot at its dock") is None  # prose opening with a name
    assert row_key("| KF-5021 | Posting rejected |") is None  # a Markdown table lists codes beside prose
    assert row_key("ZRH | zrh-db-03 | active") is None  # the key is not the identifier
    assert row_key("") is None


def test_records_of_keeps_rows_keyed_by_a_named_identifier() -> None:
    pool = [
        cand("inc", "The primary zrh-db-03 ran out of disk space."),
        cand("row3", "zrh-db-03 | ZRH | primary"),
        cand("row30", "zrh-db-30 | ZRH | replica"),
    ]
    assert [c.point_id for c in records_of(pool, {"zrh-db-03"})] == ["row3"]
    assert records_of(pool, set()) == []


def test_records_come_second_and_never_displace_the_first() -> None:
    ranked = [cand("a", "incident"), cand("b", "runbook"), cand("c", "x | y"), cand("row", "h-1 | z")]
    assert [c.point_id for c in records_second(ranked, [ranked[3]])] == ["a", "row", "b", "c"]
    # a record that is already first stays first, and the order of the rest is kept
    assert [c.point_id for c in records_second(ranked, [ranked[0]])] == ["a", "b", "c", "row"]
    assert records_second(ranked, []) == ranked


def test_history_carries_the_identifiers_a_query_names() -> None:
    assert history_of("Which operating system runs on BSL-DB-03?").identifiers == frozenset({"bsl-db-03"})
    assert history_of("Which operating system runs there?").identifiers == frozenset()


def test_a_query_of_identifiers_only_is_a_lookup() -> None:
    assert history_of("zrh-db-03").lookup
    assert history_of(' "E-1042, E-1043" ').lookup
    assert not history_of("zrh-db-03 os").lookup  # a word beside it: a question about the host
    assert not history_of("Which operating system runs on bsl-db-03?").lookup
    assert not history_of("printers").lookup  # no identifier at all


def test_a_lookup_puts_the_record_first() -> None:
    ranked = [cand("inc", "zrh-db-30 replicates zrh-db-03"), cand("b", "runbook"), cand("row", "zrh-db-03 | ZRH")]
    assert [c.point_id for c in records_second(ranked, [ranked[2]], first=True)] == ["row", "inc", "b"]
    assert [c.point_id for c in records_second(ranked, [ranked[2]])] == ["inc", "row", "b"]


def test_hybrid_order_answers_a_bare_selective_identifier_with_its_record() -> None:
    def hit(point_id: str, text: str, dense: int) -> Candidate:
        c = cand(point_id, text)
        c.ranks, c.scores = {DENSE: dense, IDS: 1}, {DENSE: 0.9 - dense / 100, IDS: 1.0}
        return c

    incident = hit("inc", "The disk of zrh-db-03 filled up.", 1)
    row = hit("row", "zrh-db-03 | ZRH | ERP PostgreSQL 16 primary", 2)
    other = cand("other", "zrh-db-30 lags behind")
    other.ranks, other.scores = {DENSE: 3}, {DENSE: 0.8}
    fused = [incident, row, other]
    lookup = hybrid_order(fused, fused, RRF_K, DEFAULT_WEIGHTS, history_of("zrh-db-03"))
    assert [c.point_id for c in lookup] == ["row", "inc", "other"]
    question = hybrid_order(fused, fused, RRF_K, DEFAULT_WEIGHTS, history_of("Why did zrh-db-03 fill up?"))
    assert [c.point_id for c in question] == ["inc", "row", "other"]  # the exact chunks in fused order
