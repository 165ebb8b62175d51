"""Adapters: source-set listing, the adapter registry, and doc_id/project mapping."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from strata_pipeline.discovery import adapters
from strata_pipeline.discovery.adapters import (
    FolderAdapter,
    SourceFile,
    adapter_names,
    get_adapter,
    invalid_source_set_names,
    list_source_sets,
    register_adapter,
)


def test_list_source_sets_returns_only_slug_folders(tmp_path: Path) -> None:
    for name in ("handbook", "products", "rx-200_docs", "9lives", "Upper", "has space", ".hidden", "-dash", "_under"):
        (tmp_path / name).mkdir()
    (tmp_path / "readme.md").write_text("a file, not a source-set")
    (tmp_path / "linked").symlink_to(tmp_path / "handbook", target_is_directory=True)
    assert list_source_sets(tmp_path) == ["9lives", "handbook", "products", "rx-200_docs"]
    assert invalid_source_set_names(tmp_path) == ["-dash", ".hidden", "Upper", "_under", "has space"]


def test_list_source_sets_of_a_missing_root_is_empty(tmp_path: Path) -> None:
    assert list_source_sets(tmp_path / "nope") == []
    assert invalid_source_set_names(tmp_path / "nope") == []


def test_unknown_adapter_lists_the_known_ones() -> None:
    with pytest.raises(ValueError) as info:
        get_adapter("sharepoint")
    message = str(info.value)
    assert "'sharepoint'" in message
    assert f"Registered adapters: {', '.join(adapter_names())}." in message
    assert "folder" in message


def test_register_adapter_makes_it_available(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(adapters, "_REGISTRY", dict(adapters._REGISTRY))

    class OnlyMarkdown:
        name = "only-md"

        def iter_files(self, source_dir: Path) -> Iterator[SourceFile]:
            for file in FolderAdapter().iter_files(source_dir):
                if file.doc_id.endswith(".md"):
                    yield file

    register_adapter("only-md", OnlyMarkdown)
    assert "only-md" in adapter_names()
    adapter = get_adapter("only-md")
    assert isinstance(adapter, OnlyMarkdown)
    assert get_adapter("only-md") is not adapter  # a factory: a fresh instance each time
    assert isinstance(get_adapter("folder"), FolderAdapter)


def test_folder_adapter_doc_ids_and_projects(tmp_path: Path) -> None:
    (tmp_path / "hr" / "policies").mkdir(parents=True)
    (tmp_path / "hr" / "policies" / "leave.md").write_text("x")
    (tmp_path / "hr" / "faq.txt").write_text("x")
    (tmp_path / "index.md").write_text("x")
    files = list(FolderAdapter().iter_files(tmp_path))
    assert [(f.doc_id, f.project, f.is_symlink) for f in files] == [
        ("index.md", "", False),
        ("hr/faq.txt", "hr", False),
        ("hr/policies/leave.md", "hr", False),
    ]
    assert files[2].path == tmp_path / "hr" / "policies" / "leave.md"


def test_folder_adapter_reports_symlinks_without_following(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("x")
    source = tmp_path / "src"
    (source / "a").mkdir(parents=True)
    (source / "a" / "file-link.md").symlink_to(outside / "secret.md")
    (source / "a" / "dir-link").symlink_to(outside, target_is_directory=True)
    files = list(FolderAdapter().iter_files(source))
    assert [(f.doc_id, f.project, f.is_symlink) for f in files] == [
        ("a/dir-link", "a", True),
        ("a/file-link.md", "a", True),
    ]


def test_groups_an_adapter_gives_reach_classification_unless_an_access_rule_matches(tmp_path: Path) -> None:
    from strata_pipeline.classification.rules import classify_docs, load_rules
    from strata_pipeline.discovery.adapters import source_file
    from strata_pipeline.discovery.discover import discover_source_set

    class Permissions:
        """Reads a source system's permissions: files under a `team-*` folder belong to that team."""

        name = "permissions"
        facets: dict[str, str] = {}  # noqa: RUF012

        def iter_files(self, source_dir: Path) -> Iterator[SourceFile]:
            for file in FolderAdapter().iter_files(source_dir):
                team = file.project.removeprefix("team-") if file.project.startswith("team-") else None
                yield source_file(source_dir, file.path, groups=(team,) if team else ())

    source = tmp_path / "corpus" / "wiki"
    for rel in ("team-ops/runbook.md", "team-ops/secret/keys.md", "notes.md"):
        (source / rel).parent.mkdir(parents=True, exist_ok=True)
        (source / rel).write_text("A paragraph long enough to be indexed by the default rules of the corpus.\n")
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "wiki.yaml").write_text("access:\n  - name: secrets\n    dirs: [secret]\n    groups: [security]\n")
    discovered = discover_source_set(source, "wiki", Permissions())
    assert sorted(discovered.select("doc_id", "adapter_groups").rows()) == [
        ("notes.md", []),
        ("team-ops/runbook.md", ["ops"]),
        ("team-ops/secret/keys.md", ["ops"]),
    ]
    classified = classify_docs(discovered, load_rules(rules, "wiki"), language=lambda text: "en")
    assert sorted(classified.select("doc_id", "groups", "access_rule").rows()) == [
        ("notes.md", ["public"], "default-public"),
        ("team-ops/runbook.md", ["ops"], "adapter"),
        ("team-ops/secret/keys.md", ["security"], "secrets"),
    ]
