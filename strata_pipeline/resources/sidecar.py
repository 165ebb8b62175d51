from __future__ import annotations

import sqlite3
from pathlib import Path

import dagster as dg

from strata_pipeline.enrichment.sidecar import connect


class SidecarResource(dg.ConfigurableResource):
    """The structured SQLite sidecar that travels with each index version."""

    busy_timeout_s: int = 60

    def connect(self, path: Path) -> sqlite3.Connection:
        db = connect(path)
        db.execute(f"PRAGMA busy_timeout = {self.busy_timeout_s * 1000}")
        return db
