"""Answer types beyond a unit: what a question's wording demands of the sentence that answers it.

Near misses quote a sentence on the right topic that does not say what was asked. Each check here
reads the question's wording (en, de, fr) and the quoted sentences, no score:

- a rate per period ("days a week", "monthly limit", "pro Jahr") is answered by a sentence that
  states that period: "20 working days per calendar year" does not say how many days a week;
- a question on which provider, brand, vendor or manufacturer is answered by a sentence that names
  one: a capitalised word the question does not hold, not a sentence's first word;
- a question on which colours is answered by a sentence that names a colour;
- which version is answered by a version number ("v3.2", "4.2.0");
- a number is a numeral of its own, not the digit inside a name ("FIDO2", "IP52", "RX-300").

Plain functions over text; no index, no model.
"""

from __future__ import annotations

import re

from strata_pipeline.answering.wording import asked_part
from strata_pipeline.text.placeholders import ADDRESS_PLACEHOLDER

# --- periods -------------------------------------------------------------------------------

# The period a rate is per, as a question asks it: "per week", "a week", "each month", "in one day",
# "pro Tag", "par semaine"; not a named one ("im Jahr 2023" is a year). An adjective alone ("annual
# leave", "daily stand-up") often names a thing, not a rate, so the question side needs the preposition.
_PERIODS: dict[str, str] = {
    "day": r"days?|tag|tage?s|jours?",
    "week": r"weeks?|woche|semaines?",
    "month": r"months?|monat|mois",
    "year": r"years?|jahr|ans?|années?",
}
_PER = r"(?:per|a|an|each|every|pro|je|im|in\s+der|par|chaque|in\s+one|in\s+a)"
_ASKED_PERIOD = {
    period: re.compile(
        rf"\b{_PER}\s+(?:(?:calendar|working|business|kalender|arbeits)\s*)?(?:{words})\b(?!\s+\d)", re.IGNORECASE
    )
    for period, words in _PERIODS.items()
}
# A sentence states the period by any mention of it: "20 days per calendar year", "a 40-hour week",
# "weekly", "wöchentlich", "Monday to Friday".
_STATED_PERIOD = {
    "day": re.compile(r"\b(?:days?|daily|tag\w*|täglich\w*|jours?|quotidien\w*)\b|/\s?d\b", re.IGNORECASE),
    "week": re.compile(
        r"\b(?:weeks?|weekly|woche\w*|wöchentlich\w*|semaines?|hebdomadaire\w*|monday|montag|lundi)\b",
        re.IGNORECASE,
    ),
    "month": re.compile(r"\b(?:months?|monthly|monat\w*|mois|mensuel\w*)\b", re.IGNORECASE),
    "year": re.compile(
        r"\b(?:years?|yearly|annual\w*|annum|jahr\w*|jährlich\w*|ans?|années?|annuel\w*)\b|\bp\.\s?a\.", re.IGNORECASE
    ),
}


def asked_period(question: str) -> str | None:
    """The period a question's rate is per ("how many days a week" -> "week"), or None. Read in the
    question itself: "working in our office for about a week. How long can a guest voucher be valid?"
    asks for no rate (wording.asked_part)."""
    question = asked_part(question)
    found = [period for period, pattern in _ASKED_PERIOD.items() if pattern.search(question)]
    return found[0] if len(found) == 1 else None  # "days per week, per year" asks two things


# A count of periods is a duration, not a rate per period: "at least 2 weeks before departure",
# "zwei Wochen", "deux semaines" (the number word "ein"/"un" is left alone: "ein Tag pro Woche").
_GERMAN_PLURALS = {"day": "tagen", "week": "wochen", "month": "monate[n]?", "year": "jahre[n]?"}
_COUNTED_PERIOD = {
    period: re.compile(
        r"\b(?:\d+(?:[.,]\d+)?|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|zwei|drei|vier|fünf|sechs|"
        r"sieben|acht|neun|zehn|deux|trois|quatre|cinq|sept|huit|neuf|dix)\s+(?:calendar\s+|working\s+)?"
        rf"(?:{words}|{_GERMAN_PLURALS[period]})\b",
        re.IGNORECASE,
    )
    for period, words in _PERIODS.items()
}


def states_period(period: str, text: str) -> bool:
    """Whether `text` mentions `period` other than as a count of it (a rate per week is stated with
    "week" in some form; "2 weeks before departure" is a duration)."""
    return bool(_STATED_PERIOD[period].search(_COUNTED_PERIOD[period].sub(" ", text)))


# --- names of organisations ----------------------------------------------------------------

# German compounds end in the noun that is asked: "Mobilfunkanbieter", "Geräthersteller".
_ASKS_NAME = re.compile(
    r"\b(?:which|what|welche[rsmn]?|quel(?:le)?s?)\s+(?:[^\W\d_]+\s+){0,2}?"
    r"(?:providers?|brands?|vendors?|manufacturers?|suppliers?|carriers?|"
    r"\w*anbieter\w*|marken?|\w*hersteller\w*|\w*lieferanten?|fournisseurs?|marques?|fabricants?|opérateurs?)\b",
    re.IGNORECASE,
)
_NAME_WORD = re.compile(r"[^\W\d_][\w&'’.\-]*")
_FUNCTION_WORDS = frozenset(
    "a an the this that these those it its they we you our your all each every some any no in on at for from to "
    "with by of as if when where which what who how there here please note see use only "
    "der die das ein eine es sie wir ihr im in am an auf für mit von zu bei bitte nur "
    "le la les un une des il elle ils nous vous en au aux du de pour avec par sur dans".split()
)
_AFTER_NUMBER = re.compile(r"\d\s?$")
_SENTENCE_START = re.compile(r"(?:^|[.?!:;|]\s*|\(|\"|\*\*|^\s*[-*+]\s+)\W*$")


def asks_name(question: str) -> bool:
    """Whether the question asks which provider, brand, vendor or manufacturer (en, de, fr)."""
    return bool(_ASKS_NAME.search(question))


def states_name(text: str, question: str) -> bool:
    """Whether `text` names something the question does not: a capitalised word that does not start
    a sentence, a list item or a table cell, and is not a word of the question."""
    asked = {w.casefold() for w in _NAME_WORD.findall(question)}
    for match in _NAME_WORD.finditer(text):
        word = match.group().rstrip(".-'’")
        if len(word) < 2 or not word[0].isupper() or word.casefold() in asked:
            continue
        if _AFTER_NUMBER.search(text[: match.start()]):
            continue  # a unit ("10 Gbit/s", "5 MB")
        if _SENTENCE_START.search(text[: match.start()]) and word.casefold() in _FUNCTION_WORDS:
            continue  # capitalised because it starts the sentence; a first word that is no function word
            # may well be the name ("Swisscom supplies the link"), and then the sentence answers
        return True
    return False


# --- colours -------------------------------------------------------------------------------

# "Which paint colours", "In welchen Farben", "en quelles couleurs": the colour is what is asked, not
# a word of the thing asked about ("the colour printer", "in Farbe drucken").
_ASKS_COLOUR = re.compile(
    r"\b(?:which|what|welche\w*|quel\w*)\s+(?:[^\W\d_]+\s+)?(?:colou?rs?|farben?|couleurs?)\b", re.IGNORECASE
)
_COLOUR = re.compile(
    r"\b(?:black|white|grey|gray|silver|red|orange|yellow|green|blue|purple|violet|pink|brown|beige|"
    r"schwarz|weiß|weiss|grau|silber|rot|gelb|grün|blau|lila|rosa|braun|noir|blanc|gris|argent|rouge|"
    r"jaune|vert|bleu|rose|marron|RAL\s?\d{4})\w*\b",
    re.IGNORECASE,
)


def asks_colour(question: str) -> bool:
    """Whether the question asks which colour(s): "Which paint colours ...", "In welchen Farben ..."."""
    return bool(_ASKS_COLOUR.search(question))


def states_colour(text: str) -> bool:
    return bool(_COLOUR.search(text))


# --- numbers -------------------------------------------------------------------------------

# A digit inside a name is no number: "FIDO2", "IP52", "RX-300", "E-4042", "v3.2", "H2-05". Digits
# before letters are a quantity with its unit ("20min", "5GB") and stay.
_NAMED_DIGITS = re.compile(r"[^\W\d_]+[\-_]?\d[\w.\-]*")


def states_number(text: str) -> bool:
    """Whether `text` states a number of its own: digits not inside a name ("FIDO2 key" states none,
    "8 loaner laptops" and "20min" do)."""
    return bool(re.search(r"\d", _NAMED_DIGITS.sub(" ", text)))


# --- versions ------------------------------------------------------------------------------

_ASKS_VERSION = re.compile(r"\b(?:which|what|welche\w*|quel\w*)\s+(?:[^\W\d_]+\s+){0,3}?versions?\b", re.IGNORECASE)
# "v3.2", "4.2.0", "version 7", "7.11"
_VERSION = re.compile(r"\b[vV]?\d+(?:\.\d+)+[a-z]?\b|\b[vV]\d+\b|\bversion\s+\d", re.IGNORECASE)


# --- postal addresses ----------------------------------------------------------------------

# "What is the address of ...", "à quelle adresse", "welche Anschrift": a postal address, never an IP or
# e-mail address ("the IP address", "l'adresse e-mail", "die E-Mail-Adresse" put a word between).
_ASKS_ADDRESS = re.compile(
    r"\b(?:what|which|the|its|their|whose|postal|street|visiting|mailing)\s+address(?:es)?\b"
    r"|\b(?:welche|die|ihre|seine|deren|genaue)\s+(?:Adresse|Anschrift|Postanschrift)\b|\bAnschrift\b"
    r"|\b(?:quelle|l'|l’|son|sa|leur|votre)\s*adresse\b(?!\s+(?:e-?mail|électronique|mail|ip)\b)",
    re.IGNORECASE,
)
# "Can I e-mail it, and to which address?" asks for an e-mail address, not a postal one
_EMAIL_WORD = re.compile(r"\be-?mail|\bcourriel\b", re.IGNORECASE)


def states_address(text: str) -> bool:
    """Whether `text` holds a postal address (the redaction's postal grammar), or the placeholder of one
    that redaction masked (it is there, withheld)."""
    from strata_pipeline.redaction.addresses import address_spans

    return bool(ADDRESS_PLACEHOLDER.search(text) or address_spans(text))


# --- e-mail addresses and phone numbers ---------------------------------------------------

# "What email address do I use", "An welche E-Mail-Adresse", "l'adresse e-mail", "quel courriel"
_ASKS_EMAIL = re.compile(
    r"\be-?mail[- ]?(?:address|adresse)\b|\badresse\s+(?:e-?mail|électronique|courriel)\b"
    r"|\b(?:what|which|quel(?:le)?)\s+(?:e-?mail|courriel)\b",
    re.IGNORECASE,
)
_STATES_EMAIL = re.compile(r"[\w.%+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}|\[EMAIL_\d+\]")
# "What is the phone number of", "Telefonnummer", "numéro de téléphone", "which number do I call"
_ASKS_PHONE = re.compile(
    r"\b(?:(?:tele)?phone|hotline|fax|mobile)\s+number\b|\b(?:which|what)\s+number\s+(?:do|should|can)\s+\w+\s+call\b"
    r"|\b(?:telefon|fax|handy|ruf)nummer\b|\bnuméro\s+de\s+(?:téléphone|fax|portable)\b",
    re.IGNORECASE,
)
# six digits or more in a phone's grouping ("+49 621 555 0100", "0800 123 456"), or a masked one
_STATES_PHONE = re.compile(r"\+?\(?\d[\d ()/.-]{5,}\d|\[PHONE_\d+\]")


_DATE = re.compile(r"\b\d{1,4}[./-]\d{1,2}[./-]\d{1,4}\b")  # "12.03.2025", "2025-03-12": no phone

# --- rooms ------------------------------------------------------------------------------------

# "Which room is the pharmacy in?", "In welchem Raum ...?", "dans quelle salle": a room, named by its number; not
# "which room type" or "what room rate", which ask for a kind or a price
_ASKS_ROOM = re.compile(
    r"\b(?:which|what)\s+room\b(?!\s+(?:type|types|rate|rates|price|prices|charge|category))|\broom\s+number\b"
    r"|\bwelche[mnrs]?\s+(?:Raum|Zimmer|Saal)\b|\bRaumnummer\b|\bquelle\s+salle\b|\bnuméro\s+de\s+salle\b",
    re.IGNORECASE,
)
# a room's number: after its word ("room 1.02", "Raum B-UG-01", "salle 3"), or a code that reads as one only:
# a letter, a dot and digits ("G.14"), or a building, a floor and a number ("B-UG-01"); not "RX-300" or "E-1042"
_STATES_ROOM = re.compile(
    r"\b(?i:room|raum|zimmer|salle|saal)\s+[\w.-]*\d[\w.-]*"
    r"|(?<![\w.-])(?:[A-Z]{1,2}\.\d{1,4}|[A-Z]{1,2}-[A-Z]{1,3}-\d{1,4})\b"
)


# --- commands ------------------------------------------------------------------------------------

# "Which command restores ...", "what's the exact command to ...", "Mit welchem Befehl", "quelle commande"
_ASKS_COMMAND = re.compile(
    r"\b(?:which|what(?:['’]s)?|welche[mnrs]?|quelle?)\s+(?:[^\W\d_]+\s+){0,3}?"
    r"(?:command|cmdlet|befehl|kommando|commande)s?\b",
    re.IGNORECASE,
)
# a command as runbooks write one: code with an argument ("`kerpctl failover --to bsl`"), an option
# ("--delta"), a chat command ("/incident declare"), sudo, or words after "run" or "type" ("run systemctl
# restart nginx"); a host name in code ("`zrh-bkp-01`") is none
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_COMMAND_OUTSIDE_CODE = re.compile(
    r"(?<!\S)--?[a-z][\w-]*|(?<![\w/])/[a-z][\w-]*[ \t]+[a-z]|\bsudo\s+\w"
    r"|\b(?:run|type|enter|execute|ausführen|eingeben|exécutez|tapez)\s+[a-z][\w.-]*[ \t]+[a-z][\w./-]*"
)


def _states_command(text: str) -> bool:
    if any(len(span.split()) > 1 for span in _CODE_SPAN.findall(text)):
        return True
    return bool(_COMMAND_OUTSIDE_CODE.search(_CODE_SPAN.sub(" ", text)))


# --- codes ----------------------------------------------------------------------------------------

# "What is the app location code for ...", "Which occupancy codes are in class D", "welcher Zugangscode",
# "quel est le code": a code, not its meaning ("what does that code mean"), not one the question gives
# ("which class does code BA-5102 have"), nor a code that is a text ("dress code", "code of conduct")
_ASKS_CODE = re.compile(
    r"\b(?:what|which)(?:['’]s)?\s+(?!(?:does|do|did|kind|sort|type)\b)(?:[^\W\d_][\w-]*\s+){0,4}?"
    r"(?<!dress )(?<!source )(?<!colour )(?<!color )(?<!building )codes?\b(?!\s+(?:of\b|[A-Z]+-?\d))"
    r"|\b(?:welche[mnrs]?|wie\s+lautet)\s+(?:[^\W\d_]+\s+){0,2}?\w*code\b|\bquels?\s+(?:est\s+)?(?:le\s+)?code\b",
    re.IGNORECASE,
)
# a code: letters with digits ("BA-6310", "SPRING25"), capitals ("KF", "HR"), or three digits or more that
# are no amount, time or date ("4711")
_STATES_CODE = re.compile(
    r"(?<![\w-])(?=[\w-]*[A-Za-z])(?=[\w-]*\d)[\w-]{2,}|\b[A-Z]{2,}\b|(?<![\d.,:/-])\d{3,}(?![\d.,:/-]|\s*(?:€|EUR|USD|CHF|\$|%))"
)


def _without_markup(text: str) -> str:
    """`text` less markdown's emphasis and code marks: "**B-UG-01**" is B-UG-01."""
    return re.sub(r"[*`_]", "", text)


def _states_room(text: str) -> bool:
    return bool(_STATES_ROOM.search(_without_markup(text)))


def _states_phone(text: str) -> bool:
    found = _STATES_PHONE.finditer(_DATE.sub(" ", text))
    return any(m.group().startswith("[") or len(re.sub(r"\D", "", m.group())) >= 6 for m in found)


def asked_type(question: str) -> str | None:
    """A kind of answer the question's wording asks for beyond a unit: "version" (which version),
    "address" (a postal address), "email" (an e-mail address), "phone" (a phone number), "room" (a room by
    its number), "command" (a command to run or type), "code" (a code or id), or None. (A
    duration for "how long" and a frequency for "how often" were tried on the dev questions: they
    abstained only on answerable questions, whose closest sentences were wrong, and caught one
    unanswerable one.) Read in the question itself, not in the statements before it (wording.asked_part)."""
    question = asked_part(question)
    if _ASKS_VERSION.search(question):
        return "version"
    if _ASKS_EMAIL.search(question):
        return "email"
    if _ASKS_PHONE.search(question):
        return "phone"
    if _ASKS_ADDRESS.search(question) and not _EMAIL_WORD.search(question):
        return "address"
    if _ASKS_ROOM.search(question):
        return "room"
    if _ASKS_COMMAND.search(question):
        return "command"
    if _ASKS_CODE.search(question):
        return "code"
    return None


def without_type_cues(question: str) -> str:
    """The question less the words that ask for a type of answer ("e-mail address", "phone number", "which
    room"): the type check (states_type) holds the answer to them, so they say nothing of its subject."""
    for cue in (_ASKS_VERSION, _ASKS_EMAIL, _ASKS_PHONE, _ASKS_ADDRESS, _ASKS_ROOM, _ASKS_COMMAND, _ASKS_CODE):
        question = cue.sub(" ", question)
    return question


# the kinds asked_type gives
TYPES = ("version", "address", "email", "phone", "room", "command", "code")


def states_type(kind: str, text: str) -> bool:
    """Whether `text` states an answer of `kind` (asked_type): a version number, a postal address, an
    e-mail address, a phone number (or the placeholder of one redaction withheld), a room's number, a
    command or a code."""
    if kind == "address":
        return states_address(text)
    if kind == "email":
        return bool(_STATES_EMAIL.search(text))
    if kind == "phone":
        return _states_phone(text)
    if kind == "room":
        return _states_room(text)
    if kind == "command":
        return _states_command(text)
    if kind == "code":
        return bool(_STATES_CODE.search(_without_markup(text)))
    return kind == "version" and bool(_VERSION.search(text))
