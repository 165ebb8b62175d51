"""The agent over the materialised sample index: the offline plan runner, and the Claude tool-use loop
driven by a scripted fake client (the only fake: the engine, index and privacy audit are real)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from anthropic.types import Message, TextBlock, ToolUseBlock, Usage

from strata_pipeline.access.groups import Access
from strata_pipeline.agent import AgentBudgetExceeded, Budget, run_agent
from strata_pipeline.agent.tools import Toolbox
from strata_pipeline.query_engine import QueryEngine
from strata_pipeline.serving_index import PublishedIndex
from strata_pipeline_tests.conftest import Stack

Script = Callable[[list[dict[str, Any]]], Message]


class ScriptedClaude:
    """Answers each round trip with the next scripted reply; each reply may read the messages so far
    (the tool results) to choose what to call or cite."""

    enabled = True

    def __init__(self, script: list[Script], tokens: int = 100) -> None:
        self.script = list(script)
        self.tokens = tokens
        self.requests: list[dict[str, Any]] = []

    def complete(self, system: str, user: str) -> str:
        raise AssertionError("the agent uses tool use, not plain completion")

    def create_message(self, system: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Message:
        self.requests.append({"system": system, "messages": json.loads(json.dumps(messages)), "tools": tools})
        return self.script.pop(0)(messages)


def message(*blocks: TextBlock | ToolUseBlock, tokens: int = 100) -> Message:
    stop = "tool_use" if any(isinstance(b, ToolUseBlock) for b in blocks) else "end_turn"
    return Message(
        id="msg_test", type="message", role="assistant", model="claude-test", content=list(blocks),
        stop_reason=stop, usage=Usage(input_tokens=tokens, output_tokens=tokens // 4),
    )  # fmt: skip


def call(tool: str, n: int, tokens: int = 100, **arguments: Any) -> Script:
    block = ToolUseBlock(type="tool_use", id=f"toolu_{n}", name=tool, input=arguments)
    return lambda messages: message(block, tokens=tokens)


def last_results(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [json.loads(r["content"]) for r in messages[-1]["content"]]


@pytest.fixture(scope="module")
def engine(stack: Stack) -> Iterator[QueryEngine]:
    index = PublishedIndex.from_settings(stack.settings)
    yield index.engine()
    index.close()


def test_offline_compare_searches_each_side_and_answers_both_with_citations(engine: QueryEngine) -> None:
    result = run_agent(engine, "Compare RX-200 and RX-300 on warranty", source_sets=["products"])
    assert result.form == "compare"
    assert [(s.tool, s.arguments) for s in result.trajectory] == [
        ("semantic_search", {"query": "warranty of RX-200"}),
        ("semantic_search", {"query": "warranty of RX-300"}),
    ]
    assert all(s.ms > 0 and "passages from" in s.summary for s in result.trajectory)
    answer = result.answer
    assert not answer.abstained and answer.mode == "agent"
    assert answer.text.startswith("RX-200: ") and "\nRX-300: " in answer.text and "24 months" in answer.text
    assert answer.citations and {c.source_set for c in answer.citations} == {"products"}


def test_offline_two_questions_are_answered_each_from_their_own_documents(engine: QueryEngine) -> None:
    question = "How many weeks of paid parental leave do parents get, and what is the mileage rate for a personal car?"
    result = run_agent(engine, question, source_sets=["handbook"])
    assert result.form == "two_questions" and len(result.trajectory) == 2
    assert "16 weeks" in result.answer.text and "0.67" in result.answer.text
    cited = {c.doc_id for c in result.answer.citations}
    assert "hr/leave-policy.md" in cited or "hr/employee-faq.txt" in cited
    assert "travel/travel-reimbursement.md" in cited


def test_a_dependent_step_searches_only_the_documents_the_first_step_found(engine: QueryEngine) -> None:
    toolbox = Toolbox(engine, k=5, source_sets=["handbook"])
    scoped = toolbox.semantic_search("How many days of sick leave?", doc_ids=["travel/travel-reimbursement.md"])
    assert scoped.passages and {p.doc_id for p in scoped.passages} == {"travel/travel-reimbursement.md"}


def test_read_document_section_and_lookup_read_only_what_the_caller_may_see(engine: QueryEngine) -> None:
    toolbox = Toolbox(engine, source_sets=["handbook"])
    section = toolbox.call("read_document_section", {"doc_id": "hr/leave-policy.md", "heading": "Parental"})
    assert not section.error and "16 weeks" in section.passages[0].payload["text"]
    assert section.data["passages"][0]["untrusted_text"] == section.passages[0].payload["text"]
    found = toolbox.call("lookup", {"name": "hr/leave-policy.md"})
    assert [d["doc_id"] for d in found.data["documents"]] == ["hr/leave-policy.md"]
    # a caller outside every group of the corpus: the same refusal as for a document that does not exist
    outsider = Toolbox(engine.scoped(Access("outsider", frozenset({"no-such-group"}))), source_sets=["handbook"])
    hidden = outsider.call("read_document_section", {"doc_id": "hr/leave-policy.md"})
    missing = toolbox.call("read_document_section", {"doc_id": "hr/no-such-policy.md"})
    assert hidden.error == "No document 'hr/leave-policy.md' in the published index."
    assert missing.error.replace("no-such-policy", "leave-policy") == hidden.error
    assert outsider.call("lookup", {"name": "hr/leave-policy.md"}).data == {"passages": []}
    assert outsider.call("semantic_search", {"query": "parental leave"}).passages == []


def test_claude_chains_tools_reads_results_as_data_and_cites_only_what_they_returned(engine: QueryEngine) -> None:
    def cite(messages: list[dict[str, Any]]) -> Message:
        chunk = last_results(messages)[0]["passages"][0]["chunk_id"]
        return message(TextBlock(type="text", text=f"Parents get 16 weeks of paid leave [{chunk}] [made/up.md#s9]."))

    claude = ScriptedClaude(
        [
            call("semantic_search", 1, query="parental leave weeks", k=3),
            call("read_document_section", 2, doc_id="hr/leave-policy.md", heading="Parental"),
            cite,
        ]
    )
    result = run_agent(engine, "How long is parental leave?", source_sets=["handbook"], client=claude)
    assert result.form == "claude"
    assert [(s.tool, s.arguments) for s in result.trajectory] == [
        ("semantic_search", {"query": "parental leave weeks", "k": 3}),
        ("read_document_section", {"doc_id": "hr/leave-policy.md", "heading": "Parental"}),
    ]
    answer = result.answer
    assert not answer.abstained and answer.mode == "agent"
    assert [c.doc_id for c in answer.citations] == ["hr/leave-policy.md"]
    assert "[made/up.md#s9]" not in answer.text and "made/up.md#s9" in answer.reason  # invented: removed
    # each tool result went back as JSON data under its tool_use id, document text as a quoted value
    second = claude.requests[1]["messages"][-1]["content"][0]
    assert second["type"] == "tool_result" and second["tool_use_id"] == "toolu_1" and not second["is_error"]
    assert all("untrusted_text" in p for p in json.loads(second["content"])["passages"])
    assert "never instructions" in claude.requests[0]["system"]
    assert {t["name"] for t in claude.requests[0]["tools"]} == {
        "semantic_search",
        "query_facts",
        "lookup",
        "read_document_section",
    }


def test_a_bad_tool_call_is_an_error_result_and_the_loop_goes_on(engine: QueryEngine) -> None:
    claude = ScriptedClaude(
        [call("drop_table", 1, name="x"), lambda m: message(TextBlock(type="text", text="ABSTAIN: nothing found"))]
    )
    result = run_agent(engine, "anything?", client=claude)
    assert result.trajectory[0].error.startswith("No tool 'drop_table'")
    assert claude.requests[1]["messages"][-1]["content"][0]["is_error"] is True
    assert result.answer.abstained and result.answer.reason == "nothing found"


def test_over_the_step_budget_is_a_clear_error(engine: QueryEngine) -> None:
    claude = ScriptedClaude([call("semantic_search", n, query=f"leave {n}") for n in range(5)])
    with pytest.raises(AgentBudgetExceeded, match=r"step budget \(2 tool calls\)"):
        run_agent(engine, "How long is parental leave?", client=claude, budget=Budget(max_steps=2))
    assert len(claude.requests) == 3  # the third call was refused before it ran


def test_over_the_token_budget_is_a_clear_error(engine: QueryEngine) -> None:
    claude = ScriptedClaude([call("semantic_search", n, tokens=900, query="leave") for n in (1, 2)])
    with pytest.raises(AgentBudgetExceeded, match=r"token budget \(1500 tokens\)"):
        run_agent(engine, "How long is parental leave?", client=claude, budget=Budget(max_tokens=1500))


def test_over_budget_offline_is_the_same_error(engine: QueryEngine) -> None:
    with pytest.raises(AgentBudgetExceeded, match=r"step budget \(1 tool calls\)"):
        run_agent(engine, "Compare RX-200 and RX-300 on warranty", budget=Budget(max_steps=1))


def test_offline_facts_then_one_scoped_search_per_value_found(engine: QueryEngine) -> None:
    question = "Holidays for the Munich office, and what does the leave policy say about them?"
    result = run_agent(engine, question, source_sets=["handbook"])
    assert result.form == "facts_then_search"
    assert [(s.tool, s.arguments) for s in result.trajectory] == [
        ("query_facts", {"request": "Holidays for the Munich office"}),
        ("semantic_search", {"query": "German Unity Day leave policy"}),
        ("semantic_search", {"query": "Second Day of Christmas leave policy"}),
    ]
    answer = result.answer
    assert answer.text.startswith(
        "Holidays for the Munich office: 2 value(s): German Unity Day, Second Day of Christmas"
    )
    assert answer.facts is not None and sorted(answer.facts.value) == ["German Unity Day", "Second Day of Christmas"]
    rows = [c for c in answer.citations if c.chunk_id.startswith("hr/public-holidays-2025.csv#row")]
    assert len(rows) == 2 and all("Munich" in c.quote for c in rows)
    assert answer.routing is not None and (answer.routing.route, answer.routing.engine) == ("hybrid", "agent")


def test_a_plain_aggregation_is_one_query_facts_call(engine: QueryEngine) -> None:
    result = run_agent(engine, "How many public holidays does the Munich office have?", source_sets=["handbook"])
    assert result.form == "single" and [s.tool for s in result.trajectory] == ["query_facts"]
    assert result.answer.routing is not None and result.answer.routing.route == "aggregation"


def test_offline_a_count_then_documents_question_answers_both_parts(engine: QueryEngine) -> None:
    # a count names no entity to search per value: the follow-up runs once, on what the filter named
    question = (
        "How many public holidays does the Munich office have, and what does the leave policy say about "
        "carrying over annual leave?"
    )
    result = run_agent(engine, question, source_sets=["handbook"])
    assert result.form == "facts_then_search"
    assert [(s.tool, s.arguments) for s in result.trajectory] == [
        ("query_facts", {"request": "How many public holidays does the Munich office have"}),
        ("semantic_search", {"query": "Munich leave policy carrying over annual leave"}),
    ]
    answer = result.answer
    assert answer.text.startswith("How many public holidays does the Munich office have: The answer is 2")
    assert "\nMunich: leave policy on carrying over annual leave: " in answer.text and "5 unused days" in answer.text
    assert {c.doc_id for c in answer.citations} >= {"hr/public-holidays-2025.csv", "hr/leave-policy.md"}


def test_offline_a_back_reference_is_answered_of_the_document_found(engine: QueryEngine) -> None:
    question = "Which VPN client does Northwind use, and which UDP port does it connect on?"
    result = run_agent(engine, question, source_sets=["handbook"])
    assert result.form == "find_then_ask"
    second = result.trajectory[1]
    assert second.arguments == {"query": "Which UDP port does VPN Setup Guide connect on?",
                                "doc_ids": ["it-security/vpn-setup.md"]}  # fmt: skip
    assert "NW Connect" in result.answer.text and "51820" in result.answer.text


def test_offline_a_looked_up_identifier_is_answered_and_so_is_the_follow_up(engine: QueryEngine) -> None:
    # the lookup's passages were found by "N-733" alone: they are read against the question they answer
    result = run_agent(engine, "What does error N-733 mean, and what payload causes it?", source_sets=["products"])
    assert result.form == "lookup_then_ask"
    assert [(s.tool, s.arguments) for s in result.trajectory] == [
        ("lookup", {"name": "N-733"}),
        ("semantic_search", {"query": "What payload causes N-733?", "doc_ids": ["rx-300/troubleshooting.txt"]}),
    ]
    first, second = result.answer.text.split("\n", 1)[0], result.answer.text
    assert first.startswith("What does error N-733 mean?: N-733 DRIVE MOTOR OVERCURRENT")
    assert "What payload causes N-733?: " in second and "300 kg" in second
