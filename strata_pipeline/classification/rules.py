"""Ordered include/exclude rules: the first matching rule decides and is recorded.

The same files hold ranking rules (`ranking:`): a per-document prior on how much its chunks count
in search, e.g. archived policies that a current twin supersedes. First match wins here too, and
the rule's name is recorded with the document and on every chunk it yields.

And access rules (`access:`): the document groups a document belongs to, which the query layer
enforces. First match wins; a document no rule matches keeps the groups its adapter gave it, else
`public`. The deciding rule is recorded (`access_rule`).
"""

from __future__ import annotations

import fnmatch
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import polars as pl
import yaml

from strata_pipeline.access.groups import PUBLIC, check_groups
from strata_pipeline.classification import versions
from strata_pipeline.classification.language import detect_language
from strata_pipeline.classification.versions import marked_older, older_versions, outdated_folder, outdated_in_text

ACTIONS = ("include", "exclude", "metadata_only")
DEFAULT_RULE = "default-include"
DEFAULT_ACCESS_RULE = "default-public"
ADAPTER_ACCESS_RULE = "adapter"  # the groups came from the source adapter
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
    "text_longer_than",
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
    text_longer_than: int | None = None

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
            self.text_longer_than is None or len((doc.get("text") or "").strip()) > self.text_longer_than,
        ]
        return all(checks)


@dataclass(frozen=True)
class RankingRule:
    """A prior on a document's chunks in search: `weight` multiplies their score (below 1 demotes).

    `superseded` marks outdated versions: a query that asks about earlier versions ("the old
    policy", "vorherige Version") searches them at full weight instead.
    """

    name: str
    when: Rule
    weight: float
    superseded: bool = False


@dataclass(frozen=True)
class AccessRule:
    """Documents that match `when` belong to `groups`."""

    name: str
    when: Rule
    groups: tuple[str, ...]


@dataclass(frozen=True)
class Prior:
    weight: float = 1.0
    rule: str = ""  # the ranking rule that set it, "" when none matched
    superseded: bool = False
    evidence: str | None = None  # for a detected old version: its old folder, the words of its head, or the newer file


@dataclass(frozen=True)
class RuleSet:
    rules: tuple[Rule, ...]
    sources: tuple[str, ...] = field(default=())
    digest: str = ""
    adapter: str | None = None  # source adapter named by rules/<source_set>.yaml
    intent: str = ""  # what the corpus owner wants indexed, for the rule advisor
    ranking: tuple[RankingRule, ...] = ()
    access: tuple[AccessRule, ...] = ()
    # find old versions no ranking rule marks (classification/versions.py); `detect_versions: false`
    # in a rules file turns it off for a corpus whose dated files are not versions of each other
    detect_versions: bool = True

    def groups(self, doc: dict) -> tuple[tuple[str, ...], str]:
        """(groups, reason): the first access rule that matches, else the adapter's groups
        (`adapter_groups`), else `public`."""
        for rule in self.access:
            if rule.when.matches(doc):
                return rule.groups, rule.name
        if doc.get("adapter_groups"):
            return check_groups(doc["adapter_groups"], f"groups the adapter gave {doc['doc_id']}"), ADAPTER_ACCESS_RULE
        return (PUBLIC,), DEFAULT_ACCESS_RULE

    def prior(self, doc: dict) -> Prior:
        """The first ranking rule that matches decides the document's prior; none matching is 1."""
        for rule in self.ranking:
            if rule.when.matches(doc):
                return Prior(rule.weight, rule.name, rule.superseded)
        return Prior()

    def decide(self, doc: dict) -> tuple[str, str]:
        """Return (action, rule name) of the first rule that matches."""
        for rule in self.rules:
            if rule.matches(doc):
                return rule.action, rule.name
        return "include", DEFAULT_RULE


def _conditioned_rule(raw: object, where: str, required: tuple[str, ...], extra: tuple[str, ...]) -> Rule:
    """The Rule (name, conditions, action) of one YAML entry, with a clear error for a malformed one."""
    if not isinstance(raw, dict) or any(key not in raw for key in required):
        needs = " and ".join(f"{'an' if k[0] in 'aeiou' else 'a'} {k!r}" for k in required)
        raise ValueError(f"{where}: every rule needs {needs}.")
    unknown = set(raw) - {*required, *extra, *CONDITION_KEYS}
    if unknown:
        raise ValueError(f"{where} ({raw['name']}): unknown keys {sorted(unknown)}; allowed: {CONDITION_KEYS}.")
    if not any(raw.get(k) not in (None, []) for k in CONDITION_KEYS):
        raise ValueError(f"{where} ({raw['name']}): a rule needs at least one condition, or it matches everything.")
    lists = {k: tuple(str(v) for v in raw[k]) for k in CONDITION_KEYS if isinstance(raw.get(k), list)}
    return Rule(
        name=str(raw["name"]),
        action=str(raw.get("action", "include")),
        status=raw.get("status"),
        text_shorter_than=raw.get("text_shorter_than"),
        text_longer_than=raw.get("text_longer_than"),
        **lists,
    )


def parse_rules(data: dict, source: str) -> list[Rule]:
    rules = []
    for position, raw in enumerate((data or {}).get("rules") or [], start=1):
        where = f"{source} rule #{position}"
        if isinstance(raw, dict) and "name" in raw and raw.get("action", ACTIONS[0]) not in ACTIONS:
            raise ValueError(f"{where} ({raw['name']}): action must be one of {', '.join(ACTIONS)}.")
        rules.append(_conditioned_rule(raw, where, ("name", "action"), ()))
    return rules


def parse_ranking(data: dict, source: str) -> list[RankingRule]:
    ranking = []
    for position, raw in enumerate((data or {}).get("ranking") or [], start=1):
        where = f"{source} ranking rule #{position}"
        rule = _conditioned_rule(raw, where, ("name", "weight"), ("superseded",))
        weight = raw["weight"]
        if not isinstance(weight, int | float) or not 0 < weight <= 10:
            raise ValueError(f"{where} ({rule.name}): weight must be a number above 0 (1 leaves the ranking as is).")
        ranking.append(RankingRule(rule.name, rule, float(weight), bool(raw.get("superseded", False))))
    return ranking


def parse_access(data: dict, source: str) -> list[AccessRule]:
    access = []
    for position, raw in enumerate((data or {}).get("access") or [], start=1):
        where = f"{source} access rule #{position}"
        rule = _conditioned_rule(raw, where, ("name", "groups"), ())
        access.append(AccessRule(rule.name, rule, check_groups(raw["groups"], f"{where} ({rule.name})")))
    return access


def _flag(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{where} must be true or false, not {value!r}.")
    return value


def load_rules(rules_dir: Path, source_set: str) -> RuleSet:
    """Per-source-set rules (rules/<source_set>.yaml) first, then rules/corpus-rules.yaml."""
    files = [rules_dir / f"{source_set}.yaml", rules_dir / "corpus-rules.yaml"]
    rules: list[Rule] = []
    ranking: list[RankingRule] = []
    access: list[AccessRule] = []
    sources: list[str] = []
    adapter: str | None = None
    intent = ""
    detect: bool | None = None
    digest = hashlib.sha256()
    for path in files:
        if not path.exists():
            continue
        raw = path.read_bytes()
        digest.update(raw)
        data = yaml.safe_load(raw) or {}
        rules += parse_rules(data, path.name)
        ranking += parse_ranking(data, path.name)
        access += parse_access(data, path.name)
        sources.append(path.name)
        adapter = adapter or data.get("adapter")
        intent = intent or str(data.get("intent") or "")
        if detect is None and "detect_versions" in data:
            detect = _flag(data["detect_versions"], f"{path.name}: detect_versions")
    return RuleSet(
        rules=tuple(rules),
        sources=tuple(sources),
        digest=digest.hexdigest()[:16],
        adapter=adapter,
        intent=intent,
        ranking=tuple(ranking),
        access=tuple(access),
        detect_versions=True if detect is None else detect,
    )


def classify_docs(
    discovered: pl.DataFrame, rule_set: RuleSet, language: Callable[[str], str] = detect_language
) -> pl.DataFrame:
    """Add `decision`, `rule`, the ranking prior (`rank_weight`, `rank_rule`, `superseded`; for a
    document no ranking rule matched, an outdated version found by classification/versions.py, with
    what gave it away in `version_evidence`), the document's `groups` and the `access_rule` that gave
    them, and the detected `language` (by `language`, e.g. a cached detect_language) to the discovered
    documents."""
    docs = list(discovered.iter_rows(named=True))
    decisions = [rule_set.decide(doc) for doc in docs]
    priors = [rule_set.prior(doc) for doc in docs]
    if rule_set.detect_versions:
        priors = detected_versions(docs, priors)
    access = [rule_set.groups(doc) for doc in docs]
    return discovered.with_columns(
        pl.Series("decision", [d[0] for d in decisions], dtype=pl.String),
        pl.Series("rule", [d[1] for d in decisions], dtype=pl.String),
        pl.Series("rank_weight", [p.weight for p in priors], dtype=pl.Float64),
        pl.Series("rank_rule", [p.rule for p in priors], dtype=pl.String),
        pl.Series("superseded", [p.superseded for p in priors], dtype=pl.Boolean),
        pl.Series("version_evidence", [p.evidence for p in priors], dtype=pl.String),
        pl.Series("language", [language(t or "") for t in discovered["text"]], dtype=pl.String),
        pl.Series("groups", [list(a[0]) for a in access], dtype=pl.List(pl.String)),
        pl.Series("access_rule", [a[1] for a in access], dtype=pl.String),
    )


def detected_versions(docs: list[dict], priors: list[Prior]) -> list[Prior]:
    """`priors` with each document that no ranking rule matched marked superseded when its head says
    it is outdated or a newer version of it sits in its folder (classification/versions.py), with
    what gave it away: its old folder, the words of its head, or the newer file beside it."""
    older = newer_beside([doc["doc_id"] for doc in docs if doc.get("status") == "ok"])
    detected = []
    for doc, prior in zip(docs, priors, strict=True):
        if not prior.rule:  # a ranking rule that matched decides
            if folder := outdated_folder(doc["doc_id"]):
                prior = Prior(versions.WEIGHT, versions.UNDER_OLD_FOLDER, True, f"folder: {folder}")
            elif found := outdated_in_text(doc.get("text") or ""):
                prior = Prior(versions.WEIGHT, versions.IN_TEXT, True, found)
            elif doc["doc_id"] in older:
                prior = Prior(versions.WEIGHT, versions.IN_FOLDER, True, f"newer: {older[doc['doc_id']]}")
        detected.append(prior)
    return detected


def newer_beside(doc_ids: list[str]) -> dict[str, str]:
    """Each document a file in its folder supersedes, with that file: a higher version or year, or the
    same name without a word for "old" (classification/versions.py)."""
    return marked_older(doc_ids) | older_versions(doc_ids)


def detected_version_evidence(classified: pl.DataFrame) -> pl.DataFrame:
    """The documents found outdated by classification/versions.py, with what gave them away (the
    `version_evidence` classification recorded): their old folder, the words of their head, or the
    newer file beside them."""
    detected = (versions.IN_TEXT, versions.IN_FOLDER, versions.UNDER_OLD_FOLDER)
    return classified.filter(pl.col("rank_rule").is_in(detected)).select(
        "doc_id", "rank_rule", pl.col("version_evidence").alias("evidence")
    )


def reason_counts(classified: pl.DataFrame) -> pl.DataFrame:
    """How many documents each (decision, rule) pair covered, largest first."""
    return (
        classified.group_by("decision", "rule")
        .agg(pl.len().alias("documents"))
        .sort(["documents", "decision", "rule"], descending=[True, False, False])
    )


def access_counts(classified: pl.DataFrame) -> pl.DataFrame:
    """How many documents each (groups, access rule) pair covered, largest first."""
    return (
        classified.with_columns(pl.col("groups").list.join(", "))
        .group_by("groups", "access_rule")
        .agg(pl.len().alias("documents"))
        .sort(["documents", "groups", "access_rule"], descending=[True, False, False])
    )
