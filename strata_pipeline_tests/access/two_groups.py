"""A "plant" source-set published with two access groups (hr, finance) and an API key for each: the
set-up of every test that checks one group never sees the other's documents, rows or names."""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import dagster as dg

from strata_pipeline.access.keys import add_key
from strata_pipeline.settings import PROJECT_ROOT, Settings
from strata_pipeline_tests.conftest import Stack, make_settings, run_partition
from strata_pipeline_tests.plant import write_plant
from strata_pipeline_tests.test_cli import env_for


@dataclasses.dataclass
class TwoGroups:
    stack: Stack
    keys_file: Path
    hr_key: str  # key "hr-app", group hr
    finance_key: str  # key "finance-app", group finance
    limited_key: str  # key "hr-slow", group hr, 2 requests a minute

    @property
    def settings(self) -> Settings:
        return self.stack.settings

    def cli_env(self) -> dict[str, str]:
        """The environment `strata ... --as <key name>` runs with: this home, rules and keys, no server."""
        settings = self.settings
        return env_for(settings.home, settings.corpus_root) | {
            "STRATA_API_KEYS": str(self.keys_file),
            "STRATA_RULES_DIR": str(settings.rules_dir),
            "STRATA_API_URL": "",
        }


@contextmanager
def two_groups_published(root: Path, docs: dict[str, str], golden_yaml: str, access_rules: str) -> Iterator[TwoGroups]:
    """`docs` as source-set "plant" under `root`, its access block `access_rules` beside the project's
    corpus rules, materialised and published; the instance is disposed on exit."""
    corpus, golden = write_plant(root, docs, golden_yaml)
    rules = root / "rules"
    rules.mkdir()
    shutil.copy(PROJECT_ROOT / "rules" / "corpus-rules.yaml", rules)
    (rules / "plant.yaml").write_text(access_rules)
    settings = dataclasses.replace(make_settings(root / "home", corpus), golden_dir=golden, rules_dir=rules)
    instance = dg.DagsterInstance.ephemeral()
    try:
        result = run_partition(settings, instance, "plant")
        assert result.success
        keys_file = root / "keys.yaml"
        hr, finance = add_key(keys_file, "hr-app", ["hr"]), add_key(keys_file, "finance-app", ["finance"])
        limited = add_key(keys_file, "hr-slow", ["hr"], rate_limit="2/minute")
        yield TwoGroups(Stack(settings, instance, {"plant": result}), keys_file, hr, finance, limited)
    finally:
        instance.dispose()
