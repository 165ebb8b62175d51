"""eval_report scores hybrid+rerank beside the other modes when a reranker is configured, and says
"not configured" (with no hybrid_rerank figures at all) when none is."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
import pytest
import yaml

from strata_pipeline.defs.evaluate.eval_report import eval_report
from strata_pipeline.indexing.versions import current_version
from strata_pipeline.resources import CacheResource, CorpusResource, RerankerResource
from strata_pipeline.resources.factory import build_resources
from strata_pipeline_tests.conftest import Stack
from strata_pipeline_tests.retrieval.tiny_cross_encoder import build_tiny_cross_encoder


def run_eval(
    stack: Stack, home: Path, reranker: RerankerResource, questions: int = 2, cache: CacheResource | None = None
) -> dg.Output:
    """The asset itself, over the published handbook version, on the first questions of its golden set
    (the whole set takes half a minute); reports go to `home`, not the stack's, and its remembered
    pieces to `cache` (default: a fresh one under `home`)."""
    resources = build_resources(stack.settings)
    golden = yaml.safe_load((stack.settings.golden_dir / "handbook.yaml").read_text(encoding="utf-8"))
    golden["questions"] = golden["questions"][:questions]
    (home / "golden").mkdir(parents=True, exist_ok=True)
    (home / "golden" / "handbook.yaml").write_text(yaml.safe_dump(golden), encoding="utf-8")
    # A new resource, not model_copy: dagster rebuilds a resource from its original config on invocation.
    corpus = CorpusResource(
        **{**resources["corpus"].model_dump(), "home": str(home), "golden_dir": str(home / "golden")}
    )
    # As a context manager: its ephemeral instance is closed here, in order. Left to the garbage
    # collector, two such contexts may close out of order and leave a disposed instance current.
    with dg.build_asset_context(partition_key="handbook") as context:
        return eval_report(
            context,
            corpus=corpus,
            embedder=resources["embedder"],
            qdrant=resources["qdrant"],
            sidecar=resources["sidecar"],
            llm=resources["llm"],
            pii=resources["pii"],
            reranker=reranker,
            cache=cache or CacheResource(dir=str(home / "cache")),
            enriched_sidecar=current_version(stack.settings.index_dir, "handbook"),
        )


def figures(output: dg.Output) -> dict:
    """The asset's metadata values, numeric keys without their `handbook/` (source-set) prefix."""
    return {key.removeprefix("handbook/"): getattr(value, "value", value) for key, value in output.metadata.items()}


def test_eval_report_adds_hybrid_rerank_when_a_reranker_is_configured(
    stack: Stack, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = build_tiny_cross_encoder(tmp_path_factory.mktemp("reranker"), {"unpaid": 5.0, "probation": 3.0})
    home = tmp_path_factory.mktemp("eval_home")
    output = run_eval(stack, home, RerankerResource(model="strata-test/eval-reranker", model_path=str(folder)))
    metadata = figures(output)
    summary = output.value["summary"]
    assert metadata["reranker"] == "strata-test/eval-reranker"
    assert summary["test_questions"] + summary["dev_questions"] == 2.0  # hb-001 and hb-002, one per part
    for mode in ("dense", "sparse", "hybrid", "hybrid_rerank"):
        assert isinstance(metadata[f"{mode}_mrr_at_10"], float)
        # hybrid's Recall@5 is the headline recall_at_5 (plotted once); the other modes plot their own
        assert f"{mode}_recall_at_5" in metadata or mode == "hybrid"
    assert "hybrid_recall_at_5" not in metadata and metadata["recall_at_5"] == summary["hybrid_recall_at_5"]
    assert not any("+" in key for key in output.metadata)  # metadata keys stay plottable names
    assert "| hybrid+rerank |" in metadata["summary"]
    assert summary["mrr"] == summary["hybrid_mrr_at_5"]  # the headline stays plain hybrid (judges the index)
    assert all("hybrid+rerank" in q["ranked_docs"] for q in output.value["questions"])


def test_eval_report_without_a_reranker_says_not_configured(stack: Stack) -> None:
    metadata = stack.materialization(stack.results["handbook"], "eval_report")  # the default, offline run
    assert metadata["reranker"] == "not configured"
    assert not any(key.startswith("hybrid_rerank") for key in metadata)
    assert "hybrid+rerank" not in metadata["summary"] and "| hybrid |" in metadata["summary"]


def test_a_warm_eval_gives_the_figures_of_a_cold_one_from_remembered_pieces(
    stack: Stack, tmp_path_factory: pytest.TempPathFactory
) -> None:
    home = tmp_path_factory.mktemp("eval_memo_home")
    cache = CacheResource(dir=str(home / "cache"))
    cold_run = run_eval(stack, home, RerankerResource(), 4, cache)
    warm_run = run_eval(stack, home, RerankerResource(), 4, cache)
    cold, warm = figures(cold_run), figures(warm_run)
    assert cold["eval_sentences_embedded"] > 0 and warm["eval_sentences_embedded"] == 0
    assert warm["eval_memo_misses"] == 0 and warm["eval_memo_hits"] > 0
    summary = cold_run.value["summary"]
    assert any(k.startswith(("hybrid_", "ragas_")) for k in summary) and warm_run.value["summary"] == summary
