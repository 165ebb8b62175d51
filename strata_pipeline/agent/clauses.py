"""Clause-level rules the offline planner reads a compound question with (pure, en/de/fr).

- `split_clauses`: a question in two clauses, split on a clause boundary: a question mark followed by
  more text, a semicolon, ", then" / ", also", or a conjunction followed (after at most three
  prepositions or articles: "and on how many", "und bis zu welchem", "et au bout de combien") by a
  question word.
- `clean_clause`: a clause without the discourse markers that only order or join the parts ("first",
  "also", "then", "außerdem", "ensuite") and without a request wrapper ("tell me how ..." asks
  "How ...?").
- `elliptic_other`: the entity an elliptic follow-up names ("what about Basel?", "und was ist mit
  Basel?", "et qu'en est-il de Bâle ?"), and `replace_entity`: the first question asked of that entity.
- `alternatives`: a "which ..., A or B?" / "is A <comparative> than B?" comparison, as one question
  per side built from its comparative ("Which weighs more, A or B?" -> "What is the weight of A?"; German
  "Welches Depot hat länger geöffnet, A oder B?" -> "Wie lange hat A geöffnet?"; French "Lequel est plus
  lourd, A ou B ?" -> "Quel est le poids de A ?").
- `is_definition`: whether a question asks what an identifier is or means (a lookup's question).
- `antecedent`: what a pronoun in a follow-up most likely stands for when the first question names no
  entity: the noun phrase counted ("how many days of leave ...") or the subject of "is"/"are".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from strata_pipeline.embedding.identifiers import IDENTIFIER

# Question words that open a clause (auxiliaries excluded: "and is" also joins two predicates)
OPENERS = (
    r"(?:what|which|who|whom|whose|when|where|how|why"
    r"|was|welche[rsnm]?|wer|wen|wem|wessen|wann|wo|wie|warum|wieso|weshalb|wo(?:f|r|m|h|d)\w+"
    r"|que|qu['’]\w*|quel(?:le)?s?|qui|quand|où|comment|pourquoi|combien|est-ce)"
)
# Prepositions and articles that may come between a conjunction and the question word of its clause
LEAD_WORDS = (
    r"(?:until|till|since|by|for|from|in|at|on|to|with|within|after|before|about|under|over|of|the|a|an"
    r"|below|above|beyond|up|unterhalb|oberhalb|ab|dessous|dessus|delà|partir"  # "and below what", "et en dessous de"
    r"|bis|zu|zum|zur|seit|für|von|vom|im|an|am|auf|mit|nach|um|bei|aus|über|unter|innerhalb"
    r"|à|au|aux|de|du|des|en|pour|pendant|durant|depuis|jusqu['’]à|dans|sur|avec|après|avant|bout|tous|toutes"
    r"|les|le|la"
    # adverbs that soften the question: "and roughly how long", "und ungefähr wie viele", "et environ combien"
    r"|roughly|approximately|about|exactly|usually|typically|ungefähr|etwa|circa|genau|environ|exactement)"
)
CONJUNCTION = r"(?:and|as\s+well\s+as|und|sowie|et|ainsi\s+que)"
# A request that opens the second clause ("..., and tell me how ...", "und sag mir ...", "et dis-moi ...")
REQUEST_OPENER = (
    r"(?:(?:please\s+)?(?:tell|show|give)\s+me|sag(?:en\s+sie)?\s+mir|(?:dis|dites)[- ]moi"
    r"|(?:please\s+)?(?:explain|describe|summari[sz]e))\b"  # "List X and explain Y"
)
# An elliptic second clause that names the other thing by a demonstrative ("..., and that of Basel", "..., et
# ceux de Brandholm"): the first question asked of it (ELLIPSIS)
DEMONSTRATIVE_ELLIPSIS = r"(?:that|those)\s+(?:of|for|at|in)|(?:celui|celle|ceux|celles)\s+(?:de|du|des|d['’])"
BOUNDARY = re.compile(
    r"(?<=\?)\s+(?=\S)"  # "...? How ...?"
    r"|\s*;\s*"  # "...; also ..."
    r"|,\s*(?:and\s+)?(?:then|also|plus|dann|danach|außerdem|puis|ensuite|aussi)\b\s*"  # "..., then ..."
    r"|,\s*(?:and|und|et)\s+(?:if\s+so|wenn\s+ja|falls\s+ja|si\s+oui)\s*,?\s*"  # "..., and if so, how long?"
    r"|(?:,\s*|\s+)" + CONJUNCTION + r"\s+(?:also\s+|then\s+|dann\s+|auch\s+|puis\s+|aussi\s+)?"
    r"(?=(?:" + LEAD_WORDS + r"\s+){0,3}" + OPENERS + r"\b)"
    r"|(?:,\s*|\s+)(?:and|und|et)\s+(?=" + REQUEST_OPENER + r")"
    r"|,\s*(?:and|und|et)\s+(?=(?:" + DEMONSTRATIVE_ELLIPSIS + r")\s)"
    # after a comma an auxiliary opens a question too: "..., and is it covered?"
    r"|,\s*" + CONJUNCTION + r"\s+(?=(?:is|are|was|were|does|do|did|can|could|should|must|ist|sind|gibt)\b)",
    re.IGNORECASE,
)
# "What is <A> and its <B>?": one question frame over two noun phrases, the second owned by the first
COORDINATED = re.compile(
    r"^(?P<frame>(?:what|which|when|where|how\s+\w+)\s+(?:is|are|was|were)\s+)(?P<a>.+?)\s+and\s+(?:also\s+)?"
    r"(?P<ref>its|their)\s+(?P<b>.+?)[\s?.!]*$",
    re.IGNORECASE,
)
# Words that only order or join the clauses, at a clause's start
MARKERS = re.compile(
    r"^(?:(?:and|also|then|plus|next|finally|first(?:ly)?|secondly|after\s+that|as\s+well|if\s+so"
    r"|wenn\s+ja|falls\s+ja|si\s+oui|si\s+c['’]est\s+le\s+cas"
    r"|und|auch|außerdem|dann|danach|zuerst|erstens|zudem"
    r"|et|aussi|puis|ensuite|d['’]abord|enfin|de\s+plus)\b[\s,:]*)+",
    re.IGNORECASE,
)
# A request that wraps a question: "tell me how ...", "can you tell me what ...", "I'd like to know ..."
REQUEST = re.compile(
    r"^(?:please\s+|bitte\s+)?(?:(?:can|could|would)\s+you\s+)?(?:tell|show|give)\s+me\s+"
    r"|^i(?:['’]d|\s+would)\s+(?:like|want)\s+to\s+know\s+|^i\s+(?:want|need)\s+to\s+know\s+"
    r"|^(?:sag|sagen\s+sie)\s+mir\s*,?\s+|^(?:dis|dites)[- ]moi\s+",
    re.IGNORECASE,
)
ELLIPSIS = re.compile(
    r"^(?:(?:and|und|et)\s+)?(?:(?:what|how)\s+about|(?:and\s+)?the\s+same\s+for|was\s+ist\s+mit|wie\s+ist\s+es\s+(?:mit|bei)"
    r"|qu['’]en\s+est-il\s+(?:de\s+la|de\s+l['’]|du|des|de|d['’])|et\s+pour|" + DEMONSTRATIVE_ELLIPSIS + r")"
    r"\s*(?P<other>.+?)[\s?.!]*$",
    re.IGNORECASE,
)
# an article is a word of its own ("Auslandsreisen" keeps its "A"); only the elided "l'" joins its noun
LEADING_ARTICLE = re.compile(r"^(?:(?:the|a|an|der|die|das|den|dem|le|la|les)\s+|l['’]\s*)", re.IGNORECASE)
# A run of capitalised words after the first word ("the Porto Depot", "Zürich")
PROPER_NAME = re.compile(r"(?<=\s)(?:[A-Z][\w-]*\s+)*[A-Z][\w-]*[a-z][\w-]*(?:\s+[A-Z][\w-]*)*")

# "which ..., A or B?" ("welche ..., A oder B?", "lequel ..., A ou B ?"): the predicate, then the sides
WHICH_OF_TWO = re.compile(
    r"^(?P<wh>which|who|what|welche[rsnm]?|wer|was|lequel|laquelle|lesquels|lesquelles|quel(?:le)?s?|qui)\b"
    r"(?P<pred>[^,:]+?)\s*[,:]\s*(?:the\s+one\s+)?(?P<a>[^?]+?)\s+(?:or|oder|ou)\s+(?P<b>[^?]+?)[\s?.!]*$",
    re.IGNORECASE,
)
# "Where is hourly parking cheaper, at the Kestwick campus or at Brandholm?": a topic compared at two places
WHERE_OF_TWO = re.compile(
    r"^where\s+(?:is|are)\s+(?P<topic>[^,:?]+?)\s+(?P<cmp>more\s+\w+|less\s+\w+|\w+er)\s*[,:]\s*"
    r"(?P<a>[^?]+?)\s+or\s+(?P<b>[^?]+?)[\s?.!]*$",
    re.IGNORECASE,
)
# "Is A heavier than B?", "Does A cost more than B?"
THAN = re.compile(
    r"^(?P<aux>is|are|was|were|does|do|did|has|have)\s+(?P<a>.+?)\s+(?P<pred>(?:\w+\s+)?(?:more|less|fewer|\w+er)"
    r"(?:\s+\w+)?)\s+than\s+(?P<b>.+?)[\s?.!]*$",
    re.IGNORECASE,
)
# Comparatives and the degree question that asks for the value they compare
DEGREE = {
    "longer": "How long",
    "shorter": "How long",
    "higher": "How high",
    "lower": "How high",
    "bigger": "How big",
    "larger": "How large",
    "smaller": "How large",
    "heavier": "How heavy",
    "lighter": "How heavy",
    "faster": "How fast",
    "slower": "How fast",
    "earlier": "When",
    "later": "When",
    "cheaper": "How much",
    "more": "How much",
    "less": "How much",
    "fewer": "How many",
    "greater": "How great",
    "older": "How old",
    "newer": "How new",
    "wider": "How wide",
    "longer-lasting": "How long",
}
# "more expensive" / "less expensive" ask a price; "more" before any other adjective asks its degree
MORE_ADJECTIVE = re.compile(r"\b(?:more|less)\s+(?P<adj>[a-z]+)\b", re.IGNORECASE)
# Verbs whose value documents state under a noun: "weighs more" compares weights
MEASURED = {"weigh": "weight", "cost": "price", "last": "duration", "measure": "size"}
AUXILIARIES = {"is", "are", "was", "were", "has", "have", "does", "do", "did", "can", "may", "must"}
# "How many days of paid annual leave do employees get" -> "days of paid annual leave"
COUNTED = re.compile(
    r"^(?:how\s+(?:many|much)|wie\s+viele?|combien\s+(?:de|d['’]))\s*(?P<np>.+?)\s+"
    r"(?:do|does|did|is|are|was|were|can|must|should|will|would|have|has|may)\b",
    re.IGNORECASE,
)
# "How long is parental leave" -> "parental leave" (up to a preposition, participle or predicate adjective)
SUBJECT_OF_BE = re.compile(
    r"^(?:what|which|how\s+\w+|when|where|why)\s+(?:is|are|was|were)\s+(?P<np>.+)$", re.IGNORECASE
)
NP_STOP = re.compile(
    r"\s+(?:in|on|at|for|by|within|after|before|from|to|with|under|during|when|if|valid|open|closed|available|"
    r"allowed|required|needed|possible|due|kept|held|given|taken|sent|\w+[^\We]ed)\b.*$",
    re.IGNORECASE,
)
LOOKUP_REQUEST = r"(?:look\s+up|find|search\s+for|check|schlag(?:e)?|such(?:e)?|cherche[sz]?|recherche[sz]?)"
DEFINITION = re.compile(
    r"^(?:what|which)\s+(?:is|are|does|do)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}\x00"
    r"(?:\s+(?:mean|stand\s+for|signify|indicate))?(?:\s+(?:on|in|for|with)\s+.+)?[\s?.!]*$"
    r"|^(?:was\s+(?:ist|bedeutet|heißt)|que\s+(?:signifie|veut\s+dire)|qu['’]est-ce\s+que)\s+(?:\w+\s+){0,2}\x00"
    # a request to look it up ("Look up error E-1042", "Schlag E-1042 nach", "Cherche E-1042")
    r"|^" + LOOKUP_REQUEST + r"\s+(?:the\s+)?(?:[\w-]+\s+){0,2}\x00(?:\s+nach)?[\s?.!]*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Side:
    label: str  # the side as the question names it
    ask: str  # the question its passages answer


def split_clauses(text: str) -> list[str]:
    """The question's two clauses at its first clause boundary, each cleaned (clean_clause), or [text].
    Two noun phrases under one question frame, the second owned by the first ("What are the opening
    hours of the Saturday shift at the Porto depot and its courier cut-off?"), are two questions in that
    frame, the owner (the first part's last name) standing in for "its": "What are the opening hours of the
    Saturday shift at the Porto depot?", "What are Porto's courier cut-off?"; "its" stays when no name is
    given."""
    parts = BOUNDARY.split(text, maxsplit=1)
    if len(parts) != 2:
        # "Tell me the cut-off of the Porto depot and also its Saturday hours": the request asks what they are
        m = COORDINATED.match(text) or COORDINATED.match(REQUEST.sub("What is ", text, count=1))
        if m is None:
            return [text]
        frame = m["frame"].strip()
        # "its" is owned by the noun phrase just before it: the last entity the first part names
        owners = named_entities(f"{frame} {m['a']}")
        owner = f"{owners[-1].group()}'s" if owners else m["ref"].lower()
        parts = [f"{frame} {m['a']}", f"{frame} {owner} {m['b']}"]
    cleaned = [clean_clause(p) for p in parts]
    return cleaned if all(c.strip(" ?") for c in cleaned) else [text]


def clean_clause(clause: str) -> str:
    """A clause as a question: leading markers and a request wrapper gone, capitalised, with its "?"."""
    text = clause.strip(" ,;—–")
    previous = None
    while previous != text:  # "First, tell me ...": the marker, then the wrapper
        previous = text
        text = REQUEST.sub("", MARKERS.sub("", text)).strip(" ,;—–")
    text = text.rstrip(" .!")
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith("?") else text + "?"


def elliptic_other(clause: str) -> str:
    """The entity an elliptic follow-up asks about ("What about Basel?" -> "Basel"); "" for any other."""
    m = ELLIPSIS.match(clause.strip())
    return m["other"].strip() if m else ""


def named_entities(question: str) -> list[re.Match[str]]:
    """Identifiers and runs of capitalised words after the first word, in order of appearance."""
    found = list(IDENTIFIER.finditer(question)) + list(PROPER_NAME.finditer(question))
    found.sort(key=lambda m: m.start())
    kept: list[re.Match[str]] = []
    for m in found:  # an identifier inside a capitalised run (or the reverse) counts once
        if kept and m.start() < kept[-1].end():
            continue
        kept.append(m)
    return kept


def replace_entity(question: str, other: str) -> str:
    """`question` asked of `other` instead of the entity it names: the last identifier when `other` is one,
    else the last name ("How fast is the guest Wi-Fi in Zürich?", "Basel" -> "... in Basel?"). The question
    is returned as it is when it names nothing of that kind."""
    other = LEADING_ARTICLE.sub("", other.strip())
    want_identifier = IDENTIFIER.search(other) is not None
    entities = [m for m in named_entities(question) if (IDENTIFIER.fullmatch(m.group()) is not None) == want_identifier]
    if not entities:
        entities = named_entities(question)
    if not entities or not other:
        return question
    m = entities[-1]
    start = m.start()
    if len(other.split()) == 1 and " " in m.group() and GERMAN_ARTICLE_BEFORE.search(question[:start]):
        # "das Depot Lissabon": a German noun, then the name; "Porto" replaces the name only
        start = m.start() + m.group().rindex(" ") + 1
    return question[:start] + other + question[m.end() :]


GERMAN_ARTICLE_BEFORE = re.compile(r"\b(?:das|der|die|dem|den|des|im|am|beim|vom|zum|zur)\s+$")


def alternatives(text: str) -> tuple[Side, Side] | None:
    """The two sides of a "which ..., A or B?" or "is A <comparative> than B?" question, each with the
    question that asks its value; None for any other question."""
    m = WHICH_OF_TWO.match(text)
    if m is not None and comparative(m["pred"]):
        pred = m["pred"].strip()
        noun = class_noun(pred) if m["wh"].lower() in ("which", "what") else ""
        a, b = (Side(x.strip(" ,"), side(with_noun(x, noun), pred).ask) for x in (m["a"], m["b"]))
        return a, b
    if m is not None and (asks := _foreign_ask(m["pred"])) is not None:
        return Side(m["a"].strip(), asks(m["a"].strip())), Side(m["b"].strip(), asks(m["b"].strip()))
    m = WHERE_OF_TWO.match(text)
    if m is not None and comparative(m["cmp"]):
        return where_side(m["topic"], m["cmp"], m["a"]), where_side(m["topic"], m["cmp"], m["b"])
    m = THAN.match(text)
    if m is not None and comparative(m["pred"]):
        pred = f"{m['aux']} {m['pred']}"
        return side(m["a"], pred), side(m["b"], pred)
    return None


def class_noun(pred: str) -> str:
    """The noun a "which <noun> <verb> ..." question compares, or "": "pharmacy has the shorter waiting time"
    -> "pharmacy", "of the two depots has more van bays" -> "depot". One or two lower-case words before an
    auxiliary."""
    words = pred.split()
    if words[:3] == ["of", "the", "two"] and len(words) > 4 and words[4].lower() in AUXILIARIES:
        words = [words[3].removesuffix("s"), *words[4:]]  # "of the two depots has": depot
    aux = next((i for i, w in enumerate(words) if w.lower() in AUXILIARIES), None)
    if aux is None or not 1 <= aux <= 2 or not all(w.isalpha() and w.islower() for w in words[:aux]):
        return ""
    return "" if words[0] in ("of", "one") else " ".join(words[:aux])


def with_noun(thing: str, noun: str) -> str:
    """A side named with the noun the question compares: "Kestwick" -> "the Kestwick pharmacy", so that its
    question reads like the documents ("the usual waiting time of the Kestwick pharmacy"). A side that
    already names the noun, or a phrase of its own ("the Porto depot"), stays as it is."""
    label = thing.strip(" ,")
    if not noun or noun.split()[-1].rstrip("s") in label.lower() or label.lower().startswith(("the ", "a ", "an ")):
        return label
    return f"the {label} {noun}"


def where_side(topic: str, cmp: str, place: str) -> Side:
    """One place's question of a "where is <topic> <comparative>, A or B?" comparison: the topic's value
    there ("What is the price of hourly visitor parking at Brandholm?"). A place without its preposition
    ("Kestwick or Brandholm") takes "at"."""
    label = place.strip(" ,")
    where = label if re.match(r"(?:at|in|on|near)\s", label, re.IGNORECASE) else f"at {label}"
    word, adjective = comparative(cmp), MORE_ADJECTIVE.search(cmp)
    priced = word == "cheaper" or (adjective is not None and adjective["adj"].lower() in ("expensive", "costly"))
    topic = re.sub(r"^the\s+", "", topic.strip(), flags=re.IGNORECASE)
    asked = f"What is the price of {topic}" if priced else f"What {'are' if topic.endswith('s') else 'is'} the {topic}"
    return Side(re.sub(r"^(?:at|in|on|near)\s+", "", label, flags=re.IGNORECASE), f"{asked} {where}?")


def comparative(pred: str) -> str:
    """The comparative a predicate holds ("more", "longer", ...), or ""."""
    words = [w.lower() for w in re.findall(r"[\w-]+", pred)]
    return next((w for w in words if w in DEGREE or (w.endswith("er") and w[:-2] in _BASES)), "")


# adjectives whose -er comparative DEGREE does not list
_BASES = {"cheap", "high", "low", "long", "short", "large", "small", "fast", "slow", "heavy", "light", "new", "old"}


def side(thing: str, pred: str) -> Side:
    """One side's question: the degree question of the predicate's comparative, asked of the side.
    "is open longer on Saturdays" -> "How long is <side> open on Saturdays?"; "has the longer UPS runtime"
    -> "What is the UPS runtime of <side>?"; "weighs more" -> "What is the weight of <side>?"; "has more van
    bays" -> "How many van bays does <side> have?"; "is more expensive" -> "What is the price of <side>?"."""
    label = thing.strip(" ,")
    words = pred.split()
    lowered = [w.lower() for w in words]
    word = comparative(pred)
    adjective = MORE_ADJECTIVE.search(pred)
    if word == "cheaper" or (adjective and adjective["adj"].lower() in ("expensive", "costly", "pricey")):
        return Side(label, f"What is the price of {label}?")
    if word in ("heavier", "lighter"):
        # documents state a weight ("Weight: 145 kg", "weighs 34 kg"), rarely how heavy a thing is
        return Side(label, f"What is the weight of {label}?")
    degree = DEGREE.get(word) or f"How {word[:-2]}"
    at = lowered.index(word)
    if at > 0 and lowered[at - 1] == "the":
        # "has the longer UPS runtime at full load": the noun after the comparative is what is compared
        noun = " ".join(words[at + 1 :])
        return Side(label, f"What is the {noun} of {label}?" if noun else f"{degree} is {label}?")
    aux = next((i for i in range(at) if lowered[i] in AUXILIARIES), None)
    if aux is not None:
        if lowered[aux] in ("has", "have") and word in ("more", "fewer", "less") and at + 1 < len(words):
            return Side(label, f"How many {' '.join(words[at + 1 :])} does {label} have?")
        # from the verb on, without the comparative; a noun before it ("Which office is ...") is the side
        tail = [w for i, w in enumerate(words[aux + 1 :], aux + 1) if i != at and lowered[i] not in ("more", "less")]
        return Side(label, " ".join([degree, lowered[aux], label, *tail]) + "?")
    if at > 0:
        # "weighs more", "lasts longer": a verb in the third person, asked with "does"
        verb = words[at - 1]
        base = verb[:-1] if verb.lower().endswith("s") and not verb.lower().endswith("ss") else verb
        tail = words[at + 1 :]
        if base.lower() in MEASURED and not tail:
            # the noun the documents state it with: "Weight: 145 kg" answers "What is the weight of ...?"
            return Side(label, f"What is the {MEASURED[base.lower()]} of {label}?")
        return Side(label, " ".join([degree, "does", label, base, *tail]) + "?")
    return Side(label, f"{degree} is {label}?")


# German comparatives and the question that asks their degree ("Welches Depot hat länger geöffnet, A oder B?")
DEGREE_DE = {
    "länger": "Wie lange", "kürzer": "Wie lange", "höher": "Wie hoch", "niedriger": "Wie hoch",
    "mehr": "Wie viel", "weniger": "Wie viel", "schwerer": "Wie schwer", "leichter": "Wie schwer",
    "teurer": "Wie teuer", "billiger": "Wie teuer", "günstiger": "Wie teuer", "größer": "Wie groß",
    "kleiner": "Wie groß", "schneller": "Wie schnell", "langsamer": "Wie schnell", "früher": "Wann",
    "später": "Wann", "älter": "Wie alt",
}  # fmt: skip
# French "plus|moins <adjective>" and the question that asks its degree, before the side
DEGREE_FR = {
    "long": "Quelle est la durée", "longue": "Quelle est la durée", "court": "Quelle est la durée",
    "courte": "Quelle est la durée", "cher": "Quel est le prix", "chère": "Quel est le prix",
    "lourd": "Quel est le poids", "lourde": "Quel est le poids", "léger": "Quel est le poids",
    "légère": "Quel est le poids", "rapide": "Quelle est la vitesse", "lent": "Quelle est la vitesse",
    "grand": "Quelle est la taille", "grande": "Quelle est la taille", "petit": "Quelle est la taille",
    "petite": "Quelle est la taille", "élevé": "Quel est le montant", "élevée": "Quel est le montant",
}  # fmt: skip
FR_COMPARATIVE = re.compile(r"\b(?:plus|moins)\s+(?P<adj>[^\W\d_]+)", re.IGNORECASE)


def _foreign_ask(pred: str) -> Callable[[str], str] | None:
    """For a German or French "which ..., A or B?" predicate, the question it asks of one side: "Depot hat
    länger geöffnet" -> "Wie lange hat <side> geöffnet?"; "est plus lourd" -> "Quel est le poids de <side> ?".
    None when the predicate holds no comparative of either language."""
    words = pred.split()
    lowered = [w.lower() for w in words]
    # an attributive comparative is inflected: "in einem größeren Umkreis"
    at, comparative = next(((i, degree) for i, w in enumerate(lowered) if (degree := _german_degree(w))), (-1, ""))
    if comparative:
        # the verb is the first lower-case word; the capitalised words before it are the noun asked about,
        # those after it what is said of the sides ("besichtigt Schäden in einem Umkreis")
        verb_at = next((i for i, w in enumerate(words) if not w[:1].isupper()), len(words))
        kept = [w for i, w in enumerate(words) if i != at and i >= verb_at]
        if not kept:
            return lambda side: f"{DEGREE_DE[comparative]} ist {side}?"
        verb, rest = kept[0], kept[1:]
        return lambda side: " ".join([DEGREE_DE[comparative], verb, side, *rest]) + "?"
    m = FR_COMPARATIVE.search(pred)
    if m is not None and m["adj"].lower() in DEGREE_FR:
        question = DEGREE_FR[m["adj"].lower()]
        return lambda side: f"{question} {_of(side)} ?"
    return None


def _german_degree(word: str) -> str:
    """The German comparative a word is, inflected or not ("größeren" -> "größer"), or ""."""
    for ending in ("", "e", "en", "er", "es", "em"):
        if word.endswith(ending) and word[: len(word) - len(ending)] in DEGREE_DE:
            return word[: len(word) - len(ending)]
    return ""


def _of(side: str) -> str:
    """French "de" before a side, contracted with its article: "le dépôt" -> "du dépôt"."""
    low = side.lower()
    if low.startswith("le "):
        return "du " + side[3:]
    if low.startswith("les "):
        return "des " + side[4:]
    if low[:1] in "aeiouéèêh":
        return "d'" + side
    return "de " + side


def is_definition(question: str, identifier: str) -> bool:
    """Whether `question` asks what `identifier` is or means ("What does error E-1042 mean?", "What is part
    NR-4417-B?"): a lookup's question. Any other question about it ("How long does the RX-300 take to
    charge?") is a search that names it."""
    if not identifier or identifier not in question:
        return False
    return DEFINITION.match(question.replace(identifier, "\x00", 1)) is not None


def antecedent(question: str) -> str:
    """The noun phrase a follow-up's pronoun most likely stands for when the question names no entity:
    what "how many"/"how much" counts ("How many days of paid annual leave do employees get?" -> "days of
    paid annual leave"), else the subject of "is"/"are" ("How long is parental leave?" -> "parental
    leave"); "" when neither form fits."""
    text = question.strip().rstrip("?.! ")
    m = COUNTED.match(text)
    if m is not None:
        return LEADING_ARTICLE.sub("", m["np"]).strip()
    m = SUBJECT_OF_BE.match(text)
    if m is not None:
        np = NP_STOP.sub("", m["np"]).strip()
        if np and len(np.split()) <= 5:
            return np
    return ""


PLURAL_REFERENCE = re.compile(r"\b(?:they|them|their|theirs)\b", re.IGNORECASE)


def agrees(question: str, follow_up: str) -> bool:
    """Whether the follow-up's pronouns can stand for `question`'s antecedent in number: a plural one ("how
    many days ...", "where are torque wrenches calibrated") is not what a singular "it"/"its" refers to
    ("..., and how long does it take?" asks about the calibration, not the wrenches)."""
    text = question.strip().rstrip("?.! ")
    m = SUBJECT_OF_BE.match(text)
    plural = COUNTED.match(text) is not None or (
        m is not None and re.match(r"\S+\s+(?:\w+\s+)?(?:are|were)\b", text, re.IGNORECASE) is not None
    )
    return not plural or PLURAL_REFERENCE.search(follow_up) is not None


# German and French subject pronouns a follow-up refers back with; lower-case only ("Sie" is the polite
# "you"), and not after a hyphen ("a-t-il", "est-elle" only invert the subject the clause already names)
FOREIGN_PRONOUN = re.compile(r"(?<![-‑\w])(?:es|er|sie|il|elle)(?![-‑\w])")


def resolve_foreign_reference(first: str, second: str) -> str:
    """`second` with its German or French subject pronoun replaced by the name `first` is about: "Wie viele
    Stellplätze hat es?" after "... im Depot Hamburg ..." -> "Wie viele Stellplätze hat Depot Hamburg?".
    German capitalises every noun, so for its pronouns only an identifier or a run of two or more
    capitalised words counts as a name ("Depot Hamburg", not "Teil"); `second` is returned as it is when
    it has no such pronoun or `first` names nothing."""
    m = FOREIGN_PRONOUN.search(second)
    if m is None:
        return second
    names = [e.group() for e in named_entities(first)]
    if m.group() in ("es", "er", "sie"):
        names = [n for n in names if " " in n or IDENTIFIER.fullmatch(n)]
    return FOREIGN_PRONOUN.sub(names[0], second) if names else second
