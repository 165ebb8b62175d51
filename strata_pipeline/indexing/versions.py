"""Index versions and the pointer that says which one is served.

Every run writes a *new* version and never touches a published one. Readers follow a pointer
file (`CURRENT`) that is replaced atomically once a version is complete, so the API keeps
answering from the previous version while a run writes the next, and a half-written index is
never served. With a Qdrant server the same hand-off uses a collection alias.

Layout under `<STRATA_HOME>/index/<source_set>/`:
    CURRENT                       name of the published version
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
from dataclasses import asdict, dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path

KEEP_VERSIONS = 3  # the published one plus fallbacks for readers that still hold older ones


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
        return self.folder / "sidecar.sqlite"

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2)

    @classmethod
    def from_json(cls, text: str) -> IndexVersion:
        """Fields this code does not know (a manifest written by a newer release) are ignored."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in json.loads(text).items() if k in known})


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
    """Flip CURRENT to `version` in one atomic rename."""
    _atomic_write(source_set_dir(index_dir, version.source_set) / "CURRENT", version.version + "\n")


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def published_source_sets(index_dir: Path) -> list[str]:
    if not index_dir.is_dir():
        return []
    return sorted(p.name for p in index_dir.iterdir() if (p / "CURRENT").exists())


def prune_versions(index_dir: Path, source_set: str, keep: int = KEEP_VERSIONS) -> list[str]:
    """Delete the oldest version folders beyond `keep`, never the published one. Returns their names."""
    return [name for name, _ in prune_versions_with_manifests(index_dir, source_set, keep)]


def prune_versions_with_manifests(
    index_dir: Path, source_set: str, keep: int = KEEP_VERSIONS
) -> list[tuple[str, IndexVersion | None]]:
    """As prune_versions, also returning each removed version's manifest (read before deletion)."""
    versions_root = source_set_dir(index_dir, source_set) / "versions"
    if not versions_root.is_dir():
        return []
    current = current_version_name(index_dir, source_set)
    names = sorted(p.name for p in versions_root.iterdir() if p.is_dir())
    removable = [n for n in names[:-keep] if n != current] if len(names) > keep else []
    removed = []
    for name in removable:
        removed.append((name, read_manifest(index_dir, source_set, name)))
        shutil.rmtree(versions_root / name, ignore_errors=True)
    return removed


def seed_from(previous: IndexVersion | None, target: Path) -> bool:
    """Start an embedded version as a copy of the published one, so a run only writes the diff.

    Published versions are sealed and never written again, so copying their files needs no lock.
    """
    if previous is None or not previous.store_path.is_dir():
        return False
    shutil.copytree(previous.store_path, target, dirs_exist_ok=True)
    return True
