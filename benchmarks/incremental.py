"""Incremental re-indexing: a full index of one source-set, an unchanged re-run and a run with 1% of
the documents changed, measured in the same run on the same machine (`python -m benchmarks.incremental`,
part of `make bench`).

The corpus is built in a temporary folder: one source-set, `bench`, holding COPIES copies of the
sample source-sets fieldops, handbook and products (one project folder per copy, e.g.
`fieldops-c2/`). Copy 0 is the sample as shipped; in every later copy each prose paragraph of a
.md/.txt file gets a sentence of its own, so its chunks are new texts that must be embedded (the
PDF, DOCX, CSV and spreadsheet files are copied as they are, so the vector cache shares their
chunks between copies even in the full run). The golden set is the three sample sets' questions
pointed at copy 0 (their planted values at every copy), so the eval, which publishing is gated on,
runs on every index version as it does for real. The privacy figures of the eval come from the user
cache (keyed by the detector code), as on any machine that has run the pipeline once.

Each run is `strata materialize --source-set bench` in a fresh process, as a user runs it:
1. full: an empty STRATA_HOME (no index, no caches);
2. unchanged: the same command again;
3. 1% changed: ceil(1%) of the documents edited (a paragraph appended to a .md file), then the same
   command.
Times are wall-clock seconds of the whole command; per-step times come from the run's Dagster event
log. Pass `--copies N` for another corpus size and `--keep DIR` to keep the state for inspection.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

from strata_pipeline.settings import PROJECT_ROOT

SAMPLE = PROJECT_ROOT / "golden" / "corpus"
SETS = ("fieldops", "handbook", "products")
SOURCE_SET = "bench"
COPIES = 4
VARIED = (".md", ".txt")
TEAMS = ("Atlas", "Birch", "Cobalt", "Delta", "Ember", "Fjord", "Granite", "Harbor", "Iris", "Juniper")
TOPICS = ("inspection log", "handover sheet", "site audit", "parts review", "safety walk", "training record")


def varied(text: str, copy: int, name: str) -> str:
    """The text with a sentence of its own after each prose paragraph (headings and tables untouched)."""
    paragraphs = text.split("\n\n")
    out = []
    for number, paragraph in enumerate(paragraphs):
        stripped = paragraph.lstrip()
        if stripped and not stripped.startswith(("#", "|", "---", "```")):
            seed = int(hashlib.sha256(f"{copy}/{name}/{number}".encode()).hexdigest()[:8], 16)
            team, topic = TEAMS[seed % len(TEAMS)], TOPICS[(seed // 10) % len(TOPICS)]
            paragraph += f"\nCopy {copy} note {number}: the {team} team filed this in its {topic} {seed % 97 + 1}."
        out.append(paragraph)
    return "\n\n".join(out)


def build_corpus(root: Path, golden: Path, copies: int) -> list[Path]:
    """Write the bench source-set and its golden files; returns every document written."""
    files = []
    for copy in range(copies):
        for name in SETS:
            for src in sorted(p for p in (SAMPLE / name).rglob("*") if p.is_file()):
                rel = src.relative_to(SAMPLE / name)
                dst = root / SOURCE_SET / f"{name}-c{copy}" / rel
                dst.parent.mkdir(parents=True, exist_ok=True)
                if copy and src.suffix in VARIED:
                    dst.write_text(varied(src.read_text(encoding="utf-8"), copy, str(rel)), encoding="utf-8")
                else:
                    shutil.copy2(src, dst)
                files.append(dst)
    questions, planted = [], []
    for name in SETS:
        data = yaml.safe_load((PROJECT_ROOT / "golden" / f"{name}.yaml").read_text(encoding="utf-8"))
        for q in data["questions"]:
            questions.append({**q, "relevant": [f"{name}-c0/{r}" for r in q.get("relevant") or []]})
    sample_planted = yaml.safe_load((PROJECT_ROOT / "golden" / "planted.yaml").read_text(encoding="utf-8"))
    for item in sample_planted.get("planted") or []:
        if item.get("source_set") in SETS:
            for copy in range(copies):
                doc = f"{item['source_set']}-c{copy}/{item['doc_id']}"
                planted.append({**item, "source_set": SOURCE_SET, "doc_id": doc})
    golden.mkdir(parents=True, exist_ok=True)
    (golden / f"{SOURCE_SET}.yaml").write_text(
        yaml.safe_dump({"source_set": SOURCE_SET, "k": 5, "questions": questions}, sort_keys=False), encoding="utf-8"
    )
    (golden / "planted.yaml").write_text(yaml.safe_dump({"planted": planted}, sort_keys=False), encoding="utf-8")
    return files


def change_documents(files: list[Path], share: float) -> list[Path]:
    """Append a paragraph to ceil(share * documents) .md files spread over the corpus."""
    candidates = [p for p in files if p.suffix == ".md"]
    count = math.ceil(share * len(files))
    step = max(1, len(candidates) // count)
    changed = candidates[::step][:count]
    for number, path in enumerate(changed):
        with path.open("a", encoding="utf-8") as handle:
            handle.write(f"\n\nRevision {number}: the review interval for this page changed to {30 + number} days.\n")
    return changed


@dataclass
class Run:
    label: str
    seconds: float
    output: str
    steps: dict[str, float]
    load: tuple[float, float]  # 1-minute load average when the run started and when it ended


def materialize(env: dict[str, str], label: str) -> Run:
    command = [
        sys.executable,
        "-c",
        "from strata_pipeline.cli import main; main()",
        "materialize",
        "--source-set",
        SOURCE_SET,
    ]
    before = _run_ids(env)
    load = os.getloadavg()[0]
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=PROJECT_ROOT)
    seconds = time.perf_counter() - started
    output = done.stdout + done.stderr
    if done.returncode != 0:
        raise SystemExit(f"{label} run failed ({done.returncode}):\n{output[-4000:]}")
    new = [r for r in _run_ids(env) if r not in before]
    return Run(label, seconds, output, _step_seconds(env, new[0]) if new else {}, (load, os.getloadavg()[0]))


def _instance(env: dict[str, str]):
    import dagster as dg

    os.environ["DAGSTER_HOME"] = env["DAGSTER_HOME"]
    return dg.DagsterInstance.get()


def _run_ids(env: dict[str, str]) -> list[str]:
    if not Path(env["DAGSTER_HOME"], "dagster.yaml").exists():
        return []
    return [r.run_id for r in _instance(env).get_runs()]


def _step_seconds(env: dict[str, str], run_id: str) -> dict[str, float]:
    from dagster import DagsterEventType

    started, took = {}, {}
    for record in _instance(env).all_logs(run_id):
        event = record.dagster_event
        if event is None:
            continue
        if event.event_type == DagsterEventType.STEP_START:
            started[event.step_key] = record.timestamp
        elif event.event_type in (DagsterEventType.STEP_SUCCESS, DagsterEventType.STEP_FAILURE):
            took[event.step_key] = record.timestamp - started.get(event.step_key, record.timestamp)
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=COPIES)
    parser.add_argument("--keep", type=Path, default=None, help="keep corpus and state in this (new) folder")
    args = parser.parse_args()
    scratch = args.keep or Path(tempfile.mkdtemp(prefix="strata-incremental-"))
    scratch.mkdir(parents=True, exist_ok=True)
    try:
        corpus, golden, home = scratch / "corpus", scratch / "golden", scratch / "home"
        files = build_corpus(corpus, golden, args.copies)
        env = {
            **os.environ,
            "STRATA_HOME": str(home),
            "STRATA_CORPUS_ROOT": str(corpus),
            "STRATA_GOLDEN_DIR": str(golden),
            "DAGSTER_HOME": str(home / "dagster_home"),
            "PYTHONPATH": str(PROJECT_ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        }
        size = sum(p.stat().st_size for p in files)
        print(
            f"corpus: source-set {SOURCE_SET!r}, {len(files)} files ({size / 1e6:.1f} MB), {args.copies} copies of "
            f"{', '.join(SETS)}; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start",
            flush=True,
        )
        full = materialize(env, "full")
        print(f"full index        {full.seconds:8.1f} s", flush=True)
        unchanged = materialize(env, "unchanged")
        print(f"unchanged re-run  {unchanged.seconds:8.1f} s", flush=True)
        changed_files = change_documents(files, 0.01)
        changed = materialize(env, "1% changed")
        print(f"1% changed        {changed.seconds:8.1f} s ({len(changed_files)} documents edited)", flush=True)
        print(f"load average at end {os.getloadavg()[0]:.1f}")
        print()
        print("| run | seconds | share of full | target | load average (start → end) |")
        print("|---|---:|---:|---:|---|")
        rows = [
            (f"full index ({len(files)} files)", full, "100%", ""),
            ("unchanged re-run", unchanged, f"{unchanged.seconds / full.seconds:.1%}", "≤ 5%"),
            (f"{len(changed_files)} documents changed (1%)", changed, f"{changed.seconds / full.seconds:.1%}", "≤ 7%"),
        ]
        for name, run, share, target in rows:
            print(f"| {name} | {run.seconds:.1f} | {share} | {target} | {run.load[0]:.1f} → {run.load[1]:.1f} |")
        print()
        steps = sorted(set(full.steps) | set(changed.steps), key=lambda s: -full.steps.get(s, 0.0))
        print("| step | full s | unchanged s | 1% changed s |")
        print("|---|---:|---:|---:|")
        for step in steps:
            cells = [f"{run.steps[step]:.1f}" if step in run.steps else "-" for run in (full, unchanged, changed)]
            print(f"| {step} | {' | '.join(cells)} |")
        print()
        for run in (unchanged, changed):
            lines = [ln for ln in run.output.splitlines() if "up to date" in ln or "done in" in ln or "reused" in ln]
            print(f"{run.label}: " + (" / ".join(line.strip() for line in lines) or "(no summary line)"))
    finally:
        if args.keep is None:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
