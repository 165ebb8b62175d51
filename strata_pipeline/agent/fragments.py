"""Verbless fragments and framing context in a compound question (pure, en/de/fr).

- `gapped`: a second part that repeats the first one's question word, or none, and then only the phrase
  that differs ("Who runs the Lille depot and who the Antwerp depot?", "How many visitors on general wards,
  and how many in intensive care?", "..., and fire safety training?", "What is X? And the Y?") is the first
  question with its parallel phrase replaced: a name by the name, a noun phrase by the one with the same head
  noun, a prepositional phrase by the last one of the first question, a bare noun phrase in a copula
  question's frame ("What is the Y?").
- `elliptic_tail`: the two parts of a question that ends in ", and <fragment>" (no verb, no question word).
- `resolve_one`: "one" standing for a noun the first part gives ("which hosts the disaster recovery one?"
  after "Which office hosts the primary data center?" -> "Which office hosts the disaster recovery data
  center?").
- `coordinated_predicates`: one subject with two predicates ("When does the Porto depot open on Saturdays and
  close on weekdays?") as two questions.
- `split_context`: a leading statement ("I want to hire a standpipe. How ...?"), a topic before a colon ("The
  Lille depot: until when ...?") or a fronted phrase ("For Level 2 certification, how long ...?") that frames
  every part of the question, and the question it frames.
"""

from __future__ import annotations

import re

from strata_pipeline.agent.clauses import (
    COUNTED,
    LEAD_WORDS,
    LEADING_ARTICLE,
    OPENERS,
    antecedent,
    named_entities,
    replace_entity,
)
from strata_pipeline.agent.coordination import CLAUSE, PREPOSITIONS
from strata_pipeline.agent.grammar import COPULA_FRAME, INVERTED_SUBJECT, POSSESSIVE

# The question word a fragment may repeat from the first part ("and who the Antwerp depot", "und wie viel bei")
SHARED_OPENING = re.compile(
    r"^(?:how\s+(?:many|much|long|often|far|old)|wie\s+(?:viele?|lange|oft|hoch)|combien(?:\s+de\s+temps)?"
    r"|who|what|which|when|where|wer|was|wann|wo|welche[rsnm]?|qui|quand|où|quel(?:le)?s?)\b(?![’'])",
    re.IGNORECASE,
)
MAX_FRAGMENT = 12
QUESTION_WORD = re.compile(OPENERS, re.IGNORECASE)
PHRASE_START = re.compile(
    r"^(?:(?:the|a|an|der|die|das|den|dem|le|la|les|l['’]|un|une|ein|eine)\b|[A-ZÄÖÜÀÂÉÈ\d]|(?:"
    + "|".join(sorted(PREPOSITIONS, key=len, reverse=True))
    + r")\s)",
)
# "Is the battery covered, and if so, for how long?": a yes/no question, then only a question word
YES_NO = re.compile(r"^(?:is|are|was|were|does|do|did|can|may|must|has|have|ist|sind|gibt|kann|est-ce)\b", re.I)
WH_ONLY = re.compile(
    r"(?:(?:for|until|since|by|from|in|at|to|during|within|bis|seit|für|während|pour|pendant|depuis|jusqu['’]à)\s+)?"
    r"(?:how\s+(?:long|much|many|often|far)|when|where|which\s+\w+|what|wie\s+(?:lange|viel|viele|oft)|wann|wo"
    r"|combien(?:\s+de\s+temps)?|quand|où)",
    re.IGNORECASE,
)
POSSESSIVE_START = re.compile(r"^(?:" + "|".join(POSSESSIVE) + r")\s", re.IGNORECASE)
# auxiliaries and verbs that coordination.CLAUSE leaves out: their clause is no fragment
VERBS = frozenset("be been being shall werden wird wurde wurden sein soll sollen darf dürfen doit doivent faut".split())
# "auch" ("and also") and the like do not make a fragment a clause
FILLER = frozenset("also too auch aussi".split())
ARTICLES = re.compile(r"^(?:the|a|an|der|die|das|den|dem|le|la|les)\s+|^l['’]\s*", re.IGNORECASE)


def _words(text: str) -> list[str]:
    # "est-il", "faut-il", "what's": an inverted subject or a contracted verb is a word of its own
    text = re.sub(r"['’]s\b", " s", text)
    return [w.lower().strip(",;:?!.'’") for w in re.split(r"[\s]+|-(?=(?:t-)?(?:il|elle|ils|elles|on)\b)", text) if w]


def is_fragment(text: str) -> bool:
    """Whether `text` is a verbless phrase of a few words: no question word, auxiliary, common verb or French
    verb with its subject after it ("jours non pris puis-je reporter")."""
    words = [w for w in _words(text) if w not in FILLER]
    return (
        not INVERTED_SUBJECT.search(text)
        and 0 < len(words) <= MAX_FRAGMENT
        and not any(w in CLAUSE or w in VERBS for w in words)
        and not any(QUESTION_WORD.fullmatch(w) for w in words)
    )


# "..., and what is it at Brandholm?", "what was it under version 3?": the pronoun stands for what the first
# part asks about, and the phrase after it is the one that differs
ASKED_OF_IT = re.compile(
    r"^(?:what|which|how\s+(?:much|many|long|high|often))\s+(?:is|was|are|were)\s+(?:it|that|this|they|those)\s+"
    r"(?P<rest>\S.*)$",
    re.IGNORECASE,
)
# "..., and what is the Dresden one?": the first question of another name, "one" standing for its subject
NAMED_ONE = re.compile(
    r"^(?i:what|which|how\s+(?:much|many|long|high|often))\s+(?i:is|was|are|were|about)\s+(?:the\s+)?"
    r"(?P<name>[A-ZÄÖÜ][\w.-]*(?:\s+[A-ZÄÖÜ0-9][\w.-]*){0,2})\s+ones?$"
)
# "..., and how many does FleetOS 2.17 support?": "how many" without its noun counts what the first part counts
COUNT_WITHOUT_NOUN = re.compile(
    r"^how\s+(?:many|much)\s+(?=(?:does|do|did|is|are|was|were|can|may|must|will|would|has|have|had|should)\b)",
    re.IGNORECASE,
)


def _of_it(stem: str, body: str) -> str:
    """The first question asked again in a second part that refers to its subject by a pronoun and names only
    what differs ("what is it at Brandholm"), or that counts without a noun ("how many does FleetOS 2.17
    support"); "" otherwise."""
    m = ASKED_OF_IT.match(body)
    if m is not None and m["rest"].split()[0].lower() in PREPOSITIONS:
        return parallel(stem, m["rest"])
    m = COUNT_WITHOUT_NOUN.match(body)
    counted = antecedent(stem) if m is not None and COUNTED.match(stem) else ""
    return f"{body[: m.end()]}{counted} {body[m.end() :]}" if m is not None and counted else ""


def gapped(first: str, second: str) -> str:
    """`second` as a whole question when it is a fragment of `first` (module docstring); "" otherwise."""
    body = second.strip().rstrip(" ?.!")
    end = " ?" if first.rstrip().endswith(" ?") else "?"
    stem = first.strip().rstrip(" ?.!")
    if found := _of_it(stem, body):
        return found + end
    if YES_NO.match(first) and WH_ONLY.fullmatch(body):
        # "Is the battery covered, and if so, for how long?": the question word asked of the first part
        return f"{body[0].upper()}{body[1:]} {first[0].lower()}{first[1:]}"
    opening = SHARED_OPENING.match(body)
    if opening is not None:
        if not first.lower().startswith(opening.group().lower()):
            # "I'm starting on both campuses - which car park is for staff at Kestwick": the question after a
            # statement and a dash or colon
            said = re.search(rf"(?:^|\s[-–:]\s|:\s)({re.escape(opening.group())}\b.*)", stem, re.IGNORECASE)
            if said is None:
                return ""
            stem = said.group(1)
        body = body[opening.end() :].strip(" ,")
        if not is_fragment(body) or not PHRASE_START.match(body):
            # after the question word a fragment opens with an article, a preposition, a name or a number ("who
            # the Antwerp depot", "how many in intensive care"); "who runs ..." is a clause, which may still
            # only swap a name ("und wie viele hat Lyon?")
            found = _only_name_differs(stem, second.strip().rstrip(" ?.!"))
            return found + end if found else ""
    elif not is_fragment(body):
        return ""
    if POSSESSIVE_START.match(body):
        return ""  # "Et sa portée ?": another attribute of the same thing (grammar.expand_ellipsis)
    found = parallel(stem, body)
    return found + end if found else ""


def _only_name_differs(stem: str, second: str) -> str:
    """ "Wie viele hat Lyon" after "Wie viele Stellplätze hat Lille": every word of the second part but a new name
    is in the first one, so it asks the first question of that name. "" otherwise."""
    names = [m.group() for m in named_entities(second)]
    if len(names) != 1 or names[0].lower() in stem.lower():
        return ""
    rest = _words(second.replace(names[0], " "))
    known = set(_words(stem))
    if not rest or not all(w in known for w in rest):
        return ""
    return _trim_shared_head(replace_entity(stem, names[0]), names[0])


def parallel(stem: str, body: str) -> str:
    """`stem` with the phrase parallel to `body` replaced by it: a prepositional phrase by the last one of
    `stem` with that preposition (else any), a name by its last name, a noun phrase by the one with the same
    head noun; a bare noun phrase is asked in `stem`'s copula frame. "" when nothing in `stem` is parallel."""
    if ARTICLES.match(body) or body.split()[0].lower() in PREPOSITIONS:  # "The fee?", "For X?" go inside
        body = body[0].lower() + body[1:]
    first_word = body.split()[0].lower()
    if first_word in PREPOSITIONS and len(body.split()) > 1:
        return _replace_phrase(stem, body, first_word)
    phrase = LEADING_ARTICLE.sub("", body) if ARTICLES.match(body) else body
    head = _words(body)[-1]
    at = [m for m in re.finditer(r"\S+", stem) if m.group().lower().strip(",;:") == head]
    if at and len(body.split()) > 1:
        # "fire safety training" for "basic life support training", "the Antwerp depot" for "the Lille depot": the
        # noun phrase that ends in the same head noun, back to its article
        words = list(re.finditer(r"\S+", stem[: at[-1].start()]))
        start = len(words)
        while start > 0 and words[start - 1].group().lower() not in CLAUSE | PREPOSITIONS:
            start -= 1
            if ARTICLES.match(words[start].group() + " "):
                break
        begin = words[start].start() if start < len(words) else at[-1].start()
        article = ARTICLES.match(stem[begin:])
        if article is not None and ARTICLES.match(body) is None:
            begin += article.end()
        return stem[:begin] + body + stem[at[-1].end() :]
    if named_entities(f"x {phrase}") and named_entities(stem):
        return _trim_shared_head(replace_entity(stem, phrase), phrase)
    frame = COPULA_FRAME.match(stem)
    if frame is not None and ARTICLES.match(body):
        return f"{frame['frame']} {body}"
    if named_entities(stem) and ARTICLES.match(body):
        # "How much does the RX Dock cost, and the tow hitch?": the thing asked about, replaced
        return replace_entity(stem, phrase)
    return ""


def _replace_phrase(stem: str, phrase: str, preposition: str) -> str:
    """`stem` with its last phrase opened by `preposition` (else by any preposition) replaced by `phrase`."""
    tokens = list(re.finditer(r"\S+", stem))
    same = [t for t in tokens[1:] if t.group().lower() == preposition]
    anywhere = [t for t in tokens[1:] if t.group().lower() in PREPOSITIONS]
    if not (same or anywhere):
        return f"{stem} {phrase}"
    return stem[: (same or anywhere)[-1].start()] + phrase


def _trim_shared_head(question: str, name: str) -> str:
    """ "Who runs the Antwerp depot depot": a name given with the head noun the first part also had."""
    words = name.split()
    for size in range(len(words) - 1, 0, -1):
        tail = " ".join(words[-size:])
        doubled = f"{tail} {tail}"
        if doubled in question:
            return question.replace(doubled, tail, 1)
    return question


TAIL = re.compile(r"^(?P<first>.+?)\s*,\s*(?:and|und|et)\s+(?P<fragment>[^,;?]+?)[\s?.!]*$", re.IGNORECASE)
QUESTION_START = re.compile(
    r"^(?:"
    + LEAD_WORDS
    + r"\s+){0,3}(?:"
    + OPENERS
    + r"|is|are|was|were|does|do|did|can|may|must|ist|sind|hat|gibt|est)\b",
    re.IGNORECASE,
)


def elliptic_tail(text: str) -> list[str]:
    """[first question, fragment] for "<question>, and <fragment>?" ("How long must a flight be for premium
    economy, and for business class?"); [] when the part after the last ", and" is a clause of its own."""
    m = TAIL.match(text.strip())
    if m is None or not QUESTION_START.match(m["first"]) or not is_fragment(m["fragment"]):
        return []
    end = " ?" if text.rstrip().endswith(" ?") else "?"
    return [m["first"].strip() + end, m["fragment"].strip() + end]


ONE = re.compile(
    r"\b(?P<det>the|this|that)\s+(?P<mods>(?:[\w-]+\s+){0,3}?)one(?![\w-])"
    r"(?=\s+(?:in|at|for|of|on|from|with|that|which|who)\b|[\s?.!,]*$)",
    re.IGNORECASE,
)
# A definite noun phrase of common nouns, up to a preposition, a comma or the end
_NOUN = r"(?!(?:in|at|for|of|on|from|with)\b)[a-z][\w-]*"
COMMON_NP = re.compile(
    r"\b(?:the|this|that)\s+(?P<np>" + _NOUN + r"(?:\s+" + _NOUN + r"){0,3})"
    r"(?=\s+(?:in|at|for|of|on|from|with)\b|[\s?.!,]*$)"
)


NAMED_HEAD = re.compile(r"\b(?:the|this|that)\s+(?:[A-ZÄÖÜ][\w-]*\s+)+(?P<head>[a-z][\w-]*)")


def named_one(first: str, second: str) -> str:
    """The first question asked of another name when the second part is "what is the <name> one" ("What's the
    e-mail address of the Mannheim claims office, and what is the Dresden one?"): "one" stands for what the
    first part asks about, not only for its noun after the name. "" otherwise."""
    m = NAMED_ONE.match(second.strip().rstrip(" ?.!"))
    if m is None or not named_entities(first):
        return ""
    stem = first.strip().rstrip(" ?.!")
    asked = replace_entity(stem, m["name"])
    return f"{asked}?" if asked != stem else ""


def resolve_one(first: str, second: str) -> str:
    """`second` with "the <modifiers> one" given the head noun of `first`'s last definite noun phrase (its last
    word when modifiers come with "one"), and a bare "which <verb>" given the noun of `first`'s "Which <noun>
    <verb>"; `second` as it is otherwise."""
    candidates = [m for m in COMMON_NP.finditer(first) if not any(w in CLAUSE for w in m["np"].split())]
    m = ONE.search(second)
    named = NAMED_HEAD.findall(first)
    if m is not None and (m["mods"][:1].isupper() or not candidates) and named:
        # "the Lisbon one" after "the Porto depot": a name modifies the noun right after it
        second = f"{second[: m.end() - 3]}{named[-1]}{second[m.end() :]}"
    elif m is not None and candidates:
        np = candidates[-1]["np"].split()
        head = np[1:] if m["mods"].strip() and len(np) > 1 else np
        second = f"{second[: m.end() - 3]}{' '.join(head)}{second[m.end() :]}"
    opening = re.match(r"^(which|what)\s+(\w+)\s+(\S+)", first, re.IGNORECASE)
    bare = re.match(r"^(which|what)\s+(\S+)", second, re.IGNORECASE)
    if opening and bare and bare[2].lower() == opening[3].lower():
        second = f"{second[: bare.end(1)]} {opening[2]}{second[bare.end(1) :]}"
    return second


# "When does the Porto depot open on Saturdays and close on weekdays?": one subject, two predicates
PREDICATES = re.compile(
    r"^(?P<frame>(?:when|where|why|what\s+time|how\s+\w+)\s+(?:does|do|did|can|must|should|will|may))\s+"
    r"(?P<first>.+?)\s+and\s+(?P<second>[a-z][\w-]*\s.+?)[\s?.!]*$",
    re.IGNORECASE,
)


def coordinated_predicates(text: str) -> list[str]:
    """[question, question] for one subject with two coordinated predicates, the subject's verb being the word
    before its first preposition ("the Porto depot | open on Saturdays"); [] for any other question."""
    m = PREDICATES.match(text.strip())
    if m is None or _words(m["second"])[0] in CLAUSE | PREPOSITIONS | {"the", "a", "an"}:
        return []
    words = m["first"].split()
    at = next((i for i, w in enumerate(words) if i >= 2 and w.lower() in PREPOSITIONS), None)
    if at is None or words[at - 1].lower() in PREPOSITIONS or words[at - 1][:1].isupper():
        return []
    subject = " ".join(words[: at - 1])
    return [f"{m['frame']} {m['first']}?", f"{m['frame']} {subject} {m['second']}?"]


STATEMENT = re.compile(r"^(?P<context>[^?]+?[.!])\s+(?P<rest>[A-ZÄÖÜÀÂÉÈ].*\?)$")
TOPIC = re.compile(r"^(?P<context>[^:?,]{3,60}):\s+(?P<rest>.+)$")
FRONTED = re.compile(
    r"^(?P<prep>for|about|regarding|concerning|as\s+for|after|before|during|in|at|on|with|without|if|in\s+case"
    r"|bei|für|zu|nach|vor|während|im|wenn|falls|pour|concernant|quant\s+à|après|avant|pendant|dans|si)\s+"
    r"(?P<context>[^,?]{2,60}),\s+(?P<rest>.+)$",
    re.IGNORECASE,
)


# Prepositions that only name what a fronted phrase is about ("For Level 2 certification, ...")
TOPIC_PREPOSITIONS = frozenset(["for", "about", "regarding", "concerning", "as for", "zu", "pour", "concernant"])


def split_context(text: str) -> tuple[str, str] | None:
    """(context, question) when a leading statement, a topic before a colon or a fronted phrase frames the
    question that follows it (module docstring); None otherwise. The question must start with a question word
    and the context must not ("What is the fee? How ...?" is two questions, not a context)."""
    text = text.strip()
    for pattern in (STATEMENT, TOPIC, FRONTED):
        m = pattern.match(text)
        if m is None:
            continue
        context, rest = m["context"].strip(" .!"), m["rest"].strip()
        if pattern is FRONTED and m["prep"].lower() not in TOPIC_PREPOSITIONS:
            context = f"{m['prep']} {context}"  # "After an accident" frames the question; it names no topic
        if QUESTION_START.match(rest) and not QUESTION_START.match(context) and not _is_question(context):
            return context, rest[0].upper() + rest[1:]
    return None


def _is_question(text: str) -> bool:
    return text.rstrip().endswith("?") or bool(re.match(r"^(?:tell|show|give|list)\b", text, re.IGNORECASE))


def topic_name(context: str) -> str:
    """The noun phrase a topic or fronted phrase names (what "its" in the question stands for); "" for a
    statement, which is no noun phrase."""
    words = _words(context)
    if not words or any(w in CLAUSE for w in words) or len(words) > 6 or words[0] in PREPOSITIONS:
        return ""
    article = ARTICLES.match(context)
    return context[: article.end()].lower() + context[article.end() :] if article else context
