"""What a part of a compound question is about when it does not say: the code its first part or its
framing sentence names.

- `anchored_to`: a second question that names nothing and speaks of "the <thing>" is about the one code the
  first names ("How long does an RX-300 need on the dock, and what rating does the robot have?");
- `code_for_that`: "that error", "this code" after a framing sentence that ends on a code is that code
  ("The pendant on our RX-200 shows E-101. What is that error ...?");
- `unanchored`: a part anchored to a code its framing sentence already names is framed once.

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


def unanchored(text: str, context: str) -> str:
    """`text` without an "E-101: " anchor when `context` names that code already."""
    code, sep, rest = text.partition(": ")
    return rest if sep and IDENTIFIER.fullmatch(code) and code in context else text
