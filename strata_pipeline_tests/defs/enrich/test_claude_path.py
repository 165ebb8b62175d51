"""With an Anthropic key, Claude enriches and answers. Claude cannot run here, so a scripted stand-in
replies instead; everything else (Qdrant, fastembed, Presidio, Dagster) is real."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import dagster as dg

from strata_pipeline.answering.answer import GENERATE_SYSTEM
from strata_pipeline.classification.advisor import SYSTEM as ADVISOR_SYSTEM
from strata_pipeline.definitions import build_definitions
from strata_pipeline.enrichment.llm import SYSTEM as ENRICH_SYSTEM
from strata_pipeline.indexing.versions import current_version
from strata_pipeline.query_engine import QueryEngine
from strata_pipeline.resources import AnthropicResource
from strata_pipeline.resources.factory import build_resources
from strata_pipeline_tests.conftest import make_settings, run_partition


class ScriptedClaude(AnthropicResource):
    """Replies like Claude would to our three prompts; one reply cites a passage never supplied."""

    def complete(self, system: str, user: str) -> str:
        if system == ADVISOR_SYSTEM:
            rules = user.split("Current rules file (corpus-rules.yaml):\n", 1)[1].split("\n\nDecisions per rule", 1)[0]
            extra = "  - name: no-break-notes\n    globs: ['*breaks*']\n    action: exclude\n"
            return f"```yaml\n{rules.rstrip()}\n{extra}```\nWhy."
        if system == ENRICH_SYSTEM:
            doc_id = user.split("\n", 1)[0].removeprefix("Document id: ")
            return json.dumps(
                {"title": f"Claude title {doc_id}", "category": "operations", "tags": ["shift"], "summary": "S."}
            )
        assert system == GENERATE_SYSTEM
        return "The early shift starts at 06:00 [P1], as the roster says [P9]."


def test_claude_enriches_the_sidecar_and_answers_with_only_supplied_citations(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus" / "ops" / "rota"
    corpus.mkdir(parents=True)
    (corpus / "shifts.md").write_text("# Shifts\n\nThe early shift starts at 06:00 and ends at 14:00 sharp.\n")
    (corpus / "breaks.txt").write_text("Breaks last 30 minutes and are taken in the canteen on level two.\n")
    settings = make_settings(tmp_path / "home", tmp_path / "corpus")
    claude = ScriptedClaude(api_key="test-key")
    instance = dg.DagsterInstance.ephemeral()
    result = run_partition(settings, instance, "ops", overrides={"llm": claude})
    assert result.success
    meta = next(
        {k: v.value for k, v in e.materialization.metadata.items()}
        for e in result.get_asset_materialization_events()
        if e.materialization.asset_key.path[-1] == "enriched_sidecar"
    )
    assert meta["enriched_by_llm"] == 2
    version = current_version(settings.index_dir, "ops")
    db = sqlite3.connect(version.sidecar_path)
    rows = dict(db.execute("SELECT doc_id, title || '|' || enriched_by FROM documents").fetchall())
    db.close()
    assert rows == {
        "rota/shifts.md": "Claude title rota/shifts.md|llm",
        "rota/breaks.txt": "Claude title rota/breaks.txt|llm",
    }

    resources = build_resources(settings)
    with QueryEngine(resources["embedder"], resources["qdrant"], {"ops": version}, llm=claude) as engine:
        answer = engine.ask("When does the early shift start?", k=2)
        # Answers read from, and cite, the parent sections of the hits.
        supplied = [c.chunk_id for c in engine.context(engine.search("When does the early shift start?", 2))]
    assert answer.mode == "llm" and not answer.abstained
    assert [c.chunk_id for c in answer.citations] == [supplied[0]]
    assert f"[{supplied[0]}]" in answer.text and "[P9]" not in answer.text
    assert "P9" in answer.reason

    # The rule advisor runs in its own job and only proposes: the rules file is untouched.
    rules_before = (settings.rules_dir / "corpus-rules.yaml").read_text()
    advice = (
        build_definitions(settings, {"llm": claude})
        .resolve_job_def("propose_rules")
        .execute_in_process(instance=instance, partition_key="ops")
    )
    proposal = {k: v.value for k, v in advice.get_asset_materialization_events()[0].materialization.metadata.items()}
    assert proposal["status"] == "proposed" and proposal["changed_lines"] == 3
    assert "+  - name: no-break-notes" in proposal["diff"]
    assert (settings.rules_dir / "corpus-rules.yaml").read_text() == rules_before
