"""Accuracy of the German compound splitter on a hand-labelled list of general German words.

benchmarks/data/compounds_de.tsv holds compounds with their cuts and derived or simple words that must
stay whole, each marked dev (tune on it) or test (score only). A word counts as right when the
splitter cuts it at exactly the labelled places (a linking element may sit on either side of a cut:
the splitter reports "wartung" for "wartungs-", and the stemmer treats both alike).

    python -m benchmarks.compound_split [--misses]   (--misses lists dev misses only)
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

DATA = Path(__file__).parent / "data" / "compounds_de.tsv"


def load(path: Path = DATA) -> list[tuple[str, str, tuple[int, ...]]]:
    """(part, word, cut positions) for each labelled word."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        part, word, label = line.split("\t")
        assert label.replace("|", "") == word, line
        pieces = label.split("|")
        rows.append((part, word, tuple(sum(len(p) for p in pieces[:k]) for k in range(1, len(pieces)))))
    return rows


def cuts_of(word: str, parts: tuple[str, ...]) -> tuple[int, ...]:
    """Where `parts` (as compound_parts reports them) cut `word`: each part after the first starts
    after the previous part and its linking letters, and the last part ends the word."""
    if not parts:
        return ()
    cuts, start = [], len(parts[0])
    for k, part in enumerate(parts[1:], 1):
        at = len(word) - len(part) if k == len(parts) - 1 else word.find(part, start)
        cuts.append(at)
        start = at + len(part)
    return tuple(cuts)


def score(split: Callable[[str], tuple[str, ...]], rows: list[tuple[str, str, tuple[int, ...]]]) -> dict:
    """Per part: (right, total, misses)."""
    out: dict[str, tuple[int, int, list[str]]] = {}
    for part, word, expected in rows:
        right, total, misses = out.get(part, (0, 0, []))
        got = split(word)
        ok = cuts_of(word, got) == expected
        out[part] = (right + ok, total + 1, misses if ok else [*misses, f"{word}: {'|'.join(got) or '-'}"])
    return out


def main() -> None:
    from strata_pipeline.embedding.models import _compound_splitter

    for part, (right, total, misses) in sorted(score(_compound_splitter("de"), load()).items()):
        print(f"{part}: {right}/{total} = {right / total:.3f}")
        if part == "dev" and "--misses" in sys.argv:
            print("  " + "\n  ".join(misses))


if __name__ == "__main__":
    main()
