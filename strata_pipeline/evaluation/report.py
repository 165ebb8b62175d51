"""Run a golden set through a search function and summarise the scores."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from strata_pipeline.evaluation.golden import GoldenQuestion, GoldenSet
from strata_pipeline.evaluation.metrics import dedupe_docs, ndcg_at_k, precision_at_k, recall_at_k, reciprocal_rank

SearchFn = Callable[[str, int], list[str]]  # (question, chunk limit) -> ranked chunk doc ids
AnswerFn = Callable[[str], tuple[bool, str]]  # question -> (abstained, answer text)


@dataclass
class QuestionResult:
    id: str
    category: str
    question: str
    unanswerable: bool
    ranked_docs: list[str]
    recall: float
    precision: float
    reciprocal_rank: float
    ndcg: float
    answer_ok: bool | None  # expected substrings present / correct abstention; None if not checked
    abstained: bool | None


def _norm(text: str) -> str:
    """Case- and whitespace-insensitive form for answer checks (PDF text breaks lines anywhere)."""
    return " ".join(text.split()).casefold()


def total_relevant(question: GoldenQuestion, known_docs: set[str]) -> int:
    """Folder labels ("hr/") count every indexed document under them."""
    return len(
        {d for d in known_docs if question.is_relevant(d)} | {r for r in question.relevant if not r.endswith("/")}
    )


def evaluate(
    golden: GoldenSet,
    search: SearchFn,
    known_docs: set[str],
    answer: AnswerFn | None = None,
    candidate_chunks: int = 50,
) -> list[QuestionResult]:
    results = []
    for q in golden.questions:
        ranked = dedupe_docs(search(q.question, candidate_chunks))
        n_relevant = total_relevant(q, known_docs)
        scored = not q.unanswerable and n_relevant > 0
        answer_ok = abstained = None
        if answer is not None:
            abstained, text = answer(q.question)
            if q.unanswerable:
                answer_ok = abstained
            else:
                answer_ok = not abstained and all(_norm(s) in _norm(text) for s in q.expected_answer_contains)
        results.append(
            QuestionResult(
                id=q.id,
                category=q.category,
                question=q.question,
                unanswerable=q.unanswerable,
                ranked_docs=ranked[: golden.k],
                recall=recall_at_k(ranked, q.is_relevant, n_relevant, golden.k) if scored else 0.0,
                precision=precision_at_k(ranked, q.is_relevant, golden.k) if scored else 0.0,
                reciprocal_rank=reciprocal_rank(ranked, q.is_relevant, golden.k) if scored else 0.0,
                ndcg=ndcg_at_k(ranked, q.is_relevant, n_relevant, golden.k) if scored else 0.0,
                answer_ok=answer_ok,
                abstained=abstained,
            )
        )
    return results


def summarise(results: list[QuestionResult], k: int) -> dict[str, float]:
    """Stable metric keys (so Dagster plots them over time); only answerable questions count."""
    scored = [r for r in results if not r.unanswerable]
    checked = [r for r in results if r.answer_ok is not None]

    def mean(values: list[float]) -> float:
        return round(sum(values) / len(values), 4) if values else 0.0

    return {
        f"recall_at_{k}": mean([r.recall for r in scored]),
        f"precision_at_{k}": mean([r.precision for r in scored]),
        "mrr": mean([r.reciprocal_rank for r in scored]),
        f"ndcg_at_{k}": mean([r.ndcg for r in scored]),
        "answer_accuracy": mean([1.0 if r.answer_ok else 0.0 for r in checked]),
        "abstention_accuracy": mean([1.0 if r.answer_ok else 0.0 for r in checked if r.unanswerable]),
        "questions": float(len(results)),
        "answerable_questions": float(len(scored)),
    }


def markdown_table(results: list[QuestionResult], max_rows: int = 40) -> str:
    lines = ["| id | category | recall | RR | answer | top docs |", "|---|---|---|---|---|---|"]
    for r in results[:max_rows]:
        answer = "–" if r.answer_ok is None else ("ok" if r.answer_ok else "miss")
        recall = "n/a" if r.unanswerable else f"{r.recall:.2f}"
        rr = "n/a" if r.unanswerable else f"{r.reciprocal_rank:.2f}"
        lines.append(f"| {r.id} | {r.category} | {recall} | {rr} | {answer} | {', '.join(r.ranked_docs[:3])} |")
    if len(results) > max_rows:
        lines.append(f"| … | {len(results) - max_rows} more in the linked report | | | | |")
    return "\n".join(lines)
