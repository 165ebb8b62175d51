"""How the plan runner expands a dependent step from what the step before it found (no engine)."""

from __future__ import annotations

from types import SimpleNamespace

from strata_pipeline.agent.loop import _beside_table, _expand, _under_heading, _values, routed, run_plan
from strata_pipeline.agent.planner import plan
from strata_pipeline.agent.tools import Budget, Observation, defines
from strata_pipeline.answering.answer import Answer, Citation
from strata_pipeline.facts.intent import Filter, Intent
from strata_pipeline.retrieval.candidate import Candidate


def facts(value: object, *filters: Filter) -> Observation:
    result = SimpleNamespace(value=value, intent=Intent("count", "servers", filters=filters), abstained=False)
    return Observation("facts", {}, facts=result)


def passage(doc_id: str, title: str) -> Candidate:
    return Candidate(point_id=f"{doc_id}#s1", payload={"chunk_id": f"{doc_id}#s1", "doc_id": doc_id, "title": title})


def test_a_count_still_gets_its_follow_up_once_on_what_the_filter_named() -> None:
    follow = plan("How many servers are in patch wave wave3, and what do the runbooks say about patching them?",
                  facts=True).steps[1]  # fmt: skip
    count = facts(4, Filter("patch_wave", "eq", "wave3"))
    assert _expand(follow, (count, Answer("4"))) == [
        ({"query": "wave3 runbooks patching"}, "wave3: runbooks on patching",
         "What do the runbooks say about patching?"),  # the filter narrows the search, not the question
    ]  # fmt: skip
    unfiltered = facts(35)
    assert _expand(follow, (unfiltered, Answer("35"))) == [
        ({"query": "runbooks patching"}, "runbooks on patching", "What do the runbooks say about patching?"),
    ]


def test_a_list_gets_one_follow_up_per_value() -> None:
    follow = plan("Servers in patch wave wave1, and what do the runbooks say about patching them?", facts=True).steps[1]
    listed = facts(["bsl-db-30", "stg-prt-01"], Filter("patch_wave", "eq", "wave1"))
    # "patching them": the things the filter lists ("Servers"), searched with each value
    assert [arguments["query"] for arguments, _, _ in _expand(follow, (listed, Answer("")))] == [
        "bsl-db-30 runbooks patching servers",
        "stg-prt-01 runbooks patching servers",
    ]


def test_a_back_reference_is_asked_of_the_document_the_first_answer_cited() -> None:
    follow = plan("Which depot hosts the training cell, and what time does it close on weekdays?").steps[1]
    munich = passage("sites/munich-depot.md", "Munich Depot - Site Information")
    found = Observation("2 passages", {}, passages=[passage("training/levels.md", "Certification Levels"), munich])
    quote = "It also hosts the training cell."
    cited = Answer(quote, [Citation("sites/munich-depot.md#s1", "sites/munich-depot.md", "fieldops", 9, 9, quote)])
    ((arguments, label, ask),) = _expand(follow, (found, cited))
    assert arguments == {
        "query": "What time does Munich Depot close on weekdays?",
        "doc_ids": ["sites/munich-depot.md"],
    }
    assert label == ask == "What time does Munich Depot close on weekdays?"
    # an abstained first answer cites nothing: the best passage's document stands in
    ((arguments, _, _),) = _expand(follow, (found, Answer("", abstained=True)))
    assert arguments["doc_ids"] == ["training/levels.md"] and "Certification Levels" in arguments["query"]


def test_a_looked_up_identifier_is_not_replaced_by_a_title() -> None:
    follow = plan("What does error N-733 mean, and what payload causes it?").steps[1]
    found = Observation("1 passage", {}, passages=[passage("rx-300/troubleshooting.txt", "RX-300 Troubleshooting")])
    ((arguments, label, ask),) = _expand(follow, (found, Answer("")))
    assert arguments == {"query": "What payload causes N-733?", "doc_ids": ["rx-300/troubleshooting.txt"]}
    assert label == "What payload causes N-733?" and ask == "What payload causes it?"


def test_a_superlative_follows_up_only_the_top_group_and_each_value_once() -> None:
    follow = plan("Which site has the most servers, and what does its on-site page say about UPS runtime?",
                  facts=True).steps[1]  # fmt: skip
    grouped = facts({"BSL": 11, "LYO": 3, "ZRH": 18})
    assert [a["query"] for a, _, _ in _expand(follow, (grouped, Answer("")), "most")] == [
        "ZRH on-site page UPS runtime"
    ]
    assert [a["query"] for a, _, _ in _expand(follow, (grouped, Answer("")), "fewest")] == [
        "LYO on-site page UPS runtime"
    ]
    assert _values(["ZRH", "BSL", "ZRH"]) == ["ZRH", "BSL"]  # a listed column names each value once
    assert _values({"a": 2, "b": 2, "c": 1}, "most") == ["a", "b"]  # a tie keeps both


def test_a_back_reference_to_a_named_subject_is_not_replaced_by_the_document_found() -> None:
    follow = plan("How long is the probation period, and can it be extended?").steps[1]
    found = Observation("1 passage", {}, passages=[passage("hr/employee-faq.txt", "Employee FAQ")])
    ((arguments, label, _),) = _expand(follow, (found, Answer("")))
    # "it" is the noun phrase the first question is about (clauses.antecedent), not the FAQ's title
    assert arguments == {"query": "Can the probation period be extended?", "doc_ids": ["hr/employee-faq.txt"]}
    assert label == "Can the probation period be extended?"


def test_a_lookup_answer_is_shown_under_the_heading_that_names_the_identifier() -> None:
    section = Candidate(
        point_id="t.md#s1",
        payload={"chunk_id": "t.md#s1", "heading_path": "Troubleshooting > E-101 Joint Overtemperature"},
    )
    quote = "**Cause:** A joint motor has exceeded 80 degrees C."
    cited = Answer(quote, [Citation("t.md#s1", "t.md", "products", 10, 10, quote)])
    assert _under_heading(cited, [section], {"e-101"}).text.startswith("E-101 Joint Overtemperature: **Cause:**")
    other = Answer(quote, [Citation("t.md#s1", "t.md", "products", 10, 10, quote)])
    assert _under_heading(other, [section], {"e-204"}).text == quote  # a heading about another code: as it is


def test_a_passage_defines_an_identifier_by_its_heading_or_its_table_row_key() -> None:
    assert defines("## E-101 Joint Overtemperature\n\nCause: heat.", {"e-101"})
    assert defines("| KF-5021 | Posting rejected | P1 |", {"kf-5021"})
    assert not defines("- **KF-5021** from more than one user is a P1.", {"kf-5021"})  # a mention
    assert not defines("| Follow-up | see KF-5021 and KF-5012 |", {"kf-5021"})  # not the row's key
    # a plain-text heading in capitals names the code it defines; a sentence that starts with it does not
    assert defines("N-620 LOCALIZATION LOST\nCause: the map no longer matches.", {"n-620"})
    assert not defines("N-620 appears after layout changes.", {"n-620"})


def test_a_part_the_router_calls_an_aggregation_is_one_query_facts_call() -> None:
    counting = {"How many servers are in ZRH?", "How many public holidays are there?"}
    two = routed(plan("How many servers are in ZRH, and what is the UPS runtime of the server room?"),
                 lambda part: part in counting)  # fmt: skip
    assert [(s.tool, s.arguments) for s in two.steps] == [
        ("query_facts", {"request": "How many servers are in ZRH?"}),
        ("semantic_search", {"query": "What is the UPS runtime of the server room?"}),
    ]
    single = routed(plan("How many public holidays are there?"), lambda part: part in counting)
    assert [(s.tool, s.arguments) for s in single.steps] == [
        ("query_facts", {"request": "How many public holidays are there?"})
    ]
    # a comparison's sides, and a part scoped to what the first step found, stay searches
    compare = plan("Compare RX-200 and RX-300 on warranty")
    assert routed(compare, lambda part: True) == compare
    dependent = routed(plan("How many servers are in ZRH, and where are they?"), lambda part: True)
    assert [s.tool for s in dependent.steps] == ["query_facts", "semantic_search"]


class _RowsOnly:
    """A toolbox whose searches return a price-list sheet; its engine must not be asked (every part is a row)."""

    engine = None
    k = 5

    def __init__(self) -> None:
        self.source_sets = ["products"]
        self.steps: list[object] = []

    def call(self, tool: str, arguments: dict) -> Observation:
        self.steps.append((tool, arguments))
        sheet = (
            "sku | product | description | list_price_usd | warranty_months\n"
            "RX300-DOCK | RX-300 | RX Dock charging station | 4800 | 24\n"
            "RX300-AMR | RX-300 | RX-300 autonomous mobile robot, base unit | 54000 | 24"
        )
        payload = {"chunk_id": "sales/price-list.csv#s0", "doc_id": "sales/price-list.csv", "source_set": "products",
                   "text": sheet, "line_start": 1, "title": "price-list"}  # fmt: skip
        return Observation("1 passage", {}, passages=[Candidate("p", payload, {"dense": 0.6})])


def test_a_follow_up_on_the_row_answered_before_reads_another_of_its_columns() -> None:
    planned = plan("What is the list price of the RX Dock charging station, and how long is its standard warranty?")
    toolbox = _RowsOnly()
    answer, _ = run_plan(toolbox, planned, Budget())  # type: ignore[arg-type]
    first, second = answer.text.split("\n")
    assert "list_price_usd: 4800 USD" in first and "RX300-DOCK" in first
    # "its" is the dock's row: read again for its warranty, in the document the first step found
    assert second.startswith("How long is the RX Dock charging station's standard warranty?: sku: RX300-DOCK;")
    assert "warranty_months: 24 months" in second
    assert toolbox.steps[1][1]["doc_ids"] == ["sales/price-list.csv"]


def test_a_follow_up_on_fact_values_reads_documents_beside_the_table_they_came_from() -> None:
    listed = Observation(
        "facts", {}, facts=SimpleNamespace(rows=[SimpleNamespace(doc_id="inventory/servers.csv")], value=["zrh-db-13"])
    )
    table, runbook = passage("inventory/servers.csv", "servers"), passage("runbooks/linux-patching.md", "Patching")
    found = Observation("2 passages", {}, passages=[table, runbook])
    assert [p.doc_id for p in _beside_table(found, listed).passages] == ["runbooks/linux-patching.md"]
    # only the table found: kept, rather than nothing to answer from
    alone = Observation("1 passage", {}, passages=[passage("inventory/servers.csv", "servers")])
    assert _beside_table(alone, listed) is alone


class _NothingFound:
    """A toolbox whose fact call lists two hosts of one patch wave and whose searches find nothing."""

    engine = None
    k = 5

    def __init__(self) -> None:
        self.source_sets = ["itops"]
        self.steps: list[tuple[str, dict]] = []

    def call(self, tool: str, arguments: dict) -> Observation:
        self.steps.append((tool, arguments))
        if tool == "query_facts":
            result = SimpleNamespace(
                value=["bsl-db-30", "stg-prt-01"], abstained=False, answer="2 value(s)", rows=[],
                intent=Intent("list", "servers", filters=(Filter("patch_wave", "eq", "wave1"),)),
            )  # fmt: skip
            return Observation("facts", {}, facts=result)
        return Observation("nothing", {})


def test_when_no_value_is_answered_the_topic_is_searched_once_on_what_the_filter_named() -> None:
    toolbox = _NothingFound()
    planned = plan("Servers in patch wave wave1, and what do the runbooks say about patching them?", facts=True)
    run_plan(toolbox, planned, Budget())  # type: ignore[arg-type]
    assert [arguments.get("query") for _, arguments in toolbox.steps[1:]] == [
        "bsl-db-30 runbooks patching servers",
        "stg-prt-01 runbooks patching servers",
        "wave1 runbooks patching servers",  # the runbooks speak of waves, not of the hosts in one
    ]
    # a follow-up about the values themselves ("say about them") has no topic to search without them
    toolbox = _NothingFound()
    planned = plan("Servers in patch wave wave1, and what do the runbooks say about them?", facts=True)
    run_plan(toolbox, planned, Budget())  # type: ignore[arg-type]
    assert len(toolbox.steps) == 3


def test_a_demonstrative_after_a_row_is_asked_of_the_cell_its_noun_names_in_any_document() -> None:
    planned = plan("What is the list price of the RX Dock charging station, and which accessories fit that product?")
    toolbox = _RowsOnly()
    toolbox.engine = SimpleNamespace(ask=lambda *args, **kwargs: Answer("The RX-300 takes the cart lift."))
    run_plan(toolbox, planned, Budget())  # type: ignore[arg-type]
    # "that product" is the product cell of the dock's row; the search is no longer held to the price list
    assert toolbox.steps[1] == ("semantic_search", {"query": "Which accessories fit RX-300?"})


def test_a_back_reference_after_a_fact_step_that_named_one_row_is_asked_of_that_row() -> None:
    follow = plan("Which ticket type has the longest validity, and what does it cost?").steps[1]
    top = facts(["DAY-PASS"])
    ((arguments, label, ask),) = _expand(follow, (top, Answer("DAY-PASS")))
    assert arguments == {"query": "What does DAY-PASS cost?"}  # any document: no scope to the table
    assert label == ask == "What does DAY-PASS cost?"
    # two values name no single row: the step stays scoped to what was found
    ((arguments, _, _),) = _expand(follow, (facts(["DAY-PASS", "WEEK-PASS"]), Answer("")))
    assert arguments["query"] == "What does it cost?"
