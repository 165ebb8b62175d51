"""Index versions and the pointer that says which one is served.

Every run writes a *new* version and never touches a published one. Readers follow a pointer
file (`CURRENT`) that is replaced atomically once a version is complete, so the API keeps
answering from the previous version while a run writes the next, and a half-written index is
never served. With a Qdrant server the same hand-off uses a collection alias.

Layout under `<STRATA_HOME>/index/<source_set>/`:
    CURRENT                       name of the published version
    PUBLISHED                     every version ever published (or rolled back to), oldest first
    versions/<version>/edge/      the Qdrant Edge shard (absent with a Qdrant server)
    versions/<version>/sidecar.sqlite
    versions/<version>/manifest.json

Manifests hold no absolute path: a version's folder is where its manifest was found, so the whole
`STRATA_HOME` can be moved or copied and still serves.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import time
from dataclasses import asdict, dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path

KEEP_VERSIONS = 3  # published versions kept: the served one and two evaluated rollback targets
# An unpublished version folder younger than this may belong to a run still writing it; an older one
# is a leftover of a run that failed or was killed.
UNPUBLISHED_GRACE_S = 6 * 3600


@dataclass(frozen=True)
class IndexVersion:
    """A pointer to one written index version; passed between assets and stored in manifests."""

    source_set: str
    version: str
    path: str  # the version folder (in a manifest on disk: ".", the manifest's own folder)
    collection: str  # Qdrant collection name holding this version's points
    model: str
    dim: int
    point_count: int
    chunker: str
    schema: int = 1  # collection layout (strata_pipeline.indexing.engine.INDEX_SCHEMA)
    # What the version was built from (strata_pipeline.incremental.fingerprint): its value and its
    # named parts. "" and {} when unknown (older manifests, partial runs): such a version is never
    # taken as up to date.
    fingerprint: str = ""
    inputs: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    @property
    def folder(self) -> Path:
        return Path(self.path)

    @property
    def store_path(self) -> Path:
        """The embedded Qdrant Edge shard of this version."""
        return self.folder / "edge"

    @property
    def sidecar_path(self) -> Path:
        return version_sidecar(self.folder)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2)

    @classmethod
    def from_json(cls, text: str) -> IndexVersion:
        """Fields this code does not know (a manifest written by a newer release) are ignored."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in json.loads(text).items() if k in known})


def version_sidecar(folder: Path) -> Path:
    """The SQLite sidecar inside a version's folder."""
    return folder / "sidecar.sqlite"


def source_set_dir(index_dir: Path, source_set: str) -> Path:
    return index_dir / source_set


def new_version_name(run_id: str = "") -> str:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    return f"v{stamp}" + (f"-{run_id[:8]}" if run_id else "")


def version_dir(index_dir: Path, source_set: str, version: str) -> Path:
    return source_set_dir(index_dir, source_set) / "versions" / version


def current_version_name(index_dir: Path, source_set: str) -> str | None:
    pointer = source_set_dir(index_dir, source_set) / "CURRENT"
    try:
        return pointer.read_text(encoding="utf-8").strip() or None
    except FileNotFoundError:
        return None


def read_manifest(index_dir: Path, source_set: str, version: str) -> IndexVersion | None:
    folder = version_dir(index_dir, source_set, version)
    path = folder / "manifest.json"
    if not path.exists():
        return None
    return dataclasses.replace(IndexVersion.from_json(path.read_text(encoding="utf-8")), path=str(folder))


def current_version(index_dir: Path, source_set: str) -> IndexVersion | None:
    name = current_version_name(index_dir, source_set)
    return read_manifest(index_dir, source_set, name) if name else None


def write_manifest(version: IndexVersion) -> None:
    version.folder.mkdir(parents=True, exist_ok=True)
    _atomic_write(version.folder / "manifest.json", dataclasses.replace(version, path=".").to_json())


def publish(index_dir: Path, version: IndexVersion) -> None:
    """Flip CURRENT to `version` in one atomic rename, and log it as published."""
    folder = source_set_dir(index_dir, version.source_set)
    history = published_history(index_dir, version.source_set)
    if not history and (previous := current_version_name(index_dir, version.source_set)):
        history = [previous]  # published before the log existed
    _atomic_write(folder / "PUBLISHED", "".join(f"{name}\n" for name in [*history, version.version]))
    _atomic_write(folder / "CURRENT", version.version + "\n")


def published_history(index_dir: Path, source_set: str) -> list[str]:
    """Every version published (or rolled back to), oldest first; a name appears again when re-published."""
    try:
        text = (source_set_dir(index_dir, source_set) / "PUBLISHED").read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    return [line.strip() for line in text.splitlines() if line.strip()]


def rollback_target(index_dir: Path, source_set: str, version: str | None = None) -> IndexVersion:
    """The version `strata rollback` re-publishes: `version`, or the last published one before the
    served one. Raises ValueError, saying what can be chosen, when there is none."""
    current = current_version_name(index_dir, source_set)
    candidates = [n for n in reversed(published_history(index_dir, source_set)) if n != current]
    candidates = [n for n in dict.fromkeys(candidates) if read_manifest(index_dir, source_set, n) is not None]
    if version is None:
        if not candidates:
            raise ValueError(f"{source_set}: no earlier published version is left to roll back to.")
        version = candidates[0]
    manifest = read_manifest(index_dir, source_set, version)
    if manifest is None or version not in published_history(index_dir, source_set):
        choices = ", ".join(candidates) or "none"
        raise ValueError(f"{source_set}: {version!r} is not a published version on disk. Earlier ones: {choices}.")
    return manifest


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def published_source_sets(index_dir: Path) -> list[str]:
    if not index_dir.is_dir():
        return []
    return sorted(p.name for p in index_dir.iterdir() if (p / "CURRENT").exists())


def prune_versions(index_dir: Path, source_set: str, keep: int = KEEP_VERSIONS) -> list[str]:
    """Delete version folders that are no longer needed; see prune_versions_with_manifests."""
    return [name for name, _ in prune_versions_with_manifests(index_dir, source_set, keep)]


def prune_versions_with_manifests(
    index_dir: Path, source_set: str, keep: int = KEEP_VERSIONS, grace_s: float = UNPUBLISHED_GRACE_S
) -> list[tuple[str, IndexVersion | None]]:
    """Delete every version folder except the `keep` most recently published versions (the served
    one first; the others are rollback targets) and unpublished ones younger than `grace_s` (a run
    may still be writing them). Returns each removed version with its manifest, read before
    deletion, so a server's collections can be dropped too."""
    versions_root = source_set_dir(index_dir, source_set) / "versions"
    if not versions_root.is_dir():
        return []
    current = current_version_name(index_dir, source_set)
    history = published_history(index_dir, source_set)
    published = set(history) | {current}
    kept = list(dict.fromkeys(n for n in [current, *reversed(history)] if n))[: max(1, keep)]
    now = time.time()
    removed = []
    for folder in sorted(p for p in versions_root.iterdir() if p.is_dir()):
        name = folder.name
        if name in kept or (name not in published and now - folder.stat().st_mtime < grace_s):
            continue
        removed.append((name, read_manifest(index_dir, source_set, name)))
        shutil.rmtree(folder, ignore_errors=True)
    return removed


def seed_from(previous: IndexVersion | None, target: Path) -> bool:
    """Start an embedded version as a copy of the published one, so a run only writes the diff.

    Published versions are sealed and never written again, so copying their files needs no lock.
    """
    if previous is None or not previous.store_path.is_dir():
        return False
    shutil.copytree(previous.store_path, target, dirs_exist_ok=True)
    return True
