"""Partition-aware storage for asset values: polars frames as Parquet, small objects pickled.

Files live at `<STRATA_HOME>/assets/<asset>/<partition>.parquet|.pkl`, so every stage's output
can be opened with any Parquet reader for inspection.
"""

from __future__ import annotations

import pickle
from typing import Any

import dagster as dg
import polars as pl
from upath import UPath


class _StrataUPathIOManager(dg.UPathIOManager):
    extension = ""

    def dump_to_path(self, context: dg.OutputContext, obj: Any, path: UPath) -> None:
        if isinstance(obj, pl.DataFrame):
            obj.write_parquet(str(path.with_suffix(".parquet")))
            path.with_suffix(".pkl").unlink(missing_ok=True)
        else:
            path.with_suffix(".pkl").write_bytes(pickle.dumps(obj))
            path.with_suffix(".parquet").unlink(missing_ok=True)

    def load_from_path(self, context: dg.InputContext, path: UPath) -> Any:
        if path.with_suffix(".parquet").exists():
            return pl.read_parquet(str(path.with_suffix(".parquet")))
        if path.with_suffix(".pkl").exists():
            return pickle.loads(path.with_suffix(".pkl").read_bytes())
        raise FileNotFoundError(
            f"No stored value at {path}.parquet|.pkl: materialise the upstream asset for this partition first."
        )

    def path_exists(self, path: UPath) -> bool:
        return path.with_suffix(".parquet").exists() or path.with_suffix(".pkl").exists()

    def get_metadata(self, context: dg.OutputContext, obj: Any) -> dict[str, Any]:
        if isinstance(obj, pl.DataFrame):
            return {"dagster/row_count": obj.height}
        return {}


class StrataIOManager(dg.ConfigurableIOManagerFactory):
    base_dir: str

    def create_io_manager(self, context: dg.InitResourceContext) -> _StrataUPathIOManager:
        return _StrataUPathIOManager(base_path=UPath(self.base_dir))
