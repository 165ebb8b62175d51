"""Privacy at query and answer time: queries are redacted before they are embedded or logged, and
every answer is audited by the same detectors before it leaves the service, failing closed."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import cast

from strata_pipeline.redaction.pii import Finding, PiiPolicy, detector_for, pii_policy
from strata_pipeline.redaction.redact import PiiDetector, redact_text
from strata_pipeline.redaction.screen import might_hold_personal_data, might_hold_personal_data_in_prose


class AnswerWithheld(RuntimeError):
    """The answer audit could not run, so the answer must not be returned."""


@dataclass(frozen=True)
class Audited:
    text: str
    redactions: int  # values replaced by the audit


class _NothingFound:
    """The detector for a query the screen cleared, or a blank answer: secrets are still scanned by
    `redact_text`."""

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


class _OutsideVouched:
    """A detector that drops findings lying wholly inside a vouched span of the text: see
    PrivacyGuard.audit_answer."""

    def __init__(self, inner: PiiDetector, vouched: Sequence[str]) -> None:
        self.inner, self.vouched = inner, vouched
        self.name = getattr(inner, "name", "detector")

    def detect(self, text: str) -> list[Finding]:
        spans = _occurrences(text, self.vouched)
        return [f for f in self.inner.detect(text) if not any(s <= f.start and f.end <= e for s, e in spans)]


class PrivacyGuard:
    """`detector` may be a factory: the detector (seconds to load) is then built on first use, and a
    query the screen clears (no digit, @, capital past the first word or listed name) never needs it."""

    def __init__(self, detector: PiiDetector | Callable[[], PiiDetector], policy: PiiPolicy) -> None:
        self._detector = detector
        self.policy = policy

    @cached_property
    def detector(self) -> PiiDetector:
        made = self._detector
        if hasattr(made, "detect"):
            return cast(PiiDetector, made)
        return cast(Callable[[], PiiDetector], made)()

    def redact_query(self, query: str, shown: Callable[[str], bool] | None = None) -> Audited:
        """The query with secrets and personal data replaced by placeholders.

        `shown(value)` says whether the indexed (already redacted) passages show a value verbatim: a
        place, a product or a role contact the corpus prints in clear ("Basel", "Barman", "LiDAR")
        protects nobody when masked in a query, and masking it loses the search term. Secrets are
        always replaced."""
        if not might_hold_personal_data(query):
            return self._redact(query, _NothingFound())
        return self._redact(query, self.detector if shown is None else _UnlessShown(self.detector, shown))

    def audit_answer(self, text: str, vouched: Sequence[str] = ()) -> Audited:
        """Redact personal data the answer still carries (placeholders are left alone).

        `vouched` are spans the answer copies from indexed passages (quotes, citation markers). The
        index holds only text this same detector and policy already redacted at ingestion, so running
        the NER again over a verbatim copy finds nothing new and costs seconds of model loading. The
        detector runs when what is left after removing the vouched spans could hold personal data
        (the prose screen: a capital, a digit, an @ or a listed given name), and then only its
        findings outside the vouched spans count: read again out of its row and column ("campus:
        Brandholm", "Autohaus Nord: 7"), a place or a business the ingestion kept would read as a
        name to the NER, and masking it protects nobody, as the index shows it. Secrets are always
        scanned over the whole text.

        Any failure of the audit raises AnswerWithheld: an unaudited answer is never returned.
        """
        try:
            residue = _without(text, vouched)
            # a blank text (an abstained answer) holds nothing to find: it does not build the detector
            needs_detector = bool(residue.strip()) and might_hold_personal_data_in_prose(residue)
            detector = _OutsideVouched(self.detector, vouched) if needs_detector else _NothingFound()
            return self._redact(text, detector)
        except Exception as exc:
            raise AnswerWithheld(f"The answer was withheld because its privacy audit failed: {exc}") from exc

    def _redact(self, text: str, detector: PiiDetector) -> Audited:
        result = redact_text(text, detector, self.policy)
        return Audited(result.text, sum(1 for a in result.audit if a.decision == "redact"))


def _without(text: str, spans: Sequence[str]) -> str:
    """`text` with every occurrence of each span cut out, longest span first (a quote may contain a
    shorter one)."""
    for span in sorted((s for s in spans if s.strip()), key=len, reverse=True):
        text = text.replace(span, "\n")
    return text


def _occurrences(text: str, spans: Sequence[str]) -> list[tuple[int, int]]:
    """Where each span stands in `text` as whole words: a vouched "Nord" does not cover "Nordmann"."""
    return [
        (m.start(), m.end())
        for span in {s.strip() for s in spans if s.strip()}
        for m in re.finditer(rf"(?<!\w){re.escape(span)}(?!\w)", text)
    ]


def privacy_guard(
    backend: str, thresholds: dict[str, float] | None = None, keep_premises_addresses: bool = True
) -> PrivacyGuard:
    """The guard of a PII backend ("presidio-ner", "presidio-regex"), with the detector and policy that
    ingestion uses; the detector is built on first use, which most queries never reach."""
    return PrivacyGuard(lambda: detector_for(backend), pii_policy(thresholds, keep_premises_addresses))
