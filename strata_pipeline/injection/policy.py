"""What ingestion does with a chunk the scanner flags: the `injection:` block of the rules files.

    injection:
      policy: flag          # flag: keep it, marked; quarantine: also keep it out of every answer
      flag_at: 0.5          # risk from which a chunk is flagged
      quarantine_at: 0.8    # risk from which a chunk is quarantined (policy: quarantine only)

rules/<source_set>.yaml overrides rules/corpus-rules.yaml key by key. Quarantined chunks stay
searchable, marked with their flags, so an operator can find and fix the document; the answerers
never read them (injection.defence.sanitise).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl
import yaml

from strata_pipeline.injection.scanner import scan

POLICIES = ("flag", "quarantine")
FINDINGS_TYPE = pl.List(
    pl.Struct(
        {
            "family": pl.String(),
            "pattern": pl.String(),
            "span": pl.String(),
            "encoder": pl.String(),
            "weight": pl.Float64(),
        }
    )
)


@dataclass(frozen=True)
class InjectionPolicy:
    policy: str = "flag"
    flag_at: float = 0.5
    quarantine_at: float = 0.8

    def action(self, risk: float) -> str:
        """none | flag | quarantine"""
        if self.policy == "quarantine" and risk >= self.quarantine_at:
            return "quarantine"
        return "flag" if risk >= self.flag_at else "none"


def load_injection_policy(rules_dir: Path, source_set: str) -> InjectionPolicy:
    merged: dict = {}
    for path in (rules_dir / "corpus-rules.yaml", rules_dir / f"{source_set}.yaml"):
        if path.exists():
            merged |= (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("injection") or {}
    policy = InjectionPolicy(
        str(merged.get("policy", "flag")), float(merged.get("flag_at", 0.5)), float(merged.get("quarantine_at", 0.8))
    )
    if policy.policy not in POLICIES:
        raise ValueError(f"injection.policy must be one of {POLICIES}, not {policy.policy!r}.")
    if not 0 < policy.flag_at <= policy.quarantine_at <= 1:
        raise ValueError("injection: need 0 < flag_at <= quarantine_at <= 1.")
    return policy


def scan_chunks(chunks: pl.DataFrame, policy: InjectionPolicy) -> pl.DataFrame:
    """`injection_risk`, `injection_findings` and `injection_action` for every chunk."""
    scans = [scan(text or "") for text in chunks["text"].to_list()]
    return chunks.with_columns(
        pl.Series("injection_risk", [s.risk for s in scans], dtype=pl.Float64),
        pl.Series("injection_findings", [[f.as_dict() for f in s.findings] for s in scans], dtype=FINDINGS_TYPE),
        pl.Series("injection_action", [policy.action(s.risk) for s in scans], dtype=pl.String),
    )
