"""The layout of the state folder (STRATA_HOME): the one place that knows where each kind of state
lives under it. Settings, the corpus resource, the embedder's vector cache and document removal all
ask here; index versions inside `index/` belong to indexing/versions.py, and the sidecar's tables to
enrichment/sidecar.py (written) and access/sidecar.py (read on the query path).

Every path is relative to the root, so the folder can be moved or copied whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class HomeLayout:
    root: Path

    @classmethod
    def around_models(cls, models_dir: str | Path) -> HomeLayout:
        """The home a models folder belongs to (the embedder is configured with its models folder)."""
        return cls(Path(models_dir).parent)

    @property
    def assets_dir(self) -> Path:
        """Stored asset values, `<asset>/<source_set>.parquet` (io_manager.py)."""
        return self.root / "assets"

    def asset_value(self, asset: str, source_set: str) -> Path:
        return self.assets_dir / asset / f"{source_set}.parquet"

    @property
    def index_dir(self) -> Path:
        """Index versions per source-set, with CURRENT and PUBLISHED (indexing/versions.py)."""
        return self.root / "index"

    @property
    def models_dir(self) -> Path:
        return self.root / "models"

    @property
    def cache_dir(self) -> Path:
        """Per-stage document caches (`<stage>.sqlite`), the vector cache and the eval's memo."""
        return self.root / "cache"

    @property
    def vector_cache(self) -> Path:
        return self.cache_dir / "vectors.sqlite"

    def stage_cache(self, stage: str) -> Path:
        return self.cache_dir / f"{stage}.sqlite"

    @property
    def reports_dir(self) -> Path:
        return self.root / "reports"

    def tombstone(self, source_set: str) -> Path:
        """Documents removed with `strata remove`, one doc_id per line: discovery leaves them out."""
        return self.root / "removed" / f"{source_set}.txt"

    @property
    def default_dagster_home(self) -> Path:
        return self.root / "dagster_home"
