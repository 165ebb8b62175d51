"""Ordered include/exclude rules: the first matching rule decides and is recorded."""

from __future__ import annotations

import fnmatch
import hashlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import polars as pl
import yaml

from strata_pipeline.classification.language import detect_language

ACTIONS = ("include", "exclude", "metadata_only")
DEFAULT_RULE = "default-include"
CONDITION_KEYS = (
    "status",
    "dirs",
    "filenames",
    "globs",
    "extensions",
    "extensions_not_in",
    "kinds",
    "doc_types",
    "text_shorter_than",
)


@dataclass(frozen=True)
class Rule:
    name: str
    action: str
    status: str | None = None
    dirs: tuple[str, ...] = ()
    filenames: tuple[str, ...] = ()
    globs: tuple[str, ...] = ()
    extensions: tuple[str, ...] = ()
    extensions_not_in: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    doc_types: tuple[str, ...] = ()
    text_shorter_than: int | None = None

    def matches(self, doc: dict) -> bool:
        path = PurePosixPath(doc["doc_id"])
        ext = (doc.get("extension") or "").lower()
        checks = [
            self.status is None or doc.get("status") == self.status,
            not self.dirs or any(part in self.dirs for part in path.parts[:-1]),
            not self.filenames or path.name in self.filenames,
            not self.globs or any(fnmatch.fnmatchcase(doc["doc_id"], g) for g in self.globs),
            not self.extensions or ext in self.extensions,
            not self.extensions_not_in or ext not in self.extensions_not_in,
            not self.kinds or doc.get("kind") in self.kinds,
            not self.doc_types or doc.get("doc_type") in self.doc_types,
            self.text_shorter_than is None or len((doc.get("text") or "").strip()) < self.text_shorter_than,
        ]
        return all(checks)


@dataclass(frozen=True)
class RuleSet:
    rules: tuple[Rule, ...]
    sources: tuple[str, ...] = field(default=())
    digest: str = ""
    adapter: str | None = None  # source adapter named by rules/<source_set>.yaml
    intent: str = ""  # what the corpus owner wants indexed, for the rule advisor

    def decide(self, doc: dict) -> tuple[str, str]:
        """Return (action, rule name) of the first rule that matches."""
        for rule in self.rules:
            if rule.matches(doc):
                return rule.action, rule.name
        return "include", DEFAULT_RULE


def parse_rules(data: dict, source: str) -> list[Rule]:
    rules = []
    for position, raw in enumerate((data or {}).get("rules") or [], start=1):
        where = f"{source} rule #{position}"
        if not isinstance(raw, dict) or "name" not in raw or "action" not in raw:
            raise ValueError(f"{where}: every rule needs a 'name' and an 'action'.")
        if raw["action"] not in ACTIONS:
            raise ValueError(f"{where} ({raw['name']}): action must be one of {', '.join(ACTIONS)}.")
        unknown = set(raw) - {"name", "action", *CONDITION_KEYS}
        if unknown:
            raise ValueError(f"{where} ({raw['name']}): unknown keys {sorted(unknown)}; allowed: {CONDITION_KEYS}.")
        if not any(raw.get(k) not in (None, []) for k in CONDITION_KEYS):
            raise ValueError(f"{where} ({raw['name']}): a rule needs at least one condition, or it matches everything.")
        lists = {k: tuple(str(v) for v in raw[k]) for k in CONDITION_KEYS if isinstance(raw.get(k), list)}
        rules.append(
            Rule(
                name=str(raw["name"]),
                action=raw["action"],
                status=raw.get("status"),
                text_shorter_than=raw.get("text_shorter_than"),
                **lists,
            )
        )
    return rules


def load_rules(rules_dir: Path, source_set: str) -> RuleSet:
    """Per-source-set rules (rules/<source_set>.yaml) first, then rules/corpus-rules.yaml."""
    files = [rules_dir / f"{source_set}.yaml", rules_dir / "corpus-rules.yaml"]
    rules: list[Rule] = []
    sources: list[str] = []
    adapter: str | None = None
    intent = ""
    digest = hashlib.sha256()
    for path in files:
        if not path.exists():
            continue
        raw = path.read_bytes()
        digest.update(raw)
        data = yaml.safe_load(raw) or {}
        rules += parse_rules(data, path.name)
        sources.append(path.name)
        adapter = adapter or data.get("adapter")
        intent = intent or str(data.get("intent") or "")
    return RuleSet(
        rules=tuple(rules), sources=tuple(sources), digest=digest.hexdigest()[:16], adapter=adapter, intent=intent
    )


def classify_docs(discovered: pl.DataFrame, rule_set: RuleSet) -> pl.DataFrame:
    """Add `decision`, `rule` and detected `language` columns to the discovered documents."""
    decisions = [rule_set.decide(doc) for doc in discovered.iter_rows(named=True)]
    return discovered.with_columns(
        pl.Series("decision", [d[0] for d in decisions], dtype=pl.String),
        pl.Series("rule", [d[1] for d in decisions], dtype=pl.String),
        pl.Series("language", [detect_language(t or "") for t in discovered["text"]], dtype=pl.String),
    )


def reason_counts(classified: pl.DataFrame) -> pl.DataFrame:
    """How many documents each (decision, rule) pair covered, largest first."""
    return (
        classified.group_by("decision", "rule")
        .agg(pl.len().alias("documents"))
        .sort(["documents", "decision", "rule"], descending=[True, False, False])
    )
