"""`strata rollback`: serve an earlier published (so evaluated) version again."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from strata_pipeline.cli import main
from strata_pipeline.indexing.versions import current_version_name, publish
from strata_pipeline_tests.indexing.test_versions import make_version
from strata_pipeline_tests.test_cli import env_for


def rollback(home: Path, *args: str):
    return CliRunner().invoke(main, ["rollback", *args], env=env_for(home, home / "corpus"))


def test_rollback_serves_the_previous_published_version(tmp_path: Path) -> None:
    index_dir = tmp_path / "index"
    v1, v2 = make_version(index_dir, "v1", points=10), make_version(index_dir, "v2", points=12)
    make_version(index_dir, "v3")  # written by a run whose eval failed: never published
    publish(index_dir, v1)
    publish(index_dir, v2)
    result = rollback(tmp_path, "handbook")
    assert result.exit_code == 0, result.output
    assert "now serving v1 (10 points); was v2" in result.output
    assert current_version_name(index_dir, "handbook") == "v1"
    # and forward again, naming the version
    assert rollback(tmp_path, "handbook", "v2").exit_code == 0
    assert current_version_name(index_dir, "handbook") == "v2"


def test_rollback_refuses_an_unpublished_version_and_says_what_can_be_chosen(tmp_path: Path) -> None:
    index_dir = tmp_path / "index"
    v1, v2 = make_version(index_dir, "v1"), make_version(index_dir, "v2")
    make_version(index_dir, "v3")
    publish(index_dir, v1)
    publish(index_dir, v2)
    result = rollback(tmp_path, "handbook", "v3")
    assert result.exit_code != 0
    assert "'v3' is not a published version on disk. Earlier ones: v1" in result.output
    assert current_version_name(index_dir, "handbook") == "v2"


def test_rollback_of_an_unpublished_source_set_says_how_to_publish(tmp_path: Path) -> None:
    result = rollback(tmp_path, "handbook")
    assert result.exit_code != 0
    assert "nothing is published. Run `strata materialize --source-set handbook`" in result.output


def test_rollback_refuses_a_path_for_a_source_set(tmp_path: Path) -> None:
    result = rollback(tmp_path, "../../tmp/x")
    assert result.exit_code == 2
    assert not (tmp_path / "tmp").exists()
