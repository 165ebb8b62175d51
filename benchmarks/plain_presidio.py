"""Plain Presidio with the same small spaCy model and no policy layer: the baseline that redaction
quality and cost are compared against, in the same run."""

from __future__ import annotations

from strata_pipeline.redaction.pii import ENTITY_TYPES, SPACY_MODEL, Finding

# Our entity map, with Presidio's NER LOCATION standing in for addresses (it has no address recogniser).
PLAIN_ENTITIES = {**{k: v for k, v in ENTITY_TYPES.items() if k != "STREET_ADDRESS"}, "LOCATION": "ADDRESS"}


class PlainPresidio:
    """`AnalyzerEngine` with the default registry and `en_core_web_sm`; every result above 0.35 counts."""

    name = "plain-presidio"

    def __init__(self) -> None:
        from presidio_analyzer import AnalyzerEngine
        from presidio_analyzer.nlp_engine import NlpEngineProvider

        config = {"nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": SPACY_MODEL}]}
        nlp_engine = NlpEngineProvider(nlp_configuration=config).create_engine()
        self._engine = AnalyzerEngine(nlp_engine=nlp_engine, supported_languages=["en"])

    def detect(self, text: str) -> list[Finding]:
        results = self._engine.analyze(text=text, language="en", entities=list(PLAIN_ENTITIES), score_threshold=0.35)
        return [Finding(PLAIN_ENTITIES[r.entity_type], r.start, r.end, float(r.score), self.name) for r in results]
