"""Apply secret and personal-data redaction to one document, with a masked audit trail."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Protocol

from strata_pipeline.redaction.pii import Finding, PiiPolicy
from strata_pipeline.redaction.secrets import find_secrets, placeholder_for


class PiiDetector(Protocol):
    name: str

    def detect(self, text: str) -> list[Finding]: ...


@dataclass(frozen=True)
class AuditEntry:
    """One redaction decision. It holds offsets and types, never the raw value."""

    entity: str
    start: int
    length: int
    detector: str
    score: float
    # redact | keep_role_contact | below_threshold | version_number | network_range | known_place
    # | common_word | organisation_address
    decision: str
    placeholder: str


@dataclass(frozen=True)
class Redaction:
    text: str
    audit: list[AuditEntry]

    def counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for entry in self.audit:
            if entry.decision == "redact":
                counts[entry.entity] = counts.get(entry.entity, 0) + 1
        return counts


def _normalise(value: str) -> str:
    return re.sub(r"\s+", " ", value).strip().casefold()


class Placeholders:
    """Numbers values per type in order of first appearance within one document."""

    def __init__(self) -> None:
        self._numbers: dict[tuple[str, str], str] = {}
        self._per_type: dict[str, int] = {}

    def for_value(self, entity: str, value: str) -> str:
        key = (entity, _normalise(value))
        if key not in self._numbers:
            self._per_type[entity] = self._per_type.get(entity, 0) + 1
            self._numbers[key] = f"[{entity}_{self._per_type[entity]}]"
        return self._numbers[key]


def redact_text(
    text: str, detector: PiiDetector, policy: PiiPolicy, placeholders: Placeholders | None = None
) -> Redaction:
    """Replace secret values with [REDACTED_SECRET] and personal data with typed placeholders.

    The same value of the same type gets the same placeholder everywhere in the document
    ([PERSON_1] ... [PERSON_1]), so the redacted text still reads coherently.
    """
    audit: list[AuditEntry] = []
    replacements: list[tuple[int, int, str]] = []
    for span in find_secrets(text):
        placeholder = placeholder_for(text[span.start : span.end])
        replacements.append((span.start, span.end, placeholder))
        audit.append(
            AuditEntry(
                "SECRET", span.start, span.end - span.start, f"secret:{span.kind}", 1.0, "redact", placeholder.strip()
            )
        )

    placeholders = placeholders or Placeholders()
    findings = detector.detect(text)
    for finding in findings:
        if any(finding.start < end and finding.end > start for start, end, _ in replacements):
            continue  # already inside a secret
        value = text[finding.start : finding.end]
        decision = policy.decide(finding, text, findings)
        placeholder = ""
        if decision == "redact":
            placeholder = placeholders.for_value(finding.entity, value)
            replacements.append((finding.start, finding.end, placeholder))
        audit.append(
            AuditEntry(
                finding.entity,
                finding.start,
                finding.end - finding.start,
                finding.detector,
                finding.score,
                decision,
                placeholder,
            )
        )
    return Redaction(text=apply_replacements(text, replacements), audit=sorted(audit, key=lambda a: a.start))


def apply_replacements(text: str, replacements: list[tuple[int, int, str]]) -> str:
    parts: list[str] = []
    cursor = 0
    for start, end, new in sorted(replacements):
        if start < cursor:
            continue
        parts += [text[cursor:start], new]
        cursor = end
    parts.append(text[cursor:])
    return "".join(parts)


def redact_tables(
    tables_json: str,
    detector: PiiDetector,
    policy: PiiPolicy,
    placeholders: Placeholders,
    context: Redaction | None = None,
    context_text: str = "",
) -> str:
    """Redact every string cell of a document's tables; numbers and dates cannot carry PII here.

    A cell that also stands whole in the document's text (`context_text`, redacted as `context`) takes
    the text's decisions: there it was read in its row under its header, while alone ("Restmüll") the
    English NER takes many a noun for a person. Any other cell is read on its own."""
    found = _redacted_values(context, context_text) if context is not None else None
    # the text's cells as rendered (rows joined by " | ", one per line): a cell is judged by the text
    # only when it stands there whole, never when it is merely part of a longer word ("Maria" in "Mariahilf")
    rendered = {c.strip() for line in context_text.split("\n") for c in line.split("|")} if found is not None else set()
    tables = json.loads(tables_json)
    for rows in tables.values():
        for row in rows:
            for column, value in row.items():
                if not isinstance(value, str) or not value.strip():
                    continue
                if found is not None and value.strip() in rendered:
                    row[column] = _replace_values(value, found)
                else:
                    row[column] = redact_text(value, detector, policy, placeholders).text
    return json.dumps(tables)


def _redacted_values(redaction: Redaction, text: str) -> dict[str, str]:
    """Each value the text's redaction replaced, with its placeholder; a value that ran across table
    cells ("Anna | Weber") also by its parts, so each cell loses its share."""
    found: dict[str, str] = {}
    for entry in redaction.audit:
        if entry.decision != "redact":
            continue
        value = text[entry.start : entry.start + entry.length]
        for part in [value, *re.split(r"\s*[|\t]\s*", value)]:
            if part.strip():
                found.setdefault(part.strip(), entry.placeholder)
    return found


def _replace_values(cell: str, found: dict[str, str]) -> str:
    for value in sorted(found, key=len, reverse=True):  # longest first: "Anna Weber" before "Anna"
        if value in cell:  # whole words only: "Park" is not redacted inside "Parking"
            cell = re.sub(rf"(?<!\w){re.escape(value)}(?!\w)", found[value], cell)
    return cell


def redact_document(
    text: str, tables_json: str | None, detector: PiiDetector, policy: PiiPolicy
) -> tuple[Redaction, str | None]:
    """One document as the `redacted_docs` asset and `strata redact` treat it: its text, then its tables,
    with placeholders numbered across both. Tables rendered in the text take the text's decisions."""
    placeholders = Placeholders()
    redaction = redact_text(text, detector, policy, placeholders)
    tables = (
        redact_tables(tables_json, detector, policy, placeholders, context=redaction, context_text=text)
        if tables_json
        else None
    )
    return redaction, tables


def span_records(redaction: Redaction) -> list[dict]:
    """Every decision as `{"start", "end", "type", "detector", "score", "decision", "placeholder"}`;
    offsets point into the original text, and no raw value is included."""
    return [
        {
            "start": a.start,
            "end": a.start + a.length,
            "type": a.entity,
            "detector": a.detector,
            "score": round(a.score, 3),
            "decision": a.decision,
            "placeholder": a.placeholder,
        }
        for a in redaction.audit
    ]


def count_redactions(text: str, detector: PiiDetector, policy: PiiPolicy) -> tuple[int, int]:
    """(secret values, personal-data values) that redaction would replace in `text`."""
    audit = redact_text(text, detector, policy).audit
    secrets = sum(1 for a in audit if a.decision == "redact" and a.entity == "SECRET")
    return secrets, sum(1 for a in audit if a.decision == "redact") - secrets
