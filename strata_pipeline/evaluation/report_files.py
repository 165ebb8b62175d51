"""Where the full eval reports live and how they are found again: `<reports>/<source_set>/<version>.json`
(and `.md`), one per evaluated index version; the API serves the latest (serving/app.py)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from strata_pipeline.validation import check_source_set

REPORTS_ROUTE = "/reports"


def report_url(source_set: str, api_url: str = "") -> str:
    """Where the query API serves the latest full report of `source_set` (GET, JSON): under `api_url`
    when one is configured, else the path alone (to be read against wherever `strata serve` runs)."""
    return f"{api_url.rstrip('/')}{REPORTS_ROUTE}/{source_set}"


@dataclass(frozen=True)
class StoredReport:
    source_set: str
    version: str
    report: dict[str, Any]
    markdown: str | None


def _write(path: Path, text: str) -> None:
    tmp = path.with_suffix(f"{path.suffix}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)  # a reader never sees half a report


def write_report(reports_dir: Path, source_set: str, version: str, report: dict[str, Any], markdown: str) -> Path:
    """Write the JSON report (first the markdown beside it, so a JSON report always has its markdown)."""
    folder = Path(reports_dir) / check_source_set(source_set)
    folder.mkdir(parents=True, exist_ok=True)
    _write(folder / f"{version}.md", markdown)
    path = folder / f"{version}.json"
    _write(path, json.dumps(report, indent=2))
    return path


def latest_report(reports_dir: Path, source_set: str) -> StoredReport | None:
    """The newest report of `source_set` (version names sort by time), or None when there is none."""
    folder = Path(reports_dir) / check_source_set(source_set)
    reports = sorted(folder.glob("v*.json")) if folder.is_dir() else []
    if not reports:
        return None
    path = reports[-1]
    markdown = path.with_suffix(".md")
    return StoredReport(
        source_set=source_set,
        version=path.stem,
        report=json.loads(path.read_text(encoding="utf-8")),
        markdown=markdown.read_text(encoding="utf-8") if markdown.exists() else None,
    )
