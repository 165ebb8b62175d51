"""A question's word for a stored value in another form (facts.values), on its own and through the
parser and the facts engine over a real sidecar; the match made is in the routing evidence."""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path

import pytest

from strata_pipeline.enrichment.sidecar import connect, write_documents, write_fact_tables
from strata_pipeline.facts import Column, Table, load_catalogue, parse
from strata_pipeline.facts.values import clippable, compact, match_values, singular, tier
from strata_pipeline_tests.facts.sidecars import run

HOSTS = [  # environments stored clipped, sites as capital codes (STG is a site, not "staging")
    {"host": "a1", "site": "ZRH", "env": "prod", "state": "in-service", "cores": 8},
    {"host": "a2", "site": "ZRH", "env": "prod", "state": "in-service", "cores": 16},
    {"host": "a3", "site": "STG", "env": "stg", "state": "on-call", "cores": 4},
    {"host": "a4", "site": "STG", "env": "dev", "state": "retired 2024-03", "cores": 2},
    {"host": "a5", "site": "BSL", "env": "dev", "state": "retired 2025-01", "cores": 2},
    {"host": "a6", "site": "BSL", "env": "nonprod", "state": "in-service", "cores": 4},
]
PARTS = [
    {"part": "P-1", "family": "arm", "list_price": 900},
    {"part": "P-2", "family": "arm", "list_price": 150},
    {"part": "P-3", "family": "base", "list_price": 70},
]
DOCS = ["guides/a.md", "guides/b.txt", "guides/c.txt", "notes/d.md", "hosts.csv", "guides/parts.csv"]


@pytest.fixture(scope="module")
def sidecars(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    path = tmp_path_factory.mktemp("forms") / "sidecar.sqlite"
    with closing(connect(path)) as db:
        write_documents(db, [{"doc_id": d, "source_set": "ops", "project": d.split("/")[0] if "/" in d else "",
                              "extension": "." + d.rsplit(".", 1)[1], "title": d, "category": "it", "language": "en",
                              "groups": ["it"], "decision": "include", "status": "ok"} for d in DOCS])  # fmt: skip
        write_fact_tables(db, "hosts.csv", json.dumps({"hosts": HOSTS}))
        write_fact_tables(db, "guides/parts.csv", json.dumps({"parts": PARTS}))
    return {"ops": path}


def test_compact_and_singular_fold_forms() -> None:
    assert [compact(t) for t in ("Non-Prod", "on call", "Straße", "Café", "wave 3")] == [
        "nonprod", "oncall", "strasse", "cafe", "wave3"]  # fmt: skip
    assert [singular(w) for w in ("entries", "repairs", "boxes", "class", "gas")] == [
        "entry", "repair", "box", "class", "gas"]  # fmt: skip


def test_tiers_same_prefix_skeleton() -> None:
    assert tier("production", "prod", True) == "prefix"
    assert tier("development", "dev", True) == "prefix"
    assert tier("staging", "stg", True) == "skeleton"
    assert tier("management", "mgmt", True) == "skeleton"
    assert tier("procedure", "prod", True) == ""  # "prod" has a vowel: no skeleton
    assert tier("production", "prod", False) == ""  # a capital code is never clipped
    assert tier("repairs", "repair", False) == "same" and tier("oncall", "oncall", False) == "same"
    assert tier("prod", "prod", True) == "same" and tier("pro", "prod", True) == ""
    assert [clippable(v) for v in ("prod", "STG", "nonprod", "p1", "decommissioned")] == [
        True, False, True, False, False]  # fmt: skip


def test_match_values_tie_rule_and_skips() -> None:
    env = Column("env", "text", ("dev", "devops", "prod"))
    table = Table("t", "s", "d.csv", "t", (env, Column("area", "text", ("deve",))), 3)
    found = match_values("servers in development", table, set(), set())
    # prefix tier for all three clips of "development": the longest value wins ("deve" over "dev")
    assert [(m.column, m.value, m.tier) for m in found] == [("area", "deve", "prefix")]
    tied = Table("t", "s", "d.csv", "t", (Column("a", "text", ("prod",)), Column("b", "text", ("prod",))), 2)
    assert match_values("in production", tied, set(), set()) == []  # the same value in two columns: which?
    assert match_values("in production", tied, {"production"}, set()) == []  # a table or column name
    assert match_values("in production", tied, set(), {"a"})[0].column == "b"  # a is filtered already
    assert match_values("how many", table, set(), set()) == []


@pytest.mark.parametrize(
    ("question", "value", "filters"),
    [
        ("How many hosts are in production?", 2, [("env", "eq", "prod")]),
        ("How many hosts are in staging?", 1, [("env", "eq", "stg")]),
        ("Number of development hosts at BSL", 1, [("site", "eq", "BSL"), ("env", "eq", "dev")]),
        ("How many hosts are not in production?", 4, [("env", "ne", "prod")]),
        ("How many non-production hosts are there?", 1, [("env", "eq", "nonprod")]),
        ("How many hosts are on call?", 1, [("state", "eq", "on-call")]),
        ("Wie viele Hosts sind in Produktion?", 2, [("env", "eq", "prod")]),
        ("How many hosts are in STG?", 2, [("site", "eq", "STG")]),  # the code as written: the site
        ("How many retired hosts are there?", 2, [("state", "in", ("retired 2024-03", "retired 2025-01"))]),
        ("How many hosts are there in total?", 6, []),  # the rows counted, not a sum
        ("How many cores in total at ZRH?", 24, [("site", "eq", "ZRH")]),  # a number column: its sum
        ("What's the smallest list price among arm parts?", 150, [("family", "eq", "arm")]),  # no "list" intent
        ("How many text files are there?", 2, [("extension", "eq", ".txt")]),
    ],
)
def test_value_forms_through_the_engine(question: str, value: int, filters: list, sidecars: dict[str, Path]) -> None:
    result = run(question, sidecars, frozenset({"it"}))
    assert [(f.column, f.op, f.value) for f in result.intent.filters] == filters
    assert result.value == value


@pytest.mark.parametrize("question", ["Number of documents per folder", "Wie viele Dokumente gibt es pro Ordner?"])
def test_documents_per_folder_group_by_the_project_facet(question: str, sidecars: dict[str, Path]) -> None:
    assert run(question, sidecars, frozenset({"it"})).value == {"": 1, "guides": 4, "notes": 1}


def test_a_head_reads_values_that_add_only_a_number_or_date() -> None:
    state = Column("state", "text", ("retired 2024-03", "retired 2025-01", "active"))
    purpose = Column("purpose", "text", ("Office wired clients", "Office Wi-Fi SSID"))
    table = Table("t", "s", "d.csv", "t", (state, purpose), 5)
    found = match_values("how many retired or office hosts", table, set(), set())
    assert [(m.column, m.value, m.tier) for m in found] == [("state", ("retired 2024-03", "retired 2025-01"), "head")]


def test_the_match_is_named_in_the_evidence(sidecars: dict[str, Path]) -> None:
    parsed = parse("How many hosts are in staging?", load_catalogue(sidecars, frozenset({"it"})))
    assert "value env='stg' read from 'staging' (skeleton)" in parsed.evidence
