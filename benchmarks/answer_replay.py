"""Ask every golden question through the serving engine, save each outcome, and diff two runs.

    python -m benchmarks.answer_replay run before.json             # every set, single and compound questions
    python -m benchmarks.answer_replay run after.json --sets itops --no-compound
    python -m benchmarks.answer_replay run blind.json --golden /path/to/questions   # other question files
    python -m benchmarks.answer_replay diff before.json after.json  # what a change moved

A change to the answerer, the abstention checks or the planner should move only the questions it was
made for. `run` asks each single question with `QueryEngine.ask` (as `strata ask` does) and each
compound question with the agent (as `strata chat` does). It saves, per question, whether the answer
was right and what it said, and whether a relevant document was in the search's top k. `diff` lists
every dev question whose outcome or answer changed, with both answers. For test it prints only how many
moved each way: dev is for tuning, test is only scored.

`--golden` reads every `*.yaml` in a folder of golden-shaped files (`source_set:`, `questions:`,
`compound:`; see golden/README.md): a blind round of new questions is scored this way before they join
golden/. Needs a published index (`make demo`, or `strata materialize`).
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import yaml


def _norm(text: str) -> str:
    from strata_pipeline.evaluation.agent import _norm as norm

    return norm(text)


def question_files(folder: Path) -> list[dict[str, Any]]:
    """Each golden-shaped YAML file of `folder` that names a source-set, parsed."""
    files = []
    for path in sorted(folder.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and data.get("source_set"):
            files.append(data)
    return files


def single_outcome(engine: Any, raw: dict[str, Any], source_set: str, k: int) -> dict[str, Any]:
    answer = engine.ask(str(raw["question"]), k=k, source_sets=[source_set])
    unanswerable = bool(raw.get("unanswerable"))
    expected = [str(s) for s in raw.get("expected_answer_contains") or ()]
    if unanswerable:
        right = answer.abstained
    else:
        right = not answer.abstained and all(_norm(s) in _norm(answer.text) for s in expected)
    return {
        "kind": "unanswerable" if unanswerable else "answerable",
        "abstained": answer.abstained,
        "right": right,
        "found": None if unanswerable else relevant_found(engine, raw, source_set, k),
        "route": answer.routing.route if answer.routing else "",
        "text": answer.text[:500],
        "reason": (answer.reason or "")[:300],
    }


def relevant_found(engine: Any, raw: dict[str, Any], source_set: str, k: int) -> bool | None:
    """Whether a relevant document is among the first `k` documents the search ranks (None when the question
    names none): whether a wrong answer is the retrieval's miss or the answerer's."""
    relevant = [str(r) for r in raw.get("relevant") or ()]
    if not relevant:
        return None
    documents: list[str] = []
    for candidate in engine.search(str(raw["question"]), k=4 * k, source_sets=[source_set]):
        if candidate.doc_id not in documents:
            documents.append(candidate.doc_id)
    return any(d == r or (r.endswith("/") and d.startswith(r)) for d in documents[:k] for r in relevant)


def compound_outcome(engine: Any, raw: dict[str, Any], source_set: str, k: int) -> dict[str, Any]:
    from strata_pipeline.agent import run_agent
    from strata_pipeline.evaluation.agent import CompoundQuestion, score

    question = CompoundQuestion(
        id=str(raw["id"]),
        question=str(raw["question"]),
        expected_answer_contains=tuple(str(s) for s in raw.get("expected_answer_contains") or ()),
        expected_tools=tuple(str(t) for t in raw.get("expected_tools") or ()),
    )
    outcome = score(question, run_agent(engine, question.question, k=k, source_sets=[source_set]))
    return {
        "kind": "compound",
        "abstained": False,
        "right": outcome.success,
        "route": " > ".join(outcome.tools),
        "text": outcome.answer[:500],
        "reason": outcome.reason[:300],
    }


def run(out: Path, golden: Path | None, sets: list[str] | None, compound: bool) -> None:
    from strata_pipeline.serving_index import PublishedIndex
    from strata_pipeline.settings import load_settings

    settings = load_settings()
    index = PublishedIndex.from_settings(settings)
    engine = index.engine()
    outcomes: dict[str, dict[str, Any]] = {}
    started = time.monotonic()
    try:
        for data in question_files(golden or settings.golden_dir):
            source_set = str(data["source_set"])
            if (sets and source_set not in sets) or source_set not in engine.versions:
                continue
            k = int(data.get("k") or 5)
            entries = [(raw, single_outcome) for raw in data.get("questions") or []]
            if compound:
                entries += [(raw, compound_outcome) for raw in data.get("compound") or []]
            for raw, ask in entries:
                record = ask(engine, raw, source_set, k)
                record.update(set=source_set, part=str(raw.get("part") or "test"), question=str(raw["question"]))
                outcomes[str(raw["id"])] = record
            print(f"{source_set}: {len(entries)} questions ({time.monotonic() - started:.0f} s)", flush=True)
    finally:
        index.close()
    out.write_text(json.dumps(outcomes, indent=1, ensure_ascii=False), encoding="utf-8")
    print(summary(outcomes))


def summary(outcomes: dict[str, dict[str, Any]]) -> str:
    """Per part: answerable right and declined, a relevant document in the top k, near misses abstained,
    compound right."""
    lines = [
        f"{'part':<5} {'answerable right':>17} {'declined':>9} {'relevant in top k':>18} "
        f"{'unanswerable abstained':>23} {'compound right':>15}"
    ]
    for part in ("test", "dev"):
        rows = [o for o in outcomes.values() if o["part"] == part]
        if not rows:
            continue
        answerable = [o for o in rows if o["kind"] == "answerable"]
        unanswerable = [o for o in rows if o["kind"] == "unanswerable"]
        compound = [o for o in rows if o["kind"] == "compound"]
        ranked = [o for o in answerable if o.get("found") is not None]  # runs before the field have none

        def share(hits: int, of: list[Any]) -> str:
            return f"{hits}/{len(of)}"

        lines.append(
            f"{part:<5} {share(sum(o['right'] for o in answerable), answerable):>17} "
            f"{share(sum(o['abstained'] for o in answerable), answerable):>9} "
            f"{share(sum(o['found'] for o in ranked), ranked):>18} "
            f"{share(sum(o['right'] for o in unanswerable), unanswerable):>23} "
            f"{share(sum(o['right'] for o in compound), compound):>15}"
        )
    return "\n".join(lines)


def changes(before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]) -> list[tuple[str, str]]:
    """(id, how) for each question asked in both runs whose outcome or answer text differs."""
    moved = []
    for qid in sorted(before.keys() & after.keys()):
        old, new = before[qid], after[qid]
        if old["right"] != new["right"]:
            moved.append((qid, "fixed" if new["right"] else "broken"))
        elif (old["abstained"], old["text"]) != (new["abstained"], new["text"]):
            moved.append((qid, "same outcome, other answer"))
    return moved


def diff(before_path: Path, after_path: Path) -> None:
    for path in (before_path, after_path):
        if not path.is_file():
            raise SystemExit(
                f"{path} does not exist: write it first with `python -m benchmarks.answer_replay run {path}`."
            )
    before = json.loads(before_path.read_text(encoding="utf-8"))
    after = json.loads(after_path.read_text(encoding="utf-8"))
    moved = changes(before, after)
    for part in ("test", "dev"):
        counts = Counter(how for qid, how in moved if after[qid]["part"] == part)
        print(f"{part}: " + (", ".join(f"{n} {how}" for how, n in sorted(counts.items())) or "nothing moved"))
    for qid, how in moved:
        if after[qid]["part"] != "dev":
            continue  # test questions are only counted
        old, new = before[qid], after[qid]
        print(f"\n{how}: {qid} ({new['set']}, {new['kind']}) {new['question'][:160]}")
        for label, o in (("before", old), ("after", new)):
            state = "abstained" if o["abstained"] else "answered"
            print(f"  {label}: {state}, {'right' if o['right'] else 'wrong'}: {o['text'][:240]!r}")
    only = sorted(before.keys() ^ after.keys())
    if only:
        print(f"\n{len(only)} questions were asked in one run only (other sets or files).")
    print("\nbefore\n" + summary(before) + "\nafter\n" + summary(after))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    ask = commands.add_parser("run", help="Ask every question and save the outcomes as JSON.")
    ask.add_argument("out", type=Path)
    ask.add_argument("--golden", type=Path, help="A folder of golden-shaped YAML files (default: golden/).")
    ask.add_argument("--sets", nargs="+", help="Only these source-sets.")
    ask.add_argument("--no-compound", action="store_true", help="Skip the compound questions (the agent).")
    compare = commands.add_parser("diff", help="What moved between two saved runs.")
    compare.add_argument("before", type=Path)
    compare.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "run":
        run(args.out, args.golden, args.sets, not args.no_compound)
    else:
        diff(args.before, args.after)


if __name__ == "__main__":
    main()
