"""No module of the runtime package or the API is over 500 lines: a module that long has more than
one concern, and the next reader pays for it (split it by concern, as cli/ and discovery/extractors/)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 500
MODULES = sorted(p for package in ("strata_pipeline", "serving") for p in (ROOT / package).rglob("*.py"))


def test_the_packages_are_found() -> None:
    assert len(MODULES) > 100 and (ROOT / "strata_pipeline" / "query_engine.py") in MODULES


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_is_over_500_lines(module: Path) -> None:
    lines = len(module.read_text(encoding="utf-8").splitlines())
    assert lines <= LIMIT, f"{module.relative_to(ROOT)} has {lines} lines: split it by concern"
