"""With an Anthropic key, the eval report's faithfulness and answer relevancy are judged by a second
Claude model. Claude cannot run here, so a scripted stand-in replies to every prompt; Qdrant, fastembed,
Presidio, ragas and Dagster are real."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import dagster as dg

from strata_pipeline.answering.answer import GENERATE_SYSTEM
from strata_pipeline.enrichment.llm import SYSTEM as ENRICH_SYSTEM
from strata_pipeline.evaluation.ragas_metrics import JUDGE_SYSTEM
from strata_pipeline.evaluation.report_files import latest_report
from strata_pipeline.resources import AnthropicResource
from strata_pipeline_tests.conftest import make_settings, run_partition

CALLS: list[tuple[str, str]] = []  # (model asked, system prompt)

GOLDEN = """\
source_set: ops
k: 2
questions:
  - id: ops-1
    question: When does the early shift start?
    relevant: [rota/shifts.md]
    expected_answer_contains: ["06:00"]
  - id: ops-2
    question: What is the CEO's salary?
    unanswerable: true
"""


class ScriptedClaude(AnthropicResource):
    def complete(self, system: str, user: str) -> str:
        CALLS.append((self.model, system))
        if system == ENRICH_SYSTEM:
            return json.dumps({"title": "T", "category": "operations", "tags": ["shift"], "summary": "S."})
        if system == GENERATE_SYSTEM:
            return "ABSTAIN: not in the passages" if "salary" in user else "The early shift starts at 06:00 [P1]."
        assert system == JUDGE_SYSTEM
        if '"noncommittal"' in user:
            return json.dumps({"question": "When does the early shift start?", "noncommittal": 0})
        if '"verdict"' in user:
            supported = "06:00 and ends" in user  # the shifts passage was supplied
            return json.dumps({"statements": [{"statement": "s", "reason": "r", "verdict": int(supported)}]})
        return json.dumps({"statements": ["The early shift starts at 06:00."]})


def test_eval_report_is_judged_by_a_different_claude_model(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus" / "ops" / "rota"
    corpus.mkdir(parents=True)
    (corpus / "shifts.md").write_text("# Shifts\n\nThe early shift starts at 06:00 and ends at 14:00 sharp.\n")
    (corpus / "breaks.txt").write_text("Breaks last 30 minutes and are taken in the canteen on level two.\n")
    golden = tmp_path / "golden"
    golden.mkdir()
    (golden / "ops.yaml").write_text(GOLDEN)
    settings = dataclasses.replace(make_settings(tmp_path / "home", tmp_path / "corpus"), golden_dir=golden)
    claude = ScriptedClaude(api_key="test-key", model="claude-sonnet-4-5", judge_model="claude-haiku-4-5")
    CALLS.clear()
    instance = dg.DagsterInstance.ephemeral()
    result = run_partition(settings, instance, "ops", overrides={"llm": claude})
    assert result.success
    # the eval's progress is in the run's log: per question, then per judged answer
    logged = [r.user_message for r in instance.all_logs(result.run_id) if r.step_key == "eval_report"]
    assert "progress: evaluated golden questions 2/2" in "\n".join(logged)
    assert "progress: judged answers (ragas) 1/1" in "\n".join(logged)
    meta = next(
        {k.removeprefix("ops/"): v.value for k, v in e.materialization.metadata.items()}
        for e in result.get_asset_materialization_events()
        if e.materialization.asset_key.path[-1] == "eval_report"
    )
    judged_by = {model for model, system in CALLS if system == JUDGE_SYSTEM}
    assert judged_by == {"claude-haiku-4-5"} and meta["ragas_judge"] == "claude-haiku-4-5"
    assert {model for model, system in CALLS if system == GENERATE_SYSTEM} == {"claude-sonnet-4-5"}
    assert meta["answerer"] == "llm"
    # One answer given (the other abstained): faithful to its passage, on topic.
    assert meta["ragas_faithfulness"] == 1.0 and 0.99 <= meta["ragas_answer_relevancy"] <= 1.0
    assert (meta["ragas_judged_answers"], meta["ragas_judge_errors"]) == (1.0, 0.0)
    assert meta["ragas_id_context_recall"] == 1.0
    assert "faithfulness 1.000" in meta["summary"]
    questions = {q["id"]: q for q in latest_report(settings.reports_dir, "ops").report["questions"]}
    assert questions["ops-1"]["ragas"]["faithfulness"] == 1.0
    assert "faithfulness" not in questions["ops-2"]["ragas"]


def test_eval_report_fails_clearly_when_the_judge_is_the_generator(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus" / "ops"
    corpus.mkdir(parents=True)
    (corpus / "shifts.md").write_text("# Shifts\n\nThe early shift starts at 06:00 and ends at 14:00 sharp.\n")
    golden = tmp_path / "golden"
    golden.mkdir()
    (golden / "ops.yaml").write_text(GOLDEN.replace("rota/shifts.md", "shifts.md"))
    settings = dataclasses.replace(make_settings(tmp_path / "home", tmp_path / "corpus"), golden_dir=golden)
    same = ScriptedClaude(api_key="test-key", model="claude-sonnet-4-5", judge_model="claude-sonnet-4-5")
    result = run_partition(settings, dg.DagsterInstance.ephemeral(), "ops", overrides={"llm": same})
    assert not result.success
    failure = next(e for e in result.all_events if e.event_type_value == "STEP_FAILURE")
    assert failure.step_key.startswith("eval_report") and "STRATA_JUDGE_MODEL" in str(failure.event_specific_data)
