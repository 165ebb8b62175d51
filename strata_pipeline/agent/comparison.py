"""Comparisons whose second side is left elliptic, and "how do A and B differ" (pure, en/de/fr).

- `than_sides`: "Is <subject> <comparative> [<phrase>] than <other>?" where the other side is only the phrase
  that differs: a prepositional phrase ("Is drinking water more expensive in Weißbach than in Aarlingen?"),
  a possessive ("... the Antwerp depot's courier cut-off later than Lille's?"), "the one ..." / "that of ..."
  ("the per diem for international travel higher than the one for domestic travel?"), or a whole noun phrase.
  Each side is asked the degree question of the comparative (clauses.side).
- `how_much_sides`: "How much longer does the UPS run in Zürich than in Basel?", "How many more van bays does
  Lille have than Antwerp?": the degree question asked of each side.
- `als_sides`: the German "Ist das Wasser in Weißbach teurer als in Aarlingen?".
- `or_sides`: "Does the Lille depot or the Lyon depot have more van bays?"; `compared_sides`: "How many van bays
  does the Lille depot have compared with the Lyon depot?"; `sides_first`: "RX-200 vs RX-300: which is heavier?".
- `differ`: "How do the Antwerp and Lille depots differ in the number of van bays?", "How does A differ from B
  in X?", "What is the difference in X between A and B?", "Wie unterscheiden sich A und B bei X?", "En quoi A
  et B diffèrent-ils pour X ?" as (side, side, aspect, language).
"""

from __future__ import annotations

import re

from strata_pipeline.agent.clauses import DEGREE, DEGREE_DE, Side, alternatives, comparative, replace_entity, side
from strata_pipeline.agent.coordination import CONJUNCTION, PREPOSITIONS, between_question, distributed, topic_pair
from strata_pipeline.agent.coreference import pair_question
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
    else:
        a, b = subject, complete_side(subject, right)
    if a.strip().lower() == b.strip().lower():
        return None
    predicate = f"{m['aux']} {' '.join(pred)}"
    return side(a, predicate), side(b, predicate)


def complete_side(a: str, b: str) -> str:
    """The second side as a whole noun phrase parallel to the first: a possessive ("Lille's" after "the Antwerp
    depot's courier cut-off" -> "the Lille depot's courier cut-off"), "the one ..." or "that of ..." (the first
    side's head noun); `b` as it is otherwise."""
    owner = POSSESSOR.match(a)
    if owner is not None and re.fullmatch(r"\S+(?:\s+\S+)?['’]s", b.strip()):
        other = replace_entity(owner["owner"], b.strip()[:-2].strip())
        return f"{other}'s {owner['noun']}"
    that = THAT_OF.match(b.strip())
    return resolve_one(f"{a}?", f"the one {that['phrase']}" if that is not None else b)


# "Does A or B have more van bays?", "Is A or B heavier?": the sides in the subject, the comparative after them
OR_SUBJECT = re.compile(
    r"^(?P<aux>is|are|was|were|does|do|did|has|have|can)\s+(?P<a>.+?)\s+(?:or|oder|ou)\s+(?P<rest>.+?)[\s?.!]*$",
    re.IGNORECASE,
)


def or_sides(text: str) -> tuple[Side, Side] | None:
    """The two sides of "Does A or B <verb> <comparative> ...?" / "Is A or B <comparative>?", each asked the
    degree question of the comparative; None for any other question."""
    m = OR_SUBJECT.match(text.strip())
    if m is None:
        return None
    words = m["rest"].split()
    at = next((i for i, w in enumerate(words) if i > 0 and comparative(w)), None)
    if at is None:
        return None
    if m["aux"].lower() in ("is", "are", "was", "were"):
        b, predicate = " ".join(words[:at]), f"{m['aux']} {' '.join(words[at:])}"
    elif at > 1:
        b, predicate = " ".join(words[: at - 1]), " ".join(words[at - 1 :])
    else:
        return None
    return side(m["a"], predicate), side(b, predicate)


COMPARED = re.compile(
    r"^(?P<q>.+?)\s*,?\s+(?:compared\s+(?:with|to)|as\s+opposed\s+to|im\s+vergleich\s+(?:zu|zum|zur)|verglichen\s+mit"
    r"|par\s+rapport\s+(?:à|au|aux)|compar[ée]e?s?\s+(?:à|au|aux|avec))\s+(?P<b>.+?)[\s?.!]*$",
    re.IGNORECASE,
)


def compared_sides(text: str) -> tuple[Side, Side] | None:
    """ "How many van bays does the Lille depot have compared with the Lyon depot?": the question, then the same
    question of the other side (its parallel phrase replaced); None for any other question."""
    m = COMPARED.match(text.strip())
    if m is None or not m["q"].strip():
        return None
    question = m["q"].strip().rstrip(",")
    other = parallel(question, m["b"].strip())
    if not other or other == question:
        return None
    end = " ?" if text.rstrip().endswith(" ?") else "?"
    return Side(question, question + end), Side(m["b"].strip(), other + end)


SIDES_THEN_QUESTION = re.compile(
    r"^(?P<a>[^:?]+?)\s+(?:vs\.?|versus|or|oder|ou|gegen|contre)\s+(?P<b>[^:?]+?)\s*:\s*"
    r"(?P<q>(?:which|who|welche[rsnm]?|wer|lequel|laquelle|qui)\b[^,]+?)[\s?.!]*$",
    re.IGNORECASE,
)
OR_WORD = {"welche": "oder", "welcher": "oder", "welches": "oder", "wer": "oder", "lequel": "ou", "laquelle": "ou",
           "qui": "ou"}  # fmt: skip


def sides_first(text: str) -> str:
    """ "RX-200 vs RX-300: which is heavier?" as "Which is heavier, RX-200 or RX-300?"; "" for any other question."""
    m = SIDES_THEN_QUESTION.match(text.strip())
    if m is None:
        return ""
    question = m["q"][0].upper() + m["q"][1:]
    word = OR_WORD.get(m["q"].split()[0].lower(), "or")
    return f"{question}, {m['a'].strip()} {word} {m['b'].strip()}" + (" ?" if word == "ou" else "?")


# "Ist das Wasser in Weißbach teurer als in Aarlingen?", "Hat das Depot Lille mehr Stellplätze als das Depot Lyon?"
ALS = re.compile(
    r"^(?P<verb>ist|sind|war|hat|haben|kostet|kosten|dauert|läuft|schließt|öffnet)\s+(?P<left>.+?)\s+als\s+"
    r"(?P<right>.+?)[\s?.!]*$",
    re.IGNORECASE,
)


GERMAN_ARTICLES = frozenset("der die das dem den des".split())


def als_sides(text: str) -> tuple[Side, Side] | None:
    """The two sides of a German "<Verb> A <Komparativ> [<Nomen>] als B?" question, each asked the degree question
    of the comparative ("Wie teuer ist das Wasser in Weißbach?", "Wie viele Stellplätze hat das Depot Lyon?"); an
    elliptic B ("in Aarlingen") replaces its parallel phrase in A. None for any other question."""
    m = ALS.match(text.strip())
    if m is None:
        return None
    words = m["left"].split()
    at = next((i for i, w in enumerate(words) if i > 0 and w.lower() in DEGREE_DE), None)
    if at is None:
        return None
    a, tail, verb = " ".join(words[:at]), " ".join(words[at + 1 :]), m["verb"].lower()
    elliptic = m["right"].split()[0].lower() in PREPOSITIONS - GERMAN_ARTICLES  # "in Aarlingen", not "der RX-200"
    b = parallel(a, m["right"].strip()) if elliptic else m["right"].strip()
    if not b or b == a:
        return None
    comparative_word = words[at].lower()
    if comparative_word in ("mehr", "weniger") and tail:
        return tuple(Side(x, f"Wie viele {tail} {verb} {x}?") for x in (a, b))  # type: ignore[return-value]
    degree = DEGREE_DE[comparative_word]
    rest = f" {tail}" if tail else ""
    return tuple(Side(x, f"{degree} {verb} {x}{rest}?") for x in (a, b))  # type: ignore[return-value]


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


LEADING_THE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)
END = r"[\s?.!]*$"
BY_HOW_MUCH = re.compile(r",?\s+(?:and\s+)?by\s+how\s+much(?=[\s?.!]*$)", re.IGNORECASE)
JOIN = r"\s+(?:and|with|to|versus|vs\.?|und|mit|et|avec)\s+"
# "compare" (en, fr), "vergleiche" (de); the language decides the question each side is asked with
COMPARE = re.compile(
    r"^(?P<verb>compare|contrast|comparez|comparer|vergleiche|vergleichen(?:\s+sie)?)\s+(?P<rest>.+?)" + END,
    re.IGNORECASE,
)
DIFFERENCE = re.compile(
    r"^(?:(?:what\s+is|what's|what\s+are)\s+the\s+differences?\s+between|how\s+(?:does|do)(?=.+\scompare\s))\s+"
    r"(?P<a>.+?)(?:" + JOIN + r"|\s+compares?\s+(?:to|with)\s+)(?P<b>.+?)"
    r"(?:\s+(?:in|on|regarding|for|when\s+it\s+comes\s+to)\s+(?P<aspect>.+?))?" + END,
    re.IGNORECASE,
)
# The prepositions that attach an aspect to its owner: "the number of van bays at the Munich depot",
# "die USV-Laufzeit der Serverräume in Stuttgart", "les horaires du samedi des dépôts de Rotterdam"
OWNER = r"(?:of|for|at|between|von|vom|der|des|in|im|bei|am|für|de|du|d['’]|à|au|aux|entre|pour)"
# The aspect runs to the last owner preposition before the sides' "and"
ASPECT_FIRST = re.compile(
    r"^(?P<aspect>.+)\s+(?P<prep>" + OWNER + r")\s+(?P<a>(?:(?!\s" + OWNER + r"\s).)+?)" + JOIN + r"(?P<b>.+)$",
    re.IGNORECASE,
)
SIDES_FIRST = re.compile(
    r"^(?P<a>.+?)" + JOIN + r"(?P<b>.+?)(?:\s+(?:on|for|regarding|in\s+terms\s+of|by|hinsichtlich|bezüglich"
    r"|beim?|en\s+termes\s+de|pour\s+ce\s+qui\s+est\s+d[eu]s?)\s+(?P<aspect>.+))?$",
    re.IGNORECASE,
)
# A second side that names its own attribute ("the number of paid sick days") is a whole noun phrase: the
# sides are two attributes, not one aspect of two owners
OWN_ATTRIBUTE = re.compile(r"\s(?:of|for)\s", re.IGNORECASE)
# a word of its own ("Auslandsreisen" keeps its "A"); the elided "l'" and "d'" join their noun
ARTICLE = re.compile(r"^(?:(?:the|a|an|der|die|das|den|dem|des|le|la|les|de|du)\s+|(?:l|d)['’]\s*)", re.IGNORECASE)
SIDE_ASK = {"en": "What is the {query}?", "de": "Was ist {query}?", "fr": "Quel est {query} ?"}


# "- which one has more bandwidth", "– welcher ...": the criterion of a comparison, after a dash
CRITERION = re.compile(r"\s+[-–—]\s+(?:which|welche[rs]?|lequel|laquelle)\b.*$", re.IGNORECASE)


def compare_sides(text: str) -> list[tuple[str, str, str]] | None:
    """(query, label, question) per side of a comparison (the planner's `compare` form, docs/agent.md); None
    when `text` compares nothing."""
    # "Which of A and B has more van bays?" is "Which has more van bays, A or B?"
    text = BY_HOW_MUCH.sub("", text)  # "Which is cheaper, A or B, and by how much?": the two values answer it
    options = than_sides(text) or als_sides(text) or or_sides(text) or compared_sides(text) or how_much_sides(text)
    options = options or alternatives(pair_question(text) or between_question(text) or sides_first(text) or text)
    if options is not None:
        # "Which weighs more, A or B?": each side asked the degree question of the comparative
        return [(side.ask, side.label, side.ask) for side in options]
    if (pair := topic_pair(text)) is not None:
        # "Courier cut-off: Rotterdam vs Porto?": the aspect asked of each side
        return [(f"{pair[0]} of {side}", side, f"What is the {pair[0]} of {side}?") for side in pair[1:]]
    m = DIFFERENCE.match(text)
    language, prep, attributes = "en", "of", False
    if m is not None:
        a, b, aspect = m["a"], complete_side(m["a"], m["b"]), m["aspect"]
    elif (differing := differ(text)) is not None:
        # "How do the Antwerp and Lille depots differ in the number of van bays?"
        a, b, aspect, language = differing
        prep = {"de": "von", "fr": "de"}.get(language, "of")
    else:
        m = COMPARE.match(text)
        if m is None:
            return None
        rest, verb = m["rest"], m["verb"].lower()
        language = "de" if verb.startswith("vergleich") else "en"
        if verb in ("comparez", "comparer") or (verb == "compare" and re.search(r"\b(?:les|des|du|la|le|et)\b", rest)):
            language = "fr"
        sides = ASPECT_FIRST.match(rest)
        if sides is not None and OWN_ATTRIBUTE.search(sides["b"]) is not None:
            # two attributes, each with its owner: "the mileage rate for a car and the meal allowance for travel"
            a, b, aspect = f"{sides['aspect']} {sides['prep']} {sides['a']}", sides["b"], None
            attributes = True
        elif sides is not None:
            a, b, aspect, prep = sides["a"], sides["b"], sides["aspect"], sides["prep"]
        elif (sides := SIDES_FIRST.match(rest)) is not None:
            a, b, aspect = sides["a"], sides["b"], sides["aspect"]
        else:
            return None
        # "... de Rotterdam et de Porto", "... des RX-200-Arms und des RX-300": the owner preposition repeated
        # "... at Lille with those at Lyon": the demonstrative stands for the aspect
        b = re.sub(r"^(?:that|those|celui|celle|ceux|celles)\s+(?=\S+\s)", "", b.strip(), flags=re.IGNORECASE)
        b = re.sub(r"^" + re.escape(prep) + r"\s+", "", b.strip(), flags=re.IGNORECASE) if aspect else b
        # "... of the Stuttgart and Lyon sites - which one has more bandwidth?": the criterion after a dash is
        # what the sides' passages state; each side gets the plural noun they share ("the Lyon site")
        b = CRITERION.sub("", b)
        if language == "en" and not attributes:
            a, b = distributed(a.strip(), b.strip()) or (a, b)
    steps: list[tuple[str, str, str]] = []
    for thing in (a.strip(), b.strip()):
        if language == "en":
            query = f"{LEADING_THE.sub('', aspect.strip())} of {thing}" if aspect else thing
        else:
            # German and French keep the aspect's article and preposition: "das Gewicht des RX-300"
            query = f"{aspect.strip()} {prep} {ARTICLE.sub('', thing)}" if aspect else thing
        ask = SIDE_ASK[language].format(query=LEADING_THE.sub("", query)) if aspect or attributes else query
        steps.append((query, thing, ask))
    return steps
