"""STRATA_HOME's layout has one owner (home.py; index versions: indexing/versions.py): no other
module builds those paths, so the layout can change in one place and a copied home still works."""

from __future__ import annotations

import re
from pathlib import Path

from strata_pipeline.home import HomeLayout

ROOT = Path(__file__).resolve().parents[1]
OWNERS = {ROOT / "strata_pipeline" / "home.py", ROOT / "strata_pipeline" / "indexing" / "versions.py"}
# a path joined onto a home-level folder or file name, e.g. `home / "cache"` or `"sidecar.sqlite"`
BUILT = re.compile(
    r'/\s*"(?:index|cache|assets|reports|removed|models|dagster_home)"' r'|"sidecar\.sqlite"|"vectors\.sqlite"'
)


def test_only_the_layout_modules_build_home_paths() -> None:
    modules = [p for pkg in ("strata_pipeline", "serving") for p in (ROOT / pkg).rglob("*.py")]
    builders = sorted(str(p.relative_to(ROOT)) for p in modules if p not in OWNERS and BUILT.search(p.read_text()))
    assert builders == []


def test_every_path_is_under_the_home_and_moves_with_it(tmp_path: Path) -> None:
    old, new = HomeLayout(tmp_path / "a"), HomeLayout(tmp_path / "b")
    paths = [old.assets_dir, old.index_dir, old.vector_cache, old.stage_cache("redaction"), old.reports_dir]
    paths += [old.tombstone("handbook"), old.asset_value("chunks", "handbook"), old.default_dagster_home]
    assert all(p.is_relative_to(old.root) for p in paths)
    assert old.tombstone("handbook").relative_to(old.root) == new.tombstone("handbook").relative_to(new.root)
    assert HomeLayout.around_models(old.models_dir) == old
