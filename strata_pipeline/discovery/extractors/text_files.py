"""Plain text, Markdown (with its YAML front matter) and configuration files (.json/.yaml/.toml/.ini)."""

from __future__ import annotations

import configparser
import json
import math
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from strata_pipeline.discovery.extractors.encodings import _decode
from strata_pipeline.discovery.extractors.extraction import DEFAULT_LIMITS, Extraction, ExtractLimits, _guarded, _short

# YAML front matter: a "---" first line, then YAML, then a "---" (or "...") line.
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?)^(?:---|\.\.\.)[ \t]*$", re.DOTALL | re.MULTILINE)
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml caps nesting depth; the pure one recurses
_MAX_FRONT_MATTER_CHARS = 64 * 1024  # parsed in-process: a bigger block is reported, not parsed
_MAX_FRONT_MATTER_NODES = 10_000
_MAX_FRONT_MATTER_DEPTH = 64


class _TooLarge(Exception):
    pass


def _jsonable(value: Any, budget: list[int], depth: int = 0) -> Any:
    """Front matter values as JSON types: dates etc. become str(). YAML aliases can make a small
    document a huge (or self-referencing) structure, so the node count and depth are capped."""
    budget[0] -= 1
    if budget[0] < 0 or depth > _MAX_FRONT_MATTER_DEPTH:
        raise _TooLarge
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, dict):
        return {(k if isinstance(k, str) else str(k)): _jsonable(v, budget, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v, budget, depth + 1) for v in value]
    if isinstance(value, set | frozenset):
        return sorted(str(v) for v in value)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def parse_front_matter(text: str) -> tuple[dict | None, list[str]]:
    """YAML front matter at the top of a Markdown text: (mapping or None, warnings)."""
    match = _FRONT_MATTER.match(text)
    if match is None:
        return None, []
    if len(match.group(1)) > _MAX_FRONT_MATTER_CHARS:
        return None, ["front_matter_too_large"]
    try:
        data = yaml.load(match.group(1), Loader=_YAML_LOADER)
    except Exception:  # YAMLError, and RecursionError/ValueError from odd scalars
        return None, ["front_matter_invalid"]
    if data is None:
        return None, []
    if not isinstance(data, dict):
        return None, ["front_matter_invalid"]
    try:
        return _jsonable(data, [_MAX_FRONT_MATTER_NODES]), []
    except (_TooLarge, RecursionError):
        return None, ["front_matter_too_large"]


@_guarded("corrupt_text", "text file")
def extract_plain(data: bytes, name: str = "", limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
    text, encoding, warnings = _decode(data)
    extraction = Extraction(text=text, kind="text", encoding=encoding, warnings=warnings)
    if Path(name).suffix.lower() in (".md", ".markdown") and len(text) <= limits.max_text_chars:
        front_matter, fm_warnings = parse_front_matter(text)
        extraction.warnings += fm_warnings
        if front_matter is not None:
            extraction.metadata["front_matter"] = front_matter
    return extraction


def _parse_ini(text: str) -> None:
    parser = configparser.ConfigParser(interpolation=None, strict=False, allow_no_value=True)
    parser.read_string(text)


_CONFIG_PARSERS: dict[str, Callable[[str], Any]] = {
    ".json": json.loads,
    ".yaml": lambda text: list(yaml.load_all(text, Loader=_YAML_LOADER)),
    ".yml": lambda text: list(yaml.load_all(text, Loader=_YAML_LOADER)),
    ".toml": tomllib.loads,
    ".ini": _parse_ini,
    ".cfg": _parse_ini,
    ".conf": _parse_ini,
}


@_guarded("corrupt_config", "configuration file")
def extract_config(data: bytes, name: str = "", limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
    """Config files are kept as text; a parse failure is a warning, not an error."""
    text, encoding, warnings = _decode(data)
    parse = _CONFIG_PARSERS.get(Path(name).suffix.lower())
    if parse is not None and len(text) <= limits.max_text_chars:  # a longer text is refused by extract()
        try:
            parse(text)
        except Exception as exc:  # each parser has its own error types; RecursionError for deep nesting
            reason = " ".join(_short(exc, 160).split())
            warnings.append(f"config_parse_error:{reason}")
    return Extraction(text=text, kind="config", encoding=encoding, warnings=warnings)
