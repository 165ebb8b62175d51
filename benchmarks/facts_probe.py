"""Answers over small corpora in other domains, asked as a new user would. A check that the facts
parser, the router and the answerer hold on tables and wording the golden sets do not have.

- `learning` (benchmarks/data/facts_probe/): training courses, a course sheet and a provider sheet,
  policies in en, de, fr; 32 questions. Written before the code was changed for them; the fixes of
  2026-12-04 were made on them.
- `fleet` (benchmarks/data/facts_probe_fleet/): a vehicle sheet and a maintenance log, policies in en,
  de, fr; 63 questions over every operation (counts, sums "in total/insgesamt/au total", averages in a
  year, both sheets, top n, the newest per depot, negations, date and number ranges, units, synonyms of
  column names) and questions about columns that do not exist, which must abstain. Written before any
  code was changed for them (branch facts8); fixes were then made on them. Branch facts9 added the top
  row per group and rows absent from the other sheet (7 fleet, 3 learning questions), also written first.
  Branch facts10 added a count of the groups that meet a condition on their count or total, and rows absent
  from a sheet whose key column has another name (new sheets fleet/sheets/fuel-cards.csv with `fahrzeug`,
  learning/catalogue/feedback.csv with `course_code`): 11 fleet and 6 learning questions, written first.
- `procurement` (benchmarks/data/facts_probe_procurement/): a supplier sheet (.csv) and a purchase-order workbook
  (.xlsx with real Excel dates and numbers), policies in en, de, fr; 56 questions over every operation, in
  en/de/fr, with synonyms of column names ("value", "spend", "cost center") and columns that do not exist
  (must abstain). Written by branch facts11 before the probe was first run and before any code was changed
  for it; its first score is the nearest thing to a held-out figure the facts engine has.

All are dev sets once fixes are made on them, not held-out figures. Each line of questions.tsv is a
question and what its answer must contain: parts joined by ' && ' must all appear, a part starting
with '!' must not; ABSTAIN: the answer must abstain.

    python -m benchmarks.facts_probe [--set learning|fleet|procurement] [--misses]
    (each set materialises its corpus into a temporary home: ~30 s to 1 min)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

DATA = Path(__file__).parent / "data"
SETS = {
    "learning": DATA / "facts_probe",
    "fleet": DATA / "facts_probe_fleet",
    "procurement": DATA / "facts_probe_procurement",
}
DOMAINS = {"learning": "training-course corpus", "fleet": "vehicle-fleet corpus", "procurement": "procurement corpus"}


def questions(path: Path = SETS["learning"] / "questions.tsv") -> list[tuple[str, str]]:
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    return [(q, expected) for q, expected in rows]


def answered(expected: str, abstained: bool, text: str) -> bool:
    """Whether an answer meets its expectation: ABSTAIN, or every part present and no '!' part."""
    if expected == "ABSTAIN":
        return abstained
    if abstained:
        return False
    parts = [p.strip() for p in expected.split(" && ")]
    return all((p[1:] not in text) if p.startswith("!") else (p in text) for p in parts)


def probe(name: str, show_misses: bool) -> tuple[int, int]:
    data = SETS[name]
    asked = questions(data / "questions.tsv")
    with tempfile.TemporaryDirectory(prefix="strata-probe-") as tmp:
        env = {"STRATA_HOME": f"{tmp}/home", "STRATA_CORPUS_ROOT": str(data), "STRATA_GOLDEN_DIR": f"{tmp}/golden"}
        Path(env["STRATA_GOLDEN_DIR"]).mkdir()
        os.environ.update(env)
        subprocess.run([sys.executable, "-m", "strata_pipeline.cli", "materialize"], check=True, capture_output=True)
        from strata_pipeline.serving_index import PublishedIndex
        from strata_pipeline.settings import load_settings

        index = PublishedIndex.from_settings(load_settings())
        right, misses = 0, []
        with index.engine() as engine:
            for question, expected in asked:
                answer = engine.ask(question)
                ok = answered(expected, answer.abstained, answer.text)
                right += ok
                if not ok:
                    route = answer.routing.route if answer.routing else "?"
                    misses.append(f"  [{route}] {question}\n      wanted {expected!r}; got {answer.text[:200]!r}")
        index.close()
    print(f"facts probe {name} (dev; {DOMAINS[name]}): {right}/{len(asked)} answers right ({right / len(asked):.3f})")
    if show_misses:
        print("\n".join(misses))
    return right, len(asked)


def main(argv: list[str]) -> int:
    names = [argv[argv.index("--set") + 1]] if "--set" in argv else list(SETS)
    for name in names:
        probe(name, "--misses" in argv)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
