from __future__ import annotations

import hashlib
import json
from pathlib import Path

import dagster as dg
from pydantic import Field

from strata_pipeline.redaction.guard import PrivacyGuard, privacy_guard
from strata_pipeline.redaction.pii import PiiPolicy, PresidioDetector, detector_for, pii_policy

REDACTION_CODE = Path(__file__).resolve().parents[1] / "redaction"
TEXT_CODE = Path(__file__).resolve().parents[1] / "text"  # word tables the detectors share


def _figures_key(backend: str, policy: PiiPolicy, golden_dir: Path) -> str:
    """Changes whenever the detector code, its configuration or a labelled set changes."""
    digest = hashlib.sha256(
        json.dumps([backend, sorted(policy.thresholds.items()), policy.keep_premises_addresses]).encode()
    )
    from strata_pipeline.evaluation.pii_sets import privacy_dir

    files = sorted(REDACTION_CODE.glob("*.py")) + sorted(TEXT_CODE.glob("*.py"))
    files += sorted(privacy_dir(golden_dir).glob("*.*"))
    files.append(Path(__file__).resolve().parents[1] / "evaluation" / "privacy.py")
    for path in files:
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:16]


def compute_privacy_figures(detector: PresidioDetector, policy: PiiPolicy, golden_dir: Path) -> dict[str, float]:
    from strata_pipeline.evaluation.pii_sets import PARTS, SETS, load_set
    from strata_pipeline.evaluation.privacy import labelled_set_figures, pii_scores, secret_scores

    sets = {(name, part): load_set(golden_dir, name, part) for name in SETS for part in PARTS}
    figures = labelled_set_figures(detector, policy, sets)
    regression = pii_scores(detector, policy)  # the project's own Faker corpus: a regression set only
    figures["pii_regression_recall"] = regression["pii_recall"]
    figures["pii_regression_precision"] = regression["pii_precision"]
    secrets = secret_scores()
    for key in ("secret_recall", "secret_planted", "clean_docs", "clean_flagged_rate"):
        figures[key] = secrets[key]
    return figures


class PiiResource(dg.ConfigurableResource):
    """Presidio personal-data detection and the redaction policy applied to what it finds."""

    backend: str = "presidio-ner"  # or "presidio-regex" (pattern recognisers only, faster, finds no names)
    thresholds: dict[str, float] = Field(default_factory=dict)  # per entity, e.g. {"PERSON": 0.7}
    # keep the street address on a page about a place of business ("# Kundencenter Aarlingen"):
    # published so people can find it (redaction/premises.py); False masks every address
    keep_premises_addresses: bool = True

    def detector(self) -> PresidioDetector:
        return detector_for(self.backend)

    def guard(self) -> PrivacyGuard:
        """Query redaction and answer audit with the same detector and policy as ingestion."""
        return privacy_guard(self.backend, self.thresholds, self.keep_premises_addresses)

    def privacy_figures(self, golden_dir: str | Path) -> dict[str, float]:
        """PII recall/precision of this configuration on the labelled dev/test sets (test is the headline),
        the regression corpus, and secret recall. Scoring takes about a minute, so the figures are cached
        on disk under a key of the detector code, its configuration and the labelled sets."""
        from strata_pipeline.redaction.name_index import cache_dir

        golden_dir = Path(golden_dir)
        policy = self.policy()
        path = cache_dir() / f"privacy-figures-{_figures_key(self.backend, policy, golden_dir)}.json"
        if path.exists():
            return json.loads(path.read_text())
        figures = compute_privacy_figures(self.detector(), policy, golden_dir)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(figures))
        except OSError:
            pass  # a read-only cache: recompute next time
        return figures

    def digest(self, plan: bool = False) -> str:
        """Changes whenever a redaction result could: the redaction code, the NLP model and libraries,
        the backend and the thresholds. Keys the per-document redaction caches. `plan`: of the
        pattern-only detector the dry-run plan and the leak checks use."""
        from strata_pipeline.incremental.digests import digest_of, redaction_code_digest

        backend = "presidio-regex" if plan else self.backend
        policy = self.policy()
        configuration = [backend, sorted(policy.thresholds.items()), policy.keep_premises_addresses]
        return digest_of([redaction_code_digest(), *configuration])

    def plan_detector(self) -> PresidioDetector:
        """Pattern recognisers only: the dry-run plan estimates redactions without the NER cost."""
        return detector_for("presidio-regex")

    def policy(self) -> PiiPolicy:
        return pii_policy(self.thresholds, self.keep_premises_addresses)
