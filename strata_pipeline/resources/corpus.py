from __future__ import annotations

from pathlib import Path

import dagster as dg

from strata_pipeline.discovery.adapters import SourceAdapter, get_adapter


class CorpusResource(dg.ConfigurableResource):
    """Where documents, rules, golden sets and pipeline state live."""

    root: str
    home: str
    rules_dir: str
    golden_dir: str
    adapter: str = "folder"
    max_file_bytes: int = 50 * 1024 * 1024

    def source_dir(self, source_set: str) -> Path:
        return Path(self.root) / source_set

    def get_adapter(self) -> SourceAdapter:
        return get_adapter(self.adapter)

    @property
    def home_path(self) -> Path:
        return Path(self.home)

    @property
    def index_dir(self) -> Path:
        return self.home_path / "index"

    @property
    def reports_dir(self) -> Path:
        return self.home_path / "reports"
