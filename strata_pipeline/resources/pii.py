from __future__ import annotations

from functools import lru_cache

import dagster as dg
from pydantic import Field

from strata_pipeline.redaction.guard import PrivacyGuard
from strata_pipeline.redaction.pii import DEFAULT_THRESHOLDS, PiiPolicy, PresidioDetector


@lru_cache(maxsize=2)
def _detector(use_ner: bool) -> PresidioDetector:
    return PresidioDetector(use_ner=use_ner)


@lru_cache(maxsize=4)
def _privacy_figures(backend: str, thresholds: tuple[tuple[str, float], ...]) -> dict[str, float]:
    from strata_pipeline.evaluation.privacy import pii_scores, secret_scores

    detector = _detector(backend == "presidio-ner")
    return pii_scores(detector, PiiPolicy(thresholds={**DEFAULT_THRESHOLDS, **dict(thresholds)})) | secret_scores()


class PiiResource(dg.ConfigurableResource):
    """Presidio personal-data detection and the redaction policy applied to what it finds."""

    backend: str = "presidio-ner"  # or "presidio-regex" (pattern recognisers only, faster)
    thresholds: dict[str, float] = Field(default_factory=dict)  # per entity, e.g. {"PERSON": 0.7}

    def detector(self) -> PresidioDetector:
        if self.backend not in ("presidio-ner", "presidio-regex"):
            raise ValueError(f"Unknown PII backend {self.backend!r}: use presidio-ner or presidio-regex.")
        return _detector(self.backend == "presidio-ner")

    def guard(self) -> PrivacyGuard:
        """Query redaction and answer audit with the same detector and policy as ingestion."""
        return PrivacyGuard(self.detector(), self.policy())

    def privacy_figures(self) -> dict[str, float]:
        """PII recall/precision and secret recall/false positives of this configuration on the
        labelled synthetic corpora; computed once per process (the corpora are deterministic)."""
        return _privacy_figures(self.backend, tuple(sorted(self.thresholds.items())))

    def plan_detector(self) -> PresidioDetector:
        """Pattern recognisers only: the dry-run plan estimates redactions without the NER cost."""
        return _detector(False)

    def policy(self) -> PiiPolicy:
        return PiiPolicy(thresholds={**DEFAULT_THRESHOLDS, **self.thresholds})
