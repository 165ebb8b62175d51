from __future__ import annotations

from pathlib import Path

import dagster as dg

from strata_pipeline.discovery.adapters import SourceAdapter, get_adapter
from strata_pipeline.discovery.discover import Limits
from strata_pipeline.discovery.extractors.extraction import ExtractLimits
from strata_pipeline.home import HomeLayout


class CorpusResource(dg.ConfigurableResource):
    """Where documents, rules, golden sets and pipeline state live."""

    root: str
    home: str
    rules_dir: str
    golden_dir: str
    adapter: str = "folder"  # default adapter; `adapter:` in rules/<source_set>.yaml overrides it
    plugins_dir: str = ""  # STRATA_PLUGINS_DIR: Python modules that register adapters
    max_file_bytes: int = 50 * 1024 * 1024
    max_pages: int = 500
    max_text_chars: int = 5_000_000
    max_zip_expansion: int = 200 * 1024 * 1024
    extract_timeout_s: float = 60.0
    extract_workers: int = 2
    api_url: str = ""  # STRATA_API_URL: the query API, which serves the full eval reports the assets link to

    def source_dir(self, source_set: str) -> Path:
        return Path(self.root) / source_set

    def get_adapter(self, name: str | None = None) -> SourceAdapter:
        return get_adapter(name or self.adapter)

    def limits(self) -> Limits:
        return Limits(
            max_file_bytes=self.max_file_bytes,
            timeout_s=self.extract_timeout_s,
            workers=self.extract_workers,
            extract=ExtractLimits(
                max_pages=self.max_pages, max_zip_expansion=self.max_zip_expansion, max_text_chars=self.max_text_chars
            ),
        )

    @property
    def home_path(self) -> Path:
        return Path(self.home)

    @property
    def layout(self) -> HomeLayout:
        return HomeLayout(self.home_path)

    @property
    def index_dir(self) -> Path:
        return self.layout.index_dir

    @property
    def reports_dir(self) -> Path:
        return self.layout.reports_dir
