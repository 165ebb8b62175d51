"""What a part of a compound question is about when it does not say: the code its first part or its
framing sentence names.

- `anchored_to`: a second question that names nothing and speaks of "the <thing>" is about the one code the
  first names ("How long does an RX-300 need on the dock, and what rating does the robot have?");
- `code_for_that`: "that error", "this code" after a framing sentence that ends on a code is that code
  ("The pendant on our RX-200 shows E-101. What is that error ...?");
- `unanchored`: a part anchored to a code its framing sentence already names is framed once;
- `there_in_context`: "there", "dort", "là" after a framing sentence that says where ("Ich wohne in
  Weißbach.", "I work at the Basel site.") is that place, not the document the first part found.

Pure functions over the question's text.
"""

from __future__ import annotations

import re

from strata_pipeline.agent.clauses import named_entities
from strata_pipeline.embedding.identifiers import IDENTIFIER

# "the robot", "the arm": a thing the question takes as known
THE_THING = re.compile(r"\bthe\s+[a-z]{3,}\b")
# "which code carries the highest surcharge", "how many codes are listed": a question over many things
OVER_MANY = re.compile(r"\bthe\s+(?:\w+est|most|least|first|last|fewest)\b|\bhow\s+many\b", re.IGNORECASE)
# "that error", "this code", "diese Meldung", "ce code": a code the question's context names
THAT_CODE = re.compile(
    r"\b(?:that|this|diese[rsn]?|ce|cette)\s+(?P<noun>error|code|fault|alarm|message|warning|"
    r"fehler|fehlercode|meldung|störung|erreur|défaut|alarme)\b",
    re.IGNORECASE,
)


def anchored_to(first: str, second: str) -> str:
    """The second question framed by the one identifier the first names, when the second names nothing and
    speaks of "the <thing>": "How long does an RX-300 need on the dock ..., and what ingress protection rating
    does the robot have?" asks the rating of the RX-300 ("RX-300: What ingress protection ..."). "" otherwise,
    and for a question over many things ("how many", "the highest")."""
    codes = {m.group() for m in IDENTIFIER.finditer(first)}
    if len(codes) != 1 or named_entities(second) or OVER_MANY.search(second):
        return ""
    return f"{codes.pop()}: {second}" if THE_THING.search(second) else ""


def code_for_that(question: str, context: str) -> str:
    """`question` with its first "that error" / "this code" naming the code `context` ends on ("error E-101");
    unchanged when the context names no code."""
    codes = [m.group() for m in IDENTIFIER.finditer(context)]
    if not codes:
        return question
    return THAT_CODE.sub(lambda m: f"{m['noun']} {codes[-1]}", question, count=1)


# "What do those two codes mean?", "What does each code mean?", "Was bedeuten die beiden Fehler?": the
# question asks of every code the text named before it
_EVERY_CODE = re.compile(
    r"\b(?:what\s+(?:do|does)\s+(?:(?:those|these|both|the|all)\s+)?(?:(?:two|three|each|both)\s+)?"
    r"(?:codes?|errors?|faults?|alarms?|messages?|warnings?|of\s+them|they)\s+mean"
    r"|was\s+bedeuten\s+(?:die(?:se)?\s+)?(?:beiden\s+)?(?:codes|fehler\w*|meldungen)"
    r"|que\s+signifient\s+(?:ces|les)\s+(?:deux\s+)?(?:codes|erreurs|défauts|alarmes))\b",
    re.IGNORECASE,
)


def every_code(text: str) -> list[str]:
    """The codes a text names before it asks what they mean ("The controller reports E-1420 and a drive
    shows E-2240. What do those two codes mean?"), each once; [] unless it names two or more and asks so."""
    asked = _EVERY_CODE.search(text)
    if asked is None:
        return []
    codes = list(dict.fromkeys(m.group() for m in IDENTIFIER.finditer(text[: asked.start()])))
    return codes if len(codes) >= 2 else []


def unanchored(text: str, context: str) -> str:
    """`text` without an "E-101: " anchor when `context` names that code already."""
    code, sep, rest = text.partition(": ")
    return rest if sep and IDENTIFIER.fullmatch(code) and code in context else text


# A place a framing statement names: a locative preposition, maybe an article or a place noun, and a name
# ("in Weißbach", "am Standort Basel", "auf dem Kestwick-Campus", "at the Basel site", "au Luxembourg").
_NAME = r"[A-ZÄÖÜÉÈ][\w\-’']*(?:[ -][A-ZÄÖÜÉÈ][\w\-’']*)*"
_PLACE = re.compile(
    rf"\b(?:in|at|on|near|im|am|auf\s+dem|auf\s+der|an\s+der|bei|beim|à|au|aux|en|dans|chez)"
    rf"(?:\s+(?:the|dem|der|den|le|la|l'|les))?"
    rf"(?:\s+(?:Standort|Werk|Campus|site|depot|office|campus|Depot|Büro|site de))?"
    rf"\s+(?P<name>{_NAME})(?:\s+(?:site|office|depot|campus|branch))?"
)
# "there" in English, "dort" in German, "là" in French (not "là-bas" in a name): where the context says
_THERE = re.compile(r"\b(?:there|dort)\b|(?<![\w-])là(?![\w-])", re.IGNORECASE)


def there_in_context(question: str, context: str) -> str:
    """`question` with "there" / "dort" / "là" replaced by the place its framing `context`, a statement, names
    last: after "Ich wohne in Weißbach.", "An welchem Tag hat das Kundencenter dort ... geöffnet?" asks "...
    das Kundencenter in Weißbach ..."; unchanged when the context names no place."""
    places = list(_PLACE.finditer(context))
    if not places or not _THERE.search(question):
        return question
    place = places[-1].group(0)
    return _THERE.sub(place, question, count=1)


_PLACE_PREPOSITION = {"there": "at", "dort": "in", "là": "à"}


def there_as(question: str, name: str) -> str:
    """`question` with its "there" / "dort" / "là" naming the place `name` ("Bis wann muss ich in Hamburg ...");
    "" when it says none of them."""
    if not _THERE.search(question):
        return ""
    return _THERE.sub(lambda m: f"{_PLACE_PREPOSITION[m.group().lower()]} {name}", question, count=1)
