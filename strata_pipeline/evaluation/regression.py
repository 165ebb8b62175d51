"""The eval's regression gate: compare a run's headline figures with the last passing run's."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Verdict:
    passed: bool
    explanation: str
    metadata: dict


def guarded_keys(summary: dict[str, float]) -> list[str]:
    return [k for k in summary if k == "mrr" or (k.startswith("recall_at_") and k.count("_") == 2)]


def compare_to_baseline(
    summary: dict[str, float], baseline: dict | None, tolerance: float, golden_digest: str = ""
) -> Verdict:
    if baseline is None:
        return Verdict(True, "First passing run: it becomes the baseline.", {"baseline": "none"})
    if golden_digest and baseline.get("fingerprint", {}).get("golden_digest") != golden_digest:
        # Scores over other questions (or other parts) do not compare: start a new baseline.
        return Verdict(True, "The golden set changed since the baseline: this run becomes the baseline.",
                       {"baseline": "golden set changed"})  # fmt: skip
    previous = baseline["summary"]
    drops = {k: round(previous[k] - summary[k], 4) for k in guarded_keys(summary) if k in previous}
    failing = {k: d for k, d in drops.items() if d > tolerance}
    metadata = {f"{k}_baseline": previous[k] for k in drops} | {f"{k}_drop": d for k, d in drops.items()}
    metadata["baseline_version"] = baseline.get("fingerprint", {}).get("index_version", "")
    if failing:
        worst = ", ".join(f"{k} fell {d:.3f} (from {previous[k]:.3f} to {summary[k]:.3f})" for k, d in failing.items())
        return Verdict(False, f"Retrieval regressed beyond the tolerance of {tolerance}: {worst}.", metadata)
    return Verdict(True, "Within tolerance of the last passing run.", metadata)


class Baseline:
    """The headline figures of the last passing run, one small JSON file per partition."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> dict | None:
        return json.loads(self.path.read_text(encoding="utf-8")) if self.path.exists() else None

    def write(self, summary: dict[str, float], fingerprint: dict) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"summary": summary, "fingerprint": fingerprint}, indent=2), encoding="utf-8")
        os.replace(tmp, self.path)
