"""Index versions: atomic publish, manifests, pruning and seeding."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from strata_pipeline.indexing import versions
from strata_pipeline.indexing.versions import (
    IndexVersion,
    current_version,
    current_version_name,
    new_version_name,
    prune_versions,
    prune_versions_with_manifests,
    publish,
    published_source_sets,
    read_manifest,
    seed_from,
    version_dir,
    write_manifest,
)


def make_version(index_dir: Path, name: str, source_set: str = "handbook", points: int = 10) -> IndexVersion:
    version = IndexVersion(
        source_set=source_set,
        version=name,
        path=str(version_dir(index_dir, source_set, name)),
        collection=f"{source_set}_{name}",
        model="strata/all-MiniLM-L6-v2-int8",
        dim=384,
        point_count=points,
        chunker="windows-v1",
    )
    write_manifest(version)
    return version


def test_new_version_names_sort_by_time() -> None:
    first = new_version_name()
    second = new_version_name("0123456789abcdef")
    assert re.fullmatch(r"v\d{8}T\d{12}Z", first)
    assert re.fullmatch(r"v\d{8}T\d{12}Z-01234567", second)
    assert first < second


def test_manifest_roundtrip(tmp_path: Path) -> None:
    version = make_version(tmp_path, "v1")
    assert version.folder == tmp_path / "handbook" / "versions" / "v1"
    assert version.store_path == version.folder / "edge"
    assert version.sidecar_path == version.folder / "sidecar.sqlite"
    assert (version.folder / "manifest.json").is_file()
    assert read_manifest(tmp_path, "handbook", "v1") == version
    assert IndexVersion.from_json(version.to_json()) == version
    assert read_manifest(tmp_path, "handbook", "v2") is None


def test_nothing_published_yet(tmp_path: Path) -> None:
    make_version(tmp_path, "v1")
    assert current_version_name(tmp_path, "handbook") is None
    assert current_version(tmp_path, "handbook") is None
    assert published_source_sets(tmp_path) == []
    assert published_source_sets(tmp_path / "missing") == []


def test_publish_flips_current_and_current_version_reads_the_manifest(tmp_path: Path) -> None:
    v1 = make_version(tmp_path, "v1", points=10)
    v2 = make_version(tmp_path, "v2", points=12)
    publish(tmp_path, v1)
    pointer = tmp_path / "handbook" / "CURRENT"
    assert pointer.read_text(encoding="utf-8") == "v1\n"
    assert current_version_name(tmp_path, "handbook") == "v1"
    assert current_version(tmp_path, "handbook") == v1
    publish(tmp_path, v2)
    assert current_version(tmp_path, "handbook") == v2
    assert current_version(tmp_path, "handbook").point_count == 12
    # No temporary file is left behind next to the pointer.
    assert sorted(p.name for p in (tmp_path / "handbook").iterdir()) == ["CURRENT", "PUBLISHED", "versions"]
    assert versions.published_history(tmp_path, "handbook") == ["v1", "v2"]
    assert published_source_sets(tmp_path) == ["handbook"]


def test_publish_is_one_atomic_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    v1 = make_version(tmp_path, "v1")
    v2 = make_version(tmp_path, "v2")
    publish(tmp_path, v1)
    replaced: list[tuple[Path, Path, str]] = []
    real_replace = versions.os.replace

    def spy(src, dst) -> None:
        # At the moment of the rename the pointer still names the old version.
        replaced.append((Path(src), Path(dst), Path(dst).read_text(encoding="utf-8")))
        real_replace(src, dst)

    monkeypatch.setattr(versions.os, "replace", spy)
    publish(tmp_path, v2)
    # the publication log is written first; the pointer flips in the last rename
    [(_, log, _), (src, dst, before)] = replaced
    assert log == tmp_path / "handbook" / "PUBLISHED"
    assert dst == tmp_path / "handbook" / "CURRENT"
    assert src.parent == dst.parent
    assert src.name.startswith(".CURRENT.")
    assert before == "v1\n"
    assert not src.exists()
    assert current_version_name(tmp_path, "handbook") == "v2"


def test_empty_pointer_means_unpublished(tmp_path: Path) -> None:
    (tmp_path / "handbook").mkdir()
    (tmp_path / "handbook" / "CURRENT").write_text("\n", encoding="utf-8")
    assert current_version_name(tmp_path, "handbook") is None
    assert current_version(tmp_path, "handbook") is None


def publish_all(index_dir: Path, *names: str) -> None:
    for name in names:
        publish(index_dir, read_manifest(index_dir, "handbook", name))


def age(index_dir: Path, name: str, seconds: float) -> None:
    folder = version_dir(index_dir, "handbook", name)
    stamp = time.time() - seconds
    os.utime(folder, (stamp, stamp))


def remaining(index_dir: Path) -> list[str]:
    return sorted(p.name for p in (index_dir / "handbook" / "versions").iterdir())


def test_prune_keeps_the_last_published_versions(tmp_path: Path) -> None:
    for name in ("v1", "v2", "v3", "v4", "v5"):
        make_version(tmp_path, name)
    publish_all(tmp_path, "v1", "v2", "v3", "v4", "v5")
    assert prune_versions(tmp_path, "handbook", keep=3) == ["v1", "v2"]
    assert remaining(tmp_path) == ["v3", "v4", "v5"]
    assert prune_versions(tmp_path, "handbook", keep=3) == []


def test_leftovers_of_killed_runs_never_push_out_published_versions(tmp_path: Path) -> None:
    """Three newer never-published folders (killed runs) must not cost the two rollback targets."""
    for name in ("v1", "v2", "v3", "v4", "v5", "v6"):
        make_version(tmp_path, name)
    publish_all(tmp_path, "v1", "v2", "v3")
    assert prune_versions(tmp_path, "handbook") == []  # the leftovers are young: a run may own them
    for name in ("v4", "v5", "v6"):
        age(tmp_path, name, versions.UNPUBLISHED_GRACE_S + 60)
    assert prune_versions(tmp_path, "handbook") == ["v4", "v5", "v6"]
    assert remaining(tmp_path) == ["v1", "v2", "v3"]
    assert current_version_name(tmp_path, "handbook") == "v3"


def test_prune_never_removes_the_published_version(tmp_path: Path) -> None:
    for name in ("v1", "v2", "v3", "v4", "v5"):
        make_version(tmp_path, name)
    publish_all(tmp_path, "v2", "v3", "v4", "v5", "v1")  # v1 last: a rollback to it
    removed = prune_versions_with_manifests(tmp_path, "handbook", keep=2)
    assert [name for name, _ in removed] == ["v2", "v3", "v4"]
    assert [manifest.collection for _, manifest in removed] == ["handbook_v2", "handbook_v3", "handbook_v4"]
    assert remaining(tmp_path) == ["v1", "v5"]
    assert current_version(tmp_path, "handbook").version == "v1"


def test_prune_default_keep_and_missing_folder(tmp_path: Path) -> None:
    assert versions.KEEP_VERSIONS == 3
    assert prune_versions(tmp_path, "handbook") == []
    for name in ("v1", "v2", "v3"):
        make_version(tmp_path, name)
    publish_all(tmp_path, "v1", "v2", "v3")
    assert prune_versions(tmp_path, "handbook") == []


def test_prune_returns_none_for_a_version_without_manifest(tmp_path: Path) -> None:
    version_dir(tmp_path, "handbook", "v0").mkdir(parents=True)  # a half-written version
    make_version(tmp_path, "v1")
    make_version(tmp_path, "v2")
    publish_all(tmp_path, "v1", "v2")
    assert prune_versions_with_manifests(tmp_path, "handbook", keep=2, grace_s=0) == [("v0", None)]


def test_a_pointer_from_before_the_log_counts_as_published(tmp_path: Path) -> None:
    make_version(tmp_path, "v1")
    make_version(tmp_path, "v2")
    (tmp_path / "handbook" / "CURRENT").write_text("v1\n", encoding="utf-8")  # no PUBLISHED file yet
    publish_all(tmp_path, "v2")
    assert versions.published_history(tmp_path, "handbook") == ["v1", "v2"]


def test_rollback_goes_to_the_previous_published_version(tmp_path: Path) -> None:
    for name in ("v1", "v2", "v3"):
        make_version(tmp_path, name)
    publish_all(tmp_path, "v1", "v2")  # v3: written, never published (its eval failed)
    assert versions.rollback_target(tmp_path, "handbook").version == "v1"
    assert versions.rollback_target(tmp_path, "handbook", "v1").version == "v1"
    with pytest.raises(ValueError, match=r"'v3' is not a published version on disk\. Earlier ones: v1"):
        versions.rollback_target(tmp_path, "handbook", "v3")
    publish_all(tmp_path, "v1")
    assert versions.rollback_target(tmp_path, "handbook").version == "v2"


def test_rollback_with_nothing_earlier_says_so(tmp_path: Path) -> None:
    make_version(tmp_path, "v1")
    publish_all(tmp_path, "v1")
    with pytest.raises(ValueError, match="no earlier published version"):
        versions.rollback_target(tmp_path, "handbook")


def test_seed_from_copies_the_published_shard(tmp_path: Path) -> None:
    previous = make_version(tmp_path, "v1")
    store = previous.store_path
    (store / "segments" / "s1").mkdir(parents=True)
    (store / "segments" / "s1" / "data").write_bytes(b"points")
    (store / "edge_config.json").write_text("{}", encoding="utf-8")
    target = tmp_path / "new" / "edge"
    assert seed_from(previous, target) is True
    assert (target / "segments" / "s1" / "data").read_bytes() == b"points"
    assert (target / "edge_config.json").read_text(encoding="utf-8") == "{}"
    assert (store / "segments" / "s1" / "data").exists()  # the published version is untouched


def test_a_moved_home_still_finds_its_versions(tmp_path: Path) -> None:
    """Manifests hold no absolute path: a copied STRATA_HOME serves from the copy."""
    import shutil

    make_version(tmp_path / "a", "v1")
    assert '"path": "."' in (tmp_path / "a" / "handbook" / "versions" / "v1" / "manifest.json").read_text()
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    shutil.rmtree(tmp_path / "a")
    moved = read_manifest(tmp_path / "b", "handbook", "v1")
    assert moved is not None and moved.folder == tmp_path / "b" / "handbook" / "versions" / "v1"


def test_seed_from_nothing(tmp_path: Path) -> None:
    assert seed_from(None, tmp_path / "target") is False
    assert seed_from(make_version(tmp_path, "v1"), tmp_path / "target") is False  # no edge folder (server mode)
    assert not (tmp_path / "target").exists()


def test_a_manifest_keeps_its_input_fingerprint_and_tolerates_fields_it_does_not_know(tmp_path: Path) -> None:
    import dataclasses
    import json

    version = dataclasses.replace(
        make_version(tmp_path, "v1"), fingerprint="abc", inputs={"files": "f", "rules": "r", "stat": "s"}
    )
    write_manifest(version)
    read = read_manifest(tmp_path, "handbook", "v1")
    assert (read.fingerprint, read.inputs) == ("abc", {"files": "f", "rules": "r", "stat": "s"})
    path = version.folder / "manifest.json"
    older = {k: v for k, v in json.loads(path.read_text()).items() if k not in ("fingerprint", "inputs")}
    path.write_text(json.dumps(older | {"written_by_a_newer_release": 1}))
    read = read_manifest(tmp_path, "handbook", "v1")
    assert (read.fingerprint, read.inputs, read.point_count) == ("", {}, 10)
