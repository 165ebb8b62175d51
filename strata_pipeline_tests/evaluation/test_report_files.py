"""Full eval reports on disk: written whole, found again newest first, only under slug folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata_pipeline.evaluation.report_files import latest_report, report_url, write_report


def test_the_latest_report_is_the_newest_version_with_its_markdown(tmp_path: Path) -> None:
    assert latest_report(tmp_path, "handbook") is None
    write_report(tmp_path, "handbook", "v20261201T020000000000Z-aaaa", {"summary": {"mrr": 0.5}}, "# old")
    path = write_report(tmp_path, "handbook", "v20261202T020000000000Z-bbbb", {"summary": {"mrr": 0.9}}, "# new")
    (tmp_path / "handbook" / "baseline.json").write_text('{"summary": {}}')  # the regression gate's file
    (tmp_path / "handbook" / "plan-20261203.json").write_text("{}")
    latest = latest_report(tmp_path, "handbook")
    assert latest is not None and latest.version == "v20261202T020000000000Z-bbbb" == path.stem
    assert (latest.report, latest.markdown) == ({"summary": {"mrr": 0.9}}, "# new")
    assert not list((tmp_path / "handbook").glob("*.tmp"))
    path.with_suffix(".md").unlink()
    assert latest_report(tmp_path, "handbook").markdown is None
    assert latest_report(tmp_path, "products") is None
    assert report_url("handbook") == "/reports/handbook"


@pytest.mark.parametrize("name", ["../etc", "Hand Book", ".hidden", ""])
def test_a_name_that_is_not_a_slug_never_reaches_a_path(tmp_path: Path, name: str) -> None:
    with pytest.raises(ValueError, match="not a source-set name"):
        latest_report(tmp_path, name)
    with pytest.raises(ValueError, match="not a source-set name"):
        write_report(tmp_path, name, "v1", {}, "")
