import dagster as dg

from strata_pipeline.dagster_support.catalog import NIGHTLY_REDACTION, OWNERS, asset_tags
from strata_pipeline.dagster_support.lineage import code_version
from strata_pipeline.evaluation.pii_sets import SETS
from strata_pipeline.evaluation.privacy import privacy_markdown
from strata_pipeline.resources import CorpusResource, PiiResource


@dg.asset(
    group_name="evaluate",
    owners=OWNERS,
    # Presidio and the secret detector scored in Python on labelled sets; no index is read.
    kinds={"python", "presidio"},
    tags=asset_tags("evaluate", pii="figures_only", driven_by=NIGHTLY_REDACTION),
    code_version=code_version(
        __file__,
        "redaction",
        "evaluation/privacy.py",
        "evaluation/pii_sets.py",
        "evaluation/labels.py",
        "resources/pii.py",
    ),
)
def redaction_quality(
    context: dg.AssetExecutionContext, corpus: CorpusResource, pii: PiiResource
) -> dg.MaterializeResult:
    """PII recall and precision of the configured redaction on the labelled dev/test sets (test is the
    headline), per type and per set, the project's regression corpus, and secret recall.

    The same for every source-set: it depends on the detector code, its configuration and the labelled
    sets only, so it is one unpartitioned asset rather than 90 constant keys on each eval report. The
    figures are cached on disk under a key of exactly those inputs (PiiResource.privacy_figures), so a
    run with nothing changed costs a file read. Every key is numeric and stable, so the UI plots it."""
    figures = pii.privacy_figures(corpus.golden_dir)
    context.log.info(f"PII recall {figures['pii_recall']:.3f}, precision {figures['pii_precision']:.3f} (test sets)")
    return dg.MaterializeResult(
        metadata={
            "summary": dg.MetadataValue.md(privacy_markdown(figures, SETS)),
            "pii_backend": pii.backend,
            **figures,
        }
    )
