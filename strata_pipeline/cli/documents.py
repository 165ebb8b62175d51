"""`strata plan` and `strata redact`: what indexing would do to documents, without indexing anything."""

from __future__ import annotations

import json
from typing import IO

import click

from strata_pipeline.cli.options import source_set_selection
from strata_pipeline.settings import load_settings


@click.command()
@source_set_selection
@click.option("--json", "as_json", is_flag=True, help="Print the totals and project coverage as JSON.")
def plan(selected: tuple[str, ...], as_json: bool) -> None:
    """Dry run: what would be indexed or excluded and why, blind spots, redactions, chunk estimate.

    Reads and classifies every file; embeds nothing and writes no index.
    """
    from datetime import UTC, datetime

    from strata_pipeline.chunking.chunker import ChunkingConfig
    from strata_pipeline.classification.rules import access_counts, classify_docs, load_rules
    from strata_pipeline.discovery.adapters import list_source_sets
    from strata_pipeline.discovery.discover import discover_source_set
    from strata_pipeline.discovery.plugins import load_plugins
    from strata_pipeline.planning.plan import build_plan
    from strata_pipeline.planning.report import summary_lines, write_plan
    from strata_pipeline.redaction.redact import count_redactions
    from strata_pipeline.resources.factory import build_resources

    settings = load_settings()
    load_plugins(settings.plugins_dir)
    resources = build_resources(settings)
    corpus, pii = resources["corpus"], resources["pii"]
    available = list_source_sets(settings.corpus_root)  # real folders only: a symlink may lead anywhere
    names = list(selected) or available
    if not names:
        raise click.UsageError(f"No source-set folders under {settings.corpus_root}.")
    missing = [n for n in names if n not in available]
    if missing:
        raise click.UsageError(f"No source-set folder {', '.join(missing)} under {settings.corpus_root}.")
    detector, policy = pii.plan_detector(), pii.policy()
    report = {}
    for name in names:
        rule_set = load_rules(settings.rules_dir, name)
        docs = discover_source_set(corpus.source_dir(name), name, corpus.get_adapter(rule_set.adapter), corpus.limits())
        classified = classify_docs(docs, rule_set)
        the_plan = build_plan(classified, ChunkingConfig(), lambda text: count_redactions(text, detector, policy))
        documents_csv, projects_csv = write_plan(
            the_plan, settings.reports_dir / name, f"plan-{datetime.now(UTC):%Y%m%dT%H%M%S}"
        )
        report[name] = {
            **the_plan.totals(),
            "blind_spot_projects": the_plan.blind_spots,
            "outlier_projects": the_plan.outliers,
            "projects": the_plan.projects.to_dicts(),
            "access_groups": access_counts(classified).to_dicts(),  # who will read what, before any embedding
            "documents_csv": str(documents_csv),
            "projects_csv": str(projects_csv),
        }
        if as_json:
            continue
        click.echo(f"== {name} (rules: {', '.join(rule_set.sources)})")
        for line in summary_lines(the_plan):
            click.echo("  " + line)
        for project in the_plan.projects.iter_rows(named=True):
            click.echo(
                f"  project {project['project']:<20} {project['included']:>4} in {project['excluded']:>4} out "
                f"{project['metadata_only']:>4} facts  ~{project['estimated_chunks']} chunks  {project['status']}"
            )
        reasons = the_plan.documents.group_by("decision", "rule").len().sort("len", descending=True)
        for decision, rule, count in reasons.iter_rows():
            click.echo(f"  {count:>5}  {decision:<13} {rule}")
        for groups, rule, count in access_counts(classified).iter_rows():
            click.echo(f"  {count:>5}  groups {groups:<6} {rule}")
        import polars as pl  # imported here: a query command should not pay for it

        for row in the_plan.documents.filter(pl.col("decision") == "exclude").head(20).iter_rows(named=True):
            detail = f" [{row['error_code']}]" if row["error_code"] else ""
            click.echo(f"         excluded  {row['doc_id']}  ({row['rule']}){detail}")
        click.echo(f"  full plan: {documents_csv}")
    if as_json:
        click.echo(json.dumps(report, indent=2))


@click.command()
@click.argument("source", default="-", type=click.File("r", encoding="utf-8"))
@click.option("--json", "as_json", is_flag=True, help="Print the redacted text and every detected span as JSON.")
@click.option("--jsonl", is_flag=True, help='Read one {"text": ...} object per line; write one result per line.')
def redact(source: IO[str], as_json: bool, jsonl: bool) -> None:
    """Redact a file (or stdin, "-") exactly as the redacted_docs asset would, without indexing anything.

    Prints the redacted text. --json adds every span the detectors found: start and end offsets in
    the input, type, detector, score and decision (redact, below_threshold, keep_role_contact, ...).
    """
    from strata_pipeline.redaction.redact import redact_document, span_records
    from strata_pipeline.resources.factory import build_resources

    pii = build_resources(load_settings())["pii"]
    detector, policy = pii.detector(), pii.policy()

    def result(text: str) -> dict:
        redaction, _ = redact_document(text, None, detector, policy)
        return {"text": redaction.text, "spans": span_records(redaction)}

    if jsonl:
        for number, line in enumerate(source, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                text = record["text"]
                if not isinstance(text, str):
                    raise TypeError
            except (ValueError, KeyError, TypeError) as exc:
                raise click.ClickException(f'line {number}: expected a JSON object with a string "text" field') from exc
            out = result(text)
            if "id" in record:
                out = {"id": record["id"], **out}
            click.echo(json.dumps(out, ensure_ascii=False))
        return
    out = result(source.read())
    click.echo(json.dumps(out, ensure_ascii=False, indent=2) if as_json else out["text"])
