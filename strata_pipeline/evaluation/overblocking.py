"""Does output validation withhold honest answers? Scored on the golden sets, with no index and no model.

Each answerable golden question is given the paragraphs of its relevant documents that share most
words with it (sanitised, as the query layer sanitises them) and answered by a faithful scripted
generator: it copies the passage sentences closest to the question, with their citations, as a model
that answers from its sources would. Answer accuracy (an expected string in the answer) is scored
with validation on and off; the two must be equal, and no answer may be withheld.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from strata_pipeline.answering.answer import answer_with_llm
from strata_pipeline.answering.sentences import split_sentences
from strata_pipeline.evaluation.golden import GoldenQuestion, load_golden
from strata_pipeline.evaluation.injection import PASSAGE, lexical_similarity
from strata_pipeline.injection.defence import sanitise
from strata_pipeline.injection.scanner import scan
from strata_pipeline.retrieval.candidate import Candidate

TEXT_SUFFIXES = (".md", ".txt", ".csv", ".html", ".json", ".ini")
PARAGRAPH = re.compile(r"\n\s*\n")


@dataclass(frozen=True)
class Overblocking:
    questions: int
    accuracy_validated: float
    accuracy_unvalidated: float
    withheld: int  # answers validation withheld that would otherwise have been shown
    withheld_ids: tuple[str, ...]


def faithful_client(question: str, sentences: int = 2):
    """A generator that answers from its sources: the `sentences` passage sentences closest to the
    question, copied with their passage ids."""

    def complete(system: str, user: str) -> str:
        found = [(pid, text[a:b].strip()) for pid, text in PASSAGE.findall(user) for a, b in split_sentences(text)]
        if not found:
            return "ABSTAIN: no passages."
        scores = lexical_similarity(question, [s for _pid, s in found])
        best = sorted(range(len(found)), key=lambda i: -scores[i])[:sentences]
        return " ".join(f"{found[i][1]} [{found[i][0]}]" for i in sorted(best))

    return complete


def _passages(question: GoldenQuestion, corpus: Path, k: int) -> list[Candidate]:
    paragraphs: list[tuple[str, str]] = []
    for doc in question.relevant:
        path = corpus / doc
        if path.suffix not in TEXT_SUFFIXES or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        paragraphs += [(doc, p.strip()) for p in PARAGRAPH.split(text) if p.strip()]
    scores = lexical_similarity(question.question, [p for _d, p in paragraphs])
    ranked = sorted(range(len(paragraphs)), key=lambda i: -scores[i])[:k]
    candidates = []
    for rank, i in enumerate(ranked):
        doc, text = paragraphs[i]
        found = scan(text)
        payload = {"chunk_id": f"{doc}#{i}", "doc_id": doc, "text": text, "line_start": 1}
        payload |= {"injection_risk": found.risk, "injection_findings": [f.as_dict() for f in found.findings]}
        candidates.append(Candidate(f"{doc}#{i}", payload, scores={"dense": 0.9 - 0.01 * rank}))
    return sanitise(candidates)


def golden_overblocking(golden_dir: Path, part: str | None = None) -> dict[str, Overblocking]:
    """Per golden set (and "all"), accuracy with and without validation and the answers it withheld."""
    out: dict[str, Overblocking] = {}
    every: list[tuple[str, bool, bool, bool]] = []
    for path in sorted(golden_dir.glob("*.yaml")):
        golden = load_golden(golden_dir, path.stem)
        if golden is None:
            continue
        rows = []
        for q in golden.questions:
            if q.unanswerable or not q.expected_answer_contains or (part and q.part != part):
                continue
            context = _passages(q, golden_dir / "corpus" / golden.source_set, golden.k)
            if not context:
                continue
            client = faithful_client(q.question)
            on = answer_with_llm(q.question, context, client)
            off = answer_with_llm(q.question, context, client, validate=False)

            def right(text: str, q: GoldenQuestion = q) -> bool:
                return any(e.lower() in text.lower() for e in q.expected_answer_contains)

            rows.append((q.id, right(on.text), right(off.text), on.abstained and not off.abstained))
        if rows:
            out[golden.source_set] = _summary(rows)
            every += rows
    if every:
        out["all"] = _summary(every)
    return out


def _summary(rows: list[tuple[str, bool, bool, bool]]) -> Overblocking:
    n = len(rows)
    withheld = tuple(r[0] for r in rows if r[3])
    return Overblocking(
        n, round(sum(r[1] for r in rows) / n, 4), round(sum(r[2] for r in rows) / n, 4), len(withheld), withheld
    )
