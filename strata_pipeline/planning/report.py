"""Write a plan to files and render its short summary."""

from __future__ import annotations

from pathlib import Path

from strata_pipeline.planning.plan import Plan


def write_plan(plan: Plan, folder: Path, stem: str) -> tuple[Path, Path]:
    """Full tables as CSV (documents, projects); the UI and CLI only show previews of them."""
    folder.mkdir(parents=True, exist_ok=True)
    documents, projects = folder / f"{stem}-documents.csv", folder / f"{stem}-projects.csv"
    plan.documents.write_csv(documents)
    plan.projects.write_csv(projects)
    return documents, projects


def summary_lines(plan: Plan) -> list[str]:
    totals = plan.totals()
    lines = [
        f"files {totals['files']}: {totals['included']} included, {totals['excluded']} excluded, "
        f"{totals['metadata_only']} metadata-only",
        f"estimated chunks {totals['estimated_chunks']}; to redact: {totals['secrets_to_redact']} secret values, "
        f"{totals['pii_to_redact']} personal-data values (pattern recognisers; names are found at redaction)",
    ]
    if plan.blind_spots:
        lines.append(f"blind spots (projects with nothing indexed): {', '.join(plan.blind_spots)}")
    if plan.outliers:
        lines.append(f"outliers (over 5x the median project's chunks): {', '.join(plan.outliers)}")
    return lines
