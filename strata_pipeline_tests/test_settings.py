"""settings.py is the one module that reads configuration from the environment, and it reads
every variable the rest of the code is configured by."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from serving.config import DEFAULT_RATE_LIMIT, ServingConfig
from strata_pipeline.access.keys import keys_path
from strata_pipeline.redaction.name_index import cache_dir
from strata_pipeline.settings import PROJECT_ROOT, load_settings

SETTINGS_MODULE = PROJECT_ROOT / "strata_pipeline" / "settings.py"
RUNTIME_PACKAGES = ("strata_pipeline", "serving")


def environment_reads(source: str) -> list[int]:
    """Line numbers where `source` reads the environment: os.environ (but for os.environ.setdefault,
    which sets a library flag at import rather than reading configuration), os.getenv, or either
    imported by name from os."""
    tree = ast.parse(source)
    setdefault_targets = {
        id(node.func.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "setdefault"
        and _is_os_attribute(node.func.value, "environ")
    }
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "os":
            if any(alias.name in ("environ", "getenv", "environb", "getenvb") for alias in node.names):
                lines.append(node.lineno)
        elif (
            _is_os_attribute(node, "environ") or _is_os_attribute(node, "environb") or _is_os_attribute(node, "getenv")
        ) and id(node) not in setdefault_targets:
            lines.append(node.lineno)
    return sorted(lines)


def _is_os_attribute(node: ast.AST, name: str) -> bool:
    is_attribute = isinstance(node, ast.Attribute) and node.attr == name
    return is_attribute and isinstance(node.value, ast.Name) and node.value.id == "os"


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        ("import os\nx = os.environ.get('A', '')\n", [2]),
        ("import os\nx = os.environ['A']\n", [2]),
        ("import os\nx = 'A' in os.environ\n", [2]),
        ("import os\nx = os.getenv('A')\n", [2]),
        ("from os import environ\n", [1]),
        ("from os import getenv as g\n", [1]),
        ("import os\nos.environ.setdefault('RAGAS_DO_NOT_TRACK', 'true')\n", []),
        ("import os\nx = os.path.join('a', 'b')\n", []),
        ("x = settings.environ\n", []),
    ],
)
def test_environment_reads_are_found_and_setdefault_is_not_one(source: str, lines: list[int]) -> None:
    assert environment_reads(source) == lines


def test_only_settings_reads_the_environment() -> None:
    offenders = {}
    for package in RUNTIME_PACKAGES:
        for file in sorted((PROJECT_ROOT / package).rglob("*.py")):
            if file == SETTINGS_MODULE:
                continue
            found = environment_reads(file.read_text(encoding="utf-8"))
            if found:
                offenders[str(file.relative_to(PROJECT_ROOT))] = found
    assert offenders == {}, "read configuration through strata_pipeline.settings instead"
    assert environment_reads(SETTINGS_MODULE.read_text(encoding="utf-8"))  # the guard looks at real code


def test_every_variable_is_read_into_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    values = {
        "STRATA_API_URL": "http://127.0.0.1:8000/",
        "STRATA_API_KEY": " strata_caller ",
        "ANTHROPIC_API_KEY": "sk-ant-test",
        "QDRANT_API_KEY": "qdrant-test",
        "STRATA_PII_BACKEND": "presidio-regex",
        "STRATA_CACHE_DIR": str(tmp_path / "cache"),
        "STRATA_API_KEYS": str(tmp_path / "keys.yaml"),
        "STRATA_MAX_BODY_BYTES": "300",
        "STRATA_RATE_LIMIT": "5/minute",
        "STRATA_RATE_LIMIT_STORAGE": "memory://",
    }
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    settings = load_settings()
    assert settings.api_url == "http://127.0.0.1:8000"
    assert settings.api_key == "strata_caller"
    assert (settings.anthropic_api_key, settings.qdrant_api_key) == ("sk-ant-test", "qdrant-test")
    assert settings.pii_backend == "presidio-regex"
    assert cache_dir() == tmp_path / "cache"
    assert keys_path() == tmp_path / "keys.yaml"
    assert ServingConfig.from_env() == ServingConfig(
        max_body_bytes=300, rate_limit="5/minute", rate_limit_storage="memory://", keys_file=tmp_path / "keys.yaml"
    )
    # a logged or printed Settings never shows a secret
    assert not any(secret in repr(settings) for secret in ("sk-ant-test", "qdrant-test", "strata_caller"))


def test_unset_variables_fall_back_to_the_offline_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("STRATA_API_URL", "STRATA_API_KEY", "ANTHROPIC_API_KEY", "QDRANT_API_KEY", "STRATA_PII_BACKEND"):
        monkeypatch.delenv(name, raising=False)
    for name in ("STRATA_API_KEYS", "STRATA_MAX_BODY_BYTES", "STRATA_RATE_LIMIT", "STRATA_RATE_LIMIT_STORAGE"):
        monkeypatch.delenv(name, raising=False)
    settings = load_settings()
    assert (settings.api_url, settings.api_key, settings.anthropic_api_key, settings.qdrant_api_key) == ("", "", "", "")
    assert settings.pii_backend == "presidio-ner"
    assert keys_path() is None
    assert ServingConfig.from_env() == ServingConfig(rate_limit=DEFAULT_RATE_LIMIT)
