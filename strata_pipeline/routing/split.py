"""Where a question names documents whose rows it then aggregates: "how many of the servers mentioned in
the pgBackRest runbook are in production?" (retrieval first, then facts; see reverse.py). Plain regular
expressions in en, de and fr, so the router can check it without reading the index."""

from __future__ import annotations

import re
from dataclasses import dataclass

FACTS_FIRST, RETRIEVAL_FIRST = "facts_first", "retrieval_first"
# Words that end the document phrase: the verb or preposition that starts the rest of the question.
_END = (
    r"are|is|were|was|have|has|had|do|does|did|run|runs|use|uses|that|which|who|with|in|at|on|for|per|"
    r"located|belong\w*|sind|liegen|haben|stehen|laufen|gehören|befinden|sont|ont|se|qui|tournent|appartiennent"
)
_TAIL = rf"(?P<doc>[^?,;:]+?)(?=\s+(?:{_END})\b|\s*[?,;:]|\s*$)"
# "mentioned in the winter policy", "named by the change", "cités dans la note", "appearing in the runbook"
_PARTICIPLE = (
    r"\b(?:mentioned|named|listed|referenced|cited|quoted|covered|affected|involved|discussed|appearing|"
    r"that appear|mentionnée?s?|citée?s?|nommée?s?|listée?s?|référencée?s?|évoquée?s?)\s+(?:in|by|within|dans|par)\s+"
)
# German: "der im Wartungsfenster genannten Server", "die in der Richtlinie erwähnt werden"
_GERMAN = (
    r"\b(?P<prep>im|in der|in dem|in den|in)\s+(?P<doc>[^?,;:]+?)\s+"
    r"(?:genannt|erwähnt|aufgeführt|aufgelistet|gelistet|angegeben)\w*(?:\s+werden|\s+sind)?"
)


@dataclass(frozen=True)
class ReverseSplit:
    documents: str  # what names the documents: "the pgBackRest runbook"
    facts_question: str  # the question less that phrase: "How many of the servers are in production?"


def split_reverse(question: str) -> ReverseSplit | None:
    """The document phrase and the facts question of a retrieval-first question (None when there is none)."""
    for pattern in (_PARTICIPLE + _TAIL, _GERMAN):
        found = re.search(pattern, question, flags=re.IGNORECASE)
        if found and found.group("doc").strip():
            rest = (question[: found.start()] + " " + question[found.end() :]).strip()
            return ReverseSplit(found.group("doc").strip(), re.sub(r"\s+", " ", rest).replace(" ?", "?"))
    return None
