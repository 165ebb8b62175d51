"""`strata`: materialise source-sets, search, ask and serve from the command line."""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
import uuid
from typing import TYPE_CHECKING

import click

from strata_pipeline.cli_keys import caller_named, keys
from strata_pipeline.progress import PREFIX as PROGRESS_PREFIX
from strata_pipeline.settings import (
    PROJECT_ROOT,
    Settings,
    absolutize_path_variables,
    ensure_dagster_home,
    load_settings,
)
from strata_pipeline.validation import K_DEFAULT, K_MAX, K_MIN, check_query, check_source_set

if TYPE_CHECKING:
    from strata_pipeline.query_engine import QueryEngine

QUIET_LOGS = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}


class _Group(click.Group):
    """Turns expected user errors into one clear line instead of a traceback."""

    def invoke(self, ctx: click.Context) -> object:
        from strata_pipeline.retrieval.search import UnknownSourceSetError

        try:
            return super().invoke(ctx)
        except UnknownSourceSetError as exc:
            raise click.ClickException(str(exc)) from exc


def _valid_source_sets(
    ctx: click.Context, param: click.Parameter, value: str | tuple[str, ...] | None
) -> str | tuple[str, ...] | None:
    """Every --source-set is a partition key (a slug) before it gets near a path: `plan` reads the folder
    and writes its CSVs under the reports folder by this name."""
    names = value if isinstance(value, tuple) else () if value is None else (value,)
    for name in names:
        try:
            check_source_set(name)
        except ValueError as exc:
            raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
    return value


def _valid_query(ctx: click.Context, param: click.Parameter, value: str) -> str:
    try:
        return check_query(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


@click.group(cls=_Group)
def main() -> None:
    """Strata Pipeline: turn document folders into a governed, evaluated retrieval index."""


@main.command()
@click.option(
    "--source-set",
    "selected",
    multiple=True,
    callback=_valid_source_sets,
    help="Only these source-sets (default: every folder).",
)
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
    click.echo(f"Dagster runs are recorded in {os.environ['DAGSTER_HOME']}; open them with `make ui`.")
    if failed:
        sys.exit(f"Failed source-sets: {', '.join(failed)}")


@main.command()
@click.option(
    "--source-set",
    "selected",
    multiple=True,
    callback=_valid_source_sets,
    help="Only these source-sets (default: every folder).",
)
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


def _eval_line(result) -> str:
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

    def __init__(self, instance, run_id: str) -> None:
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
                click.echo(f"    check {data.check_name}: {'passed' if data.passed else 'FAILED'}")
        self._seen = len(records)


def _engine(settings: Settings, source_set: str | None) -> QueryEngine:
    """An engine over the published index (only `source_set`'s shard when one is given). Only what a
    query uses is imported: no Dagster, no reranker unless one is configured, and the PII detector
    only when the query screen or an answer's audit needs it."""
    from strata_pipeline.retrieval.rerank import RerankerUnavailable
    from strata_pipeline.serving_index import NoIndexError, PublishedIndex

    try:
        return PublishedIndex.from_settings(settings).engine_for(_one(source_set))
    except (NoIndexError, RerankerUnavailable) as exc:
        raise click.ClickException(str(exc)) from exc


def _query_options(fn):
    fn = click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")(fn)
    fn = click.option(
        "--k",
        default=K_DEFAULT,
        show_default=True,
        type=click.IntRange(K_MIN, K_MAX),  # the API's bounds: one rule however a query arrives
        help="How many chunks to return.",
    )(fn)
    fn = click.option(
        "--as",
        "as_name",
        default=None,
        help="Search as the holder of this API key (a name in STRATA_API_KEYS): only its document groups. "
        "Without it you are the local operator and read every group.",
    )(fn)
    return click.option("--source-set", default=None, callback=_valid_source_sets, help="Search only this source-set.")(
        fn
    )


@main.command()
@click.argument("query", callback=_valid_query)
@_query_options
@click.option(
    "--explain", is_flag=True, help="Show every candidate: dense, sparse and identifier rank, fused and rerank score."
)
def search(query: str, source_set: str | None, as_name: str | None, k: int, as_json: bool, explain: bool) -> None:
    """Hybrid search; prints hits best first with provenance and scores."""
    caller = caller_named(as_name)  # --as always searches here: the keys file holds hashes, not keys to send
    body = {"query": query, "k": k, "source_set": source_set, "explain": explain}
    remote = None if as_name else _ask_server("/search", body)
    if remote is not None:
        query, hits, explained = remote["query"], remote["hits"], remote.get("candidates") or []
        unscored = "-"
    else:
        from dataclasses import asdict

        from strata_pipeline.responses import explained_from, hit_from

        with _engine(load_settings(), source_set) as operator:
            engine = operator.scoped(caller)
            query = engine.redact_query(query).text
            found = engine.search(query, k, _one(source_set))
            hits = [asdict(hit_from(i, c)) for i, c in enumerate(found, start=1)]
            explained = (
                [asdict(explained_from(e)) for e in engine.explain(query, k, _one(source_set))] if explain else []
            )
            unscored = "-" if engine.reranker is not None else "not configured"  # "-": past the reranked top N
    if as_json:
        click.echo(
            json.dumps({"query": query, "hits": hits, **({"candidates": explained} if explain else {})}, indent=2)
        )
        return
    if explain:
        click.echo(f"{'pos':>4} {'dense':>5} {'bm25':>5} {'ids':>4} {'rrf':>8} {'prior':>5}  rerank          chunk")
        for e in explained:
            cells = [e["position"] or "-", e["dense_rank"] or "-", e["sparse_rank"] or "-", e["identifier_rank"] or "-"]
            rerank = unscored if e["rerank_score"] is None else f"{e['rerank_score']:.3f}"
            fate = f"  (dropped: {e['dropped']})" if e["dropped"] else ""
            rule = f"  [{e['rank_rule']}]" if e["rank_rule"] else ""
            click.echo(
                f"{cells[0]!s:>4} {cells[1]!s:>5} {cells[2]!s:>5} {cells[3]!s:>4} {e['fused_score']:>8.5f} "
                f"{e['prior']:>5.2f}  {rerank:<15} {e['source_set']}/{e['chunk_id']}{rule}{fate}"
            )
        return
    for h in hits:
        click.echo(
            f"{h['rank']:>2}. {h['source_set']}/{h['chunk_id']}  lines {h['line_start']}-{h['line_end']}  "
            f"rrf={h['fused_score']:.4f} dense#{h['dense_rank']} sparse#{h['sparse_rank']} id#{h['identifier_rank']}"
            + ("" if h["rerank_score"] is None else f" rerank={h['rerank_score']:.3f}")
            + (f"  FLAGGED: {', '.join(h['flags'])}" if h.get("flags") else "")
        )
        click.echo("    " + h["text"][:200].replace("\n", " "))


@main.command()
@click.argument("question", callback=_valid_query)
@_query_options
def ask(question: str, source_set: str | None, as_name: str | None, k: int, as_json: bool) -> None:
    """Answer with verified citations (extractive offline, Claude with ANTHROPIC_API_KEY)."""
    caller = caller_named(as_name)
    body = {"query": question, "k": k, "source_set": source_set}
    answer = None if as_name else _ask_server("/ask", body)
    if answer is not None:
        hits = (_ask_server("/search", body) or {}).get("hits", []) if as_json else []
    else:
        from dataclasses import asdict

        from strata_pipeline.redaction.guard import AnswerWithheld
        from strata_pipeline.responses import ask_response, hit_from

        with _engine(load_settings(), source_set) as operator:
            engine = operator.scoped(caller)
            question = engine.redact_query(question).text
            found = engine.search(question, k, _one(source_set))
            try:
                answer = asdict(ask_response(question, engine.ask(question, k, candidates=found)))
            except AnswerWithheld as exc:
                raise click.ClickException(str(exc)) from exc
            hits = [asdict(hit_from(i, c)) for i, c in enumerate(found, 1)]
    if as_json:
        click.echo(json.dumps({**answer, "hits": hits}, indent=2))
        return
    if answer["abstained"]:
        click.echo(f"(no answer) {answer['reason']}")
        return
    click.echo(answer["answer"])
    for c in answer["citations"]:
        click.echo(f"  [{c['chunk_id']}] {c['source_set']}/{c['doc_id']} lines {c['line_start']}-{c['line_end']}")


def _ask_server(path: str, body: dict) -> dict | None:
    """When STRATA_API_URL names a running `strata serve`, ask it: nothing to load here, so a command
    answers in a fraction of a second. None when it is unset or unreachable (then search locally)."""
    url = os.environ.get("STRATA_API_URL", "").rstrip("/")
    if not url:
        return None
    import urllib.error
    import urllib.request

    headers = {"Content-Type": "application/json"}
    if os.environ.get("STRATA_API_KEY", "").strip():  # the API's keys file is set: send ours
        headers["Authorization"] = "Bearer " + os.environ["STRATA_API_KEY"].strip()
    request = urllib.request.Request(url + path, data=json.dumps(body).encode("utf-8"), headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as exc:
        detail = exc.read().decode("utf-8", "replace")[:500]
        raise click.ClickException(f"{url}{path} answered HTTP {exc.code}: {detail}") from exc
    except (urllib.error.URLError, OSError) as exc:
        click.echo(f"(STRATA_API_URL={url} did not answer: {exc}; searching locally)", err=True)
        return None


def _one(source_set: str | None) -> list[str] | None:
    return [source_set] if source_set else None


@main.command()
@click.argument("source_set", callback=_valid_source_sets)
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


@main.command()
@click.argument("source_set", callback=_valid_source_sets)
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


@main.command()
@click.argument("source", default="-", type=click.File("r", encoding="utf-8"))
@click.option("--json", "as_json", is_flag=True, help="Print the redacted text and every detected span as JSON.")
@click.option("--jsonl", is_flag=True, help='Read one {"text": ...} object per line; write one result per line.')
def redact(source, as_json: bool, jsonl: bool) -> None:
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


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Worker processes; each opens the published Qdrant Edge shards read-only and loads its own models.",
)
def serve(host: str, port: int, workers: int) -> None:
    """Run the query API (FastAPI) over the published index. Without API keys (STRATA_API_KEYS) it
    listens on loopback only: every caller would read every document group."""
    import uvicorn

    from serving.config import ServingConfig, check_bind

    try:
        click.echo(check_bind(host, ServingConfig.from_env()), err=True)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    # uvicorn's 5 s keep-alive timer can fire while a request on that connection is still being answered
    # (a slow answer under load), and the client sees the connection reset; 75 s, as nginx's default.
    uvicorn.run("serving.app:create_app", factory=True, host=host, port=port, workers=workers, timeout_keep_alive=75)


@main.command()
@click.option("--port", default=3000, show_default=True)
def ui(port: int) -> None:
    """Start the Dagster UI and daemon (sensor, schedule) on this project's instance."""
    absolutize_path_variables()  # the UI runs from DAGSTER_HOME: a relative STRATA_CORPUS_ROOT must still resolve
    dagster_home = ensure_dagster_home(load_settings())
    argv = dagster_dev_argv(port)
    # `dagster dev` warns about a dagster.yaml in its working folder unless that folder is DAGSTER_HOME;
    # the project root holds the checked-in one, which DAGSTER_HOME links to.
    os.chdir(dagster_home)
    # Started with `&` from a script, SIGINT is ignored and exec keeps it so; dagster dev maps SIGTERM to
    # SIGINT's handler, so without this neither signal would stop it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.execv(argv[0], argv)


def dagster_dev_argv(port: int) -> list[str]:
    """`dagster dev` on this project's workspace, run by this interpreter: `make ui` runs .venv/bin/strata
    without .venv/bin on PATH, so a bare `dagster` would not be found."""
    return [
        sys.executable,
        # `dg dev` supersedes `dagster dev` but needs the dg CLI and project layout; silence the notice
        "-W",
        "ignore:Function `dev_command` is superseded",
        "-m",
        "dagster",
        "dev",
        "-w",
        str(PROJECT_ROOT / "workspace.yaml"),
        "-h",
        "127.0.0.1",
        "-p",
        str(port),
    ]


if __name__ == "__main__":  # python -m strata_pipeline.cli, as the console script does
    main()

main.add_command(keys)
