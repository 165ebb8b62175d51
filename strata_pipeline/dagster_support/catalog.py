"""What every asset tells the catalogue beside its group and kinds: its owner, its stage, how it
treats personal data, and what launches it.

Tags (`strata/...`) are filterable in the UI's asset catalogue and shown by `dg list defs`.
"""

from __future__ import annotations

# Who answers for the pipeline's assets. A deployment with its own teams edits this one line.
OWNERS = ["team:data-platform"]

# What launches an asset. None of the assets has an AutomationCondition on purpose: whether a
# source-set needs a run is decided by its input fingerprint (rules, golden sets and settings are
# inputs Dagster does not see), so the `nightly_reindex` schedule and `new_source_set_sensor`
# launch the `index_source_set` job, and `strata materialize` applies the same check.
NIGHTLY = "nightly_reindex"
NIGHTLY_REDACTION = "nightly_redaction_quality"  # the unpartitioned redaction benchmark, before the re-index
ON_DEMAND = "on_demand"  # only when someone launches its job (the rule advisor)

# How an asset's value treats personal data:
PII_HANDLING = {
    "raw": "holds document text as found in the files, personal data included",
    "redacted": "holds only redacted text: secrets and personal data are placeholders",
    "paths_only": "reads file names, decisions and counts, never document text",
    "figures_only": "holds scores measured on labelled synthetic text, never the text",
}


DRIVERS = (NIGHTLY, NIGHTLY_REDACTION, ON_DEMAND)


def asset_tags(stage: str, pii: str, driven_by: str = NIGHTLY) -> dict[str, str]:
    """The `strata/stage`, `strata/pii` and `strata/driven_by` tags of one asset."""
    if pii not in PII_HANDLING:
        raise ValueError(f"unknown PII handling {pii!r}; one of {', '.join(PII_HANDLING)}")
    if driven_by not in DRIVERS:
        raise ValueError(f"unknown driver {driven_by!r}")
    return {"strata/stage": stage, "strata/pii": pii, "strata/driven_by": driven_by}
