"""A tiny source-set, "plant", with its golden questions: for tests that run the whole graph through
another door (the CLI's incremental runs, PostgreSQL storage, the Dagster UI)."""

from __future__ import annotations

from pathlib import Path

from strata_pipeline.settings import PROJECT_ROOT

VALVES = "# Valve guide\n\nThe alpha valve must be inspected every 12 days by the night shift.\n"
PUMPS = "# Pump guide\n\nBeta pumps run at 3,000 rpm and are serviced twice a year.\n"
SENSORS = "Gamma sensors report humidity every 5 seconds to the control room dashboard.\n"
VALVE_QUESTION = """source_set: plant
k: 3
questions:
  - id: p-1
    question: How often is the alpha valve inspected?
    relevant: [guides/valves.md]
    expected_answer_contains: ["12 days"]
"""


def write_plant(root: Path, docs: dict[str, str], golden_yaml: str) -> tuple[Path, Path]:
    """`docs` under `root/corpus/plant`, `golden_yaml` as `root/golden/plant.yaml` beside the project's
    planted-values file (the leak checks read it). Returns (corpus root, golden folder)."""
    corpus, golden = root / "corpus", root / "golden"
    for rel, text in docs.items():
        (corpus / "plant" / rel).parent.mkdir(parents=True, exist_ok=True)
        (corpus / "plant" / rel).write_text(text)
    golden.mkdir(parents=True, exist_ok=True)
    (golden / "plant.yaml").write_text(golden_yaml)
    (golden / "planted.yaml").write_text((PROJECT_ROOT / "golden" / "planted.yaml").read_text())
    return corpus, golden
