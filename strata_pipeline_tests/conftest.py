"""Shared fixtures: a real embedded stack (Qdrant on disk, fastembed, Presidio) materialised once.

Only Claude is ever faked, and only where a test says so.
"""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import pytest

from strata_pipeline.definitions import build_definitions
from strata_pipeline.partitions import source_sets
from strata_pipeline.settings import PROJECT_ROOT, Settings, load_settings

SAMPLE_CORPUS = PROJECT_ROOT / "golden" / "corpus"

# Files a real corpus contains sooner or later; each must become an error row, never a failed run.
BROKEN_FILES: dict[str, bytes] = {
    "hr/empty-notes.md": b"",
    "hr/binary-blob.md": b"\x00\x01\x02\x89PNG\x00\x00 not text",
    "engineering/truncated-runbook.pdf": b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R",
    "hr/not-really.docx": b"this is plain text wearing a .docx name",
}


def make_settings(home: Path, corpus_root: Path) -> Settings:
    return dataclasses.replace(load_settings(), home=home, corpus_root=corpus_root, qdrant_url="")


def run_partition(
    settings: Settings, instance: dg.DagsterInstance, partition: str, overrides: dict | None = None
) -> dg.ExecuteInProcessResult:
    if partition not in instance.get_dynamic_partitions(source_sets.name):
        instance.add_dynamic_partitions(source_sets.name, [partition])
    job = build_definitions(settings, overrides).resolve_job_def("index_source_set")
    return job.execute_in_process(instance=instance, partition_key=partition, raise_on_error=False)


@dataclasses.dataclass
class Stack:
    settings: Settings
    instance: dg.DagsterInstance
    results: dict[str, dg.ExecuteInProcessResult]

    def materialization(self, result: dg.ExecuteInProcessResult, asset: str) -> dict:
        for event in result.get_asset_materialization_events():
            mat = event.materialization
            if mat.asset_key.path[-1] == asset:
                return {k: v.value for k, v in mat.metadata.items()}
        raise AssertionError(f"{asset} was not materialised")

    def checks(self, result: dg.ExecuteInProcessResult) -> dict[str, bool]:
        return {e.check_name: e.passed for e in result.get_asset_check_evaluations()}


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """Both sample source-sets materialised on an ephemeral instance; handbook also holds broken files."""
    root = tmp_path_factory.mktemp("strata")
    corpus = root / "corpus"
    shutil.copytree(SAMPLE_CORPUS, corpus)
    for rel, data in BROKEN_FILES.items():
        (corpus / "handbook" / rel).write_bytes(data)
    settings = make_settings(root / "home", corpus)
    instance = dg.DagsterInstance.ephemeral()
    results = {name: run_partition(settings, instance, name) for name in ("handbook", "products")}
    yield Stack(settings, instance, results)
    instance.dispose()
