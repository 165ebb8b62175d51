"""Proof that redaction worked: scan output text for secret shapes and for known planted values."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml

from strata_pipeline.redaction.pii import PiiPolicy
from strata_pipeline.redaction.redact import PiiDetector
from strata_pipeline.redaction.secrets import find_secrets
from strata_pipeline.text.placeholders import ADDRESS_PLACEHOLDER

# What redaction writes ([PERSON_1], [REDACTED_SECRET]): a detection made only of these (and the
# separators between table cells) is the redaction itself, not a leak.
_PLACEHOLDERS = re.compile(r"\[[A-Z][A-Z_]*(?:_\d+)?\]")
_FILLER = re.compile(r"[\s|,;:.\-/()]*")


def only_placeholders(span: str) -> bool:
    return _PLACEHOLDERS.search(span) is not None and _FILLER.fullmatch(_PLACEHOLDERS.sub("", span)) is not None


def redactions_own_address(entity: str, span: str) -> bool:
    """An address found around an address placeholder ("[ADDRESS_1], Valrive"): the detector reads the
    placeholder as a street and grows it over what follows, which the document's redaction, reading the
    whole address, already judged. A person's placeholder beside a name stays a leak ("[PERSON_1] Gruber")."""
    return entity == "ADDRESS" and ADDRESS_PLACEHOLDER.search(span) is not None


@dataclass(frozen=True)
class Leak:
    doc_id: str
    kind: str  # detector kind, or "planted:<type>"


def planted_values(golden_dir: Path, source_set: str) -> list[tuple[str, str]]:
    """(type, value) of the sensitive values planted in the sample corpus, if it lists any."""
    path = golden_dir / "planted.yaml"
    if not path.exists():
        return []
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return [
        (str(item.get("type", "")), str(item["value"]))
        for item in data.get("planted") or []
        if item.get("source_set") == source_set and item.get("value")
    ]


def find_leaks(
    texts: Iterable[tuple[str, str]],
    planted: list[tuple[str, str]],
    detector: PiiDetector | None = None,
    policy: PiiPolicy | None = None,
) -> list[Leak]:
    """Leaks in (doc_id, text) pairs: any secret-shaped span, any planted value verbatim, and, with a
    detector, any personal data the redaction policy would still remove."""
    leaks = []
    for doc_id, text in texts:
        leaks += [Leak(doc_id, span.kind) for span in find_secrets(text)]
        leaks += [Leak(doc_id, f"planted:{kind}") for kind, value in planted if value in text]
        if detector is not None and policy is not None:
            found = detector.detect(text)
            leaks += [
                Leak(doc_id, f"pii:{f.entity}")
                for f in found
                if policy.decide(f, text, found) == "redact"
                and not only_placeholders(text[f.start : f.end])
                and not redactions_own_address(f.entity, text[f.start : f.end])
            ]
    return leaks
