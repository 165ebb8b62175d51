"""Our detectors wrapped as Presidio recognisers, so they run in one analyzer pass beside Presidio's."""

from __future__ import annotations

from presidio_analyzer import EntityRecognizer, RecognizerResult

from strata_pipeline.redaction.addresses import address_spans
from strata_pipeline.redaction.name_index import name_index
from strata_pipeline.redaction.names import person_candidates
from strata_pipeline.redaction.numbers import card_spans, phone_spans

# Candidates scoring below this are dropped without an audit row (most capitalised words).
PERSON_AUDIT_FLOOR = 0.3


def _metadata(recognizer: EntityRecognizer) -> dict:
    return {
        RecognizerResult.RECOGNIZER_NAME_KEY: str(getattr(recognizer, "name", "")),  # presidio leaves it untyped
        RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: recognizer.id,
    }


class PersonRecognizer(EntityRecognizer):
    """Names weighed by `names.person_candidates`: NER, name popularity, context, counter-evidence."""

    def __init__(self) -> None:
        super().__init__(supported_entities=["PERSON"], name="StrataPersonRecognizer")

    def load(self) -> None:
        name_index()  # build or load the names index now, not inside the first document

    def analyze(self, text, entities, nlp_artifacts=None):  # type: ignore[no-untyped-def]
        doc = getattr(nlp_artifacts, "tokens", None)
        if doc is None or "PERSON" not in entities:
            return []
        people = [(e.start_char, e.end_char) for e in doc.ents if e.label_ == "PERSON"]
        return [
            RecognizerResult("PERSON", c.start, c.end, c.score, recognition_metadata=_metadata(self))
            for c in person_candidates(list(doc), text, name_index(), people, [a.start for a in address_spans(text)])
            if c.score >= PERSON_AUDIT_FLOOR
        ]


class AddressRecognizer(EntityRecognizer):
    """Whole postal addresses from `addresses.address_spans`."""

    def __init__(self) -> None:
        super().__init__(supported_entities=["STREET_ADDRESS"], name="StrataAddressRecognizer")

    def load(self) -> None:
        pass

    def analyze(self, text, entities, nlp_artifacts=None):  # type: ignore[no-untyped-def]
        if "STREET_ADDRESS" not in entities:
            return []
        return [
            RecognizerResult("STREET_ADDRESS", s.start, s.end, s.score, recognition_metadata=_metadata(self))
            for s in address_spans(text)
        ]


class NumberRecognizer(EntityRecognizer):
    """Phone numbers and payment cards from `numbers.phone_spans` and `numbers.card_spans`."""

    def __init__(self) -> None:
        super().__init__(supported_entities=["PHONE_NUMBER", "CREDIT_CARD"], name="StrataNumberRecognizer")

    def load(self) -> None:
        pass

    def analyze(self, text, entities, nlp_artifacts=None):  # type: ignore[no-untyped-def]
        spans = (phone_spans(text) if "PHONE_NUMBER" in entities else []) + (
            card_spans(text) if "CREDIT_CARD" in entities else []
        )
        return [
            RecognizerResult(s.entity, s.start, s.end, s.score, recognition_metadata=_metadata(self)) for s in spans
        ]
