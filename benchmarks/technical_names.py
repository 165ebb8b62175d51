"""Names that are not people, in technical text: how many does redaction mask, and does it still mask people?

    python -m benchmarks.technical_names            # masked non-persons and caught persons, per part and language
    python -m benchmarks.technical_names --misses   # also list the dev items' wrong masks and missed people

`golden/privacy/technical_names.yaml` holds short operational texts (runbooks, release notes, site guides,
inventory rows, minutes) in English, German and French, each with the strings that look like names but are
not people (`non_persons`: products, tools, vendors, places, rooms, events, code names) and the people it
names (`persons`), split dev/test. It was written by a helper who saw none of the redaction code. Each text
is redacted alone, as a one-document source-set, through the ingestion's path (`benchmarks.one_document_sets`).

A non-person is *masked* when any mask covers half of its characters; a person is *caught* when masks cover
80% of theirs past a title ("Herr Nowak": "Nowak"), as `benchmarks.privacy` scores. Test is scored, never listed.
"""

from __future__ import annotations

import argparse
import re
from collections import defaultdict
from typing import Any

from benchmarks.one_document_sets import load_items, redact_each_alone
from strata_pipeline.settings import PROJECT_ROOT

DATA = PROJECT_ROOT / "golden" / "privacy" / "technical_names.yaml"


def person_fraction(text: str, person: str, spans: list[tuple[int, int]]) -> float:
    """The share of a person's name, past its title, that the masks cover."""
    start = text.index(person)
    offset = len(person) - len(name_part(person))
    return masked_fraction(
        text[start + offset :], name_part(person), spans=[(s - start - offset, e - start - offset) for s, e in spans]
    )


def masked_fraction(text: str, value: str, spans: list[tuple[int, int]]) -> float:
    """The share of `value`'s characters, at its first place in `text`, that the masks `spans` cover."""
    start = text.index(value)
    covered = sum(1 for i in range(start, start + len(value)) if any(s <= i < e for s, e in spans))
    return covered / len(value)


# A title before a person's name is not part of the name a redaction must mask ("Herr [PERSON_1]").
TITLE = re.compile(r"^(?:(?:Mr|Mrs|Ms|Dr|Prof|Herr|Herrn|Frau|Hr|Fr|Mme|Mlle|M|Me)\.?\s+)+")


def name_part(person: str) -> str:
    """`person` without a leading title: "Nowak" of "Herr Nowak", "Girard" of "Mme Girard"."""
    return TITLE.sub("", person) or person


def masked_spans(items: list[dict[str, Any]]) -> list[list[tuple[int, int]]]:
    """The spans each item's redaction masks, the item read as a source-set of one document."""
    redactions = redact_each_alone([item["text"] for item in items])
    return [[(a.start, a.start + a.length) for a in r.audit if a.decision == "redact"] for r in redactions]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--misses", action="store_true", help="list the dev items' wrong masks and missed people")
    args = parser.parse_args()
    items = load_items(DATA)
    spans = masked_spans(items)
    # (part, lang) -> [non-persons masked, non-persons, persons caught, persons]
    table: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    wrong: list[str] = []
    for item, masks in zip(items, spans, strict=True):
        text = item["text"]
        masked = [v for v in item.get("non_persons") or [] if masked_fraction(text, v, masks) >= 0.5]
        missed = [v for v in item.get("persons") or [] if person_fraction(text, v, masks) < 0.8]
        for lang in (item["lang"], "all"):
            cell = table[(item["part"], lang)]
            cell[0] += len(masked)
            cell[1] += len(item.get("non_persons") or [])
            cell[2] += len(item.get("persons") or []) - len(missed)
            cell[3] += len(item.get("persons") or [])
        if item["part"] == "dev" and (masked or missed):
            wrong.append(f"  {item['id']} masked {masked} missed {missed}")
    print("Technical names (golden/privacy/technical_names.yaml): non-persons masked (wrong), persons caught (right)")
    header = "".join(f"{p + ' ' + k:>24}" for p in ("test", "dev") for k in ("non-persons masked", "persons caught"))
    print(f"  {'lang':<6}{header}")
    for lang in ("all", "en", "de", "fr"):
        cells = []
        for part in ("test", "dev"):
            m, n, c, p = table.get((part, lang), [0, 0, 0, 0])
            cells += [f"{m}/{n} ({m / n:.3f})" if n else "-", f"{c}/{p} ({c / p:.3f})" if p else "-"]
        print(f"  {lang:<6}" + "".join(f"{c:>24}" for c in cells))
    if args.misses:
        print("\nDev items with a non-person masked or a person missed:")
        print("\n".join(wrong))


if __name__ == "__main__":
    main()
