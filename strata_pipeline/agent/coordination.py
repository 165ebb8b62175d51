"""Coordinated noun phrases and embedded superlatives in one question (pure, en/de/fr).

- `coordinated`: one question over two coordinated noun phrases ("What are the courier cut-offs of the
  Lille and Lyon depots?", "... at the Kestwick pharmacy versus the Brandholm pharmacy?", "Wie lange läuft
  die USV in Basel und in Zürich?", "the mileage rate for a car as well as the meal allowance for travel")
  is the same question asked of each: a plural head noun the conjuncts share goes to each ("the Lille
  depot", "the Lyon depot"); a preposition repeated after the second conjunct makes each conjunct the whole
  noun phrase before it.
- `between_question`: "Between A and B, which <comparative>?" as "Which <comparative>, A or B?".
- `topic_pair`: "<aspect>: A vs B?" as the aspect and its two sides.
- `embedded_superlative`: a noun phrase "the site with the most servers" ("der Standort mit den meisten
  Servern", "le site avec le plus de serveurs") inside a question, as the grouped count that finds the
  group and the question asked of it ("What is the UPS runtime at {value}?").
"""

from __future__ import annotations

import re

from strata_pipeline.agent.clauses import PROPER_NAME
from strata_pipeline.embedding.identifiers import IDENTIFIER

CONJUNCTION = re.compile(r"\s+(?:and|as\s+well\s+as|versus|vs\.?|und|sowie|et|ainsi\s+que)\s+", re.IGNORECASE)
PREPOSITIONS = frozenset(
    "of for at in on from to with by about within under over into near after before during "
    "von vom der des in im bei beim am an auf für zu zum zur mit über unter nach aus um ab bis seit "
    "de du des d' à au aux en pour dans chez sur avec entre par vers sous".split()
)
# Words a noun phrase does not run over: question words, auxiliaries and common verbs, a request's "me"
CLAUSE = frozenset(
    "what which who whom whose when where how why is are was were do does did can could may must should will "
    "would has have had get gets me many much long i we you he she it they "
    "was welche welcher welches wer wie wo wann warum ist sind hat haben kann muss gibt gilt gelten läuft laufen "
    "kostet kosten dauert viele viel lange ich wir er sie "
    "que qui quel quelle quels quelles quand où comment pourquoi combien est sont ont peut dure coûte "
    "je nous vous il elle on".split()
)
ARTICLES = frozenset("the a an der die das den dem le la les l'".split())
MAX_CONJUNCT = 8


def _word(token: str) -> str:
    return token.lower().strip(",;:?!.")


def coordinated(text: str) -> tuple[tuple[str, str], tuple[str, str]] | None:
    """((label, question), (label, question)) for a question over two coordinated noun phrases, one question
    per conjunct; None when `text` coordinates no two noun phrases (or only two bare words: "salt and
    pepper")."""
    m = CONJUNCTION.search(text)
    if m is None or m.start() == 0:
        return None
    before = list(re.finditer(r"\S+", text[: m.start()]))
    after = [t for t in re.finditer(r"\S+", text) if t.start() >= m.end()]
    # the left conjunct runs back to a preposition, a question word or a verb
    start = len(before)
    while start > 0 and _word(before[start - 1].group()) not in PREPOSITIONS | CLAUSE:
        if before[start - 1].group().endswith(","):
            break
        start -= 1
    # the right one runs on to a preposition, a verb or the end of the clause (its first word may be a preposition)
    end = 0
    while end < len(after):
        word = _word(after[end].group())
        if (end > 0 and word in PREPOSITIONS) or word in CLAUSE or not word:
            break
        end += 1
        if re.search(r"[,;?!]$|[^.]\.$", after[end - 1].group()):
            break
    if start == len(before) or end == 0 or len(before) - start > MAX_CONJUNCT or end > MAX_CONJUNCT:
        return None
    first = _word(after[0].group())
    if first in PREPOSITIONS and start > 0 and _word(before[start - 1].group()) == first:
        start -= 1  # "in Basel und in Zürich": the preposition is each conjunct's own
    elif (
        start > 0 and end < len(after) and _word(after[end].group()) == _word(before[start - 1].group()) in PREPOSITIONS
    ):
        # "the mileage rate for a car as well as the meal allowance for travel": two whole noun phrases
        start -= 1
        while start > 0 and _word(before[start - 1].group()) not in CLAUSE:
            start -= 1
        end = len(after)
    if start == 0 and not re.match(r"\w+\s", text):
        return None
    span_start, span_end = before[start].start(), after[end - 1].end()
    a = text[span_start : m.start()].strip()
    b = text[m.end() : span_end].rstrip(",;?!. ")
    span_end = m.end() + len(text[m.end() :]) - len(text[m.end() :].lstrip()) + len(b) if b else span_end
    span_end = text.index(b, m.end()) + len(b)
    sides = distributed(a, b)
    if sides is None:
        return None
    head, rest = text[:span_start], text[span_end:]
    questions = []
    for side in sides:
        question = f"{head}{side}{rest}".strip()
        if not re.search(r"[?.!]$", question):
            question += "?"
        questions.append((side, question[0].upper() + question[1:]))
    return questions[0], questions[1]


def distributed(a: str, b: str) -> tuple[str, str] | None:
    """The two conjuncts with a plural head noun they share given to each ("the Kestwick", "Brandholm
    campuses" -> "the Kestwick campus", "the Brandholm campus"); None when both are one bare word."""
    a_words = [w for w in a.split() if w.lower() not in ARTICLES]
    b_words = [w for w in b.split() if w.lower() not in ARTICLES]
    if not a_words or not b_words:
        return None
    if len(a_words) == 1 and len(b_words) == 1 and not any(_names(w) for w in (a, b)) and len(a.split()) == 1:
        return None
    head = b_words[-1]
    if len(b_words) > len(a_words) and head.islower() and head.endswith("s") and not head.endswith("ss"):
        shared = [*b_words[len(a_words) : -1], _singular(head)]
        article = a.split()[0] + " " if a.split()[0].lower() in ARTICLES else ""
        b_article = b.split()[0] + " " if b.split()[0].lower() in ARTICLES else article
        return f"{a} {' '.join(shared)}", f"{b_article}{' '.join([*b_words[: len(a_words)], *shared])}"
    return a, b


def _names(phrase: str) -> bool:
    return bool(IDENTIFIER.search(phrase) or PROPER_NAME.search(f"x {phrase}") or re.search(r"\d", phrase))


def _singular(noun: str) -> str:
    if noun.endswith("ies"):
        return noun[:-3] + "y"
    if re.search(r"(?:ss|[^aeiou]us|sh|ch|x)es$", noun):  # "campuses", "branches"; not "warehouses"
        return noun[:-2]
    return noun[:-1]


BETWEEN = re.compile(
    r"^(?:between|zwischen|entre)\s+(?P<pair>[^,]+?)\s*,\s*(?P<rest>(?:which|who|welche[rsnm]?|wer|lequel|laquelle"
    r"|qui)\b.+?)[\s?.!]*$",
    re.IGNORECASE,
)
OR = {"zwischen": "oder", "entre": "ou"}


def between_question(text: str) -> str:
    """ "Between A and B, which is heavier?" -> "Which is heavier, A or B?"; "" for any other question."""
    m = BETWEEN.match(text.strip())
    pair = CONJUNCTION.split(m["pair"], maxsplit=1) if m is not None else []
    sides = distributed(pair[0].strip(), pair[1].strip()) if len(pair) == 2 else None
    if m is None or sides is None:
        return ""
    word = OR.get(text.split()[0].lower(), "or")
    rest = m["rest"][0].upper() + m["rest"][1:]
    return f"{rest}, {sides[0]} {word} {sides[1]}" + (" ?" if word == "ou" else "?")


TOPIC_PAIR = re.compile(
    r"^(?P<aspect>[^:?,]{3,60}?)\s*:\s*(?P<a>[^:?]+?)\s+(?:vs\.?|versus|or|and|oder|und|gegen|ou|et|contre)\s+"
    r"(?P<b>[^:?]+?)[\s?.!]*$",
    re.IGNORECASE,
)


def topic_pair(text: str) -> tuple[str, str, str] | None:
    """(aspect, A, B) of "<aspect>: A vs B?" ("Courier cut-off: Rotterdam vs Porto?"); None otherwise."""
    m = TOPIC_PAIR.match(text.strip())
    if m is None or len(m["aspect"].split()) > 6:
        return None
    if any(_word(w) in CLAUSE for w in f"{m['aspect']} {m['a']} {m['b']}".split()):
        return None  # "The Lille depot: until when ..., and where ...?" joins two questions, not two sides
    aspect = m["aspect"].strip()
    aspect = aspect[0].lower() + aspect[1:] if aspect[1:2].islower() else aspect  # "Courier cut-off", not "UPS"
    return aspect, m["a"].strip(), m["b"].strip()


# "the site with the most servers": (pattern, grouped request, frame that opens the question with the phrase)
EMBEDDED = (
    (
        re.compile(
            r"\b(?:the|a)\s+(?P<group>[\w-]+)\s+(?:with|having|that\s+has)\s+the\s+(?P<end>most|fewest|least)\s+"
            r"(?P<what>[\w-]+(?:\s+(?![Ii]n\b|[Oo]f\b|[Aa]t\b|[Ff]or\b|[Oo]n\b)[\w-]+)?)",
            re.IGNORECASE,
        ),
        "Number of {what} per {group}",
        re.compile(r"^(?:for|at|in|of)\s+$", re.IGNORECASE),
    ),
    (
        re.compile(
            r"\b(?:der|die|das|dem|den)\s+(?P<group>\w+)\s+mit\s+den\s+(?P<end>meisten|wenigsten)\s+(?P<what>\w+)"
        ),
        "Anzahl der {what} pro {group}",
        re.compile(r"^(?:für|bei|in|am|im)\s+$", re.IGNORECASE),
    ),
    (
        re.compile(
            r"\b(?:le|la|l['’])\s*(?P<group>\w+)\s+(?:avec|qui\s+a)\s+le\s+(?P<end>plus|moins)\s+d(?:e\s+|['’])(?P<what>\w+)",
            re.IGNORECASE,
        ),
        "Nombre de {what} par {group}",
        re.compile(r"^(?:pour|à|au|dans)\s+$", re.IGNORECASE),
    ),
)
FEWEST = {"fewest", "least", "wenigsten", "moins"}
FOREIGN_REFERENCE = r"(?:\s|^)(?:sein(?:e[mnrs]?)?|ihr(?:e[mnrs]?)?|son|sa|ses|leurs?|dort|y)\b"


def embedded_superlative(text: str) -> tuple[str, str, str] | None:
    """(grouped count, "most" or "fewest", the question asked of "{value}") for a question whose noun phrase
    is "the <group> with the most <things>": "What is the UPS runtime at the site with the fewest printers?"
    -> ("Number of printers per site", "fewest", "What is the UPS runtime at {value}?"). A question that
    opens with the phrase ("For the site with the most servers, what does its page say ...?") is the rest
    asked of "{value}", its "its"/"their" as "{value}'s". None when `text` holds no such phrase."""
    for pattern, grouped, frame in EMBEDDED:
        m = pattern.search(text)
        if m is None:
            continue
        end = "fewest" if m["end"].lower() in FEWEST else "most"
        request = grouped.format(what=m["what"].strip(), group=m["group"].strip())
        rest = text[m.end() :]
        if frame.match(text[: m.start()]) and rest.lstrip().startswith(","):
            follow = rest.lstrip()[1:].strip()
            # case matters: "IT" is no pronoun
            follow = re.sub(r"\b(?:[Ii]ts|[Tt]heir)\b", "{value}'s", follow)
            follow = re.sub(r"\b(?:[Ii]t|[Tt]hey|[Tt]hem|[Tt]here)\b", "{value}", follow)
            follow = re.sub(FOREIGN_REFERENCE, " {value}", follow)
        else:
            follow = f"{text[: m.start()]}{{value}}{rest}"
        follow = " ".join(follow.split())
        if len(follow.replace("{value}", "").split()) < 2:
            return None
        return request, end, follow[0].upper() + follow[1:]
    return None
