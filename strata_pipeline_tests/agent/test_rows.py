"""A table row a sub-question names is answered as that row (agent/rows.py)."""

from __future__ import annotations

from strata_pipeline.agent.rows import checked_row_answer, found_row, named_row, row_answer, tables
from strata_pipeline.retrieval.candidate import Candidate

PRICE_LIST = (
    "## price-list\n"
    "sku | product | description | list_price_usd | currency\n"
    "RX200-ARM | RX-200 | RX-200 collaborative arm with NC-2 controller | 38500 | USD\n"
    "RX200-PEND-5M | RX-200 | RX Teach pendant cable, 5 m | 420 | USD\n"
    "RX300-AMR | RX-300 | RX-300 autonomous mobile robot, base unit | 54000 | USD\n"
    "RX300-DOCK | RX-300 | RX Dock charging station | 4800 | USD"
)
SCHEDULE = (
    "Patching runs from AWX.\n\n"
    "| Wave | Scope | When |\n"
    "|---|---|---|\n"
    "| Wave 1 | non-production | Thursday after Patch Tuesday, 20:00 |\n"
    "| Wave 3 | ERP database cluster | first Sunday of the next month, 06:00-10:00 |\n\n"
    "The patch wave of every server is recorded in the server inventory."
)


def passage(text: str, chunk_id: str = "sales/price-list.csv#s0", dense: float = 0.6, line: int = 1) -> Candidate:
    doc_id = chunk_id.split("#")[0]
    payload = {"chunk_id": chunk_id, "doc_id": doc_id, "source_set": "x", "text": text, "line_start": line}
    return Candidate(point_id=chunk_id, payload=payload, scores={"dense": dense})


def test_tables_are_read_with_their_header_from_sheets_and_markdown() -> None:
    (sheet,) = tables(PRICE_LIST)
    assert [r.cells[0] for r in sheet] == ["RX200-ARM", "RX200-PEND-5M", "RX300-AMR", "RX300-DOCK"]
    assert sheet[0].header == ("sku", "product", "description", "list_price_usd", "currency")
    (markdown,) = tables(SCHEDULE)
    assert [r.cells[0] for r in markdown] == ["Wave 1", "Wave 3"] and markdown[1].line_offset == 5


def test_a_row_is_named_by_its_key_written_differently() -> None:
    assert named_row("What is the list price of the RX-200 arm?", passage(PRICE_LIST)).cells[0] == "RX200-ARM"
    # "RX-300" names two rows: the question's other words ("base unit") pick one
    assert named_row("list price of the RX-300 base unit", passage(PRICE_LIST)).cells[0] == "RX300-AMR"
    assert named_row("What do the runbooks say about patching for wave3?", passage(SCHEDULE)).cells[0] == "Wave 3"


def test_no_row_when_none_or_two_alike_are_named() -> None:
    assert named_row("What is the list price of the RX-300?", passage(PRICE_LIST)) is None  # two RX-300 rows tie
    assert named_row("Which products are sold in USD?", passage(PRICE_LIST)) is None  # "USD" is no key
    assert named_row("When is the patch window?", passage(SCHEDULE)) is None


def test_an_amount_the_question_gives_is_a_value_not_a_key() -> None:
    authority = (
        "| grade | property claims | motor claims |\n|---|---|---|\n"
        "| Claims handler I | 2,500 € | 2,500 € |\n| Claims handler II | 12,000 € | 8,000 € |"
    )
    question = "What flat fee does an external adjuster get for a motor claim worth 12,000 €?"
    # "12,000 €" is in one row only, but a claim worth 12,000 € is not what that row is about
    assert found_row(question, [passage("Fees are banded.", dense=0.9), passage(authority, "a.md#s0", 0.5)]) is None
    # a key with a digit still names its row: "Claims handler II" by the grade the question names
    assert named_row("What may a Claims handler II settle on motor claims?", passage(authority)) is not None


def test_the_row_answer_shows_column_names_and_cites_the_row_line() -> None:
    answer = row_answer("What is the list price of the RX-200 arm?", [passage(PRICE_LIST, line=1)])
    assert answer is not None and not answer.abstained
    assert answer.text.startswith("sku: RX200-ARM; product: RX-200; ") and "list_price_usd: 38500" in answer.text
    (citation,) = answer.citations
    assert citation.quote == PRICE_LIST.split("\n")[2] and citation.line_start == 3
    assert answer.text.endswith("[sales/price-list.csv#s0]")


def test_only_the_passage_closest_in_meaning_is_read() -> None:
    inventory = passage("hostname | patch_wave\nzrh-db-03 | wave3\nbsl-db-30 | wave1", "inventory/servers.csv#s0", 0.2)
    runbook = passage(SCHEDULE, "runbooks/linux-patching.md#s2", 0.55)
    answer = row_answer("What do the runbooks say about patching for wave3?", [inventory, runbook])
    assert answer is not None and answer.citations[0].doc_id == "runbooks/linux-patching.md"
    assert row_answer("What does zrh-db-03 run?", [runbook, inventory]) is None  # the inventory is not closest


def test_passages_narrowed_to_the_question_are_all_read_in_rank_order() -> None:
    notes = passage("- Clear E-1120 before E-1024 after a drive swap.", "errors/e1000.md#s2", 0.5)
    table = passage("| Code | Message |\n|---|---|\n| E-1024 | EtherCAT frame loss |", "errors/e1000.md#s1", 0.3)
    assert row_answer("How is E-1024 cleared?", [notes, table]) is None  # the closest passage has no row
    answer = row_answer("How is E-1024 cleared?", [notes, table], anywhere=True)
    assert answer is not None and answer.text == "Code: E-1024; Message: EtherCAT frame loss [errors/e1000.md#s1]"


SERVERS = (
    "hostname | site | os | patch_wave\nbsl-db-03 | BSL | RHEL 9.2 | wave2\nzrh-db-30 | ZRH | Rocky Linux 9.4 | wave3"
)


def test_a_row_keyed_by_the_named_identifier_answers_a_question_about_one_of_its_columns() -> None:
    incident = passage(
        "| Field | Value |\n|---|---|\n| Affected host | `bsl-db-03` (Basel) |", "incidents/inc.md#s1", 0.6
    )
    inventory = passage(SERVERS, "inventory/servers.csv#s0", 0.2)
    # "os" abbreviates "operating systems": the inventory row answers, though the incident is closer
    answer = row_answer("What is the operating systems of bsl-db-03?", [incident, inventory])
    assert answer is not None and answer.citations[0].doc_id == "inventory/servers.csv"
    assert "os: RHEL 9.2" in answer.text
    assert row_answer("What is the site of zrh-db-30?", [incident, inventory]).citations[0].line_start == 3
    # a question about other documents asks for no column of the row: not answered from the inventory
    assert row_answer("What do the incident reports say about bsl-db-03?", [incident, inventory]) is None


def test_a_value_many_rows_share_keys_no_row() -> None:
    inventory = passage(SERVERS + "\nstg-db-01 | STG | RHEL 9.2 | wave3", "inventory/servers.csv#s0", 0.2)
    other = passage("Nothing tabular here.", "runbooks/x.md#s1", 0.6)
    assert row_answer("Which os do the wave3 servers run?", [other, inventory]) is None


def test_a_row_named_by_its_description_answers_when_a_column_is_asked() -> None:
    row = named_row("What is the list price of the RX Dock charging station?", passage(PRICE_LIST))
    assert row is not None and row.cells[0] == "RX300-DOCK"
    # named, but nothing of the price list is asked: not this row
    assert named_row("Where should the RX Dock charging station be placed?", passage(PRICE_LIST)) is None


def test_what_a_described_row_costs_asks_its_price_column() -> None:
    row = named_row("What does the RX Dock charging station cost?", passage(PRICE_LIST))
    assert row is not None and row.cells[0] == "RX300-DOCK"
    assert named_row("Wie viel kostet die RX Dock charging station?", passage(PRICE_LIST)) == row


def test_a_value_other_rows_share_names_a_row_only_when_a_column_is_asked() -> None:
    # "RX-300" is in two rows and "charging" overlaps the dock's description, but no column is asked
    assert named_row("How long does the RX-300 take to charge to 80 percent?", passage(PRICE_LIST)) is None


def test_a_unique_key_names_its_row_in_any_passage_when_a_column_is_asked() -> None:
    commands = passage("awx job_templates launch --limit wave2\n\n2. runs dnf update", "runbooks/p.md#s4", 0.7)
    schedule = passage(SCHEDULE.replace("Wave 3", "Wave 2"), "runbooks/p.md#s2", 0.5)
    # the "When" column answers "when": read from the schedule, though the commands are closer
    answer = row_answer("When does patch wave 2 run?", [commands, schedule])
    assert answer is not None and answer.citations[0].chunk_id == "runbooks/p.md#s2"
    assert "When: first Sunday of the next month" in answer.text
    # the column that names the row is not what is asked: "Level 2" asks nothing of "Level"
    matrix = passage("| Level | Who |\n|---|---|\n| 1 | Field engineer |\n| 2 | Remote specialist |", "m.md#s1", 0.5)
    assert row_answer("Where are the Level 2 courses held?", [commands, matrix]) is None


def test_a_number_is_shown_with_the_unit_its_column_is_named_by() -> None:
    sheet = (
        "sku | warranty_months | list_price_usd | lead_time_weeks\nRX300-DOCK | 24 | 4800 | 4\nRX200-ARM | 12 | n/a | 6"
    )
    answer = row_answer("What is the warranty of RX300-DOCK?", [passage(sheet)])
    assert answer is not None
    assert answer.text.startswith("sku: RX300-DOCK; warranty_months: 24 months; list_price_usd: 4800 USD; ")
    assert "lead_time_weeks: 4 weeks" in answer.text
    assert "list_price_usd: n/a;" in row_answer("What is the warranty of RX200-ARM?", [passage(sheet)]).text


def test_a_thing_with_rows_in_two_tables_is_answered_by_the_row_whose_columns_the_question_asks() -> None:
    stock = Candidate(
        point_id="s",
        payload={
            "chunk_id": "stock.csv#s0",
            "doc_id": "stock.csv",
            "text": "sku | store | on_hand\nTK-9 | North | 40\nTK-7 | North | 3",
        },
    )
    prices = Candidate(
        point_id="p",
        payload={
            "chunk_id": "prices.csv#s0",
            "doc_id": "prices.csv",
            "text": "sku | list_price_usd | warranty_months\nTK-9 | 2100 | 24\nTK-7 | 90 | 6",
        },
    )
    found = found_row("How much does TK-9 cost?", [stock, prices], anywhere=True)
    assert found is not None and found[1].cells == ("TK-9", "2100", "24")
    # a question that asks no column of either: the first row named, in rank order
    found = found_row("What is TK-9?", [stock, prices], anywhere=True)
    assert found is not None and found[1].cells == ("TK-9", "North", "40")


AUTHORITY = (
    "## claims-authority-limits\n"
    "grade | property_claims | motor_claims | liability_claims\n"
    "Claims handler I | 5,000 € | 3,000 € | 2,000 €\n"
    "Claims handler II | 12,000 € | 8,000 € | 5,000 €"
)


def test_ask_answers_with_the_row_whose_column_is_asked() -> None:
    answer = checked_row_answer("How much may a Claims handler II settle on a property claim?", [passage(AUTHORITY)])
    assert answer is not None and not answer.abstained
    assert answer.text.startswith("grade: Claims handler II; property_claims: 12,000 €")


def test_ask_abstains_when_the_row_speaks_of_other_kinds_of_the_asked_thing() -> None:
    # no column is about cyber claims: the limits for property, motor and liability claims do not answer
    answer = checked_row_answer("Up to what amount may a Claims handler II settle a cyber claim?", [passage(AUTHORITY)])
    assert answer is not None and answer.abstained
    assert "cyber claim" in answer.reason and answer.citations == []
    assert (
        checked_row_answer("Up to what amount may a Claims handler II settle a claim?", [passage("No table.")]) is None
    )
