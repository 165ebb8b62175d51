"""The input fingerprint: stable when nothing changed, and naming what changed when something did."""

from __future__ import annotations

import dataclasses
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from strata_pipeline import freshness as freshness_module
from strata_pipeline.chunking.chunker import ChunkingConfig
from strata_pipeline.freshness import content_digest, freshness, input_parts, listing_digest
from strata_pipeline.incremental.fingerprint import Fingerprint, compare, files_digest, stat_digest
from strata_pipeline.indexing.versions import IndexVersion, publish, version_dir, write_manifest
from strata_pipeline.maintenance import tombstone_path
from strata_pipeline.resources.factory import build_resources
from strata_pipeline.settings import PROJECT_ROOT, Settings
from strata_pipeline_tests.conftest import make_settings

DOCS = {
    "guides/alpha.md": "# Alpha guide\n\nThe alpha valve must be inspected every 12 days by the night shift.\n",
    "guides/beta.md": "# Beta guide\n\nBeta pumps run at 3,000 rpm and are serviced twice a year.\n",
}


def test_digests_are_order_free_and_change_with_any_field(tmp_path: Path) -> None:
    rows = [("a.md", "sha-a", 10), ("b.md", "sha-b", 20)]
    assert files_digest(rows) == files_digest(reversed(rows))
    edits = ([("a.md", "sha-A", 10), rows[1]], [("a.md", "sha-a", 11), rows[1]], [rows[0]], [*rows, ("c", "", 0)])
    for changed in edits:
        assert files_digest(changed) != files_digest(rows)
    (tmp_path / "a.md").write_text("a")
    listed = stat_digest([("a.md", tmp_path / "a.md")])
    assert listed == stat_digest([("a.md", tmp_path / "a.md")])
    os.utime(tmp_path / "a.md", ns=(1, 1))
    assert stat_digest([("a.md", tmp_path / "a.md")]) != listed
    assert stat_digest([("gone.md", tmp_path / "gone.md")]) == stat_digest([("gone.md", tmp_path / "gone.md")])


def test_compare_reads_files_only_when_the_listing_changed() -> None:
    parts = {"rules": "r", "golden": "g", "removed": "x", "settings": "s", "code": "c"}
    recorded = {**parts, "files": "F", "stat": "S"}

    def never() -> str:
        raise AssertionError("files were read although the listing matched")

    assert compare(recorded, parts, "S", never).up_to_date
    assert compare(recorded, parts, "S2", lambda: "F").up_to_date  # touched, same content
    assert compare(recorded, parts, "S2", lambda: "F2").changed == ("files",)
    assert compare(recorded, {**parts, "rules": "r2"}, "S", never).changed == ("rules",)
    assert compare(recorded, {**parts, "settings": "s2"}, "S2", never).changed == ("files", "settings")
    assert compare({}, parts, "S", never).changed == ("no fingerprint recorded",)
    assert Fingerprint({**recorded, "stat": "other"}).value == Fingerprint(recorded).value  # stat is a hint only
    assert Fingerprint({**recorded, "files": "other"}).value != Fingerprint(recorded).value


def record_published(settings: Settings, source_set: str) -> None:
    """Publish a version of `source_set` that recorded today's inputs, as a run would have."""
    resources = build_resources(settings)
    corpus_resource = resources["corpus"]
    parts = input_parts(resources, source_set, ChunkingConfig()) | {
        "stat": listing_digest(corpus_resource, source_set),
        "files": content_digest(corpus_resource, source_set),
    }
    name = f"v{len(list((settings.index_dir / source_set).glob('versions/*')))}"
    version = IndexVersion(
        source_set, name, str(version_dir(settings.index_dir, source_set, name)), "chunks", settings.embed_model,
        384, 2, "sections-v3", fingerprint=Fingerprint(parts).value, inputs=parts,
    )  # fmt: skip
    write_manifest(version)
    publish(settings.index_dir, version)


@pytest.fixture
def published(tmp_path: Path) -> tuple[Settings, Callable[[], None]]:
    """A source-set `plant` whose published version recorded today's inputs; `record()` publishes again."""
    corpus = tmp_path / "corpus"
    for rel, text in DOCS.items():
        (corpus / "plant" / rel).parent.mkdir(parents=True, exist_ok=True)
        (corpus / "plant" / rel).write_text(text)
    rules, golden = tmp_path / "rules", tmp_path / "golden"
    shutil.copytree(PROJECT_ROOT / "rules", rules)
    golden.mkdir()
    settings = dataclasses.replace(make_settings(tmp_path / "home", corpus), rules_dir=rules, golden_dir=golden)
    record_published(settings, "plant")
    return settings, lambda: record_published(settings, "plant")


def state(settings, **resource_overrides) -> tuple[bool, tuple[str, ...]]:
    resources = build_resources(settings) | resource_overrides
    fresh, _ = freshness(resources, "plant")
    return fresh.up_to_date, fresh.changed


def test_unchanged_inputs_are_up_to_date_and_a_touch_changes_nothing(published) -> None:
    settings, _ = published
    assert state(settings) == (True, ())
    path = settings.corpus_root / "plant" / "guides" / "alpha.md"
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 5_000_000_000))
    assert state(settings) == (True, ())


@pytest.mark.parametrize(
    "change",
    ["edit", "add", "delete", "rename"],
)
def test_any_file_change_is_seen(published, change: str) -> None:
    settings, _ = published
    folder = settings.corpus_root / "plant" / "guides"
    if change == "edit":
        (folder / "beta.md").write_text(DOCS["guides/beta.md"].replace("twice", "three times"))
    elif change == "add":
        (folder / "gamma.md").write_text("# Gamma\n\nA third guide.\n")
    elif change == "delete":
        (folder / "beta.md").unlink()
    else:
        (folder / "beta.md").rename(folder / "beta-v2.md")
    assert state(settings) == (False, ("files",))


def test_a_same_size_edit_with_a_forged_mtime_is_caught_once_the_listing_moves(published) -> None:
    settings, _ = published
    path = settings.corpus_root / "plant" / "guides" / "beta.md"
    before = path.stat()
    path.write_text(DOCS["guides/beta.md"].replace("3,000", "4,000"))  # same size
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    # The listing is unchanged: the quick check trusts it, as make and git do (its documented limit)...
    assert state(settings) == (True, ())
    # ...and once anything in the listing moves (a mere touch of another file), contents are compared.
    other = settings.corpus_root / "plant" / "guides" / "alpha.md"
    os.utime(other, ns=(other.stat().st_atime_ns, other.stat().st_mtime_ns + 1_000_000_000))
    assert state(settings) == (False, ("files",))


def test_rules_golden_removals_settings_and_code_each_count(published, monkeypatch: pytest.MonkeyPatch) -> None:
    settings, record = published
    resources = build_resources(settings)
    assert state(settings, pii=resources["pii"].model_copy(update={"thresholds": {"PERSON": 0.99}})) == (
        False,
        ("settings",),
    )
    assert state(settings, embedder=resources["embedder"].model_copy(update={"model": "intfloat/e5"}))[1] == (
        "settings",
    )
    fresh, _ = freshness(resources, "plant", ChunkingConfig(size=500))
    assert fresh.changed == ("settings",)

    (settings.rules_dir / "plant.yaml").write_text("rules:\n  - {name: no-beta, globs: ['*beta*'], action: exclude}\n")
    assert state(settings) == (False, ("rules",))
    record()

    (settings.golden_dir / "plant.yaml").write_text("source_set: plant\nquestions: []\n")
    assert state(settings) == (False, ("golden",))
    record()

    tombstone = tombstone_path(settings.home, "plant")
    tombstone.parent.mkdir(parents=True)
    tombstone.write_text("guides/beta.md\n")
    assert state(settings) == (False, ("removed",))
    record()

    monkeypatch.setattr(freshness_module, "pipeline_code_digest", lambda: "an edited pipeline")
    assert state(settings) == (False, ("code",))
    monkeypatch.undo()
    assert state(settings) == (True, ())


def test_nothing_published_or_no_fingerprint_is_stale(published) -> None:
    settings, _ = published
    resources = build_resources(settings)
    assert freshness(resources, "elsewhere")[0].changed == ("nothing published yet",)
    version = freshness(resources, "plant")[1]
    write_manifest(dataclasses.replace(version, fingerprint="", inputs={}))  # an older manifest
    assert freshness(resources, "plant")[0].changed == ("no fingerprint recorded",)


def test_unreadable_rules_make_a_source_set_stale_instead_of_failing_the_check(published) -> None:
    settings, _ = published
    (settings.rules_dir / "plant.yaml").write_text("rules: [this is: not, valid")
    up_to_date, changed = state(settings)
    assert not up_to_date and changed[0].startswith("inputs unreadable")
