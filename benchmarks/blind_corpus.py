"""Company document folders the project did not write, materialised and scored end to end.

    python -m benchmarks.blind_corpus                    # kessler, into a temporary STRATA_HOME (about 4 minutes)
    python -m benchmarks.blind_corpus --set rheintal     # the held-out transport operator (test only)
    python -m benchmarks.blind_corpus --home DIR         # keep the index there (to ask it questions after)

`golden/blind/corpus/kessler` is the internal folder of a fictional German gear-motor maker: 47 documents
(.md, .txt, .docx, .pdf, .html, .csv, .xlsx, .pptx, .eml; German, English and French) with version and
site twins, spreadsheets with title rows above their tables, semicolon CSV exports and personal data. A
helper that saw none of the code wrote it, with 50 questions (`golden/blind/kessler.yaml`) and the
personal data it planted (`golden/blind/kessler-privacy.yaml`: every person, e-mail, phone, IBAN and home
address, and 67 name-like things that are no person). It was scored once before any change; the fixes
that followed were made on what that run showed, so its questions are `dev` now (docs/blind-corpus.md).

`golden/blind/corpus/rheintal` is a second folder written the same way, later: a regional bus and tram
operator (51 documents; `golden/blind/rheintal.yaml`: 75 questions and 12 compound ones;
`golden/blind/rheintal-privacy.yaml`: 97 personal values, 236 name-like non-persons). Its questions are
`test`: it is scored, never tuned on.

It runs `strata materialize` and `benchmarks.retrieval_quality --abstention` on the set as a new user
would (their own corpus root and golden folder), then reads the redacted documents for privacy: a
*leak* is a planted value still in a document's indexed text or tables; a *masked* non-person is one
no longer there as written.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import polars as pl
import yaml

from strata_pipeline.settings import PROJECT_ROOT

BLIND = PROJECT_ROOT / "golden" / "blind"
SETS = ("kessler", "rheintal", "alpenfrost")


def privacy(labels: dict, redacted: pl.DataFrame) -> tuple[Counter, Counter, list[str], int, list[str]]:
    """Planted values per kind and those left in the indexed text (leaks), and the non-persons masked."""
    held = {
        row["doc_id"]: (row["text"] or "")
        + "\n"
        + json.dumps(json.loads(row["tables_json"] or "null"), ensure_ascii=False)
        for row in redacted.iter_rows(named=True)
    }
    planted, leaked, leaks = Counter(), Counter(), []
    for entry in labels["pii"]:
        planted[entry["kind"]] += 1
        if entry["value"] in held.get(entry["file"], ""):
            leaked[entry["kind"]] += 1
            leaks.append(f"{entry['kind']} {entry['value']!r} in {entry['file']}")
    masked = [
        f"{e['value']!r} in {e['file']}" for e in labels["not_persons"] if e["value"] not in held.get(e["file"], "")
    ]
    return planted, leaked, leaks, len(labels["not_persons"]), masked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--home", type=Path, help="STRATA_HOME to build the index in (default: a temporary one).")
    parser.add_argument("--list", action="store_true", help="List each leak and each masked non-person.")
    parser.add_argument("--set", choices=SETS, default=SETS[0], help="Which blind folder (default: kessler).")
    args = parser.parse_args()
    name = args.set
    with tempfile.TemporaryDirectory(prefix="strata-blind-") as scratch:
        home = args.home or Path(scratch)
        env = os.environ | {
            "STRATA_HOME": str(home),
            "STRATA_CORPUS_ROOT": str(BLIND / "corpus"),
            "STRATA_GOLDEN_DIR": str(BLIND),
        }
        env.pop("DAGSTER_HOME", None)  # the set's runs go to its own home
        run = [sys.executable, "-m", "strata_pipeline.cli"]
        subprocess.run([*run, "materialize", "--source-set", name], env=env, check=True)
        quality = [sys.executable, "-m", "benchmarks.retrieval_quality", "--abstention", "--source-set", name]
        subprocess.run(quality, env=env, check=True)
        labels = yaml.safe_load((BLIND / f"{name}-privacy.yaml").read_text(encoding="utf-8"))
        redacted = pl.read_parquet(home / "assets" / "redacted_docs" / f"{name}.parquet")
        planted, leaked, leaks, things, masked = privacy(labels, redacted)
    print("\nPersonal data planted in the corpus and left in its index (leaks)\n")
    print("| kind | planted | leaked |\n|---|---|---|")
    for kind in sorted(planted):
        print(f"| {kind} | {planted[kind]} | {leaked[kind]} |")
    print(f"\nName-like things that are no person, masked: {len(masked)} of {things}")
    if args.list:
        for line in leaks:
            print(f"  leak: {line}")
        for line in masked:
            print(f"  masked: {line}")


if __name__ == "__main__":
    main()
