"""Golden question sets: `golden/<source_set>.yaml` (format documented in golden/README.md).

Every question belongs to a part: `dev` questions may be looked at when tuning ranking, `test`
questions are only scored, and the report's headline is the test part. A question without a part
counts as test: a user's own set has never been tuned on.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

PARTS = ("dev", "test")
ROUTES = ("semantic", "aggregation", "lookup", "hybrid")  # strata_pipeline.routing.ROUTES


@dataclass(frozen=True)
class GoldenQuestion:
    id: str
    question: str
    category: str = "general"
    relevant: tuple[str, ...] = ()  # doc ids; a trailing "/" matches a whole folder
    expected_answer_contains: tuple[str, ...] = ()
    unanswerable: bool = False
    part: str = "test"  # "dev" (may be tuned on) or "test" (scored only)
    route: str = "semantic"  # the route the router should choose
    # an aggregation's exact figure: a number, a list of values, or {group: number}
    expected_value: Any = None

    def is_relevant(self, doc_id: str) -> bool:
        return any(doc_id.startswith(r) if r.endswith("/") else doc_id == r for r in self.relevant)


@dataclass(frozen=True)
class GoldenSet:
    source_set: str
    k: int
    questions: list[GoldenQuestion] = field(default_factory=list)
    digest: str = ""  # of the file's text: a changed set makes earlier scores incomparable


def load_golden(golden_dir: Path, source_set: str, default_k: int = 5) -> GoldenSet | None:
    path = golden_dir / f"{source_set}.yaml"
    if not path.exists():
        return None
    text = path.read_text(encoding="utf-8")
    data = yaml.safe_load(text) or {}
    questions = []
    for position, raw in enumerate(data.get("questions") or [], start=1):
        part = checked_part(path, raw, position)
        route = str(raw.get("route") or "semantic")
        if route not in ROUTES:
            raise ValueError(f"{path.name} question {raw['id']}: route is {route!r}; use one of {', '.join(ROUTES)}.")
        questions.append(
            GoldenQuestion(
                id=str(raw["id"]),
                question=str(raw["question"]),
                category=str(raw.get("category") or "general"),
                relevant=tuple(str(r) for r in raw.get("relevant") or ()),
                expected_answer_contains=tuple(str(s) for s in raw.get("expected_answer_contains") or ()),
                unanswerable=bool(raw.get("unanswerable", False)),
                part=part,
                route=route,
                expected_value=raw.get("expected_value"),
            )
        )
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    return GoldenSet(source_set=source_set, k=int(data.get("k") or default_k), questions=questions, digest=digest)


def checked_part(path: Path, raw: dict, position: int, kind: str = "question") -> str:
    """The dev/test part of one golden entry (test when unset), after checking it has an id and a
    question: what every list in a golden file (questions, compound) requires."""
    if not raw.get("id") or not raw.get("question"):
        raise ValueError(f"{path.name} {kind} #{position}: 'id' and 'question' are required.")
    part = str(raw.get("part") or "test")
    if part not in PARTS:
        raise ValueError(f"{path.name} {kind} {raw['id']}: part is {part!r}; use one of {', '.join(PARTS)}.")
    return part
