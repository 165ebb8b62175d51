"""Answers over a small corpus in another domain (training courses: two CSV sheets, policies in en, de,
fr), asked as a new user would. A check that the facts parser, the router and the answerer hold on
tables and wording the golden sets do not have.

benchmarks/data/facts_probe/ holds the corpus and questions.tsv (each question with text its answer
must contain, or ABSTAIN). The questions were written before the code was changed for them, and the
fixes of 2026-12-04 were made on them: this is a dev set, not a held-out figure.

    python -m benchmarks.facts_probe [--misses]   (materialises the corpus into a temporary home: ~30 s)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

DATA = Path(__file__).parent / "data" / "facts_probe"


def questions(path: Path = DATA / "questions.tsv") -> list[tuple[str, str]]:
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    return [(q, expected) for q, expected in rows]


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="strata-probe-") as tmp:
        env = {"STRATA_HOME": f"{tmp}/home", "STRATA_CORPUS_ROOT": str(DATA), "STRATA_GOLDEN_DIR": f"{tmp}/golden"}
        Path(env["STRATA_GOLDEN_DIR"]).mkdir()
        os.environ.update(env)
        subprocess.run([sys.executable, "-m", "strata_pipeline.cli", "materialize"], check=True, capture_output=True)
        from strata_pipeline.serving_index import PublishedIndex
        from strata_pipeline.settings import load_settings

        index = PublishedIndex.from_settings(load_settings())
        right, misses = 0, []
        with index.engine() as engine:
            for question, expected in questions():
                answer = engine.ask(question)
                ok = answer.abstained if expected == "ABSTAIN" else (not answer.abstained and expected in answer.text)
                right += ok
                if not ok:
                    route = answer.routing.route if answer.routing else "?"
                    misses.append(f"  [{route}] {question}\n      wanted {expected!r}; got {answer.text[:160]!r}")
        index.close()
    total = len(questions())
    print(f"facts probe (dev; training-course corpus): {right}/{total} answers right ({right / total:.3f})")
    if "--misses" in argv:
        print("\n".join(misses))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
