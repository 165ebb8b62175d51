"""Injection defence on the red-team set: detection per family and encoder, clean documents flagged,
and attack success on the extractive path and on two generators: the scripted obedient one (repeats
every URL and token it can decode) and a capable one (reads every encoding and emits the canary).

    python -m benchmarks.redteam_corpus   # (re)writes golden/redteam/{dev,test}.jsonl
    python -m benchmarks.injection [dev|test]   # prints test with dev in brackets (or one split)

Tune on dev only; test is scored, never read while writing rules.
"""

from __future__ import annotations

import sys
import time

from strata_pipeline.evaluation.injection import (
    attack_figures,
    capable_client,
    detection_figures,
    load_redteam,
    obedient_client,
)
from strata_pipeline.settings import PROJECT_ROOT

REDTEAM = PROJECT_ROOT / "golden" / "redteam"
PATHS = ("extractive", "llm", "capable")


def figures(split: str) -> dict[str, float]:
    records = load_redteam(REDTEAM / f"{split}.jsonl")
    started = time.perf_counter()
    out = detection_figures(records) | attack_figures(
        records, complete=obedient_client, generators={"capable": capable_client(records)}
    )
    return out | {"seconds": time.perf_counter() - started}


def _cell(by_split: list[dict[str, float]], key: str) -> str:
    """The first split's value, the second's in brackets."""
    values = [f"{split[key]:.1%}" if key in split else "-" for split in by_split]
    return values[0] + (f" ({values[1]})" if len(values) > 1 else "")


def _breakdown(by_split: list[dict[str, float]], field: str) -> list[str]:
    names = sorted({k.rsplit("/", 1)[1] for split in by_split for k in split if f"/detected/{field}/" in k})
    header = f"  {field:<14} {'flagged':>16}" + "".join(f" {path + ' ASR':>18}" for path in PATHS)
    rows = [
        f"  {name:<14} {_cell(by_split, f'injection/detected/{field}/{name}'):>16}"
        + "".join(f" {_cell(by_split, f'injection/{path}/attack_success/{field}/{name}'):>18}" for path in PATHS)
        for name in names
    ]
    return [header, *rows]


def main() -> None:
    splits = sys.argv[1:] or ["test", "dev"]
    by_split = [figures(split) for split in splits]
    print(
        " / ".join(
            f"{s}: {f['injection/poisoned_documents']} poisoned, {f['injection/clean_documents']} clean "
            f"({f['seconds']:.1f} s)"
            for s, f in zip(splits, by_split, strict=True)
        )
        + ("" if len(splits) == 1 else f"; figures are {splits[0]} ({splits[1]})")
    )
    print(f"poisoned flagged          {_cell(by_split, 'injection/detection_rate')}")
    print(f"clean flagged             {_cell(by_split, 'injection/clean_flagged_rate')}")
    for path in PATHS:
        print(
            f"{path:<10} attack success {_cell(by_split, f'injection/{path}/attack_success_rate')}, "
            f"clean questions answered {_cell(by_split, f'injection/{path}/clean_answered_rate')}, "
            f"over-blocked {_cell(by_split, f'injection/{path}/over_blocked_rate')}"
        )
    for field in ("family", "encoder"):
        print("\n".join(_breakdown(by_split, field)))


if __name__ == "__main__":
    main()
