"""Grammar-shaped readings of a compound question's second part and of relative clauses (pure, en/de/fr).

- `list_of_count`: a follow-up that asks which things a count counted ("How many printers does LYO have,
  and which are they?", "..., und welche sind es?", "..., et lesquels ?") is the count's own question asked
  as a list: "Which printers does LYO have?".
- `expand_ellipsis`: a follow-up without a verb is the first question asked again of what it names: a
  bare noun phrase ("Und Porto?"), a prepositional phrase ("And for an extended family member?", "Et à
  Lyon ?"), or a possessive noun phrase ("Et sa portée ?", "And its weight?") that asks the first
  question's frame of another attribute of the same thing.
- `relative_parts`: a question about a noun phrase that a relative clause identifies ("What is the
  courier cut-off of the depot that houses the lab?") as the question that finds the thing ("Which depot
  houses the lab?") and the main question asked of it ("What is the courier cut-off of it?").
- `has_object_clitic`: a French object pronoun before a verb ("Peut-on le fractionner ?") refers back.
"""

from __future__ import annotations

import re

from strata_pipeline.agent.clauses import LEADING_ARTICLE, OPENERS, named_entities, replace_entity

# "which are they", "which ones", "what are they", "welche sind es/das", "welche", "lesquels", "quels sont-ils"
LIST_FOLLOW_UP = re.compile(
    r"^(?:(?:which|what)(?:\s+(?:ones|are\s+they|are\s+those|are\s+these|ones\s+are\s+they))?"
    r"|(?:list|name)\s+them"
    r"|welche(?:\s+(?:sind\s+(?:es|das|sie|dies)|davon))?"
    r"|lesquel(?:le)?s|quel(?:le)?s\s+sont[- ](?:ils|elles|-ils|-elles))[\s?.!]*$",
    re.IGNORECASE,
)
COUNT_OPENING = (
    (re.compile(r"^how\s+many\s+", re.IGNORECASE), "Which "),
    (re.compile(r"^wie\s+viele\s+", re.IGNORECASE), "Welche "),
    (re.compile(r"^combien\s+(?:de\s+|d['’])", re.IGNORECASE), "Quels "),
)


def list_of_count(first: str, second: str) -> str:
    """The list question a "which are they?" follow-up asks after a count: the count's question with its
    "how many" as "which" ("How many SKUs have a warranty of 60 months?" -> "Which SKUs have a warranty
    of 60 months?"); "" when `second` is no such follow-up or `first` counts nothing."""
    if LIST_FOLLOW_UP.match(second.strip()) is None:
        return ""
    for opening, which in COUNT_OPENING:
        if opening.match(first):
            return opening.sub(which, first, count=1)
    return ""


PREPOSITIONS = (
    r"(?:for|in|at|on|of|with|to|from|by|about|für|in|im|bei|beim|am|an|auf|von|vom|mit|zu|zum|zur"
    r"|pour|à|au|aux|en|dans|chez|de|du|des|sur|avec)"
)
POSSESSIVE = {
    "its": "the", "their": "the", "his": "the", "her": "the",
    "sein": "das", "seine": "die", "seinen": "den", "ihr": "das", "ihre": "die", "ihren": "den",
    "sa": "la", "son": "le", "ses": "les", "leur": "le", "leurs": "les",
}  # fmt: skip
# Words that make a clause more than a noun phrase: question words, auxiliaries and common verbs
CLAUSE_WORDS = frozenset(
    "what which who whom whose when where how why is are was were do does did can could may must should will "
    "would has have had was wer wie wo wann warum welche welcher welches ist sind hat haben kann muss wird "
    "gibt wen wem wessen woher wohin womit wofür que qui lequel laquelle quoi quand où comment pourquoi combien "
    "quel quelle quels quelles est sont ont peut doit "
    "faut il elle ils elles es er sie it they".split()
)
ELLIPTIC = re.compile(
    r"^(?:(?P<prep>" + PREPOSITIONS + r")\s+)?(?:(?P<poss>" + "|".join(POSSESSIVE) + r")\s+)?"
    r"(?P<np>[^\s?.!]+(?:\s+[^\s?.!]+){0,5})[\s?.!]*$",
    re.IGNORECASE,
)
COPULA_FRAME = re.compile(
    r"^(?P<frame>(?:what|which|how\s+\w+|wie\s+\w+|was|welche[rsnm]?|quel(?:le)?s?)\s+(?:\w+\s+)?"
    r"(?:is|are|ist|sind|est|sont))\s",
    re.IGNORECASE,
)
OF = {"en": "of", "de": "von", "fr": "de"}


_QUESTION_WORD = re.compile(OPENERS, re.IGNORECASE)
# A French verb with its subject pronoun after it: "puis-je", "peut-on", "a-t-il" make a clause
INVERTED_SUBJECT = re.compile(r"\w-(?:t-)?(?:je|tu|il|elle|on|nous|vous|ils|elles)\b", re.IGNORECASE)


def expand_ellipsis(first: str, second: str) -> str:
    """`second` as a full question when it is an elliptic follow-up of `first` (no verb, at most five
    words): a name asks `first` of that name ("Und Porto?"); a prepositional phrase replaces the last
    phrase `first` opens with the same preposition ("And for an extended family member?"); a possessive
    noun asks `first`'s copula frame of that attribute of the thing `first` names ("Et sa portée ?" after
    "Quelle est la charge utile du RX-200 ?" -> "Quelle est la portée de RX-200 ?"). "" for any other."""
    text = _shared_question_word(first, second.strip())
    m = ELLIPTIC.match(text)
    if m is None:
        return ""
    words = [w.lower().strip(",'’") for w in m["np"].split()]
    if any(w in CLAUSE_WORDS or _QUESTION_WORD.fullmatch(w) for w in words) or INVERTED_SUBJECT.search(m["np"]):
        return ""  # "an welchen Tagen tagt das Committee": a question of its own, no elliptic phrase
    if len(words) > (6 if m["prep"] else 4 if m["poss"] else 3):
        return ""
    np = m["np"].strip()
    if m["poss"] is not None:
        return _possessive(first, m["poss"].lower(), np)
    if named_entities(f"x {np}") and named_entities(first):
        return replace_entity(first, np)
    if m["prep"] is not None:
        prep = m["prep"]
        at = [p for p in re.finditer(r"(?<!\w)" + re.escape(prep) + r"\s", first, re.IGNORECASE)]
        if at:
            end = len(first.rstrip(" ?.!"))
            return f"{first[: at[-1].end()]}{np}{first[end:]}".strip()
    return ""


# The question words a follow-up may repeat before its elliptic phrase ("Combien pour ...?", "How many for ...?")
QUESTION_OPENING = re.compile(
    r"^(?:how\s+(?:many|much|long|often)|wie\s+(?:viele?|lange|oft)|combien(?:\s+de\s+temps)?)\b", re.IGNORECASE
)


def _shared_question_word(first: str, second: str) -> str:
    """`second` without the question word it shares with `first` when a prepositional phrase follows it
    ("Combien pour un membre de la famille élargie ?" after "Combien de jours ... pour ..."): the phrase is
    then elliptic. `second` as it is otherwise."""
    m = QUESTION_OPENING.match(second)
    if m is None or not first.lower().startswith(m.group().lower()):
        return second
    rest = second[m.end() :].strip()
    return rest if re.match(PREPOSITIONS + r"\s", rest, re.IGNORECASE) else second


def _possessive(first: str, possessive: str, noun: str) -> str:
    """`first`'s copula frame asked of `noun` of the thing `first` names, or "" when it has no such frame."""
    frame = COPULA_FRAME.match(first)
    names = named_entities(first)
    if frame is None or not names:
        return ""
    owner = names[0].group()
    language = "fr" if possessive in ("sa", "son", "ses", "leur", "leurs") else "en"
    language = "de" if possessive.startswith(("sein", "ihr")) else language
    article = POSSESSIVE[possessive]
    end = " ?" if language == "fr" else "?"
    return f"{frame['frame']} {article} {noun} {OF[language]} {owner}{end}"


# "the depot that houses the lab", "the site whose IT desk is open", "le dépôt qui ...", "das Depot, das ..."
RELATIVE_EN = re.compile(
    r"^(?P<main>.+?)\b(?P<np>the\s+(?:(?!(?:of|for|at|in|on)\b)[\w-]+\s+){0,2}?(?P<noun>[\w-]+))\s+"
    r"(?P<rel>that|which|who|whose|where)\s+(?P<clause>.+?)[\s?.!]*$",
    re.IGNORECASE,
)
RELATIVE_FR = re.compile(
    r"^(?P<main>.+?)(?P<np>\b(?:le|la|les|l['’]|du|des|au|aux)\s*(?:(?!(?:de|du|des|d['’]|à|au|aux)\b)[\w-]+\s+){0,2}?"
    r"(?P<noun>[\w-]+))\s+"
    r"(?P<rel>qui|où|dont)\s+(?P<clause>.+?)[\s?.!]*$",
    re.IGNORECASE,
)
RELATIVE_DE = re.compile(
    r"^(?P<main>.+?)(?P<np>\b(?:der|die|das|des|dem|den)\s+(?:[\w-]+\s+){0,2}?(?P<noun>[\w-]+)),\s+"
    r"(?P<rel>der|die|das|wo|in\s+de[mr])\s+(?P<clause>.+?)[\s?.!]*$",
)
OWNER_PREPOSITION = re.compile(r"\b(?:of|for|at|in|on)\s*$", re.IGNORECASE)
# The main clause must ask something of the noun phrase: "What is the X of <np> ..." or "When does <np> ..."
MAIN_ASKS = re.compile(r"^(?:what|which|when|where|how|who|quel(?:le)?s?|quand|où|comment|was|wie|wann|wo)\b", re.I)


def relative_parts(question: str) -> tuple[str, str] | None:
    """(the question that finds the thing a relative clause identifies, the main question asked of "it"),
    or None when `question` has no such clause: "What is the courier cut-off of the depot that houses the
    Northwind Metrology Lab?" -> ("Which depot houses the Northwind Metrology Lab?", "What is the courier
    cut-off of it?"); "... of the site whose IT desk is open on Saturdays?" -> ("Which site's IT desk is
    open on Saturdays?", ...)."""
    text = question.strip()
    if not MAIN_ASKS.match(text):
        return None
    embedded = _subject_relative(text)
    if embedded is not None:
        return embedded
    for pattern, it, build in ((RELATIVE_EN, "it", _find_en), (RELATIVE_FR, "celui-ci", _find_fr),
                               (RELATIVE_DE, "es", _find_de)):  # fmt: skip
        m = pattern.match(text)
        if m is None or len(m["clause"].split()) < 2 or not m["main"].strip():
            continue
        if it == "it" and m["rel"].lower() != "whose" and not OWNER_PREPOSITION.search(m["main"]):
            # English "that" also opens a complement ("the rule that ..."): only the thing whose attribute
            # the main clause asks ("the courier cut-off of the depot that ...") is found first
            continue
        if it == "celui-ci":
            # "le numéro du bureau qui ...": the owner's "du" stays as "de celui-ci"
            article = m["np"].split()[0].lower()
            it = {"du": "de celui-ci", "des": "de ceux-ci", "au": "à celui-ci", "aux": "à ceux-ci"}.get(article, it)
        main = f"{m['main'].rstrip()} {it}".strip()
        return build(m), clean_end(main, "fr" if pattern is RELATIVE_FR else "")
    return None


# "When does the pharmacy that is closed on Saturdays open on weekdays?": a relative clause inside the subject
SUBJECT_RELATIVE = re.compile(
    r"^(?P<wh>(?:when|where|why|what\s+time|how\s+\w+)\s+(?:does|do|did|can|may|must|will|should))\s+"
    r"the\s+(?P<noun>(?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:that|which|who)\s+(?P<rest>.+?)[\s?.!]*$",
    re.IGNORECASE,
)
NOT_A_VERB = frozenset("the a an this that its their his her of for at in on to from with by about into".split())


def _subject_relative(text: str) -> tuple[str, str] | None:
    """(the question that finds the subject, the main question asked of "it") when a relative clause sits between
    the subject and its verb: the clause ends before the first lower-case word that follows a word no phrase
    ends in ("is closed on Saturdays | open on weekdays"); None when `text` has no such clause."""
    m = SUBJECT_RELATIVE.match(text)
    if m is None:
        return None
    words = m["rest"].split()
    for k in range(2, len(words)):
        word, before = words[k], words[k - 1].lower()
        if word[:1].islower() and word.isalpha() and word.lower() not in NOT_A_VERB and before not in NOT_A_VERB:
            clause, main = " ".join(words[:k]), " ".join(words[k:])
            return f"Which {m['noun']} {clause}?", f"{m['wh'][0].upper()}{m['wh'][1:]} it {main}?"
    return None


def clean_end(text: str, language: str = "") -> str:
    return text.rstrip(" ?.!") + (" ?" if language == "fr" else "?")


def _find_en(m: re.Match[str]) -> str:
    noun, clause = m["noun"], m["clause"]
    if m["rel"].lower() == "whose":
        return f"Which {noun}'s {clause}?"
    if m["rel"].lower() == "where":
        return f"Which {noun} is where {clause}?"
    return f"Which {noun} {clause}?"


def _find_fr(m: re.Match[str]) -> str:
    np = re.sub(r"^(?:le|la|les|l['’]|du|des|au|aux)\s*", "", m["np"].strip(), flags=re.IGNORECASE)
    return f"Quel {np} {m['clause']} ?" if m["rel"].lower() == "qui" else f"Quel {np} {m['rel']} {m['clause']} ?"


def _find_de(m: re.Match[str]) -> str:
    # a German relative clause ends in its verb: "das das Labor beherbergt" -> "Welches Depot beherbergt das Labor?"
    words = m["clause"].split()
    np = LEADING_ARTICLE.sub("", m["np"]).strip()
    return f"Welche {np} {words[-1]} {' '.join(words[:-1])}?".replace("  ", " ")


# A French object pronoun between a subject (or an inverted "-on") and its verb: "Peut-on le fractionner ?".
# After an inverted subject the verb is an infinitive; else "protège-t-il l'opportunité" holds an object
# noun phrase, no pronoun.
OBJECT_CLITIC = re.compile(
    r"-(?:on|il|elle|ils|elles|je|nous|vous)\s+(?:le|la|les|l['’])\s*[^\W\d_]+(?:er|ir|re|oir)\b"
    r"|(?<![-‑\w])(?:on|je|tu|nous|vous|il|elle|ils|elles|ne|n['’])\s+(?:le|la|les|l['’])\s*[^\W\d_]",
    re.IGNORECASE,
)


def has_object_clitic(clause: str) -> bool:
    """Whether a French clause refers back with an object pronoun ("le", "la", "les" before its verb)."""
    return OBJECT_CLITIC.search(clause) is not None


# The definite noun phrase a French question ends with ("... dure le congé parental ?")
FINAL_NP = re.compile(r"\b(?:le|la|les|l['’])\s*[^\W\d_][\w'’-]*(?:\s+[^\W\d_A-Z][\w'’-]*){0,2}(?=[\s?.!]*$)")
CLITIC_VERB = re.compile(r"(?<=\s)(?:le|la|les|l['’])\s*(?P<verb>[^\W\d_][\w-]*)", re.IGNORECASE)


def resolve_clitic(first: str, second: str) -> str:
    """`second` with its French object pronoun replaced by the noun phrase `first` ends with, after the verb:
    "Peut-on le fractionner ?" after "Combien de semaines dure le congé parental ?" -> "Peut-on fractionner
    le congé parental ?"; `second` as it is when either has no such part."""
    np = FINAL_NP.search(first)
    m = OBJECT_CLITIC.search(second)
    if np is None or m is None:
        return second
    clitic = CLITIC_VERB.search(second, m.start())
    if clitic is None:
        return second
    return f"{second[: clitic.start()]}{clitic['verb']} {np.group()}{second[clitic.end() :]}"
