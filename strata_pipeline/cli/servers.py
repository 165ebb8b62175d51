"""`strata serve` (the query API), `strata mcp` (the index as MCP tools) and `strata ui` (the Dagster UI
and daemon)."""

from __future__ import annotations

import os
import signal
import sys

import click

from strata_pipeline.settings import PROJECT_ROOT, absolutize_path_variables, ensure_dagster_home, load_settings


@click.command()
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


@click.command()
@click.option("--http", "over_http", is_flag=True, help="Serve streamable HTTP at /mcp instead of stdio.")
@click.option("--host", default=None, help="With --http: the address to listen on.  [default: 127.0.0.1]")
@click.option("--port", default=None, type=click.IntRange(1, 65535), help="With --http: the port.  [default: 8001]")
@click.option(
    "--as",
    "as_name",
    default=None,
    help="stdio only: serve as the holder of this API key (a name in STRATA_API_KEYS), reading only its "
    "document groups. Without it the client reads every group, as the local operator.",
)
def mcp(over_http: bool, host: str | None, port: int | None, as_name: str | None) -> None:
    """Serve the published index over the Model Context Protocol: tools search, ask, verify_evidence,
    query_facts and get_audit for agent clients (Claude Desktop, IDE assistants). stdio by default; with
    --http each request's `Authorization: Bearer <key>` picks its caller, and without API keys it listens
    on loopback only."""
    from serving.mcp_server import run_http, run_stdio
    from strata_pipeline.cli.api_keys import caller_named
    from strata_pipeline.serving_index import PublishedIndex

    if not over_http:
        if host is not None or port is not None:
            raise click.UsageError("--host and --port go with --http.")
        caller, settings = caller_named(as_name), load_settings()
        run_stdio(PublishedIndex.from_settings(settings), caller, settings.corpus_root)
        return
    if as_name is not None:
        raise click.UsageError("--as is for stdio: over HTTP each request's API key picks its caller.")
    from serving.config import ServingConfig, check_bind

    host = host or "127.0.0.1"
    config = ServingConfig.from_env()
    try:
        click.echo(check_bind(host, config), err=True)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    settings = load_settings()
    run_http(PublishedIndex.from_settings(settings), settings.corpus_root, host, port or 8001, config)


@click.command()
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
