"""Shared types of the labelled privacy sets: a planted value, a labelled document."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Planted:
    type: str
    start: int
    end: int


@dataclass(frozen=True)
class LabelledDoc:
    """A text with the personal values planted in it.

    `entities` are scored for recall. `neutral` spans are labelled by the set's author but are not
    values we claim to redact (a lone city or postcode, a driving licence): masking one is not
    counted as a false positive, and missing one is not counted as a miss.
    """

    doc_id: str
    text: str
    entities: list[Planted]
    neutral: list[Planted] = field(default_factory=list)


@dataclass(frozen=True)
class LabelledSecretDoc:
    doc_id: str
    text: str
    secrets: list[Planted]  # type = the kind of secret; the span is the value only
