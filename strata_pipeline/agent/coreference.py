"""Coreference and quantifier readings of a compound question (pure, en/de/fr).

- `pair_question`: "Which of A and B <comparative predicate>?" asked as the "which <predicate>, A or B?"
  comparison the planner already reads ("Which of the Lille and Munich depots has more van bays?" ->
  "Which has more van bays, the Lille depot or the Munich depot?"); coordinated modifiers share their head
  noun ("the Lille and Munich depots" are "the Lille depot" and "the Munich depot").
- `distributive`: a universally quantified question ("For each server in wave1, what does the runbook say
  about ...?") is the fact filter followed by what documents say about each of its values: "server in
  wave1, and what does the runbook say about ...?".
- `owner_phrase`: the possessor of the attribute a copula question asks ("What is the UPS runtime of the
  Stuttgart server room" -> "the Stuttgart server room"): what "it"/"its" in a follow-up stands for.
- `self_contained`: a follow-up whose pronoun refers to a noun phrase the follow-up itself introduces ("who
  does a page escalate to if the primary does not acknowledge it?"): no back-reference to the first part.
- `resolve_possessive`: a German or French possessive determiner as the article plus the owner ("Quelle
  est son autonomie ?" after a question on the RX-300 -> "Quelle est l'autonomie de RX-300 ?").
- `bind_demonstrative`: a demonstrative noun phrase ("that wave") as the value the row answered before holds
  in the column that noun names ("patch_wave: wave0"): "When does that wave run?" -> "When does wave0 run?".
"""

from __future__ import annotations

import re

from strata_pipeline.agent.clauses import AUXILIARIES, comparative

PAIR = re.compile(r"^(?:which|who)(?:\s+one)?\s+of\s+(?P<rest>.+?)[\s?.!]*$", re.IGNORECASE)
PAIR_FR = re.compile(
    r"^(?:lequel|laquelle|lesquels|lesquelles)\s+(?:d['’]entre\s+|de\s+|d['’]|du\s+|des\s+)(?P<rest>.+?)[\s?.!]*$",
    re.IGNORECASE,
)
FR_VERB = re.compile(r"\s(?P<verb>est|a|sont|ont|dure|coûte|pèse)\s")  # lower case: "la pompe A"
COORDINATION = re.compile(r"\s+(?:and|or|et|ou)\s+", re.IGNORECASE)
ARTICLE = re.compile(r"^(?:the|a|an|le|la|les|l['’])\s*", re.IGNORECASE)


def pair_question(text: str) -> str:
    """ "Which of A and B <predicate>?" as "Which <predicate>, A or B?" (French "Lequel de A et B est plus
    lourd ?" as "Lequel est plus lourd, A ou B ?"); "" when `text` is no such question or its predicate holds
    no comparative."""
    m = PAIR.match(text.strip())
    if m is not None:
        words = m["rest"].split()
        lowered = [w.lower().strip(",") for w in words]
        at = next((i for i, w in enumerate(lowered) if comparative(w)), None)
        if at is None or at < 2:
            return ""
        # the predicate's verb: the last auxiliary before the comparative, else the word just before it
        verb = next((i for i in range(at - 1, 0, -1) if lowered[i] in AUXILIARIES), None)
        if verb is None:
            verb = at - 1 if lowered[at - 1] != "the" else at - 2
        sides = _sides(" ".join(words[:verb]))
        if sides is None or verb < 1:
            return ""
        return f"Which {' '.join(words[verb:])}, {sides[0]} or {sides[1]}?"
    m = PAIR_FR.match(text.strip())
    verb_m = FR_VERB.search(f" {m['rest']} ") if m is not None else None
    if m is None or verb_m is None or re.search(r"\b(?:plus|moins)\b", m["rest"], re.IGNORECASE) is None:
        return ""
    rest = f" {m['rest']} "
    sides = _sides(rest[: verb_m.start()].strip())
    if sides is None:
        return ""
    pronoun = text.split()[0]
    return f"{pronoun} {rest[verb_m.start() :].strip()}, {sides[0]} ou {sides[1]} ?"


def _sides(phrase: str) -> tuple[str, str] | None:
    """The two coordinated noun phrases, a plural head noun shared: "the Lille and Munich depots" ->
    ("the Lille depot", "the Munich depot")."""
    parts = COORDINATION.split(phrase, maxsplit=1)
    if len(parts) != 2 or not all(p.strip() for p in parts):
        return None
    a, b = parts[0].strip(), parts[1].strip()
    a_words, b_words = ARTICLE.sub("", a).split(), ARTICLE.sub("", b).split()
    head = b_words[-1] if b_words else ""
    if len(b_words) > len(a_words) and head.islower() and head.endswith("s") and not head.endswith("ss"):
        # "the Lille and Munich depots": one head noun, in the plural, for both modifiers
        singular = head[:-1]
        article = m.group().strip() + " " if (m := ARTICLE.match(a)) and m.group().strip() else ""
        a = f"{a} {singular}"
        b = f"{article}{ARTICLE.sub('', b).rsplit(' ', 1)[0]} {singular}"
    return a, b


DISTRIBUTIVE = (
    (re.compile(r"^for\s+(?:each|every|all(?:\s+the)?)\s+(?P<np>[^,]+?),\s*(?P<rest>what\b.+)$", re.I), "and"),
    (re.compile(r"^für\s+(?:jede[nrs]?|alle)\s+(?P<np>[^,]+?),\s*(?P<rest>was\b.+)$", re.I), "und"),
    (re.compile(r"^pour\s+(?:chaque|tou(?:te)?s\s+les)\s+(?P<np>[^,]+?),\s*(?P<rest>(?:que|qu['’]).+)$", re.I), "et"),
)


def distributive(text: str) -> str:
    """A "for each <noun phrase>, what does <documents> say about <topic>?" question as the fact filter and
    its follow-up: "For each SKU with a lead time above 6 weeks, what does the warranty policy say about
    it?" -> "SKUs with a lead time above 6 weeks, and what does the warranty policy say about it?"; "" for
    any other question. An English singular head noun is made plural: a filter lists its rows."""
    for pattern, conjunction in DISTRIBUTIVE:
        m = pattern.match(text.strip())
        if m is not None:
            np = m["np"].strip()
            if conjunction == "and":
                head, _, tail = np.partition(" ")
                if not head.lower().endswith("s"):
                    np = f"{head}s {tail}".strip()
            return f"{np}, {conjunction} {m['rest']}"
    return ""


# "What is the UPS runtime of the Stuttgart server room": the owner after the attribute's preposition
OWNED = re.compile(
    r"^(?:what|which|how\s+\w+|when|where)\s+(?:is|are|was|were)\s+the\s+(?:[\w-]+\s+){1,4}?(?:of|for|at)\s+"
    r"(?P<owner>(?:the\s+)?[\w-]+(?:\s+[\w-]+){0,4}?)(?=\s+(?:in|on|at|for|with|when|if|during|after|before)\b|[\s?.!]*$)",
    re.IGNORECASE,
)


def owner_phrase(question: str) -> str:
    """The noun phrase that owns the attribute a copula question asks, when it names something (a capital
    letter or a digit): "What is the P1 resolution target of the WMS service?" -> "the WMS service";
    "" for any other question or a coordinated owner ("of the Zürich and Basel rooms")."""
    m = OWNED.match(question.strip())
    if m is None:
        return ""
    owner = m["owner"].strip()
    if re.search(r"\b(?:and|or)\b", owner, re.IGNORECASE) or not re.search(r"[A-Z\d]", owner):
        return ""
    return owner


INDEFINITE = re.compile(r"\b(?:a|an)\s+[\w-]+", re.IGNORECASE)
SUBORDINATE_PRONOUN = re.compile(
    r"\b(?:if|when|unless|once|until|before|after|because|while)\b.*\b(?:it|they|them)\b", re.IGNORECASE
)


def self_contained(clause: str) -> bool:
    """Whether the clause's pronoun stands for a noun phrase the clause introduces itself: an indefinite noun
    phrase, then a subordinate clause with the pronoun ("who does a page escalate to if the primary does not
    acknowledge it?"). Such a pronoun is no back-reference to an earlier clause."""
    sub = SUBORDINATE_PRONOUN.search(clause)
    return sub is not None and INDEFINITE.search(clause[: sub.start()]) is not None


POSSESSIVE_NOUN = re.compile(
    r"\b(?P<det>son|sa|ses|leur|leurs|seine[nmrs]?|sein|ihre[nmrs]?)\s+(?P<noun>[^\W\d_][\w-]*)", re.IGNORECASE
)
ARTICLE_OF = {
    "son": "le", "sa": "la", "ses": "les", "leur": "le", "leurs": "les",
    "sein": "das", "seine": "die", "seinen": "den", "seinem": "dem", "seiner": "der", "seines": "des",
    "ihre": "die", "ihren": "den", "ihrem": "dem", "ihrer": "der", "ihres": "des",
}  # fmt: skip


def resolve_possessive(question: str, owner: str) -> str:
    """`question` with its first German or French possessive determiner as an article and `owner` after the
    noun: "Quelle est son autonomie ?" -> "Quelle est l'autonomie de RX-300 ?", "Wie hoch ist seine
    Traglast?" -> "Wie hoch ist die Traglast von RX-300?". As it is without such a determiner or owner."""
    m = POSSESSIVE_NOUN.search(question)
    if m is None or not owner or m["det"].lower() not in ARTICLE_OF:
        return question
    det, noun = m["det"].lower(), m["noun"]
    article = ARTICLE_OF[det]
    french = det in ("son", "sa", "ses", "leur", "leurs")
    if french and article != "les" and noun[:1].lower() in "aeiouéèêh":
        phrase = f"l'{noun} de {owner}"
    else:
        phrase = f"{article} {noun} {'de' if french else 'von'} {owner}"
    if m["det"][:1].isupper():
        phrase = phrase[0].upper() + phrase[1:]
    return question[: m.start()] + phrase + question[m.end() :]


DEMONSTRATIVE = re.compile(
    r"\b(?:that|this|the\s+same|diese[mnrs]?|dieselbe|ce|cet|cette)\s+(?P<noun>[^\W\d_][\w-]*)", re.IGNORECASE
)


def bind_demonstrative(question: str, header: tuple[str, ...], cells: tuple[str, ...]) -> str:
    """`question` with a demonstrative noun phrase replaced by the cell of the row answered before whose column
    that noun names: "When does that wave run?" after the row "patch_wave: wave0" -> "When does wave0 run?".
    "" when the question has no such phrase or no column of the row is named by its noun."""
    m = DEMONSTRATIVE.search(question)
    if m is None:
        return ""
    noun = m["noun"].lower()
    for name, cell in zip(header, cells, strict=False):
        words = re.split(r"[\W_]+", name.lower())
        if cell.strip() and (noun in words or noun.removesuffix("s") in words):
            return question[: m.start()] + cell.strip() + question[m.end() :]
    return ""
