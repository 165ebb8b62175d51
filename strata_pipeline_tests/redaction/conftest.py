"""One real Presidio analyzer (spaCy NER) and one regex-only analyzer for every redaction test module."""

from __future__ import annotations

import pytest

from strata_pipeline.redaction.pii import PresidioDetector


@pytest.fixture(scope="session")
def ner() -> PresidioDetector:
    return PresidioDetector()


@pytest.fixture(scope="session")
def regex() -> PresidioDetector:
    return PresidioDetector(use_ner=False)
