"""Source adapters: how a corpus layout maps onto documents.

The core only knows "a source-set is a folder". An adapter decides which files in it are
documents, what their `doc_id` is and which project they belong to. Adapters are kept in a
registry keyed by name, so a deployment can add its own without forking the pipeline.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from strata_pipeline.validation import is_source_set_name


@dataclass(frozen=True)
class SourceFile:
    """One file an adapter offers as a document."""

    path: Path
    doc_id: str  # path relative to the source-set folder, forward slashes
    project: str  # first folder level below the source-set ("" for files at its top)
    is_symlink: bool = False
    doc_type: str | None = None  # the adapter's knowledge of what this file is, e.g. "config_dump"
    # document groups the adapter knows (e.g. from the source system's permissions); an `access:` rule
    # that matches still decides, and none here means `public` (classification/rules.py)
    groups: tuple[str, ...] = ()


class SourceAdapter(Protocol):
    name: str
    facets: dict[str, str]  # spreadsheet column -> facet name, applied to fact tables

    def iter_files(self, source_dir: Path) -> Iterator[SourceFile]: ...


class FolderAdapter:
    """Walks a plain folder tree. Symlinks are reported, never followed."""

    name = "folder"
    facets: dict[str, str] = {}  # noqa: RUF012 - read-only class default

    def iter_files(self, source_dir: Path) -> Iterator[SourceFile]:
        for dirpath, dirnames, filenames in os.walk(source_dir, followlinks=False):
            dirnames.sort()
            here = Path(dirpath)
            # Symlinked folders are not descended into, but they are still reported.
            for name in [d for d in dirnames if (here / d).is_symlink()]:
                dirnames.remove(name)
                yield _source_file(source_dir, here / name, is_symlink=True)
            for name in sorted(filenames):
                path = here / name
                yield _source_file(source_dir, path, is_symlink=path.is_symlink())


def _source_file(
    source_dir: Path, path: Path, *, is_symlink: bool, doc_type: str | None = None, groups: tuple[str, ...] = ()
) -> SourceFile:
    rel = path.relative_to(source_dir).as_posix()
    project = rel.split("/", 1)[0] if "/" in rel else ""
    return SourceFile(path=path, doc_id=rel, project=project, is_symlink=is_symlink, doc_type=doc_type, groups=groups)


def source_file(source_dir: Path, path: Path, doc_type: str | None = None, groups: tuple[str, ...] = ()) -> SourceFile:
    """Build the SourceFile for `path`, for adapters that walk folders their own way."""
    return _source_file(source_dir, path, is_symlink=path.is_symlink(), doc_type=doc_type, groups=groups)


_REGISTRY: dict[str, Callable[[], SourceAdapter]] = {}


def register_adapter(name: str, factory: Callable[[], SourceAdapter]) -> None:
    """Make an adapter available by name (for example from a plugin module)."""
    _REGISTRY[name] = factory


def get_adapter(name: str) -> SourceAdapter:
    try:
        return _REGISTRY[name]()
    except KeyError:
        known = ", ".join(adapter_names())
        raise ValueError(f"Unknown source adapter {name!r}. Registered adapters: {known}.") from None


def adapter_names() -> list[str]:
    return sorted(_REGISTRY)


register_adapter(FolderAdapter.name, FolderAdapter)


def list_source_sets(corpus_root: Path) -> list[str]:
    """Top-level folders of the corpus root whose names are valid partition keys (slugs)."""
    if not corpus_root.is_dir():
        return []
    return sorted(
        p.name for p in corpus_root.iterdir() if p.is_dir() and not p.is_symlink() and is_source_set_name(p.name)
    )


def invalid_source_set_names(corpus_root: Path) -> list[str]:
    """Top-level folders that cannot become partitions, so callers can say why they were skipped."""
    if not corpus_root.is_dir():
        return []
    return sorted(p.name for p in corpus_root.iterdir() if p.is_dir() and not is_source_set_name(p.name))
