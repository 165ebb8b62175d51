"""Agent task success on the compound golden questions: loading, scoring, figures, and the eval report."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata_pipeline.agent.loop import AgentResult
from strata_pipeline.agent.tools import Step
from strata_pipeline.answering.answer import Answer
from strata_pipeline.evaluation.agent import CompoundQuestion, agent_figures, agent_trends, load_compound, score
from strata_pipeline.settings import PROJECT_ROOT
from strata_pipeline_tests.conftest import Stack
from strata_pipeline_tests.defs.test_index_job import full_report

GOLDEN = PROJECT_ROOT / "golden"
TOOLS = ("semantic_search", "query_facts", "lookup", "read_document_section")


def result(text: str, tools: list[str], abstained: bool = False) -> AgentResult:
    steps = [Step(tool, {}, "", 1.0) for tool in tools]
    return AgentResult("q", Answer(text, abstained=abstained, reason="r" if abstained else ""), steps, "compare")


def test_the_golden_sets_hold_at_least_ten_compound_questions_split_dev_and_test() -> None:
    found = [
        q for name in ("handbook", "products", "fieldops", "itops", "municipal") for q in load_compound(GOLDEN, name)
    ]
    assert len(found) >= 10 and len({q.id for q in found}) == len(found)
    parts = [q.part for q in found]
    assert parts.count("test") >= 5 and parts.count("dev") >= 5
    assert all(q.category == "compound" and q.expected_answer_contains for q in found)
    assert all(q.expected_tools and set(q.expected_tools) <= set(TOOLS) for q in found)
    # municipal is held out (test only) and itops is a development set (dev only), as in the other questions
    assert {q.part for q in load_compound(GOLDEN, "municipal")} == {"test"}
    assert {q.part for q in load_compound(GOLDEN, "itops")} == {"dev"}


def test_a_compound_question_succeeds_only_answered_with_every_expected_string() -> None:
    q = CompoundQuestion("c1", "Compare A and B", "test", ("24 months", "$600"), ("semantic_search", "semantic_search"))
    ok = score(q, result("A: 24  Months\nB: $600", ["semantic_search", "semantic_search"]))
    assert ok.success and ok.tools_match and ok.steps == 2
    assert not score(q, result("A: 24 months", ["semantic_search", "semantic_search"])).success
    assert not score(q, result("A: 24 months $600", ["semantic_search"], abstained=True)).success
    wrong_tools = score(q, result("24 months $600", ["lookup", "semantic_search"]))
    assert wrong_tools.success and not wrong_tools.tools_match


def test_an_expected_number_matches_whichever_decimal_mark_the_source_writes() -> None:
    q = CompoundQuestion("c2", "Price in Colmont?", "test", ("2.07",))
    assert score(q, result("Colmont: 2,07 € par m³", ["query_facts"])).success
    assert score(q, result("Colmont: 2.07 EUR", ["query_facts"])).success
    assert not score(q, result("Colmont: 2,70 €", ["query_facts"])).success
    assert not score(q, result("Colmont: 207 €", ["query_facts"])).success


def test_figures_per_part_and_the_plotted_few() -> None:
    q = CompoundQuestion("c", "x", "test", ("a",), ("semantic_search",))
    outcomes = [
        score(q, result("a", ["semantic_search"])),
        score(q, result("b", ["semantic_search", "lookup"])),
        score(CompoundQuestion("d", "x", "dev", ("a",)), result("a", ["lookup"])),
    ]
    figures = agent_figures(outcomes)
    assert figures == {
        "agent/dev/questions": 1, "agent/dev/task_success": 1.0, "agent/dev/tool_sequence_match": 1.0,
        "agent/dev/mean_steps": 1.0, "agent/test/questions": 2, "agent/test/task_success": 0.5,
        "agent/test/tool_sequence_match": 0.5, "agent/test/mean_steps": 1.5,
    }  # fmt: skip
    assert agent_trends(figures) == {"agent/test/task_success": 0.5, "agent/test/mean_steps": 1.5}


def test_a_bad_part_is_refused(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").write_text("compound:\n  - {id: c1, question: q, part: train}\n")
    with pytest.raises(ValueError, match="part is 'train'"):
        load_compound(tmp_path, "x")
    assert load_compound(tmp_path, "missing") == []


def test_the_eval_report_carries_agent_task_success_and_mean_steps(stack: Stack) -> None:
    for partition in ("handbook", "products"):
        meta = stack.materialization(stack.results[partition], "eval_report")
        summary = full_report(stack, partition)["summary"]
        questions = load_compound(stack.settings.golden_dir, partition)
        assert summary["agent/test/questions"] == sum(q.part == "test" for q in questions)
        assert summary["agent/dev/questions"] == sum(q.part == "dev" for q in questions)
        assert 0.0 <= summary["agent/test/task_success"] <= 1.0 and summary["agent/test/mean_steps"] >= 1.0
        assert meta[f"{partition}/agent/test/task_success"] == summary["agent/test/task_success"]
        assert meta[f"{partition}/agent/test/mean_steps"] == summary["agent/test/mean_steps"]
