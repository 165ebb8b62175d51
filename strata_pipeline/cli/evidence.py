"""`strata verify`: re-read the sources of an evidence packet and say whether each quote still stands."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import click

from strata_pipeline.cli.query import _ask_server, _engine
from strata_pipeline.settings import load_settings


@click.command()
@click.argument("packet_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the verify report as JSON.")
def verify(packet_file: Path, as_json: bool) -> None:
    """Check an evidence packet (`strata ask --evidence FILE`) against the sources as they are now.

    Each citation is intact, drifted (the quote is no longer at its place; the new place when it moved)
    or missing (the document is gone); so is each spreadsheet row an aggregation counted (drifted when its
    sheet changed, with the row's new place when it moved). Exits 0 when all are intact, 1 otherwise.
    """
    from strata_pipeline.evidence import packet_from_dict

    try:
        data = json.loads(packet_file.read_text(encoding="utf-8"))
        packet = packet_from_dict(data)
    except (ValueError, UnicodeDecodeError) as exc:  # json.JSONDecodeError is a ValueError
        raise click.ClickException(f"{packet_file} is not an evidence packet: {exc}") from exc
    body = asdict(packet)
    if not body["rows"]:
        del body["rows"]  # a packet from passages alone posts as it always did (a server before rows reads it)
    report = _ask_server("/verify", body)
    if report is None:
        from strata_pipeline.evidence.service import verify_for

        settings = load_settings()
        with _engine(settings, None) as engine:
            report = asdict(verify_for(engine, packet, settings.corpus_root))
    if as_json:
        click.echo(json.dumps(report, indent=2))
    else:
        _table(asdict(packet), report)
    if not report["ok"]:
        raise SystemExit(1)


def _table(packet: dict[str, Any], report: dict[str, Any]) -> None:
    click.echo(f"{'#':>3}  {'status':<8} {'lines':>9}  {'now':>9}  document  (reason)")
    for check in report["citations"]:
        cited = packet["citations"][check["index"]]
        moved = check["moved_to"]
        now = f"{moved['line_start']}-{moved['line_end']}" if moved else "-"
        click.echo(
            f"{check['index']:>3}  {check['status']:<8} {cited['line_start']:>4}-{cited['line_end']:<4}  {now:>9}  "
            f"{check['source_set']}/{check['doc_id']}  ({check['reason']})"
        )
    for check in report.get("rows") or []:
        moved = check["moved_to_row"]
        click.echo(
            f"{check['index']:>3}  {check['status']:<8} {'row ' + str(check['row']):>9}  "
            f"{'row ' + str(moved) if moved else '-':>9}  {check['source_set']}/{check['doc_id']} [{check['sheet']}]  "
            f"({check['reason']})"
        )
    counts = report["counts"]
    rows = len(report.get("rows") or [])
    checked = f"{len(report['citations'])} citation(s)" + (f" and {rows} row(s)" if rows else "")
    click.echo(f"{checked}: {counts['intact']} intact, {counts['drifted']} drifted, {counts['missing']} missing")
