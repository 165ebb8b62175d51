"""Labelled short texts redacted one by one, each as a source-set of one document (benchmarks.mailboxes and
benchmarks.technical_names): the ingestion's path without Dagster, `policy_for_set` then `redact_text` with
the NER detector."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:
    from strata_pipeline.redaction.redact import Redaction


def load_items(path: Path) -> list[dict[str, Any]]:
    """The items of a labelled YAML set, in file order."""
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def redact_each_alone(texts: list[str]) -> list[Redaction]:
    """Each text redacted as a source-set of its own: the set-wide evidence (places, programs, mailbox
    parts) is what that one text says."""
    from strata_pipeline.redaction.documents import policy_for_set
    from strata_pipeline.redaction.pii import PiiPolicy, PresidioDetector
    from strata_pipeline.redaction.redact import redact_text

    detector = PresidioDetector(use_ner=True)
    return [redact_text(text, detector, policy_for_set([text], PiiPolicy())) for text in texts]
