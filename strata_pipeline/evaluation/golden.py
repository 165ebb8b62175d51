"""Golden question sets: `golden/<source_set>.yaml` (format documented in golden/README.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml


@dataclass(frozen=True)
class GoldenQuestion:
    id: str
    question: str
    category: str = "general"
    relevant: tuple[str, ...] = ()  # doc ids; a trailing "/" matches a whole folder
    expected_answer_contains: tuple[str, ...] = ()
    unanswerable: bool = False

    def is_relevant(self, doc_id: str) -> bool:
        return any(doc_id.startswith(r) if r.endswith("/") else doc_id == r for r in self.relevant)


@dataclass(frozen=True)
class GoldenSet:
    source_set: str
    k: int
    questions: list[GoldenQuestion] = field(default_factory=list)


def load_golden(golden_dir: Path, source_set: str, default_k: int = 5) -> GoldenSet | None:
    path = golden_dir / f"{source_set}.yaml"
    if not path.exists():
        return None
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    questions = []
    for position, raw in enumerate(data.get("questions") or [], start=1):
        if not raw.get("id") or not raw.get("question"):
            raise ValueError(f"{path.name} question #{position}: 'id' and 'question' are required.")
        questions.append(
            GoldenQuestion(
                id=str(raw["id"]),
                question=str(raw["question"]),
                category=str(raw.get("category") or "general"),
                relevant=tuple(str(r) for r in raw.get("relevant") or ()),
                expected_answer_contains=tuple(str(s) for s in raw.get("expected_answer_contains") or ()),
                unanswerable=bool(raw.get("unanswerable", False)),
            )
        )
    return GoldenSet(source_set=source_set, k=int(data.get("k") or default_k), questions=questions)
