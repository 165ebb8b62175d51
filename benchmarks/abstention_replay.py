"""Fast iteration on the offline answerer's abstention, on dev questions only.

    python -m benchmarks.abstention_replay capture  # search + answer every dev question once; saves
                                                    # the passages it was answered from (slow)
    python -m benchmarks.abstention_replay replay   # re-answer from the saved passages (seconds)
    python -m benchmarks.abstention_replay replay --loso NAME  # leave-one-set-out figures of a check in SWITCHES
    python -m benchmarks.abstention_replay replay --list  # each dev question's outcome

`capture` records, for each dev question, the passages `answer_extractively` was given and every
sentence similarity it asked for, so `replay` runs today's answerer code on them without the index or
the embedder (a sentence not seen at capture is embedded then). A question the facts engine answered
(or that never reached the extractive answerer) keeps its captured outcome. Test questions are never
captured: dev is for tuning.
"""

from __future__ import annotations

import argparse
import os
import pickle
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Several caches, separated by ":" (captures of different sets run side by side), are read as one;
# capture writes the first.
CACHES = [Path(p) for p in os.environ.get("STRATA_REPLAY_CACHE", "/tmp/abstention_replay.pkl").split(os.pathsep)]
CACHE = CACHES[0]


def _load() -> dict[str, Any]:
    merged: dict[str, Any] = {"questions": {}, "similarity": {}}
    for path in CACHES:
        if path.exists():
            with path.open("rb") as fh:
                cache = pickle.load(fh)  # our own cache file
            merged["questions"].update(cache["questions"])
            merged["similarity"].update(cache["similarity"])
    return merged


def capture(force: bool, sets: list[str] | None = None) -> None:
    import strata_pipeline.query_engine as qe
    from strata_pipeline.evaluation.golden import load_golden
    from strata_pipeline.evaluation.report import answer_check
    from strata_pipeline.resources.factory import build_resources
    from strata_pipeline.serving_index import PublishedIndex
    from strata_pipeline.settings import load_settings

    cache = _load()
    settings = load_settings()
    resources = build_resources(settings)
    index = PublishedIndex(
        settings.index_dir, resources["embedder"], resources["qdrant"], None, resources["pii"].guard()
    )
    seen: list[tuple[str, list[Any], bool]] = []
    original = qe.answer_extractively

    def recording(question: str, context: list[Any], similarity: Callable[..., list[float]], config: Any) -> Any:
        def memo(q: str, texts: list[str]) -> list[float]:
            missing = [t for t in texts if (q, t) not in cache["similarity"]]
            if missing:
                cache["similarity"].update({(q, t): v for t, v in zip(missing, similarity(q, missing), strict=True)})
            return [cache["similarity"][(q, t)] for t in texts]

        answer = original(question, context, memo, config)
        seen.append((question, context, answer.abstained))
        return answer

    qe.answer_extractively = recording  # type: ignore[assignment]
    with index.engine() as engine:
        for name in sets or sorted(index.published()):
            golden = load_golden(settings.golden_dir, name)
            if golden is None:
                continue
            for q in golden.questions:
                # aggregations are the facts engine's (their abstention is zero_rows, not the passages')
                if q.part != "dev" or q.route == "aggregation" or (q.id in cache["questions"] and not force):
                    continue
                seen.clear()
                check = answer_check(engine, q.question, golden.k, [name])
                cache["questions"][q.id] = {
                    "set": name, "question": q.question, "unanswerable": q.unanswerable,
                    "expected": tuple(q.expected_answer_contains), "abstained": check.abstained,
                    "text": check.text, "extractive": seen[-1] if seen else None,
                    "config": engine.answer_config,
                }  # fmt: skip
                print(q.id, "abstained" if check.abstained else "answered", flush=True)
                if len(cache["questions"]) % 20 == 0:
                    _save(cache)
    _save(cache)


def _save(cache: dict[str, Any]) -> None:
    with CACHE.open("wb") as fh:
        pickle.dump(cache, fh)


def replay() -> dict[str, tuple[bool, str, str]]:
    """Each captured dev question's (abstained, answer or reason, set), re-answered by today's code."""
    from strata_pipeline.answering.answer import answer_extractively
    from strata_pipeline.answering.floors import answer_config_for
    from strata_pipeline.settings import load_settings

    # Today's answerer configuration for the model the questions were captured with (their config as
    # captured holds yesterday's settings): floors and margins are part of the code being replayed.
    today = answer_config_for(load_settings().embed_model)
    cache = _load()
    sims = cache["similarity"]
    embedder: list[Any] = []

    def similarity(q: str, texts: list[str]) -> list[float]:
        missing = [t for t in texts if (q, t) not in sims]
        if missing:  # a sentence not seen at capture: embed it (slow, rare)
            if not embedder:
                from strata_pipeline.resources.factory import build_resources
                from strata_pipeline.settings import load_settings

                embedder.append(build_resources(load_settings())["embedder"])
            qv = embedder[0].query_dense(q)
            for t, v in zip(missing, embedder[0].embed_dense(missing), strict=True):
                sims[(q, t)] = float(sum(a * b for a, b in zip(qv, v, strict=True)))
        return [sims[(q, t)] for t in texts]

    out = {}
    for qid, rec in cache["questions"].items():
        if rec["extractive"] is None:
            out[qid] = (rec["abstained"], rec["text"], rec["set"])
            continue
        question, context, was_abstained = rec["extractive"]
        if was_abstained != rec["abstained"]:  # decided after the passages (a hybrid's facts): keep it
            out[qid] = (rec["abstained"], rec["text"], rec["set"])
            continue
        answer = answer_extractively(question, context, similarity, today)
        out[qid] = (answer.abstained, answer.reason if answer.abstained else answer.text, rec["set"])
    return out


def figures(outcome: dict[str, tuple[bool, str, str]], ids: list[str]) -> tuple[int, int, int, int]:
    """(unanswerable abstained, unanswerable, answerable abstained, answerable) over `ids`."""
    cache = _load()["questions"]
    un = [i for i in ids if cache[i]["unanswerable"]]
    an = [i for i in ids if not cache[i]["unanswerable"]]
    return sum(outcome[i][0] for i in un), len(un), sum(outcome[i][0] for i in an), len(an)


# The checks leave-one-set-out can switch off (name -> (module, attribute, stand-in that never abstains)).
# A candidate check is registered here while it is judged; the year/label check judged with it was not
# merged (docs/abstention.md). "subject" is answering/subject.py's check.
_NEVER = re.compile(r"(?!)")  # a cue that matches nothing
SWITCHES: dict[str, tuple[str, str, Any]] = {
    "subject": ("strata_pipeline.answering.subject", "unsupported_subject", lambda *args, **kwargs: None),
    # branch abstain10 (answering/wording.py and the subject check across languages)
    "hours": ("strata_pipeline.answering.wording", "ASKS_HOURS", _NEVER),
    "deposit": ("strata_pipeline.answering.wording", "ASKS_DEPOSIT", _NEVER),
    "pace": ("strata_pipeline.answering.wording", "ASKS_PACE", _NEVER),
    "table_money": ("strata_pipeline.answering.wording", "table_states_money", lambda text: False),
    "acronyms": ("strata_pipeline.answering.wording", "acronyms", lambda question: []),
    "across_languages": ("strata_pipeline.answering.subject", "across_languages", lambda: False),
    # sibling qualifiers ("partial cover" for "comprehensive cover") and the quote from the named
    # thing's passage (answering/siblings.py, near_miss.naming)
    "siblings": ("strata_pipeline.answering.near_miss", "english_sibling_qualifier", lambda *args, **kwargs: None),
    "naming": ("strata_pipeline.answering.answer", "naming", lambda *args, **kwargs: []),
}


def loso(rules: list[str]) -> None:
    """Leave-one-set-out over the seven sets with both kinds of dev question: on each held-out set, the
    subset of `rules` (SWITCHES) chosen on the other six (most unanswerable questions caught with no
    answerable one declined more; the smaller subset on a tie), and its figures on the held-out set
    beside the baseline's (every rule off)."""
    import importlib
    from itertools import combinations

    sets = ["fieldops", "handbook", "itops", "products", "hospital", "utility", "insurance"]
    subsets = [list(c) for n in range(len(rules) + 1) for c in combinations(rules, n)]
    originals = {r: getattr(importlib.import_module(SWITCHES[r][0]), SWITCHES[r][1]) for r in rules}
    runs = {}
    for subset in subsets:
        for r in rules:
            setattr(
                importlib.import_module(SWITCHES[r][0]), SWITCHES[r][1], originals[r] if r in subset else SWITCHES[r][2]
            )
        runs[",".join(subset)] = replay()
    for r in rules:
        setattr(importlib.import_module(SWITCHES[r][0]), SWITCHES[r][1], originals[r])
    ids = list(runs[""])
    print("| held out | chosen on the other six | recall before -> after | false abstention before -> after |")
    print("|---|---|---|---|")
    for held in sets:
        train = [i for i in ids if runs[""][i][2] in sets and runs[""][i][2] != held]
        test = [i for i in ids if runs[""][i][2] == held]
        base = figures(runs[""], train)

        def gain(key: str, train: list[str] = train, base: tuple[int, int, int, int] = base) -> tuple[int, int]:
            f = figures(runs[key], train)
            return (f[0] - base[0] if f[2] <= base[2] else -1, -len(key))

        chosen = max(runs, key=gain)
        b, a = figures(runs[""], test), figures(runs[chosen], test)
        print(f"| {held} | {chosen or '(none)'} | {b[0]}/{b[1]} -> {a[0]}/{a[1]} | {b[2]}/{b[3]} -> {a[2]}/{a[3]} |")
    for key, run in runs.items():
        per = ", ".join(f"{s} {figures(run, [i for i in ids if run[i][2] == s])}" for s in sets)
        print(f"rules [{key}]: (caught, unanswerable, declined, answerable) {per}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=("capture", "replay"))
    parser.add_argument("--force", action="store_true", help="Capture again questions already captured.")
    parser.add_argument("--list", action="store_true", help="Each dev question's outcome.")
    parser.add_argument("--sets", help="capture: comma-separated golden sets, in this order (default: all).")
    parser.add_argument("--ids", help="Only ids that hold this (broadened dev: e.g. '-nx-').")
    parser.add_argument("--loso", help="Comma-separated rules of SWITCHES: leave-one-set-out figures.")
    args = parser.parse_args()
    if args.mode == "capture":
        capture(args.force, args.sets.split(",") if args.sets else None)
        return
    if args.loso:
        loso(args.loso.split(","))
        return
    outcome = replay()
    ids = sorted(i for i in outcome if not args.ids or args.ids in i)
    cache = _load()["questions"]
    for name in [*sorted({outcome[i][2] for i in ids}), "all"]:
        in_set = [i for i in ids if name in ("all", outcome[i][2])]
        ua, u, aa, a = figures(outcome, in_set)
        print(f"{name:10} recall {ua}/{u} = {ua / max(u, 1):.3f}   false abstention {aa}/{a} = {aa / max(a, 1):.3f}")
    if args.list:
        for i in ids:
            rec = cache[i]
            mark = "UN" if rec["unanswerable"] else "an"
            wrong = outcome[i][0] != rec["unanswerable"]
            print(f"{'XX' if wrong else '  '} {mark} {i}: {rec['question']}\n      -> {outcome[i][1][:200]!r}")


if __name__ == "__main__":
    main()
