"""Run a golden set through the retrieval modes side by side and summarise the scores.

Metrics are at document level: chunks are collapsed to their documents (best rank kept) before
scoring. Every number has a stable key, so Dagster plots it across materialisations.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from strata_pipeline.agent.documents import Section, document_chunks, pick_section, sections
from strata_pipeline.answering.answer import Answer, citations_valid
from strata_pipeline.evaluation.abstention import abstention_figures
from strata_pipeline.evaluation.golden import GoldenQuestion, GoldenSet
from strata_pipeline.evaluation.metrics import dedupe_docs, ndcg_at_k, precision_at_k, recall_at_k, reciprocal_rank
from strata_pipeline.evaluation.ragas_metrics import ragas_markdown
from strata_pipeline.evaluation.results import AnswerCheck, AnswerFn, QuestionResult
from strata_pipeline.progress import Progress
from strata_pipeline.retrieval.candidate import Candidate

CUTOFFS = (1, 5, 10)
MAX_CUTOFF = max(CUTOFFS)

SearchFn = Callable[[str, int], dict[str, list[str]]]  # (question, chunk limit) -> mode -> ranked chunk doc ids


def answer_check(engine: Any, question: str, k: int, source_sets: list[str] | None = None) -> AnswerCheck:
    """How the eval checks one answer: the top k hits of a QueryEngine are answered from, and every
    citation is verified against the passage it names, verbatim.

    A hybrid answer reads passages of its own filtered search, so a citation naming a passage that was
    not supplied is looked up in the index (the cited document's sections the caller may read) rather
    than counted invalid; those sections join the contexts that faithfulness is judged against.
    """
    supplied = engine.search(question, k, source_sets)
    result = engine.ask(question, k, candidates=supplied)
    given = engine.context(supplied)
    passages = given + cited_elsewhere(engine, result, given)
    return AnswerCheck(
        result.abstained,
        result.text,
        citations_valid(result, passages),
        context_ids=tuple(p.doc_id for p in passages),
        contexts=tuple(p.payload.get("text", "") for p in passages),
    )


def cited_elsewhere(engine: Any, answer: Answer, supplied: list[Candidate]) -> list[Candidate]:
    """The sections of the index that `answer` cites outside `supplied`, as passages (each once)."""
    known = {c.chunk_id for c in supplied}
    found: dict[str, Candidate] = {}
    read: dict[tuple[str, str], list[Section]] = {}  # each cited document is read from the index once
    for citation in answer.citations:
        if citation.chunk_id in known or citation.chunk_id in found or citation.source_set not in engine.versions:
            continue
        key = (citation.source_set, citation.doc_id)
        if key not in read:
            read[key] = sections(document_chunks(engine, citation.doc_id, citation.source_set))
        section = pick_section(read[key], None, citation.chunk_id)
        if section is not None:
            found[citation.chunk_id] = Candidate(citation.chunk_id, section.payload | {"chunk_id": citation.chunk_id})
    return list(found.values())


def _norm(text: str) -> str:
    """Case- and whitespace-insensitive form for answer checks (PDF text breaks lines anywhere)."""
    return " ".join(text.split()).casefold()


def total_relevant(question: GoldenQuestion, known_docs: set[str]) -> int:
    """Folder labels ("hr/") count every indexed document under them."""
    return len(
        {d for d in known_docs if question.is_relevant(d)} | {r for r in question.relevant if not r.endswith("/")}
    )


def unknown_labels(golden: GoldenSet, known_docs: set[str]) -> list[str]:
    """Relevant labels that match no indexed document: a golden set that cannot be scored honestly."""
    missing = []
    for q in golden.questions:
        for label in q.relevant:
            matched = any(d.startswith(label) for d in known_docs) if label.endswith("/") else label in known_docs
            if not matched:
                missing.append(f"{q.id}: {label}")
    return missing


def question_scores(ranked: Sequence[str], q: GoldenQuestion, n_relevant: int, k: int) -> dict[str, float]:
    """Recall@1/5/10, Precision@5, MRR@10, nDCG@10, and the same at the golden set's own K."""
    scores = {f"recall_at_{c}": recall_at_k(ranked, q.is_relevant, n_relevant, c) for c in (*CUTOFFS, k)}
    for cutoff in sorted({5, k}):
        scores[f"precision_at_{cutoff}"] = precision_at_k(ranked, q.is_relevant, cutoff)
    for cutoff in sorted({10, k}):
        scores[f"mrr_at_{cutoff}"] = reciprocal_rank(ranked, q.is_relevant, cutoff)
        scores[f"ndcg_at_{cutoff}"] = ndcg_at_k(ranked, q.is_relevant, n_relevant, cutoff)
    return scores


def evaluate(
    golden: GoldenSet,
    search: SearchFn,
    known_docs: set[str],
    answer: AnswerFn | None = None,
    candidate_chunks: int = 50,
    progress: Progress | None = None,
) -> list[QuestionResult]:
    """Every golden question searched in every mode and, with `answer`, answered and checked;
    `progress(done, total)` after each question."""
    results = []
    for number, q in enumerate(golden.questions, start=1):
        rankings = {mode: dedupe_docs(docs) for mode, docs in search(q.question, candidate_chunks).items()}
        n_relevant = total_relevant(q, known_docs)
        scored = not q.unanswerable and n_relevant > 0
        result = QuestionResult(
            id=q.id,
            category=q.category,
            question=q.question,
            unanswerable=q.unanswerable,
            part=q.part,
            ranked_docs={mode: docs[:MAX_CUTOFF] for mode, docs in rankings.items()},
            first_relevant={
                mode: next((rank for rank, doc in enumerate(docs, start=1) if q.is_relevant(doc)), None)
                for mode, docs in rankings.items()
            },
            scores={mode: question_scores(docs, q, n_relevant, golden.k) for mode, docs in rankings.items()}
            if scored
            else {},
        )
        if answer is not None:
            check = answer(q.question)
            result.abstained = check.abstained
            result.citations_valid = None if check.abstained else check.citations_valid
            result.answer_text = check.text
            result.context_ids, result.contexts = list(check.context_ids), list(check.contexts)
            if q.unanswerable:
                result.answer_ok = check.abstained
            else:
                result.answer_ok = not check.abstained and all(
                    _norm(s) in _norm(check.text) for s in q.expected_answer_contains
                )
        results.append(result)
        if progress is not None:
            progress(number, len(golden.questions))
    return results


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 4) if values else 0.0


def mode_metrics(results: list[QuestionResult], mode: str) -> dict[str, float]:
    scored = [r.scores[mode] for r in results if mode in r.scores]
    metrics = list(scored[0]) if scored else []
    return {m: _mean([s[m] for s in scored]) for m in metrics}


def mode_key(mode: str) -> str:
    """A mode as a metadata-key prefix: "hybrid+rerank" -> "hybrid_rerank" (no "+" in keys)."""
    return mode.replace("+", "_")


def summarise(results: list[QuestionResult], k: int, modes: Sequence[str]) -> dict[str, float]:
    """Flat, stable numeric keys: `<mode>_<metric>`, `<mode>_<metric>__<category>`, answer figures,
    and the headline `recall_at_<k>`, `precision_at_<k>`, `mrr`, `ndcg_at_<k>` of hybrid retrieval.
    Modes appear in keys through `mode_key`."""
    summary: dict[str, float] = {}
    for mode in modes:
        summary |= {f"{mode_key(mode)}_{m}": v for m, v in mode_metrics(results, mode).items()}
        for category in sorted({r.category for r in results if not r.unanswerable}):
            in_category = [r for r in results if r.category == category]
            for metric in ("recall_at_5", "mrr_at_10"):
                values = [r.scores[mode][metric] for r in in_category if mode in r.scores]
                if values:
                    summary[f"{mode_key(mode)}_{metric}__{category}"] = _mean(values)
    headline = "hybrid" if "hybrid" in modes else modes[0]
    scored = [r for r in results if headline in r.scores]
    for name, metric in ((f"recall_at_{k}", f"recall_at_{k}"), (f"precision_at_{k}", f"precision_at_{k}"),
                         ("mrr", f"mrr_at_{k}"), (f"ndcg_at_{k}", f"ndcg_at_{k}")):  # fmt: skip
        summary[name] = summary.get(f"{headline}_{metric}", 0.0)
    checked = [r for r in results if r.answer_ok is not None]
    cited = [r for r in results if r.citations_valid is not None]
    summary["answer_accuracy"] = _mean([1.0 if r.answer_ok else 0.0 for r in checked])
    summary["abstention_accuracy"] = _mean([1.0 if r.answer_ok else 0.0 for r in checked if r.unanswerable])
    summary["citation_validity"] = _mean([1.0 if r.citations_valid else 0.0 for r in cited])
    summary |= abstention_figures(results)
    summary["questions"] = float(len(results))
    summary["answerable_questions"] = float(len(scored))
    return summary


# Dev figures shown beside the test headline: per mode and overall, not per category (small metadata).
DEV_SUFFIX = "_dev"
GAP_LIMIT = 0.05  # a larger dev/test gap says the tuning does not generalise; the summary calls it out


def summarise_parts(results: list[QuestionResult], k: int, modes: Sequence[str]) -> dict[str, float]:
    """`summarise` of the test part (the headline, every key), the dev part's overall keys with a
    `_dev` suffix, and `dev_test_gap`: the largest difference in the headline Recall@K and MRR.
    A set with no test questions is headlined by all of them."""
    test = [r for r in results if r.part == "test"] or results
    dev = [r for r in results if r.part == "dev"]
    summary = summarise(test, k, modes)
    summary["test_questions"], summary["dev_questions"] = float(len(test)), float(len(dev))
    if dev and dev is not results and any(r.scores for r in dev):
        dev_summary = {key: v for key, v in summarise(dev, k, modes).items() if "__" not in key}
        summary |= {f"{key}{DEV_SUFFIX}": v for key, v in dev_summary.items()}
        summary["dev_test_gap"] = round(
            max(abs(dev_summary[key] - summary[key]) for key in (f"recall_at_{k}", "mrr")), 4
        )
    return summary


def summary_markdown(summary: dict[str, float], modes: Sequence[str]) -> str:
    """The headline for analysts: the per-mode table (test, dev in brackets), then one paragraph per
    figure group (answers, redaction, injection defence, ragas), each only when present."""
    sections = (_mode_table(summary, modes), _answer_line(summary), _privacy_line(summary), _injection_line(summary))
    return "\n\n".join(section for section in (*sections, ragas_markdown(summary)) if section)


HEADLINE_METRICS = ("recall_at_1", "recall_at_5", "recall_at_10", "precision_at_5", "mrr_at_10", "ndcg_at_10")


def _mode_table(summary: dict[str, float], modes: Sequence[str]) -> str:
    has_dev = "dev_test_gap" in summary
    lines = []
    if has_dev:
        lines += [
            f"Test part ({summary['test_questions']:.0f} questions), dev part "
            f"({summary['dev_questions']:.0f}) in brackets: ranking is tuned on dev only.",
            "",
        ]
    lines += ["| mode | " + " | ".join(HEADLINE_METRICS) + " |", "|---" * (len(HEADLINE_METRICS) + 1) + "|"]
    for mode in modes:
        row = (_with_dev(summary, f"{mode_key(mode)}_{m}") for m in HEADLINE_METRICS)
        lines.append(f"| {mode} | " + " | ".join(row) + " |")
    if has_dev and summary["dev_test_gap"] > GAP_LIMIT:
        lines += [
            "",
            f"**Dev and test differ by {summary['dev_test_gap']:.3f}** (more than {GAP_LIMIT}): "
            "the ranking's tuning may not hold on questions it was not tuned on.",
        ]
    return "\n".join(lines)


def _answer_line(summary: dict[str, float]) -> str:
    line = (
        f"answers: accuracy {_with_dev(summary, 'answer_accuracy')}, "
        f"abstention {_with_dev(summary, 'abstention_accuracy')}, "
        f"citation validity {_with_dev(summary, 'citation_validity')}"
    )
    if "abstention_recall" in summary:  # evaluation/abstention.py
        line += (
            f"; abstention recall {_with_dev(summary, 'abstention_recall')}, "
            f"precision {_with_dev(summary, 'abstention_precision')}, "
            f"false abstention {_with_dev(summary, 'false_abstention_rate')}"
        )
    return line


def _privacy_line(summary: dict[str, float]) -> str | None:
    if "pii_recall" not in summary:
        return None
    return (
        f"redaction (labelled test sets; dev in brackets; details in the redaction_quality asset): "
        f"PII recall {summary['pii_recall']:.3f} ({summary.get('pii_recall_dev', float('nan')):.3f}), "
        f"precision {summary['pii_precision']:.3f} ({summary.get('pii_precision_dev', float('nan')):.3f}); "
        f"secret recall {summary['secret_recall']:.3f}, clean documents flagged {summary['clean_flagged_rate']:.3f}"
    )


def _injection_line(summary: dict[str, float]) -> str | None:
    """Injection-defence figures (`injection/...` keys), when the eval measured them."""
    names = {"attack_success_rate": "attack success", "detection_rate": "poisoned flagged"}
    names |= {"clean_flagged_rate": "clean flagged", "instruction_quoted_rate": "instruction quoted"}
    shown = [
        f"{label} {summary[f'injection/{key}']:.1%}" for key, label in names.items() if f"injection/{key}" in summary
    ]
    if not shown:
        return None
    return "injection (red-team test set): " + ", ".join(shown) + " (per family and encoder in the full report)"


def _with_dev(summary: dict[str, float], key: str) -> str:
    value = f"{summary.get(key, 0.0):.3f}"
    return f"{value} ({summary[key + DEV_SUFFIX]:.3f})" if key + DEV_SUFFIX in summary else value
