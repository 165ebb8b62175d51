"""`strata materialize`, `remove` and `rollback`: the commands that build, change or choose the
published index, with the progress a run prints while it executes."""

from __future__ import annotations

import sys
import threading
import time
import uuid
from collections.abc import Mapping
from typing import Any

import click

from strata_pipeline.cli.options import source_set_selection, valid_source_sets
from strata_pipeline.progress import PREFIX as PROGRESS_PREFIX
from strata_pipeline.settings import ensure_dagster_home, load_settings

QUIET_LOGS = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}


@click.command()
@source_set_selection
@click.option("--force", is_flag=True, help="Rebuild even source-sets whose inputs match their published version.")
def materialize(selected: tuple[str, ...], force: bool) -> None:
    """Register a partition per source-set folder and run the whole asset graph for each.

    A source-set whose files, rules, golden set, settings and code all match what its published
    version was built from is skipped (up to date); --force rebuilds it anyway.
    """
    from strata_pipeline.dagster_support.instance import instance_held
    from strata_pipeline.dead_runs import cli_run_tags, fail_dead_cli_runs
    from strata_pipeline.definitions import build_definitions
    from strata_pipeline.discovery.adapters import invalid_source_set_names, list_source_sets
    from strata_pipeline.freshness import freshness
    from strata_pipeline.partitions import SOURCE_SETS

    settings = load_settings()
    dagster_home = ensure_dagster_home(settings)
    available = list_source_sets(settings.corpus_root)
    for name in invalid_source_set_names(settings.corpus_root):
        click.echo(f"skipping folder {name!r}: source-set names must be lowercase slugs (a-z, 0-9, -, _)", err=True)
    names = list(selected) or available
    missing = [n for n in names if n not in available]
    if missing:
        raise click.UsageError(f"No source-set folder {', '.join(missing)} under {settings.corpus_root}.")
    if not names:
        raise click.UsageError(f"No source-set folders under {settings.corpus_root}: add one folder per source-set.")

    with instance_held(dagster_home) as instance:  # one strata process at a time sets up the instance
        for run_id in fail_dead_cli_runs(instance):
            click.echo(f"marked run {run_id} failed: the strata process running it is gone", err=True)
        known = set(instance.get_dynamic_partitions(SOURCE_SETS))
        new = [n for n in names if n not in known]
        if new:
            instance.add_dynamic_partitions(SOURCE_SETS, new)
    defs = build_definitions(settings)
    job = defs.resolve_job_def("index_source_set")
    failed = []
    for position, name in enumerate(names, start=1):
        click.echo(f"[{position}/{len(names)}] {name}")
        if force:
            click.echo("  rebuilding: --force")
        else:
            state, published = freshness(defs.resources or {}, name)
            if state.up_to_date and published is not None:
                click.echo(f"  up to date (version {published.version}); use --force to rebuild")
                continue
            click.echo(f"  rebuilding: {state.reason}")
        run_id = str(uuid.uuid4())
        started = time.perf_counter()
        with _ProgressPrinter(instance, run_id):
            result = job.execute_in_process(
                instance=instance, partition_key=name, run_id=run_id, run_config=QUIET_LOGS, raise_on_error=False,
                tags=cli_run_tags(),
            )  # fmt: skip
        took = time.perf_counter() - started
        if not result.success:
            failed.append(name)
            click.echo(f"  FAILED after {took:.1f}s; see run {run_id} in the Dagster UI (`make ui`).", err=True)
            continue
        click.echo(f"  done in {took:.1f}s  {_eval_line(result)}")
    click.echo(f"Dagster runs are recorded in {dagster_home}; open them with `make ui`.")
    if failed:
        sys.exit(f"Failed source-sets: {', '.join(failed)}")


def _eval_line(result: Any) -> str:
    for event in result.get_asset_materialization_events():
        mat = event.materialization
        if mat.asset_key.path[-1] == "eval_report":
            prefix = f"{mat.partition}/"  # the trend figures are named per source-set
            md = {k.removeprefix(prefix): v.value for k, v in mat.metadata.items() if k.startswith(prefix)}
            keys = [
                k
                for k in md
                if (k.startswith(("recall_at", "precision_at", "ndcg_at")) and not k.endswith("_dev"))
                or k in ("mrr", "answer_accuracy")
            ]
            return "eval: " + ", ".join(f"{k}={md[k]:.3f}" for k in sorted(keys)) if keys else "eval: no golden set"
    return ""


class _ProgressPrinter:
    """Prints each finished step of a run while it executes (polls the instance's event log)."""

    def __init__(self, instance: Any, run_id: str) -> None:
        self.instance, self.run_id = instance, run_id
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._seen = 0

    def __enter__(self) -> _ProgressPrinter:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._drain()

    def _loop(self) -> None:
        while not self._stop.wait(0.5):
            self._drain()

    def _drain(self) -> None:
        from dagster import DagsterEventType

        try:
            records = self.instance.all_logs(self.run_id)
        except Exception:
            return
        for record in records[self._seen :]:
            event = record.dagster_event
            if event is None:
                if record.user_message.startswith(PROGRESS_PREFIX):  # long work inside a step
                    click.echo(f"    {record.step_key}: {record.user_message.removeprefix(PROGRESS_PREFIX)}")
                continue
            if event.event_type == DagsterEventType.STEP_SUCCESS:
                click.echo(f"  ✓ {event.step_key}")
            elif event.event_type == DagsterEventType.STEP_FAILURE:
                failure = event.step_failure_data  # a dg.Failure's own words, without the exception's class
                reason = failure.user_failure_data.description if failure.user_failure_data else None
                click.echo(f"  ✗ {event.step_key}: {(reason or failure.error.message).strip()[:300]}", err=True)
            elif event.event_type == DagsterEventType.ASSET_CHECK_EVALUATION:
                data = event.asset_check_evaluation_data
                click.echo(f"    check {data.check_name}: {check_outcome(data.passed, data.severity)}")
                if not data.passed:
                    for line in failed_check_lines(data.description, data.metadata):
                        click.echo(f"      {line}", err=True)
        self._seen = len(records)


@click.command()
@click.argument("source_set", callback=valid_source_sets)
@click.argument("doc_id")
def remove(source_set: str, doc_id: str) -> None:
    """Remove a document everywhere: points, sidecar and audit rows, stored asset values, cached vectors.

    Publishes a new index version without it, deletes every older version, and keeps later runs
    from reading the file again.
    """
    from strata_pipeline.maintenance import DocumentNotFound, remove_document
    from strata_pipeline.resources.factory import build_resources

    settings = load_settings()
    try:
        removal = remove_document(settings.home, build_resources(settings)["qdrant"], source_set, doc_id)
    except DocumentNotFound as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(
        f"removed {doc_id} from {source_set}: {removal.points_removed} points, "
        f"{removal.sidecar_rows_removed} sidecar rows, {removal.audit_rows_removed} audit rows, "
        f"{removal.asset_rows_removed} stored asset rows, {removal.cached_vectors_removed} cached vectors; "
        f"published {removal.version} and deleted {removal.old_versions_deleted} older versions"
    )


@click.command()
@click.argument("source_set", callback=valid_source_sets)
@click.argument("version", required=False)
def rollback(source_set: str, version: str | None) -> None:
    """Serve an earlier published version of SOURCE_SET again (by default the one before the served one).

    Only versions that were published, so passed their checks and eval, can be chosen; the next
    `strata materialize` builds a new version as usual.
    """
    from strata_pipeline.components import index_storage
    from strata_pipeline.indexing.versions import current_version_name, rollback_target

    settings = load_settings()
    index_dir = settings.index_dir
    served = current_version_name(index_dir, source_set)
    if served is None:
        raise click.ClickException(
            f"{source_set}: nothing is published. Run `strata materialize --source-set {source_set}`."
        )
    try:
        target = rollback_target(index_dir, source_set, version)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    index_storage(settings).publish(index_dir, target)
    click.echo(f"{source_set}: now serving {target.version} ({target.point_count} points); was {served}")


def check_outcome(passed: bool, severity: Any) -> str:
    """How a check reads in the run's output: a failed WARN-severity check (e.g. chunks_injection_free
    on a corpus with a planted injection) is a warning to look at, not a failed run."""
    if passed:
        return "passed"
    return "warning" if getattr(severity, "value", severity) == "WARN" else "FAILED"


def failed_check_lines(description: str | None, metadata: Mapping[str, Any], preview_rows: int = 8) -> list[str]:
    """What a failed check says in the run's output, so the cause shows without opening the UI: its
    description, its figures, and the first rows of each `*_preview` table (the leaking chunks)."""
    lines = [description] if description else []
    values = {key: getattr(value, "value", value) for key, value in metadata.items()}
    figures = [f"{key}: {value}" for key, value in values.items() if isinstance(value, int | float)]
    if figures:
        lines.append(", ".join(figures))
    for key, value in values.items():
        if key.endswith("preview") and isinstance(value, str) and value.startswith("|"):
            table = value.splitlines()
            lines += [f"{key}:", *table[: preview_rows + 2]]  # the header, its rule and the first rows
            if len(table) > preview_rows + 2:
                lines.append(f"… {len(table) - preview_rows - 2} more rows in the Dagster UI (`make ui`)")
    return lines
