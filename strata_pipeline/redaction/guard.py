"""Privacy at query and answer time: queries are redacted before they are embedded or logged, and
every answer is audited by the same detectors before it leaves the service, failing closed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from strata_pipeline.redaction.pii import Finding, PiiPolicy
from strata_pipeline.redaction.redact import PiiDetector, redact_text
from strata_pipeline.redaction.screen import might_hold_personal_data


class AnswerWithheld(RuntimeError):
    """The answer audit could not run, so the answer must not be returned."""


@dataclass(frozen=True)
class Audited:
    text: str
    redactions: int  # values replaced by the audit


class _NothingFound:
    """The detector for a query the screen cleared: secrets are still scanned by `redact_text`."""

    name = "screened"

    def detect(self, text: str) -> list[Finding]:
        return []


class _UnlessShown:
    """A detector that drops findings the corpus shows in clear: see PrivacyGuard.redact_query."""

    def __init__(self, inner: PiiDetector, shown: Callable[[str], bool]) -> None:
        self.inner, self.shown = inner, shown
        self.name = getattr(inner, "name", "detector")

    def detect(self, text: str) -> list[Finding]:
        return [f for f in self.inner.detect(text) if not self.shown(text[f.start : f.end])]


class PrivacyGuard:
    """`detector` may be a factory: the detector (seconds to load) is then built on first use, and a
    query the screen clears (no digit, @, capital past the first word or listed name) never needs it."""

    def __init__(self, detector: PiiDetector | Callable[[], PiiDetector], policy: PiiPolicy) -> None:
        self._detector = detector
        self.policy = policy

    @cached_property
    def detector(self) -> PiiDetector:
        made = self._detector
        return made if hasattr(made, "detect") else made()  # type: ignore[operator]

    def redact_query(self, query: str, shown: Callable[[str], bool] | None = None) -> Audited:
        """The query with secrets and personal data replaced by placeholders.

        `shown(value)` says whether the indexed (already redacted) passages show a value verbatim: a
        place, a product or a role contact the corpus prints in clear ("Basel", "Barman", "LiDAR")
        protects nobody when masked in a query, and masking it loses the search term. Secrets are
        always replaced."""
        if not might_hold_personal_data(query):
            return self._redact(query, _NothingFound())
        return self._redact(query, self.detector if shown is None else _UnlessShown(self.detector, shown))

    def audit_answer(self, text: str) -> Audited:
        """Redact personal data the answer still carries (placeholders are left alone).

        Any failure of the audit raises AnswerWithheld: an unaudited answer is never returned.
        """
        try:
            return self._redact(text, self.detector)
        except Exception as exc:
            raise AnswerWithheld(f"The answer was withheld because its privacy audit failed: {exc}") from exc

    def _redact(self, text: str, detector: PiiDetector) -> Audited:
        result = redact_text(text, detector, self.policy)
        return Audited(result.text, sum(1 for a in result.audit if a.decision == "redact"))
