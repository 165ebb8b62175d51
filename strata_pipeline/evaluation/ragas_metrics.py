"""ragas metrics for the eval report, computed with ragas's own metric classes (ragas 0.4.3).

Without an LLM, always:

- `ragas_id_context_precision` / `ragas_id_context_recall` (IDBasedContextPrecision / IDBasedContextRecall):
  the documents of the passages the answer was read from against the golden `relevant` documents. A
  folder label ("hr/") stands for every indexed document under it. ragas compares *sets*: precision is
  relevant distinct retrieved documents / distinct retrieved documents, recall is retrieved relevant
  documents / relevant documents; rank plays no part (MRR and nDCG cover that). Unanswerable questions
  are skipped.
- `ragas_string_similarity` (NonLLMStringSimilarity, 1 - normalised Levenshtein distance): the answer
  text against the golden `expected_answer_contains` strings joined with a space, the only reference
  text a golden question has. Those are key phrases ("16 weeks"), so a correct answer that is a whole
  sentence still scores well below 1: the figure tracks wording and length drift between runs, it is not
  an accuracy (`answer_accuracy` is). Questions without expected strings, unanswerable ones included,
  are skipped; an abstention on an answerable question is scored (it is a miss).

With a judge (an Anthropic key; the judge model must differ from the generator):

- `ragas_faithfulness` (Faithfulness): the share of the answer's statements that the supplied passages
  support.
- `ragas_answer_relevancy` (AnswerRelevancy): the judge writes questions the answer would answer;
  their mean cosine similarity to the asked question, in the project's own dense embedding space.

Only answers that were given (not abstentions) are judged. A judge call that fails leaves that value out
and is counted in `ragas_judge_errors`; no key means no judged keys at all. Nothing is ever made up.

ragas is imported on first use: it takes about two seconds, which the CLI and the Dagster code location
should not pay at start-up.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from strata_pipeline.evaluation.golden import GoldenQuestion, GoldenSet
from strata_pipeline.evaluation.results import QuestionResult
from strata_pipeline.incremental.cache import DocumentCache, cache_key
from strata_pipeline.incremental.digests import digest_of, library_versions, source_digest
from strata_pipeline.progress import Progress

# ragas otherwise sends usage telemetry; the pipeline runs offline.
os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")

ID_PRECISION = "id_context_precision"
ID_RECALL = "id_context_recall"
STRING_SIMILARITY = "string_similarity"
FAITHFULNESS = "faithfulness"
ANSWER_RELEVANCY = "answer_relevancy"
OFFLINE_METRICS = (ID_PRECISION, ID_RECALL, STRING_SIMILARITY)
JUDGED_METRICS = (FAITHFULNESS, ANSWER_RELEVANCY)
PREFIX = "ragas_"

JUDGE_SYSTEM = (
    "You grade answers of a retrieval-augmented assistant for an offline evaluation. Do the task in the "
    "user message and reply with exactly one JSON object that follows the JSON Schema given there: no "
    "prose before or after it, no code fences."
)

Complete = Callable[[str, str], str]  # (system, user) -> reply text, e.g. AnthropicResource.complete
EmbedQuery = Callable[[str], Sequence[float]]  # e.g. EmbedderResource.query_dense


@dataclass(frozen=True)
class RagasInput:
    """What ragas needs of one golden question and the pipeline's answer to it."""

    id: str
    question: str
    retrieved_ids: list[str]  # distinct documents of the supplied passages, best first
    reference_ids: list[str] | None  # relevant documents, folders expanded; None: not scored for context
    response: str | None  # the answer text; None when the answerer did not run
    reference: str | None  # expected strings joined; None: not scored for string similarity
    contexts: list[str] = field(default_factory=list)  # the supplied passages' text
    abstained: bool = False


def reference_doc_ids(question: GoldenQuestion, known_docs: set[str]) -> list[str]:
    """The golden relevant documents, each folder label ("hr/") expanded to the indexed documents under it."""
    explicit = [r for r in question.relevant if not r.endswith("/")]
    in_folders = sorted(d for d in known_docs if question.is_relevant(d) and d not in explicit)
    return explicit + in_folders


def _distinct(ids: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(i for i in ids if i))


def build_inputs(
    golden: GoldenSet, results: Sequence[QuestionResult], known_docs: set[str], mode: str = "hybrid"
) -> list[RagasInput]:
    """One input per question. Retrieved documents are those of the passages the answer was read from;
    without an answer check, the top-k documents of `mode` stand in for them."""
    by_id = {q.id: q for q in golden.questions}
    inputs = []
    for r in results:
        q = by_id[r.id]
        retrieved = _distinct(r.context_ids) or _distinct(r.ranked_docs.get(mode, []))[: golden.k]
        references = None if q.unanswerable else reference_doc_ids(q, known_docs)
        reference = " ".join(q.expected_answer_contains) if q.expected_answer_contains and not q.unanswerable else None
        inputs.append(
            RagasInput(
                id=r.id,
                question=r.question,
                retrieved_ids=retrieved,
                reference_ids=references or None,
                response=r.answer_text,
                reference=reference,
                contexts=list(r.contexts),
                abstained=bool(r.abstained),
            )
        )
    return inputs


def _value(score: Any) -> float | None:
    """A metric's result as a rounded float, or None for ragas's "cannot score" NaN."""
    value = float(getattr(score, "value", score))
    return None if math.isnan(value) else round(value, 4)


def offline_scores(inputs: Sequence[RagasInput], cache: DocumentCache | None = None) -> dict[str, dict[str, float]]:
    """Question id -> ID-based context precision/recall and string similarity, where each applies.

    With a `cache`, a question scored before on the same inputs by the same ragas and code keeps its
    values, and ragas is imported only when some question needs scoring."""
    scores: dict[str, dict[str, float]] = {}
    todo = []
    digest = digest_of([library_versions("ragas", "rapidfuzz"), source_digest("evaluation/ragas_metrics.py")])
    for item in inputs:
        inputs_of = (item.question, item.retrieved_ids, item.reference_ids, item.response, item.reference)
        key = cache_key("ragas_offline", inputs_of, digest)
        cached = cache.get(key) if cache is not None else None
        if cached is None:
            todo.append((item, key))
        else:
            scores[item.id] = cached
    if todo:
        fresh = _offline_scores([item for item, _ in todo])
        for item, key in todo:
            scores[item.id] = fresh[item.id]
            if cache is not None:
                cache.put(key, hashlib.sha256(item.question.encode("utf-8")).hexdigest(), fresh[item.id])
    return scores


def _offline_scores(inputs: Sequence[RagasInput]) -> dict[str, dict[str, float]]:
    from ragas.dataset_schema import SingleTurnSample

    # The ID-based metrics exist only in ragas's classic metric API in 0.4.3 (the public
    # `ragas.metrics` names are deprecated aliases of these, with no `collections` successor yet).
    from ragas.metrics._context_precision import IDBasedContextPrecision
    from ragas.metrics._context_recall import IDBasedContextRecall
    from ragas.metrics.collections import NonLLMStringSimilarity

    precision, recall, similarity = IDBasedContextPrecision(), IDBasedContextRecall(), NonLLMStringSimilarity()
    scores: dict[str, dict[str, float]] = {}
    for item in inputs:
        values: dict[str, float | None] = {}
        if item.reference_ids is not None and item.retrieved_ids:
            sample = SingleTurnSample(
                user_input=item.question,
                retrieved_context_ids=list[str | int](item.retrieved_ids),
                reference_context_ids=list[str | int](item.reference_ids),
            )
            values[ID_PRECISION] = _value(precision.single_turn_score(sample))
            values[ID_RECALL] = _value(recall.single_turn_score(sample))
        if item.reference is not None and item.response is not None:
            values[STRING_SIMILARITY] = _value(similarity.score(reference=item.reference, response=item.response))
        scores[item.id] = {k: v for k, v in values.items() if v is not None}
    return scores


def _json_object(text: str) -> str:
    """The JSON object in a reply, tolerating code fences or a sentence around it."""
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end < start:
        raise ValueError(f"the judge replied without a JSON object: {text[:200]!r}")
    return text[start : end + 1]


def judge_llm(complete: Complete) -> Any:
    """A ragas LLM (InstructorBaseRagasLLM) that asks `complete` for JSON and validates it against the
    metric's response model. ragas's prompts already carry the JSON Schema and examples."""
    from ragas.llms.base import InstructorBaseRagasLLM

    class ClaudeJudge(InstructorBaseRagasLLM):
        def generate(self, prompt: str, response_model: Any) -> Any:
            return response_model.model_validate_json(_json_object(complete(JUDGE_SYSTEM, prompt)))

        async def agenerate(self, prompt: str, response_model: Any) -> Any:
            return await asyncio.to_thread(self.generate, prompt, response_model)

    return ClaudeJudge()


def query_embeddings(embed_query: EmbedQuery) -> Any:
    """A ragas embeddings object (BaseRagasEmbedding) over the project's dense query embedder. Both
    sides of answer relevancy are questions, so both are embedded as queries."""
    from ragas.embeddings.base import BaseRagasEmbedding

    class QueryEmbeddings(BaseRagasEmbedding):
        def embed_text(self, text: str, **kwargs: Any) -> list[float]:
            return [float(x) for x in embed_query(text)]

        async def aembed_text(self, text: str, **kwargs: Any) -> list[float]:
            return self.embed_text(text)  # in the loop's thread: the ONNX session is not shared across threads

    return QueryEmbeddings()


@dataclass
class JudgeOutcome:
    scores: dict[str, dict[str, float]]  # question id -> faithfulness / answer relevancy
    errors: list[str]  # "<question id> <metric>: <error>", one per failed judgement


def judged_scores(
    inputs: Sequence[RagasInput],
    complete: Complete,
    embed_query: EmbedQuery,
    concurrency: int = 8,
    progress: Progress | None = None,
) -> JudgeOutcome:
    """Faithfulness and answer relevancy of every given answer, `concurrency` questions at a time;
    `progress(done, total)` as each answer's judgement finishes."""
    from ragas.metrics.collections import AnswerRelevancy, Faithfulness

    llm = judge_llm(complete)
    faithfulness = Faithfulness(llm=llm)
    relevancy = AnswerRelevancy(llm=llm, embeddings=query_embeddings(embed_query))
    outcome = JudgeOutcome(scores={}, errors=[])
    judged = [item for item in inputs if item.response and not item.abstained]
    finished = 0

    async def judge(item: RagasInput, gate: asyncio.Semaphore) -> None:
        response = item.response or ""  # only answered questions are judged
        jobs = {ANSWER_RELEVANCY: lambda: relevancy.ascore(user_input=item.question, response=response)}
        if item.contexts:
            jobs[FAITHFULNESS] = lambda: faithfulness.ascore(
                user_input=item.question, response=response, retrieved_contexts=item.contexts
            )
        async with gate:
            for name, job in jobs.items():
                try:
                    value = _value(await job())
                except Exception as exc:  # a failed judgement is reported, never scored
                    outcome.errors.append(f"{item.id} {name}: {type(exc).__name__}: {exc}"[:300])
                    continue
                if value is not None:
                    outcome.scores.setdefault(item.id, {})[name] = value
        nonlocal finished
        finished += 1
        if progress is not None:
            progress(finished, len(judged))

    async def judge_all() -> None:
        gate = asyncio.Semaphore(concurrency)
        await asyncio.gather(*(judge(item, gate) for item in judged))

    asyncio.run(judge_all())
    return outcome


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 4)


def score_ragas(
    golden: GoldenSet,
    results: Sequence[QuestionResult],
    known_docs: set[str],
    complete: Complete | None = None,
    embed_query: EmbedQuery | None = None,
    concurrency: int = 8,
    cache: DocumentCache | None = None,
    progress: Progress | None = None,
) -> dict[str, float]:
    """Score every question, store its values in `result.ragas`, and return the summary keys:
    `ragas_<metric>` means over the questions each metric applies to, plus, when judged,
    `ragas_judged_answers` and `ragas_judge_errors`. Judged only when `complete` is given (judged
    scores are never cached); `cache` keeps the offline ones (see offline_scores). `progress` follows
    the judged answers."""
    inputs = build_inputs(golden, results, known_docs)
    per_question = offline_scores(inputs, cache)
    metrics = list(OFFLINE_METRICS)
    summary: dict[str, float] = {}
    if complete is not None:
        if embed_query is None:
            raise ValueError("Answer relevancy needs an embedder next to the judge.")
        outcome = judged_scores(inputs, complete, embed_query, concurrency, progress)
        for qid, judged in outcome.scores.items():
            per_question[qid] |= judged
        metrics += JUDGED_METRICS
        summary["ragas_judged_answers"] = float(sum(1 for i in inputs if i.response and not i.abstained))
        summary["ragas_judge_errors"] = float(len(outcome.errors))
    for r in results:
        r.ragas = per_question.get(r.id, {})
    for metric in metrics:
        values = [s[metric] for s in per_question.values() if metric in s]
        if values:
            summary[PREFIX + metric] = _mean(values)
    return dict(sorted(summary.items()))


def ragas_markdown(summary: dict[str, float]) -> str | None:
    """One summary line, or None when ragas did not run."""
    offline = [
        ("ID context precision", ID_PRECISION),
        ("ID context recall", ID_RECALL),
        ("string similarity", STRING_SIMILARITY),
    ]
    judged = [("faithfulness", FAITHFULNESS), ("answer relevancy", ANSWER_RELEVANCY)]
    if not any(PREFIX + m in summary for _, m in offline):
        return None
    line = "ragas: " + ", ".join(f"{label} {summary[PREFIX + m]:.3f}" for label, m in offline if PREFIX + m in summary)
    if "ragas_judge_errors" not in summary:
        return line + "; faithfulness, answer relevancy: not configured (no ANTHROPIC_API_KEY)"
    scored = [f"{label} {summary[PREFIX + m]:.3f}" for label, m in judged if PREFIX + m in summary]
    errors = int(summary["ragas_judge_errors"])
    return line + "; " + (", ".join(scored) or "no judged scores") + (f" ({errors} judge errors)" if errors else "")
