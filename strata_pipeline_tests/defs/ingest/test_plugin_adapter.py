"""A source adapter loaded from STRATA_PLUGINS_DIR, end to end through the real assets."""

from __future__ import annotations

import dataclasses
import shutil
import sqlite3
from pathlib import Path

import dagster as dg
import polars as pl
import pytest

from strata_pipeline.discovery.adapters import adapter_names
from strata_pipeline.discovery.plugins import PluginError, load_plugins
from strata_pipeline.indexing.versions import current_version
from strata_pipeline.settings import PROJECT_ROOT
from strata_pipeline_tests.conftest import Stack, make_settings, run_partition

PLUGIN = '''
from pathlib import Path

from strata_pipeline.discovery.adapters import register_adapter, source_file


class ShopLayout:
    """In this shop's exports, docs/*.txt are config dumps while promo/*.txt are product copy."""

    name = "shop-layout"
    facets = {"Article No": "sku", "Unit Price": "price"}

    def iter_files(self, source_dir: Path):
        for path in sorted(p for p in source_dir.rglob("*") if p.is_file()):
            rel = path.relative_to(source_dir).as_posix()
            doc_type = {"docs": "config_dump", "promo": "product_copy"}.get(rel.split("/", 1)[0])
            yield source_file(source_dir, path, doc_type)


register_adapter(ShopLayout.name, ShopLayout)
'''


def test_plugin_adapter_decides_layout_doc_types_and_facets(tmp_path: Path) -> None:
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "shop_layout.py").write_text(PLUGIN)
    rules = tmp_path / "rules"
    rules.mkdir()
    shutil.copy(PROJECT_ROOT / "rules" / "corpus-rules.yaml", rules)
    (rules / "shop.yaml").write_text(
        "adapter: shop-layout\nrules:\n  - name: config-dumps\n    doc_types: [config_dump]\n    action: exclude\n"
    )
    corpus = tmp_path / "corpus" / "shop"
    (corpus / "docs").mkdir(parents=True)
    (corpus / "promo").mkdir()
    (corpus / "docs" / "env-dump.txt").write_text("HOST=shop-01\nPORT=8080\nMODE=production\nWORKERS=4\nTIMEOUT=30\n")
    (corpus / "promo" / "kettle.txt").write_text(
        "The Aurora kettle boils a full litre of water in ninety seconds flat.\n"
    )
    (corpus / "promo" / "prices.csv").write_text("Article No,Unit Price\nK-100,49.5\nK-200,79.0\n")

    settings = dataclasses.replace(
        make_settings(tmp_path / "home", tmp_path / "corpus"), rules_dir=rules, plugins_dir=str(plugins)
    )
    stack = Stack(settings, dg.DagsterInstance.ephemeral(), {})
    result = run_partition(settings, stack.instance, "shop")
    assert result.success
    assert "shop-layout" in adapter_names()
    assert stack.materialization(result, "discovered_docs")["adapter"] == "shop-layout"

    docs = pl.read_parquet(settings.assets_dir / "classified_docs" / "shop.parquet")
    decided = {r["doc_id"]: (r["doc_type"], r["decision"], r["rule"]) for r in docs.iter_rows(named=True)}
    assert decided == {
        "docs/env-dump.txt": ("config_dump", "exclude", "config-dumps"),
        "promo/kettle.txt": ("product_copy", "include", "default-include"),
        "promo/prices.csv": ("product_copy", "include", "default-include"),  # searchable, and facts below
    }

    db = sqlite3.connect(current_version(settings.index_dir, "shop").sidecar_path)
    try:
        (table, columns) = db.execute("SELECT table_name, columns FROM fact_tables").fetchone()
        assert columns == '["sku", "price"]'
        assert db.execute(f'SELECT sku, price FROM "{table}" ORDER BY sku').fetchall() == [
            ("K-100", 49.5),
            ("K-200", 79.0),
        ]
    finally:
        db.close()


def test_missing_plugin_folder_is_a_no_op(tmp_path: Path) -> None:
    assert load_plugins(tmp_path / "nope") == []
    assert load_plugins("") == []


def test_broken_plugin_fails_loudly_naming_its_file(tmp_path: Path) -> None:
    (tmp_path / "broken_adapter.py").write_text("raise ImportError('needs a library that is not installed')\n")
    with pytest.raises(PluginError, match=r"broken_adapter\.py failed to load: ImportError: needs a library"):
        load_plugins(tmp_path)
