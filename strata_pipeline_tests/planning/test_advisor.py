"""The rule advisor with a scripted stand-in for Claude (Claude cannot run here)."""

from __future__ import annotations

import polars as pl

from strata_pipeline.chunking.chunker import ChunkingConfig
from strata_pipeline.classification.advisor import SYSTEM, advisor_prompt, propose
from strata_pipeline.planning.plan import build_plan

RULES = "rules:\n  - name: too-short\n    text_shorter_than: 40\n    action: exclude\n"


def plan() -> object:
    frame = pl.DataFrame(
        [
            {"doc_id": "promo/a.txt", "project": "promo", "decision": "include", "rule": "default-include",
             "text": "copy " * 50, "status": "ok", "error_code": None, "doc_type": "text", "warnings": []},
            {"doc_id": "legacy/b.txt", "project": "legacy", "decision": "exclude", "rule": "too-short",
             "text": "x", "status": "ok", "error_code": None, "doc_type": "text", "warnings": []},
        ]
    )  # fmt: skip
    return build_plan(frame, ChunkingConfig(), lambda _: (0, 0))


def test_prompt_states_intent_rules_decisions_and_blind_spots() -> None:
    prompt = advisor_prompt("Index product copy only.", "corpus-rules.yaml", RULES, plan())
    assert "Corpus intent: Index product copy only." in prompt
    assert RULES in prompt
    assert "- exclude by too-short: 1 documents, e.g. legacy/b.txt" in prompt
    assert "blind spots" in prompt and "legacy" in prompt


def test_valid_proposal_becomes_a_diff_and_is_never_applied() -> None:
    proposed = RULES + "  - name: legacy-folder\n    dirs: [legacy]\n    action: exclude\n"

    def claude(system: str, user: str) -> str:
        assert system == SYSTEM
        return f"```yaml\n{proposed}```\nExclude the legacy folder explicitly."

    proposal = propose("intent", "corpus-rules.yaml", RULES, plan(), claude)
    assert proposal.valid and proposal.error == ""
    assert "+  - name: legacy-folder" in proposal.diff and proposal.diff.startswith("--- a/corpus-rules.yaml")
    assert proposal.changed_lines == 3
    assert proposal.rationale == "Exclude the legacy folder explicitly."


def test_invalid_or_missing_yaml_is_reported_not_applied() -> None:
    bad = propose("i", "r.yaml", RULES, plan(), lambda s, u: "```yaml\nrules:\n  - name: x\n    action: nuke\n```")
    assert not bad.valid and "action must be one of" in bad.error and bad.diff
    none = propose("i", "r.yaml", RULES, plan(), lambda s, u: "I think the rules are fine.")
    assert not none.valid and "no ```yaml block" in none.error and none.diff == ""
