"""Mailboxes: is a function's address kept and a person's masked?

    python -m benchmarks.mailboxes            # kept/masked per part, language and kind
    python -m benchmarks.mailboxes --misses   # also list the dev items judged wrong, to tune on

`golden/privacy/mailboxes.yaml` holds short document texts, each with one e-mail address labelled
`function` (an office's, a team's, a system's: published on purpose, so kept) or `person` (personal
data, so masked), in six languages, split dev/test. It was written by a helper who saw none of the
redaction code. Each text is redacted alone, as a one-document source-set, through the ingestion's own
path (`benchmarks.one_document_sets`): an address is kept when it stands whole in the redacted text.

The figure that must not move is a person's address kept (a leak); the one to raise is a function's
address kept. Test is scored, never listed.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from typing import Any

from benchmarks.one_document_sets import load_items, redact_each_alone
from strata_pipeline.settings import PROJECT_ROOT

DATA = PROJECT_ROOT / "golden" / "privacy" / "mailboxes.yaml"


def kept(items: list[dict[str, Any]]) -> list[bool]:
    """Whether each item's address survives redaction of its text, read as a source-set of one document."""
    redactions = redact_each_alone([item["text"] for item in items])
    return [item["email"] in redaction.text for item, redaction in zip(items, redactions, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--misses", action="store_true", help="list the dev items judged wrong")
    args = parser.parse_args()
    items = load_items(DATA)
    outcomes = kept(items)
    table: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    for item, was_kept in zip(items, outcomes, strict=True):
        for lang in (item["lang"], "all"):
            cell = table[(item["part"], lang, item["kind"])]
            cell[0] += was_kept
            cell[1] += 1
    print("Mailboxes kept (golden/privacy/mailboxes.yaml; function: kept is right; person: kept is a leak)")
    print(f"  {'lang':<6}" + "".join(f"{p + ' ' + k:>18}" for p in ("test", "dev") for k in ("function", "person")))
    for lang in ("all", "de", "fr", "en", "it", "nl", "es"):
        cells = []
        for part in ("test", "dev"):
            for kind in ("function", "person"):
                n_kept, n = table.get((part, lang, kind), [0, 0])
                cells.append(f"{n_kept}/{n}" if n else "-")
        print(f"  {lang:<6}" + "".join(f"{c:>18}" for c in cells))
    if args.misses:
        print("\nDev items judged wrong:")
        for item, was_kept in zip(items, outcomes, strict=True):
            if item["part"] == "dev" and was_kept != (item["kind"] == "function"):
                state = "kept" if was_kept else "masked"
                print(f"  {item['id']} {item['kind']:<8} {state:<6} {item['email']}")


if __name__ == "__main__":
    main()
