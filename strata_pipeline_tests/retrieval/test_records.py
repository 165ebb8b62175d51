"""A table row keyed by an identifier the query names comes right after the fusion's first choice."""

from strata_pipeline.retrieval.candidate import Candidate
from strata_pipeline.retrieval.priors import history_of
from strata_pipeline.retrieval.records import records_of, records_second, row_key


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
