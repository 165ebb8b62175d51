"""Personal-data detection quality and cost, next to plain Presidio, measured in one run.

    python -m benchmarks.privacy              # quality tables (dev and test) and cost per backend
    python -m benchmarks.privacy --misses 40  # also list dev misses and false positives, to tune on

Misses are shown for *dev* only: test is scored, never inspected.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from benchmarks.plain_presidio import PlainPresidio
from benchmarks.timing import ms_per_kchar
from strata_pipeline.evaluation.labels import LabelledDoc
from strata_pipeline.evaluation.pii_sets import PARTS, SETS, load_set
from strata_pipeline.evaluation.privacy import PII_TYPES, Detection, pii_matches, scores_from_matches
from strata_pipeline.redaction.pii import Finding, PiiPolicy, PresidioDetector
from strata_pipeline.redaction.redact import redact_text
from strata_pipeline.settings import PROJECT_ROOT

GOLDEN = PROJECT_ROOT / "golden"


class RedactAll(PiiPolicy):
    """No policy layer: every finding is redacted (plain Presidio as a new user runs it)."""

    def decide(self, finding: Finding, text: str, others: Sequence[Finding] = ()) -> str:
        return "redact"


def backends() -> dict[str, tuple[object, PiiPolicy]]:
    return {
        "strata (presidio-ner)": (PresidioDetector(use_ner=True), PiiPolicy()),
        "strata (presidio-regex)": (PresidioDetector(use_ner=False), PiiPolicy()),
        "plain Presidio + en_core_web_sm": (PlainPresidio(), RedactAll()),
    }


def quality_table(name: str, per_part: dict[str, dict[str, float]]) -> str:
    lines = [f"  {name}", f"    {'type':<12}" + "".join(f"{p + ' R':>9}{p + ' P':>9}{p + ' n':>7}" for p in per_part)]
    for entity in ("ALL", *PII_TYPES):
        key = "" if entity == "ALL" else f"_{entity.lower()}"
        if all(s.get(f"pii_planted{key}", 0) == 0 and s.get(f"pii_detected{key}", 0) == 0 for s in per_part.values()):
            continue
        cells = "".join(
            f"{s[f'pii_recall{key}']:>9.3f}{s[f'pii_precision{key}']:>9.3f}{int(s[f'pii_planted{key}']):>7}"
            for s in per_part.values()
        )
        lines.append(f"    {entity:<12}{cells}")
    return "\n".join(lines)


def show_misses(docs: list[LabelledDoc], matches, limit: int) -> None:
    by_id = {d.doc_id: d for d in docs}
    shown = 0
    for match in matches:
        if not (match.missed or match.false_positives) or shown >= limit:
            continue
        shown += 1
        text = by_id[match.doc_id].text
        print(f"--- {match.doc_id}: {text[:300]!r}")
        for p in match.missed:
            print(f"    MISSED {p.type:<10} {text[p.start : p.end]!r}")
        for d in match.false_positives:
            print(f"    WRONG  {d.type:<10} {text[d.start : d.end]!r}")
        masked = [m for m in match.detections if isinstance(m, Detection)]
        print("    masked: " + ", ".join(f"{m.type}:{text[m.start : m.end]!r}" for m in masked))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--misses", type=int, default=0, help="list this many dev documents with errors")
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--backends", default="", help="comma-separated name prefixes (default: all)")
    args = parser.parse_args()
    chosen = {
        n: b
        for n, b in backends().items()
        if not args.backends or any(n.startswith(p) for p in args.backends.split(","))
    }
    sets = {(s, p): load_set(GOLDEN, s, p) for s in args.sets.split(",") for p in PARTS}
    pooled: dict[str, dict[str, list]] = {name: {"test": [], "dev": []} for name in chosen}
    for set_name in args.sets.split(","):
        print(f"\n{set_name}: recall (R), precision (P), planted values (n); test is the figure, dev beside it")
        for name, (detector, policy) in chosen.items():
            per_part, dev_matches = {}, None
            for part in ("test", "dev"):
                matches = pii_matches(detector, policy, sets[(set_name, part)])
                pooled[name][part] += matches
                per_part[part] = scores_from_matches(matches)
                if part == "dev":
                    dev_matches = matches
            print(quality_table(name, per_part))
            if args.misses and name.startswith("strata (presidio-ner"):
                show_misses(sets[(set_name, "dev")], dev_matches, args.misses)
    print("\nall sets pooled (the headline figures): test, dev beside it")
    for name, parts in pooled.items():
        print(quality_table(name, {part: scores_from_matches(matches) for part, matches in parts.items()}))

    texts = [d.text for docs in sets.values() for d in docs][::3]  # a third of every set keeps the run short
    print(f"\nDetection cost on the same {len(texts)} texts ({sum(map(len, texts)):,} characters), median of 3")
    costs = {}
    for name, (detector, policy) in chosen.items():
        redact_text(texts[0], detector, policy)  # warm up
        costs[name] = ms_per_kchar(lambda t, d=detector, p=policy: redact_text(t, d, p), texts)
    plain = costs.get("plain Presidio + en_core_web_sm")
    for name, cost in costs.items():
        ratio = f"{cost / plain:>8.2f}x plain Presidio" if plain else ""
        print(f"  {name:<34}{cost:>8.2f} ms / 1,000 chars {ratio}")


if __name__ == "__main__":
    main()
