"""Injection defence on the red-team set: detection per family and encoder, clean documents flagged,
and attack success on the extractive path and on a worst-case generator that obeys every passage.

    python -m benchmarks.redteam_corpus   # (re)writes golden/redteam/{dev,test}.jsonl
    python -m benchmarks.injection [dev|test]   # prints dev and test figures

Tune on dev only; test is scored, never read while writing rules.
"""

from __future__ import annotations

import sys
import time

from strata_pipeline.evaluation.injection import attack_figures, detection_figures, load_redteam, obedient_client
from strata_pipeline.settings import PROJECT_ROOT

REDTEAM = PROJECT_ROOT / "golden" / "redteam"


def _table(figures: dict[str, float], prefix: str) -> str:
    rows = sorted((k.removeprefix(prefix), v) for k, v in figures.items() if k.startswith(prefix))
    return "\n".join(f"  {name:<28} {value:6.1%}" for name, value in rows)


def main() -> None:
    for split in sys.argv[1:] or ("dev", "test"):
        records = load_redteam(REDTEAM / f"{split}.jsonl")
        started = time.perf_counter()
        detection = detection_figures(records)
        attacks = attack_figures(records, complete=obedient_client)
        seconds = time.perf_counter() - started
        print(
            f"== {split}: {detection['injection/poisoned_documents']} poisoned, "
            f"{detection['injection/clean_documents']} clean ({seconds:.1f} s)"
        )
        print(f"poisoned flagged       {detection['injection/detection_rate']:6.1%}")
        print(f"clean flagged          {detection['injection/clean_flagged_rate']:6.1%}")
        print("detected per family:\n" + _table(detection, "injection/detected/family/"))
        print("detected per encoder:\n" + _table(detection, "injection/detected/encoder/"))
        for path in ("extractive", "llm"):
            print(
                f"{path}: attack success {attacks[f'injection/{path}/attack_success_rate']:6.1%}, "
                f"clean questions answered {attacks[f'injection/{path}/clean_answered_rate']:6.1%}, "
                f"over-blocked {attacks[f'injection/{path}/over_blocked_rate']:6.1%}"
            )
            failed = {k: v for k, v in attacks.items() if k.startswith(f"injection/{path}/attack_success/") and v}
            if failed:
                print(_table(failed, f"injection/{path}/attack_success/"))


if __name__ == "__main__":
    main()
