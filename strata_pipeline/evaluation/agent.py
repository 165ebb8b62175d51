"""Agent task success on the golden sets' compound questions (`compound:` in golden/<source_set>.yaml).

A compound question is answered by the agent (agent/loop.py) through the same scoped QueryEngine the API
uses. It succeeds when the answer is given (no abstention) and holds every expected string; whether the
tools called were the expected sequence is reported beside it, and so is the mean number of tool calls.
Figures per part (dev, test): `agent/<part>/task_success`, `agent/<part>/mean_steps`,
`agent/<part>/tool_sequence_match`, `agent/<part>/questions`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from strata_pipeline.evaluation.golden import PARTS, checked_part


@dataclass(frozen=True)
class CompoundQuestion:
    id: str
    question: str
    part: str = "test"
    expected_answer_contains: tuple[str, ...] = ()
    expected_tools: tuple[str, ...] = ()  # the tool sequence the offline planner should call
    category: str = "compound"


@dataclass(frozen=True)
class AgentOutcome:
    id: str
    part: str
    success: bool  # answered, with every expected string
    tools_match: bool  # called exactly the expected tool sequence
    steps: int
    tools: tuple[str, ...]
    answer: str
    reason: str


def load_compound(golden_dir: Path, source_set: str) -> list[CompoundQuestion]:
    """The compound questions of golden/<source_set>.yaml; none when the file or the key is missing."""
    path = golden_dir / f"{source_set}.yaml"
    if not path.exists():
        return []
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    found = []
    for position, raw in enumerate(data.get("compound") or [], start=1):
        part = checked_part(path, raw, position, "compound question")
        found.append(
            CompoundQuestion(
                id=str(raw["id"]),
                question=str(raw["question"]),
                part=part,
                expected_answer_contains=tuple(str(s) for s in raw.get("expected_answer_contains") or ()),
                expected_tools=tuple(str(t) for t in raw.get("expected_tools") or ()),
                category=str(raw.get("category") or "compound"),
            )
        )
    return found


_DECIMAL_MARK = re.compile(r"(?<=\d)[,.](?=\d)")


def _norm(text: str) -> str:
    """Case, spacing and the decimal mark folded: a French page's "2,07 €" holds an expected "2.07"."""
    return _DECIMAL_MARK.sub(".", " ".join(text.split()).casefold())


def score(question: CompoundQuestion, result: Any) -> AgentOutcome:
    """One agent result (agent.loop.AgentResult) against its question."""
    answer = result.answer
    tools = tuple(step.tool for step in result.trajectory)
    held = all(_norm(s) in _norm(answer.text) for s in question.expected_answer_contains)
    return AgentOutcome(
        id=question.id,
        part=question.part,
        success=not answer.abstained and held,
        tools_match=not question.expected_tools or tools == question.expected_tools,
        steps=len(tools),
        tools=tools,
        answer=answer.text,
        reason=answer.reason,
    )


def run_compound(engine: Any, questions: list[CompoundQuestion], source_set: str, k: int = 5) -> list[AgentOutcome]:
    """Each question through the agent over `source_set` (offline planner, or Claude when the engine's llm
    can call tools)."""
    from strata_pipeline.agent import run_agent

    return [score(q, run_agent(engine, q.question, k=k, source_sets=[source_set])) for q in questions]


def agent_figures(outcomes: list[AgentOutcome]) -> dict[str, float]:
    """Task success, tool-sequence match and mean steps per part; nothing for a part without questions."""
    figures: dict[str, float] = {}
    for part in PARTS:
        mine = [o for o in outcomes if o.part == part]
        if not mine:
            continue
        n = len(mine)
        figures[f"agent/{part}/questions"] = n
        figures[f"agent/{part}/task_success"] = round(sum(o.success for o in mine) / n, 4)
        figures[f"agent/{part}/tool_sequence_match"] = round(sum(o.tools_match for o in mine) / n, 4)
        figures[f"agent/{part}/mean_steps"] = round(sum(o.steps for o in mine) / n, 2)
    return figures


def agent_trends(figures: dict[str, float]) -> dict[str, float]:
    """The figures the eval report plots (a few keys per source-set): the test part's task success and
    mean steps. The full report keeps every figure."""
    return {k: v for k, v in figures.items() if k in ("agent/test/task_success", "agent/test/mean_steps")}
