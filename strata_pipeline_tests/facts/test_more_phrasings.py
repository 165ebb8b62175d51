"""Phrasings read by general rules over a real sidecar: shares, the group with the most or the highest,
distinct values, negated values and date ranges (en, de, fr). And what is refused rather than guessed."""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path

import pytest

from strata_pipeline.enrichment.sidecar import connect, write_documents, write_fact_tables
from strata_pipeline.facts import Intent, IntentRefused, execute, load_catalogue, parse
from strata_pipeline.facts.intent import Filter
from strata_pipeline.facts.parse import operation_of
from strata_pipeline.facts.phrasing import share_split
from strata_pipeline.routing.route import route
from strata_pipeline_tests.facts.sidecars import EVERYONE, run, write_sidecar

ROTA = [  # weeks of an on-call rota: ISO dates are text that orders as dates
    {"week_start": "2025-03-03", "site": "ZRH"},
    {"week_start": "2025-04-28", "site": "BSL"},
    {"week_start": "2025-06-02", "site": "ZRH"},
    {"week_start": "2025-12-29", "site": "LYO"},
]


@pytest.fixture(scope="module")
def sidecars(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("phrasings")
    rota = root / "rota.sqlite"
    with closing(connect(rota)) as db:
        write_documents(db, [{"doc_id": "it/rota.csv", "source_set": "rota", "project": "it", "extension": ".csv",
                              "title": "rota", "category": "it", "language": "en", "groups": ["it"],
                              "decision": "include", "status": "ok"}])  # fmt: skip
        write_fact_tables(db, "it/rota.csv", json.dumps({"rota": ROTA}))
    return {"ops": write_sidecar(root / "sidecar.sqlite"), "rota": rota}


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # share: a percentage of all rows, or of the rows named before the verb
        ("What share of the servers are active?", 60),
        ("What percentage of the servers in ZRH are active?", 100),
        ("Anteil der Server in BSL?", 40),
        ("Quelle proportion des serveurs sont en LYO ?", 20),
        # the group with the most rows, or the highest total of a measure (ties: all of them)
        ("Which site has the most servers?", ["BSL", "ZRH"]),
        ("Which warehouse holds the most on hand stock?", ["PDX"]),
        ("Which SKU has the highest price?", ["RX-3"]),
        # the n best, best first
        ("Which are the two cheapest SKUs?", ["RX-9", "RX-1"]),
        ("What are the 2 most expensive SKUs?", ["RX-3", "RX-1"]),
        ("Which site has the fewest servers?", ["LYO"]),
        ("Welcher Standort hat die meisten Server?", ["BSL", "ZRH"]),
        # distinct values of a named column
        ("List the distinct sites of the servers.", ["BSL", "LYO", "ZRH"]),
        # a value negated
        ("How many servers are not in ZRH?", 3),
        ("Wie viele Server sind nicht in BSL?", 3),
        ("Combien de serveurs ne sont pas sur le site LYO ?", 4),
        ("How many servers are in a site other than ZRH?", 3),
        # date ranges over ISO dates
        ("How many rota entries have a week start since 2025-06-01?", 2),
        ("How many rota entries have a week start before 2025-05?", 2),
        ("How many rota entries have a week start until 2025-04?", 2),
        ("Wie viele Rota-Einträge haben einen week start nach 2025-06-02?", 1),
        ("Combien de rota entrées avec un week start depuis 2025-04-28 ?", 3),
    ],
)
def test_new_phrasings_give_exact_values(question: str, value: object, sidecars: dict[str, Path]) -> None:
    result = run(question, sidecars)
    assert result.value == value, result.intent
    assert not result.abstained


def test_a_share_states_the_percentage_and_the_rows_it_is_of(sidecars: dict[str, Path]) -> None:
    result = run("What percentage of the servers in BSL are on standby?", sidecars)
    assert result.value == 50
    assert result.intent.base == (Filter("site", "eq", "BSL"),)
    assert result.intent.filters == (Filter("status", "eq", "standby"),)
    assert (
        result.answer.startswith("The answer is 50% (share servers") and "among rows where site = BSL" in result.answer
    )


def test_share_split_uses_the_first_verb_after_the_share_word() -> None:
    site, status = Filter("site", "eq", "ZRH"), Filter("status", "eq", "active")
    assert share_split("what share of the servers in zrh are active?", [site, status]) == ([site], [status])
    assert share_split("anteil der server in zrh", [site]) == ([], [site])  # no verb: a share of all rows


@pytest.mark.parametrize(
    ("question", "why"),
    [
        # ("how many sites have more than 1 servers", a count of groups, is read: test_group_counts_and_keys.py)
        ("Which SKU has the lowest average on hand stock?", "average per group"),
        ("What share of the servers?", "names no condition"),
    ],
)
def test_phrasings_that_cannot_be_read_in_full_are_refused(question: str, why: str, sidecars: dict[str, Path]) -> None:
    catalogue = load_catalogue(sidecars, EVERYONE)
    parsed = parse(question, catalogue)
    assert parsed.intent is None
    assert any(why in e for e in parsed.evidence), parsed.evidence
    assert route(question, catalogue)[0].route == "semantic"


def test_the_highest_figure_is_a_max_unless_a_name_is_asked_for(sidecars: dict[str, Path]) -> None:
    assert run("What is the highest price?", sidecars).value == 250
    assert run("Which SKU has the highest price?", sidecars).value == ["RX-3"]


@pytest.mark.parametrize(
    ("intent", "message"),
    [
        ({"operation": "share", "table": "T"}, "needs filters"),
        ({"operation": "argmax", "table": "T"}, "group_by"),
        ({"operation": "count", "table": "T", "base": [{"column": "site", "value": "ZRH"}]}, "belongs to a share"),
        ({"operation": "count", "table": "T", "filters": [{"column": "cores", "op": "in", "value": ["4"]}]}, "numbers"),
        ({"operation": "count", "table": "T", "filters": [{"column": "site", "op": "gt", "value": "2025"}]}, "text"),
        ({"operation": "count", "table": "T", "filters": [{"column": "site", "op": "in", "value": []}]}, "non-empty"),
    ],
)
def test_bad_new_intents_are_refused(intent: dict, message: str, sidecars: dict[str, Path]) -> None:
    catalogue = load_catalogue(sidecars, EVERYONE)
    servers = next(t.name for t in catalogue.tables if t.sheet == "servers")
    with pytest.raises(IntentRefused, match=message):
        execute(Intent.from_dict(intent | {"table": servers}), catalogue, sidecars, EVERYONE)


def test_an_in_filter_counts_the_listed_values_only(sidecars: dict[str, Path]) -> None:
    catalogue = load_catalogue(sidecars, EVERYONE)
    servers = next(t.name for t in catalogue.tables if t.sheet == "servers")
    intent = Intent.from_dict(
        {
            "operation": "list",
            "table": servers,
            "filters": [{"column": "hostname", "op": "in", "value": ["ZRH-DB-01", "lyo-fs-01", "nope"]}],
        }
    )
    result = execute(intent, catalogue, sidecars, EVERYONE)
    assert result.value == ["zrh-db-01", "lyo-fs-01"]
    assert "hostname in (ZRH-DB-01, lyo-fs-01, nope)" in result.answer


@pytest.mark.parametrize(
    "question",
    ["What percentage discount applies to RX-1 orders?", "Wie viel Prozent Rabatt gibt es auf RX-1?"],
)
def test_a_percentage_a_document_states_is_no_share_of_rows(question: str, sidecars: dict[str, Path]) -> None:
    parsed = parse(question, load_catalogue(sidecars, EVERYONE))
    assert parsed.operation != "share" and (parsed.intent is None or parsed.intent.operation != "share")


def test_a_count_of_groups_is_read(sidecars: dict[str, Path]) -> None:
    # servers per site: ZRH 2, BSL 2, LYO 1
    result = run("How many sites have more than 1 servers?", sidecars)
    assert (result.value, result.intent.count_groups) == (2, True)
    assert "BSL: 2; ZRH: 2" in result.answer


@pytest.mark.parametrize(
    ("question", "operation"),
    [
        ("What is the cost centre number of the Lyon sales office?", ""),
        ("What is the phone number of the depot in Basel?", ""),
        ("Number of servers per site", "count"),
        ("Give me the number of printers in ZRH", "count"),
        ("What is the number of VLANs?", "count"),
        ("How many printers are there?", "count"),
        ("Which machine was serviced longest ago?", "min"),  # the earliest date, though "longest" alone is max
        ("Quelle machine a eu sa maintenance il y a le plus longtemps ?", "min"),
        ("Which course is the longest?", "max"),
    ],
)
def test_a_number_a_row_holds_is_no_count_and_longest_ago_is_a_minimum(question: str, operation: str) -> None:
    # "the cost centre number of X" names a number the row holds; only "the number of X" counts rows. The
    # operation words agree with the extremes (phrasing.EXTREMES) on "longest ago"
    assert operation_of(question) == operation
