"""Comparisons whose second side is left elliptic, and "how do A and B differ" (pure, en/de/fr).

- `than_sides`: "Is <subject> <comparative> [<phrase>] than <other>?" where the other side is only the phrase
  that differs: a prepositional phrase ("Is drinking water more expensive in Weißbach than in Aarlingen?"),
  a possessive ("... the Antwerp depot's courier cut-off later than Lille's?"), "the one ..." / "that of ..."
  ("the per diem for international travel higher than the one for domestic travel?"), or a whole noun phrase.
  Each side is asked the degree question of the comparative (clauses.side).
- `how_much_sides`: "How much longer does the UPS run in Zürich than in Basel?", "How many more van bays does
  Lille have than Antwerp?": the degree question asked of each side.
- `differ`: "How do the Antwerp and Lille depots differ in the number of van bays?", "How does A differ from B
  in X?", "What is the difference in X between A and B?", "Wie unterscheiden sich A und B bei X?", "En quoi A
  et B diffèrent-ils pour X ?" as (side, side, aspect, language).
"""

from __future__ import annotations

import re

from strata_pipeline.agent.clauses import DEGREE, Side, comparative, replace_entity, side
from strata_pipeline.agent.coordination import CONJUNCTION, PREPOSITIONS, distributed
from strata_pipeline.agent.fragments import parallel, resolve_one

THAN = re.compile(
    r"^(?P<aux>is|are|was|were|does|do|did|has|have)\s+(?P<left>.+?)\s+than\s+(?P<right>.+?)[\s?.!]*$",
    re.IGNORECASE,
)
POSSESSOR = re.compile(r"^(?P<owner>.+?)['’]s\s+(?P<noun>.+)$")
THAT_OF = re.compile(r"^(?:that|those)\s+(?P<phrase>(?:of|for|in|at)\s+.+)$", re.IGNORECASE)


def than_sides(text: str) -> tuple[Side, Side] | None:
    """The two sides of an "is A <comparative> than <other>?" question whose other side is elliptic, each
    with its degree question; None for any other question."""
    m = THAN.match(text.strip())
    if m is None:
        return None
    words = m["left"].split()
    at = next((i for i, w in enumerate(words) if i > 0 and comparative(w)), None)
    if at is None:
        return None
    end = at + 2 if words[at].lower() in ("more", "less") and at + 1 < len(words) else at + 1
    subject, pred, tail = " ".join(words[:at]), words[at:end], " ".join(words[end:])
    right = m["right"].strip()
    if right.split()[0].lower() in PREPOSITIONS and tail:
        a, b = f"{subject} {tail}", f"{subject} {right}"
    elif tail:
        return None  # "Does A weigh more in winter than B?": more than one thing differs
    elif (owner := POSSESSOR.match(subject)) is not None and re.fullmatch(r"\S+(?:\s+\S+)?['’]s", right):
        # "... the Antwerp depot's courier cut-off later than Lille's": Lille's own courier cut-off
        other = replace_entity(owner["owner"], right[:-2].strip())
        a, b = subject, f"{other}'s {owner['noun']}"
    elif (that := THAT_OF.match(right)) is not None:
        a, b = subject, resolve_one(f"{subject}?", f"the one {that['phrase']}")
    else:
        a, b = subject, resolve_one(f"{subject}?", right)
    if a.strip().lower() == b.strip().lower():
        return None
    predicate = f"{m['aux']} {' '.join(pred)}"
    return side(a, predicate), side(b, predicate)


HOW_MUCH = re.compile(
    r"^how\s+(?P<much>much|many)\s+(?P<comp>[\w-]+)\s+(?P<rest>.+?)\s+than\s+(?P<right>.+?)[\s?.!]*$", re.IGNORECASE
)


def how_much_sides(text: str) -> tuple[Side, Side] | None:
    """ "How much longer does the UPS run in Zürich than in Basel?" -> "How long does the UPS run in Zürich?",
    "How long does the UPS run in Basel?"; None for any other question."""
    m = HOW_MUCH.match(text.strip())
    if m is None or not comparative(m["comp"]):
        return None
    degree = "How many" if m["much"].lower() == "many" else DEGREE.get(m["comp"].lower(), "How much")
    rest, right = m["rest"].strip(), m["right"].strip()
    other = parallel(rest, right)
    if not other or other == rest:
        return None
    return Side(_label(rest, right), f"{degree} {rest}?"), Side(right, f"{degree} {other}?")


def _label(rest: str, right: str) -> str:
    """The first side as the question names it: the phrase parallel to `right` ("in Zürich")."""
    first = right.split()[0].lower()
    if first in PREPOSITIONS:
        at = [m for m in re.finditer(r"\S+", rest) if m.group().lower() == first]
        if at:
            return rest[at[-1].start() :]
    return rest


DIFFER = (
    (re.compile(r"^how\s+(?:do|does|did)\s+(?P<pair>.+?)\s+differ(?:\s+from\s+(?P<b>.+?))?(?:\s+(?:in|on|regarding|"
                r"in\s+terms\s+of|when\s+it\s+comes\s+to)\s+(?P<aspect>.+?))?[\s?.!]*$", re.IGNORECASE), "en"),
    (re.compile(r"^what\s+is\s+the\s+difference\s+in\s+(?P<aspect>.+?)\s+between\s+(?P<pair>.+?)[\s?.!]*$",
                re.IGNORECASE), "en"),
    (re.compile(r"^(?:wie|worin)\s+unterscheiden\s+sich\s+(?P<pair>.+?)\s+(?:bei|beim|in|im|hinsichtlich|"
                r"bezüglich)\s+(?P<aspect>.+?)[\s?.!]*$", re.IGNORECASE), "de"),
    (re.compile(r"^en\s+quoi\s+(?P<pair>.+?)\s+(?:diff[eè]rent|se\s+distinguent)(?:-(?:ils|elles))?\s+(?:pour|sur|"
                r"en\s+ce\s+qui\s+concerne|au\s+niveau\s+d[eu]s?)\s+(?P<aspect>.+?)[\s?.!]*$", re.IGNORECASE), "fr"),
)  # fmt: skip


def differ(text: str) -> tuple[str, str, str, str] | None:
    """(side, side, aspect, language) of a "how do A and B differ in X?" question; None for any other."""
    for pattern, language in DIFFER:
        m = pattern.match(text.strip())
        if m is None or not m["aspect"]:
            continue
        b = m.groupdict().get("b")
        if b:
            return m["pair"].strip(), b.strip(), m["aspect"].strip(), language
        pair = CONJUNCTION.split(m["pair"], maxsplit=1)
        sides = distributed(pair[0].strip(), pair[1].strip()) if len(pair) == 2 else None
        if sides is not None:
            return sides[0], sides[1], m["aspect"].strip(), language
    return None
