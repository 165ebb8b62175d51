""" "How many bays does Depot 7 have" reads the number in the bays column; "how many depots" counts rows;
over a real sidecar."""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path

import pytest

from strata_pipeline.enrichment.sidecar import connect, write_documents, write_fact_tables
from strata_pipeline.facts import execute, load_catalogue, parse
from strata_pipeline.facts.catalogue import Column, Table
from strata_pipeline.facts.qualities import counted_quantity, unread_quality

DEPOTS = [
    {"depot": "Depot 1", "server_id": 101, "bays": 4, "rate": 1.5},
    {"depot": "Depot 7", "server_id": 107, "bays": 7, "rate": 10.5},
    {"depot": "Depot 9", "server_id": 109, "bays": 12, "rate": 3.0},
]
EVERYONE = frozenset({"ops"})
TABLE = Table(
    "facts_d", "ops", "d.csv", "depots",
    (Column("depot", "text", ("Depot 1",)), Column("server_id", "number"), Column("bays", "number")), 3,
)  # fmt: skip


@pytest.fixture(scope="module")
def sidecars(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    path = tmp_path_factory.mktemp("counted") / "ops.sqlite"
    doc = {"doc_id": "sheets/depots.csv", "source_set": "ops", "project": "sheets", "extension": ".csv",
           "title": "depots", "category": "sheets", "language": "en", "groups": ["ops"], "decision": "include",
           "status": "ok"}  # fmt: skip
    with closing(connect(path)) as db:
        write_documents(db, [doc])
        write_fact_tables(db, "sheets/depots.csv", json.dumps({"depots": DEPOTS}))
    return {"ops": path}


def test_the_counted_noun_that_heads_a_number_column_names_that_column() -> None:
    assert counted_quantity("How many bays does Depot 7 have?", TABLE) == "bays"
    assert counted_quantity("Wie viele bays hat Depot 7?", TABLE) == "bays"
    assert counted_quantity("How many servers are there?", TABLE) == ""  # server_id's head is "id"
    assert counted_quantity("How many depots are there?", TABLE) == ""
    assert counted_quantity("What is the rate of Depot 7?", TABLE) == ""


def test_things_said_to_be_what_a_number_column_is_named_read_that_column() -> None:
    stock = Table(
        "facts_s", "ops", "inventory.xlsx", "stock",
        (Column("sku", "text", ("RX300-AMR",)), Column("on_hand", "number"), Column("reserved", "number")), 4,
    )  # fmt: skip
    assert counted_quantity("How many RX300-AMR units are on hand?", stock) == "on_hand"
    assert counted_quantity("How many units are currently reserved?", stock) == "reserved"
    assert counted_quantity("How many SKUs are there?", stock) == ""


@pytest.mark.parametrize(
    "question",
    ["What is the number of bays at Depot 7?", "How many of the bays has Depot 7?", "Combien de bays a Depot 7 ?"],
)
def test_the_counted_noun_is_read_as_the_parser_reads_it(question: str) -> None:
    # the parser's COUNTED wording (facts/intent_words.py): "number of", articles after the count word
    assert counted_quantity(question, TABLE) == "bays"


@pytest.mark.parametrize(
    ("question", "operation", "value"),
    [
        ("How many bays does Depot 7 have?", "sum", 7),
        ("How many bays do the depots have in total?", "sum", 23),
        ("How many depots are there?", "count", 3),
        ("How many depots have more than 5 bays?", "count", 2),
    ],
)
def test_a_count_of_a_quantity_reads_the_column_and_a_count_of_rows_counts(
    sidecars: dict[str, Path], question: str, operation: str, value: int
) -> None:
    catalogue = load_catalogue(sidecars, EVERYONE)
    parsed = parse(question, catalogue)
    assert parsed.intent is not None, parsed
    assert parsed.intent.operation == operation
    assert execute(parsed.intent, catalogue, sidecars, EVERYONE).value == value


def test_a_preposition_after_have_is_no_quality_of_the_rows() -> None:
    assert unread_quality("How many bays do the depots have in total?", TABLE) == ""
    assert unread_quality("How many depots have air conditioning?", TABLE) == "air"


def test_a_pronoun_after_have_is_the_subject_not_a_quality() -> None:
    assert unread_quality("Welche Zahlungsbedingungen haben wir vereinbart?", TABLE) == ""
    assert unread_quality("Quels tarifs avons-nous avec eux ?", TABLE) == ""
