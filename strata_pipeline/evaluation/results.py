"""What the eval records per question: the answer check and the scored result.

report.py fills them and ragas_metrics.py scores them; both import these types from here, so neither
imports the other for its types.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class AnswerCheck:
    abstained: bool
    text: str
    citations_valid: bool  # every citation names a passage (supplied, or of the index) and quotes it verbatim
    context_ids: tuple[str, ...] = ()  # document of each supplied passage, in order (ragas ID metrics)
    contexts: tuple[str, ...] = ()  # the supplied passages' text (ragas faithfulness)


AnswerFn = Callable[[str], AnswerCheck]


@dataclass
class QuestionResult:
    id: str
    category: str
    question: str
    unanswerable: bool
    ranked_docs: dict[str, list[str]]  # mode -> top documents
    scores: dict[str, dict[str, float]]  # mode -> metric -> value (empty for unanswerable questions)
    answer_ok: bool | None = None  # expected substrings present / correct abstention; None if not checked
    abstained: bool | None = None
    citations_valid: bool | None = None
    answer_text: str | None = None
    context_ids: list[str] = field(default_factory=list)
    contexts: list[str] = field(default_factory=list)
    ragas: dict[str, float] = field(default_factory=dict)  # per-question ragas scores (ragas_metrics.py)
    extra: dict = field(default_factory=dict)
    part: str = "test"  # the golden question's part: "dev" or "test"
    # mode -> 1-based rank of the first relevant document among the candidates (None: none found)
    first_relevant: dict[str, int | None] = field(default_factory=dict)
