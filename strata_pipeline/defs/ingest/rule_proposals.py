from pathlib import Path

import dagster as dg
import polars as pl

from strata_pipeline.classification.advisor import propose
from strata_pipeline.classification.rules import load_rules
from strata_pipeline.dagster_support.catalog import ON_DEMAND, OWNERS, asset_tags
from strata_pipeline.dagster_support.lineage import code_version
from strata_pipeline.dagster_support.run_config import ChunkingSettings
from strata_pipeline.partitions import source_sets
from strata_pipeline.planning.plan import build_plan
from strata_pipeline.resources import AnthropicResource, CorpusResource


@dg.asset(
    partitions_def=source_sets,
    group_name="ingest",
    owners=OWNERS,
    kinds={"anthropic"},  # Claude is all it does; without a key it records "disabled"
    tags=asset_tags("advise", pii="paths_only", driven_by=ON_DEMAND),
    code_version=code_version(__file__, "classification/advisor.py", "planning"),
    pool="llm",
    retry_policy=dg.RetryPolicy(max_retries=2, delay=5, backoff=dg.Backoff.EXPONENTIAL, jitter=dg.Jitter.PLUS_MINUS),
)
def rule_proposals(
    context: dg.AssetExecutionContext, corpus: CorpusResource, llm: AnthropicResource, classified_docs: pl.DataFrame
) -> dg.MaterializeResult:
    """Claude's proposed rule changes toward the corpus `intent:`, as a YAML diff. Never applied.

    Runs in its own job (`propose_rules`), not nightly. Review the diff, then edit rules/ yourself.
    """
    rules_dir = Path(corpus.rules_dir)
    rule_set = load_rules(rules_dir, context.partition_key)
    if not llm.enabled:
        return dg.MaterializeResult(
            metadata={
                "status": "disabled",
                "how_to_enable": "Set ANTHROPIC_API_KEY to let Claude propose rule changes.",
            }
        )
    override = rules_dir / f"{context.partition_key}.yaml"
    target = override if override.exists() else rules_dir / "corpus-rules.yaml"
    chunking = ChunkingSettings()
    plan = build_plan(classified_docs, chunking.to_config(), lambda _: (0, 0))
    proposal = propose(rule_set.intent, target.name, target.read_text(encoding="utf-8"), plan, llm.complete)
    return dg.MaterializeResult(
        metadata={
            "status": "proposed" if proposal.valid else "invalid",
            "rules_file": target.name,
            "changed_lines": proposal.changed_lines,
            "diff": dg.MetadataValue.md(f"```diff\n{proposal.diff or '(no change)'}\n```"),
            "rationale": dg.MetadataValue.md(proposal.rationale or "_none_"),
            "error": proposal.error,
        }
    )
