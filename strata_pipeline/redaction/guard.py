"""Privacy at query and answer time: queries are redacted before they are embedded or logged, and
every answer is audited by the same detectors before it leaves the service, failing closed."""

from __future__ import annotations

from dataclasses import dataclass

from strata_pipeline.redaction.pii import PiiPolicy
from strata_pipeline.redaction.redact import PiiDetector, redact_text


class AnswerWithheld(RuntimeError):
    """The answer audit could not run, so the answer must not be returned."""


@dataclass(frozen=True)
class Audited:
    text: str
    redactions: int  # values replaced by the audit


class PrivacyGuard:
    def __init__(self, detector: PiiDetector, policy: PiiPolicy) -> None:
        self.detector = detector
        self.policy = policy

    def redact_query(self, query: str) -> Audited:
        """The query with secrets and personal data replaced by placeholders."""
        return self._redact(query)

    def audit_answer(self, text: str) -> Audited:
        """Redact personal data the answer still carries (placeholders are left alone).

        Any failure of the audit raises AnswerWithheld: an unaudited answer is never returned.
        """
        try:
            return self._redact(text)
        except Exception as exc:
            raise AnswerWithheld(f"The answer was withheld because its privacy audit failed: {exc}") from exc

    def _redact(self, text: str) -> Audited:
        result = redact_text(text, self.detector, self.policy)
        return Audited(result.text, sum(1 for a in result.audit if a.decision == "redact"))
