"""Over-redaction: names and mailboxes masked in the sample corpus that are nobody's.

    python -m benchmarks.over_redaction            # counts per source-set, and every dev span with its context
    python -m benchmarks.over_redaction --all      # also list the spans of the other sets

The sample corpus was written with no personal data but the values `golden/planted.yaml` plants. So
every PERSON the ingestion masks that is not a planted name is a place, a product, a tool or a word
that the index and every answer lose ("Quelle [PERSON_1]" for the spring that feeds a town), and
every EMAIL that is not planted is a function's mailbox ("noc@"). (IP addresses are left out: the
corpus's server and printer addresses are masked by policy.) This runs
the ingestion's own steps (discover, classify, `redact_documents` with the NER detector) on each
source-set folder, without Dagster and without writing an index.

Recall is measured elsewhere (`python -m benchmarks.privacy`, on labelled sets); a change that lowers
this count must leave that benchmark's recall where it was.

The parts: `itops`, `hospital`, `utility` and `insurance` are dev-only sets, where rules may be found;
`municipal` is held out (its spans are counted, never listed); the first three sets were read for
earlier tuning. Expect a few minutes: the NER reads every document.
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from strata_pipeline.settings import PROJECT_ROOT

GOLDEN = PROJECT_ROOT / "golden"
DEV = ("itops", "hospital", "utility", "insurance")
HELD_OUT = ("municipal",)
SEEN = ("handbook", "products", "fieldops")


TYPES = ("PERSON", "EMAIL")


def planted_values() -> dict[str, set[str]]:
    """Per source-set, the PERSON and EMAIL values planted on purpose (those must be masked)."""
    planted = yaml.safe_load((GOLDEN / "planted.yaml").read_text(encoding="utf-8"))["planted"]
    values: dict[str, set[str]] = {}
    for row in planted:
        if row.get("type") in TYPES:
            values.setdefault(row["source_set"], set()).add(str(row["value"]))
    return values


def masked_spans(source_set: str, resources: dict[str, Any], cache_dir: Path) -> list[tuple[str, str, str, str]]:
    """(type, doc_id, value, context) of every PERSON and EMAIL the ingestion redacts in one source-set."""
    from strata_pipeline.classification.rules import classify_docs, load_rules
    from strata_pipeline.discovery.discover import discover_source_set
    from strata_pipeline.incremental.cache import DocumentCache
    from strata_pipeline.redaction.documents import redact_documents

    corpus, pii = resources["corpus"], resources["pii"]
    rules = load_rules(resources["settings"].rules_dir, source_set)
    root = GOLDEN / "corpus" / source_set
    docs = classify_docs(
        discover_source_set(root, source_set, corpus.get_adapter(rules.adapter), corpus.limits()), rules
    )
    rows = docs.to_dicts()
    cache = DocumentCache(cache_dir / f"{source_set}.sqlite")
    outcomes = redact_documents(rows, len(rows), pii.detector, pii.policy(), "over-redaction", cache)
    spans = []
    for doc, outcome in zip(rows, outcomes, strict=True):
        text = doc["text"] or ""
        for entry in outcome["audit"]:
            if entry["entity"] in TYPES and entry["decision"] == "redact":
                start, end = entry["start"], entry["start"] + entry["length"]
                context = text[max(0, start - 30) : end + 25].replace("\n", " ")
                spans.append((entry["entity"], doc["doc_id"], text[start:end], context))
    return spans


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--all", action="store_true", help="list the spans of the seen sets too (never municipal's)")
    args = parser.parse_args()
    from strata_pipeline.resources.factory import build_resources
    from strata_pipeline.settings import load_settings

    settings = load_settings()
    resources = {**build_resources(settings), "settings": settings}  # built once: the NER model loads once
    planted = planted_values()
    print("| set, part | PERSON masked | not planted | EMAIL masked | not planted |")
    print("|---|---|---|---|---|")
    listed: list[str] = []
    totals: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for part, sets in (("dev", DEV), ("held out", HELD_OUT), ("seen", SEEN)):
            for source_set in sets:
                spans = masked_spans(source_set, resources, Path(tmp))
                over = [s for s in spans if s[2] not in planted.get(source_set, set())]
                cells = []
                for kind in TYPES:
                    masked, wrong = sum(s[0] == kind for s in spans), sum(s[0] == kind for s in over)
                    totals[f"{part} {kind} masked"] += masked
                    totals[f"{part} {kind} over"] += wrong
                    cells += [str(masked), str(wrong)]
                print(f"| {source_set}, {part} | " + " | ".join(cells) + " |", flush=True)
                if part == "dev" or (part == "seen" and args.all):
                    listed += [f"  {source_set} {doc}: {kind} {value!r} in …{ctx}…" for kind, doc, value, ctx in over]
    for part in ("dev", "held out", "seen"):
        cells = [str(totals[f"{part} {kind} {what}"]) for kind in TYPES for what in ("masked", "over")]
        print(f"| **all {part}** | " + " | ".join(cells) + " |")
    if listed:
        print("\nNot planted, masked:")
        print("\n".join(listed))


if __name__ == "__main__":
    main()
