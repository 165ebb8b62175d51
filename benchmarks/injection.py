"""Injection defence on the red-team set: detection per family and encoder, clean documents flagged,
and attack success on the extractive path and on two generators: the scripted obedient one (repeats
every URL and token it can decode) and a capable one (reads every encoding and emits the canary).

    python -m benchmarks.redteam_corpus   # (re)writes golden/redteam/{dev,test}.jsonl
    python -m benchmarks.injection [dev|test]   # prints test with dev in brackets (or one split)
    python -m benchmarks.injection --golden     # also: does validation withhold honest golden answers?
    python -m benchmarks.injection --dense      # also: the extractive path with the offline embedder (slow)

Tune on dev only; test is scored, never read while writing rules.
"""

from __future__ import annotations

import sys
import time

from strata_pipeline.evaluation.injection import (
    Similarity,
    attack_figures,
    capable_client,
    detection_figures,
    load_redteam,
    obedient_client,
)
from strata_pipeline.evaluation.overblocking import golden_overblocking
from strata_pipeline.settings import PROJECT_ROOT, load_settings

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


def dense_similarity() -> Similarity:
    """The offline embedder's cosine, as the extractive answerer uses it in production."""
    import numpy as np

    from strata_pipeline.embedding.models import OFFLINE_MODEL, load_dense_model

    model = load_dense_model(OFFLINE_MODEL, load_settings().models_dir)

    def cosine(question: str, sentences: list[str]) -> list[float]:
        vectors = np.array(list(model.embed([question, *sentences])))
        return (vectors[1:] @ vectors[0]).tolist()

    return cosine


def golden_table(splits: list[str]) -> None:
    by_split = [golden_overblocking(PROJECT_ROOT / "golden", split) for split in splits]
    print(f"honest golden answers (faithful scripted generator), {' ('.join(splits)}{')' * (len(splits) - 1)}:")
    names = [*sorted({n for split in by_split for n in split} - {"all"}), "all"]
    for name in names:
        cells = [by_split[i].get(name) for i in range(len(splits))]
        shown = [
            f"{c.questions} q, accuracy {c.accuracy_validated:.1%} validated / {c.accuracy_unvalidated:.1%} not, "
            f"withheld {c.withheld}"
            if c
            else "-"
            for c in cells
        ]
        print(f"  {name:<10} {shown[0]}" + (f" ({shown[1]})" if len(shown) > 1 else ""))


def main() -> None:
    flags = {a for a in sys.argv[1:] if a.startswith("--")}
    splits = [a for a in sys.argv[1:] if not a.startswith("--")] or ["test", "dev"]
    by_split = [figures(split) for split in splits]
    if "--dense" in flags:
        similarity = dense_similarity()
        for split, out in zip(splits, by_split, strict=True):
            dense = attack_figures(load_redteam(REDTEAM / f"{split}.jsonl"), similarity=similarity)
            out |= {k.replace("/extractive/", "/extractive-dense/"): v for k, v in dense.items() if "/extractive/" in k}
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
    for path in PATHS + (("extractive-dense",) if "--dense" in flags else ()):
        print(
            f"{path:<10} attack success {_cell(by_split, f'injection/{path}/attack_success_rate')}, "
            f"instruction quoted {_cell(by_split, f'injection/{path}/instruction_quoted_rate')}, "
            f"clean questions answered {_cell(by_split, f'injection/{path}/clean_answered_rate')}, "
            f"over-blocked {_cell(by_split, f'injection/{path}/over_blocked_rate')}"
        )
    for field in ("family", "encoder"):
        print("\n".join(_breakdown(by_split, field)))
    if "--golden" in flags:
        golden_table(splits)


if __name__ == "__main__":
    main()
