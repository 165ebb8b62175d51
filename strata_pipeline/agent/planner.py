"""The offline planner: a compound question becomes a fixed sequence of tool calls, by its form.

Pure (no engine, no I/O): `plan(question, facts=...)` returns the same plan for the same question. The
forms, tried in this order (docs/agent.md lists them with examples):

- `section`: "what does the <heading> section of <doc_id> say" -> read_document_section.
- `facts_then_search` (only when facts are available): "<fact filter>, and what (their|its|the) <documents>
  say about <topic>" -> query_facts, then one semantic_search per value it found, "<value> <documents>
  <topic>".
- `compare`: "compare <aspect> of <A> and <B>", "compare <A> and <B> on <aspect>", "what is the difference
  between <A> and <B> (in <aspect>)" -> one semantic_search per side.
- `compare` also takes "which <comparative>, A or B?" and "is A <comparative> than B?" (clauses.alternatives:
  each side asked the degree question of the comparative) and "how does A compare to B (in <aspect>)".
- `two_questions`: two clauses split on a clause boundary (clauses.split_clauses: "?", ";", ", then",
  ", also", "and [up to three prepositions] <wh-word>", in en, de and fr), each without its discourse markers
  ("first", "also") and request wrapper ("tell me how ..."). An elliptic second clause ("what about Basel?")
  is the first question asked of the entity it names. When the second refers back (its, their, it, there, ...)
  it is searched within the documents the first step found (`find_then_ask`), its "it"/"its"/"they"/"their"
  replaced by what the first step found (the document's name, `resolve_back_reference`); a first part that
  asks what an identifier is or means (E-1042, NR-4471-B) is a `lookup` (`lookup_then_ask`) and the identifier
  replaces them in the search; otherwise they stand for the entity the first question names, else for the noun
  phrase it counts or is about (clauses.antecedent) when they agree in number (clauses.agrees: "it" does
  not stand for "torque wrenches"). Without a back-reference the two are searched
  independently.

Comparisons with an elliptic second side ("... in Weißbach than in Aarlingen?", "Does A or B have more X?",
"How do A and B differ in X?") are read by comparison.py; gapped or trailing fragments ("and who the Antwerp
depot?", "..., and for business class?"), "one" and a framing context ("I want to hire a standpipe. How ...?",
"The Lille depot: ...") by fragments.py.

Anything else is `single`: one semantic_search answered as /ask answers.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass, field
from typing import Any

from strata_pipeline.agent.anchors import (
    anchored_to,
    code_for_that,
    every_code,
    there_as,
    there_in_context,
    unanchored,
)
from strata_pipeline.agent.clauses import (
    LOOKUP_REQUEST,
    REQUEST,
    agrees,
    antecedent,
    elliptic_other,
    is_definition,
    named_entities,
    replace_entity,
    resolve_foreign_reference,
    split_clauses,
)
from strata_pipeline.agent.comparison import compare_sides
from strata_pipeline.agent.coordination import coordinated, embedded_superlative
from strata_pipeline.agent.coreference import (
    distributive,
    owner_phrase,
    resolve_possessive,
    self_contained,
)
from strata_pipeline.agent.fragments import (
    coordinated_predicates,
    elliptic_tail,
    gapped,
    named_one,
    resolve_one,
    split_context,
    topic_name,
)
from strata_pipeline.agent.grammar import (
    expand_ellipsis,
    has_object_clitic,
    list_of_count,
    relative_parts,
    resolve_clitic,
)
from strata_pipeline.agent.references import REFERRING, resolve_back_reference
from strata_pipeline.embedding.identifiers import IDENTIFIER

# Scopes of a step that depends on an earlier one
EACH_VALUE = "each_value"  # one call per value the previous (query_facts) step found; "{value}" in the query
FOUND_DOCUMENTS = "found_documents"  # restricted to the documents the previous step found
DOCUMENT = "document"  # a back-reference that stands for what the previous step found (its document's name)

END = r"[\s?.!]*$"
SECTION = re.compile(
    r"^(?:what\s+does|what\s+do|show(?:\s+me)?|read)\s+(?:the\s+)?[\"'“‘]?(?P<heading>.+?)[\"'”’]?\s+section\s+"
    r"(?:of|in)\s+(?P<doc>[\w./-]+\.\w+)(?:\s+say)?" + END,
    re.IGNORECASE,
)
FACTS_THEN_SEARCH = re.compile(
    r"^(?P<facts>.+?),?\s+and\s+what\s+(?:(?:do|does|did)\s+)?(?:their|its|the|each|these|those)\s+(?P<docs>[\w\s-]+?)\s+"
    r"says?\s+(?:about|on|regarding)\s+(?P<topic>.+?)" + END,
    re.IGNORECASE,
)
# The same form in German ("..., und was sagt die Urlaubsrichtlinie über Krankheitstage?") and French
# ("..., et que dit la politique de congés sur le report ?"): (pattern, question its passages answer)
FACTS_THEN_SEARCH_DE = re.compile(
    r"^(?P<facts>.+?),?\s+und\s+was\s+(?:sagt|sagen|schreibt|schreiben|steht\s+in)\s+"
    r"(?:die|der|das|den|dem|ihre|ihr|ihren|seine|sein|seinen|deren|dessen)\s+(?P<docs>[\w\s-]+?)\s+"
    r"(?:über|zu|zum|zur|zu\s+den)\s+(?P<topic>.+?)" + END,
    re.IGNORECASE,
)
FACTS_THEN_SEARCH_FR = re.compile(
    r"^(?P<facts>.+?),?\s+et\s+(?:que|qu['’]est-ce\s+que)\s+(?:dit|disent)\s+(?:la|le|les|l['’]|leur|leurs|son|sa|ses)\s*"
    r"(?P<docs>[\w\s'’-]+?)\s+(?:sur|concernant|à\s+propos\s+d[eu]s?|au\s+sujet\s+d[eu]s?)\s+(?P<topic>.+?)" + END,
    re.IGNORECASE,
)
FACTS_ASKS = (
    (FACTS_THEN_SEARCH, "What do the {docs} say about {topic}?"),
    (FACTS_THEN_SEARCH_DE, "Was sagt {docs} über {topic}?"),
    (FACTS_THEN_SEARCH_FR, "Que dit {docs} sur {topic} ?"),
)
# "Which site has the most servers" is a grouped count whose top group is the value the follow-up needs:
# (pattern, the grouped request, which end of the grouping)
SUPERLATIVES = (
    (
        re.compile(
            r"^(?:which|what)\s+(?P<group>[\w-]+(?:\s+[\w-]+)?)\s+(?:has|have|had|holds|hosts)\s+the\s+"
            r"(?P<end>most|fewest|least)\s+(?P<what>.+)$",
            re.IGNORECASE,
        ),
        "Number of {what} per {group}",
    ),
    (
        re.compile(
            r"^(?:welche[rsnm]?)\s+(?P<group>[\w-]+)\s+(?:hat|haben)\s+die\s+(?P<end>meisten|wenigsten)\s+"
            r"(?P<what>.+)$",
            re.IGNORECASE,
        ),
        "Anzahl der {what} pro {group}",
    ),
    (
        re.compile(
            r"^(?:quel(?:le)?s?)\s+(?P<group>[\w-]+)\s+(?:a|ont)\s+le\s+(?P<end>plus|moins)\s+d(?:e\s+|['’])"
            r"(?P<what>.+)$",
            re.IGNORECASE,
        ),
        "Nombre de {what} par {group}",
    ),
)
FEWEST = {"fewest", "least", "wenigsten", "moins"}
BOTH = re.compile(r"^both\s+|(?<=\s)both\s+(?=(?:the|a|an)\s)", re.IGNORECASE)
RESPECTIVELY = re.compile(r",?\s+(?:respectively|jeweils|respectivement)(?=[\s?.!]*$)", re.IGNORECASE)
BACK_REFERENCE = re.compile(
    r"\b(?:it|its|they|them|their|there|this|that|these|those"
    r"|es|ihn|ihm|ihr|ihre[mnrs]?|seine[mnrs]?|dort|dessen|deren|diese[mnrs]?"  # German ("sie" is also "Sie")
    # German pronominal adverbs ("wie viele davon", "wie viel Öl braucht sie dabei"); not "damit" ("so that")
    # nor "danach" ("afterwards")
    r"|davon|dabei|dafür|dazu|darüber|daran|darauf|darin|dorthin"
    # French ("le", "la", "y", "en" are ambiguous); "est-elle", "sont-ils" only invert the subject
    r"|(?<![-‑])(?:il|elle|ils|elles)|lui|son|sa|ses|leurs?|celui|celle|ceux|là)\b",
    re.IGNORECASE,
)
# A first question that asks which thing (or who): a back-reference after it means the thing found, so it
# stands for the found document's name. Any other first question is about what it names itself.
ENTITY_QUESTION = re.compile(
    # "quel est ..." asks what, not which: "Quel est le poids du RX-300 ?" is about the RX-300
    r"^(?:which|who|whom|welche[rsnm]?|wer|quel(?:le)?s?(?!\s+(?:est|sont|était|étaient)\b)|qui|lequel|laquelle)\b",
    re.IGNORECASE,
)
# A question for one attribute ("what is the warranty period of ..."), not a filter over rows
ATTRIBUTE_QUESTION = re.compile(
    r"^(?:(?:what|which)\s+(?:is|are|was|were)\s+the|when|where|why|who|how\s+(?!many\b)\w+)\b", re.IGNORECASE
)
LOOKUP = re.compile(LOOKUP_REQUEST + r"\s", re.IGNORECASE)
LIST_OPENING = re.compile(r"^(?:(?:the|all|which|what|list|show)\s+)+", re.IGNORECASE)
# A pronoun that stands for the listed things after a verb or preposition ("working on them")
OBJECT_PRONOUN = re.compile(r"(?<=\w\s)(?:them|they)\b", re.IGNORECASE)


@dataclass(frozen=True)
class PlannedStep:
    tool: str
    arguments: dict[str, Any]
    label: str  # the part of the question this step answers, as the answer shows it
    ask: str = ""  # the question its passages answer ("" for query_facts: its result states the figure)
    scope: str = ""  # "", EACH_VALUE or FOUND_DOCUMENTS
    refer: str = ""  # DOCUMENT: its back-reference is resolved to the name of the document found before
    pick: str = ""  # a query_facts step's grouping: "most" or "fewest" keeps only that end's key
    unvalued: bool = False  # a per-value step with a topic of its own: asked once without values if none answers


@dataclass(frozen=True)
class Plan:
    form: str
    steps: tuple[PlannedStep, ...] = field(default_factory=tuple)


_EARLIER = re.compile(r"\b(?:old|older|previous|former|earlier|archived|superseded)\b", re.IGNORECASE)


def plan(question: str, facts: bool = False) -> Plan:
    """The plan for `question`; `facts` says whether the query_facts tool exists."""
    text = " ".join(question.split())
    facts_forms = (_facts_then_search, _most_then_ask, _embedded) if facts else ()
    in_context = functools.partial(_in_context, facts=facts)
    for form in (_section, _each_code, *facts_forms, _compare, in_context, _two_questions, _relative, _coordinated):
        found = form(text)
        if found is not None:
            return found
    return Plan("single", (_search(text, text),))


def _each_code(text: str) -> Plan | None:
    """ "E-1420 on the controller and E-2240 on a drive: what do those two codes mean?": each code's entry."""
    codes = every_code(text)
    return (
        Plan("lookup_each", tuple(PlannedStep("lookup", {"name": c}, c, f"What does {c} mean?") for c in codes))
        if codes
        else None
    )


def _in_context(text: str, facts: bool) -> Plan | None:
    """ "I want to hire a standpipe. How big is the deposit, and what is the daily charge?", "The Lille depot:
    until when ..., and where do its parts come from?": the question's plan, each search framed by the context
    (fragments.split_context); a topic also stands for the question's back-references. None when the question
    alone is one step."""
    found = split_context(text)
    if found is None:
        return None
    context, rest = found
    name = topic_name(context)
    rest = code_for_that(rest, context)  # "The pendant shows E-101. What is that error ...?"
    rest = there_in_context(rest, context)  # "Ich wohne in Weißbach. ..., und wann hat das Kundencenter dort ...?"
    inner = plan(resolve_back_reference(rest, name) if name else rest, facts)
    if len(inner.steps) < 2:
        return None
    return Plan(inner.form, tuple(_framed(step, context) for step in inner.steps))


def _framed(step: PlannedStep, context: str) -> PlannedStep:
    query = str(step.arguments.get("query", ""))
    if step.tool != "semantic_search" or context.lower() in query.lower():
        return step
    # a question anchored to a code the context names already (anchored_to): framed once, by the context
    query, ask = (unanchored(text, context) for text in (query, step.ask))
    return dataclasses.replace(
        step, arguments={**step.arguments, "query": f"{context}: {query}"}, ask=f"{context}: {ask}"
    )


def _search(
    query: str, label: str, ask: str | None = None, scope: str = "", refer: str = "", **extra: Any
) -> PlannedStep:
    return PlannedStep("semantic_search", {"query": query, **extra}, label, ask or query, scope, refer)


def _section(text: str) -> Plan | None:
    m = SECTION.match(text)
    if m is None:
        return None
    args = {"doc_id": m["doc"], "heading": m["heading"]}
    return Plan("section", (PlannedStep("read_document_section", args, m["heading"], text),))


def _facts_then_search(text: str) -> Plan | None:
    # "For each server in wave1, what does the runbook say about ...?": the filter, then its follow-up
    reading = distributive(text) or text
    parts = split_clauses(reading)
    # "How many servers are in wave3? Tell me what the runbooks say about them.": one filter and its follow-up
    joined = f"{parts[0].rstrip(' ?')}, and {parts[1][:1].lower()}{parts[1][1:]}" if len(parts) == 2 else reading
    matches = ((m, ask) for pattern, ask in FACTS_ASKS for r in (reading, joined) if (m := pattern.match(r)))
    found = next(matches, None)
    if found is None:
        return None
    m, ask_template = found
    facts = m["facts"].strip()
    if ATTRIBUTE_QUESTION.match(facts):
        # "What is the warranty period of the RX-300 battery, and what does ... say": no filter over rows
        return None
    docs = m["docs"].strip()
    # "about them": the values themselves; "working on them": the things the filter lists ("holidays")
    topic = OBJECT_PRONOUN.sub(head_noun(facts), m["topic"]) if head_noun(facts) else m["topic"]
    topic = " ".join(BACK_REFERENCE.sub(" ", topic).split())
    follow = " ".join(("{value}", docs, topic)).strip()
    label = f"{{value}}: {docs}" + (f" on {topic}" if topic else "")
    if ask_template is FACTS_ASKS[0][1]:
        ask = (
            f"What do the {docs} say about {topic} for {{value}}?"
            if topic
            else f"What do the {docs} say about {{value}}?"
        )
    else:
        ask = ask_template.format(docs=docs, topic=topic or "{value}")
    request, pick = superlative(facts)
    return Plan(
        "facts_then_search",
        (
            PlannedStep("query_facts", {"request": request}, facts, pick=pick),
            dataclasses.replace(_search(follow, label, ask, EACH_VALUE), unvalued=bool(topic)),
        ),
    )


def _most_then_ask(text: str) -> Plan | None:
    """ "Which site has the fewest printers, and what is the UPS runtime of its server room?": the grouped
    count, then the follow-up asked of the group at that end, its back-reference resolved to the group."""
    parts = split_clauses(text)
    if len(parts) != 2:
        return None
    first, second = parts
    request, pick = superlative(first)
    if not pick or REFERRING.search(second) is None:
        return None
    follow = resolve_back_reference(second, "{value}")
    return Plan(
        "facts_then_search",
        (PlannedStep("query_facts", {"request": request}, first, pick=pick), _search(follow, follow, scope=EACH_VALUE)),
    )


def _embedded(text: str) -> Plan | None:
    """ "What is the UPS runtime at the site with the fewest printers?": the grouped count, then the question
    asked of the group at that end (coordination.embedded_superlative)."""
    found = embedded_superlative(text)
    if found is None:
        return None
    request, pick, follow = found
    grouped = PlannedStep("query_facts", {"request": request}, request, pick=pick)
    return Plan("facts_then_search", (grouped, _search(follow, follow, scope=EACH_VALUE)))


def _coordinated(text: str) -> Plan | None:
    """ "What are the courier cut-offs of the Lille and Lyon depots?": the question asked of each conjunct."""
    found = coordinated(
        RESPECTIVELY.sub("", BOTH.sub("", REQUEST.sub("", text)))
    )  # "Tell me (both) the mileage rate for A as well as ..."
    if found is None:
        return None
    (label_a, ask_a), (label_b, ask_b) = found
    ask_b = resolve_one(ask_a, ask_b)  # "the print server in Zürich as well as the one in Basel"
    return Plan("compare", (_search(ask_a, label_a, ask_a), _search(ask_b, label_b, ask_b)))


def head_noun(phrase: str) -> str:
    """The plural noun a fact filter lists, its first word after a determiner or question word ("The
    holidays observed by all offices" -> "holidays"); "" when that word is no English plural."""
    words = LIST_OPENING.sub("", phrase.strip()).split()
    head = words[0].lower() if words else ""
    return head if len(head) > 3 and head.endswith("s") and not head.endswith("ss") else ""


def superlative(facts: str) -> tuple[str, str]:
    """A fact request that asks for the group with the most (or fewest) rows, as the grouped count it needs
    and which end to keep: "Which site has the most servers" -> ("Number of servers per site", "most").
    Any other request is returned as it is, with ""."""
    for pattern, grouped in SUPERLATIVES:
        m = pattern.match(facts.strip().rstrip("?").strip())
        if m is not None:
            end = "fewest" if m["end"].lower() in FEWEST else "most"
            return grouped.format(what=m["what"].strip(), group=m["group"].strip()), end
    return facts, ""


def _compare(text: str) -> Plan | None:
    """A comparison of two sides (comparison.compare_sides): one search per side. A comparison asked in a
    sentence of its own, then another question ("Welches Kundencenter hat donnerstags länger offen, Aarlingen
    oder Weißbach? Und wo genau finde ich das in Weißbach?"): the sides, then a search for the other."""
    asked = ASKED_FIRST.match(text)
    if asked is not None and (sides := compare_sides(asked["first"])):
        rest = split_clauses(text)
        second = rest[1] if len(rest) == 2 else asked["rest"]
        steps = [_search(query, label, ask) for query, label, ask in sides]
        return Plan("compare", (*steps, *_of_each_side(second, [label for _, label, _ in sides])))
    sides = compare_sides(text)
    return Plan("compare", tuple(_search(query, label, ask) for query, label, ask in sides)) if sides else None


# A question mark before the end: a first question, then the rest
ASKED_FIRST = re.compile(r"^(?P<first>[^?]+\?)\s+(?P<rest>\S.*)$")
# What a question after a comparison calls the side that wins it: "the heavier one", "that one", "est-elle"
ONE_OF_TWO = re.compile(r"\bthe\s+\w+(?:er|est)\s+one\b|\b(?:that|this)\s+one\b", re.IGNORECASE)
SIDE_REFERENCE = re.compile(rf"{ONE_OF_TWO.pattern}|-(?:t-)?(?:elle|il)\b", re.IGNORECASE)
DEMONSTRATIVE_SIDE = re.compile(r"^(?:celle|celui|ceux|celles|that|those|the\s+one)\b", re.IGNORECASE)


def _of_each_side(question: str, labels: list[str]) -> list[PlannedStep]:
    """The question after a comparison: asked of each side when it refers back to one ("And what IP rating does
    the heavier one have?", "Und bis wann muss ich dort ...?", "Et est-elle ouverte le samedi ?"), framed by
    its name, so both answers are there whichever side wins; else asked as it is."""
    names = [_side_name(label) for label in labels]
    refers = BACK_REFERENCE.search(question) or SIDE_REFERENCE.search(question)
    if not refers or any(name.lower() in question.lower() for name in names):
        return [_search(question, question)]
    # "the heavier one" is replaced by each name, "dort" by "in <name>"; any other reference is framed by it
    one = ONE_OF_TWO.search(question)
    asked = [ONE_OF_TWO.sub(name, question, count=1) if one else there_as(question, name) or f"{name}: {question}"
             for name in names]  # fmt: skip
    return [_search(ask, ask) for ask in asked]


def _side_name(label: str) -> str:
    """A comparison side by its name: "celle de Brandholm" is "Brandholm", "the Lisbon depot" stays whole."""
    entities = named_entities(label) if DEMONSTRATIVE_SIDE.match(label) else []
    return entities[-1].group() if entities else label


def _two_questions(text: str) -> Plan | None:
    parts = split_clauses(text)
    third = ""
    if len(parts) == 2 and len(rest := split_clauses(parts[1])) == 2:
        # "Can I call on Saturdays, and if so, when? Also, is the hotline open on holidays?": the first two
        # parts as a pair, the third asked on its own
        parts, third = [parts[0], rest[0]], rest[1]
    if len(parts) != 2:
        # "How long must a flight be for premium economy, and for business class?", "When does X open on
        # Saturdays and close on weekdays?"
        parts = elliptic_tail(text) or coordinated_predicates(text)
    if len(parts) != 2:
        return None
    pair = _pair(parts)
    if not third:
        return pair
    return Plan(pair.form, (*pair.steps, _search(anchored_to(parts[0], third) or third, third)))


def _pair(parts: list[str]) -> Plan:
    """The plan of two clauses: independent, elliptic, or the second depending on what the first finds."""
    first, second = parts[0], resolve_one(*parts)
    if of_name := named_one(*parts):
        # "..., and what is the Dresden one?": the first question asked of Dresden
        return Plan("two_questions", (_search(first, first), _search(of_name, of_name)))
    other = elliptic_other(second)
    if other:
        # "..., and what about Basel?": the first question asked of the other entity
        second = replace_entity(first, other)
        return Plan("two_questions", (_search(first, first), _search(second, second)))
    listed = list_of_count(first, second)
    if listed:
        # "How many printers does LYO have, and which are they?": the count, then the same rows listed
        return Plan("two_questions", (_search(first, first), _search(listed, listed)))
    expanded = gapped(first, second) or expand_ellipsis(first, second)
    if expanded:
        # "Und Porto?", "And for an extended family member?", "Et sa portée ?": the first question again
        return Plan("two_questions", (_search(first, first), _search(expanded, expanded)))
    named = [m.group() for m in IDENTIFIER.finditer(first)]
    refers = (BACK_REFERENCE.search(second) or has_object_clitic(second)) and not self_contained(second)
    if named and not refers and LOOKUP.match(first) and is_definition(first, named[0]):
        # "Look up INV-71 and tell me what the patient should do": the rest is asked of what was looked up
        step = PlannedStep("lookup", {"name": named[0]}, first, first)
        return Plan("lookup_then_ask", (step, _search(f"{named[0]} {second}", second, scope=FOUND_DOCUMENTS)))
    if not refers:
        follow_up = _search(anchored_to(first, second) or second, second)
        if named and is_definition(first, named[0]):
            # "What is error E-101, and how long must the arm cool down?": the code's entry (its heading names
            # it: "E-101 Joint Overtemperature"), then the other question
            return Plan("two_questions", (PlannedStep("lookup", {"name": named[0]}, first, first), follow_up))
        return Plan("two_questions", (_search(first, first), follow_up))
    if ENTITY_QUESTION.match(first):
        # "Which depot hosts X, and when does it close?": "it" is the depot found, named after the search
        return Plan(
            "find_then_ask", (_search(first, first), _search(second, second, scope=FOUND_DOCUMENTS, refer=DOCUMENT))
        )
    if named and is_definition(first, named[0]):
        step = PlannedStep("lookup", {"name": named[0]}, first, first)
        # the identifier is what "it" stands for: the search and the label name it; the passages answer the
        # question as asked, else the sentences that repeat the identifier outscore the one that answers
        resolved = resolve_back_reference(second, named[0])
        return Plan("lookup_then_ask", (step, _search(resolved, resolved, second, scope=FOUND_DOCUMENTS)))
    # "How long does CarePlus extend the warranty, and until when can it be bought?": "it" is what the first
    # question names (a name or an identifier), else the noun phrase it counts or is about ("How long is
    # parental leave, and within what period must it be taken?"); with none the second is asked as it is
    # the owner of the attribute asked ("of the WMS service") before any other name ("P1")
    entities = named_entities(first)
    owner = owner_phrase(first)
    name = owner or (entities[0].group() if entities else (antecedent(first) if agrees(first, second) else ""))
    resolved = resolve_back_reference(second, name) if name else second
    resolved = resolve_foreign_reference(first, resolved)  # "es", "il": English "it" above
    resolved = resolve_clitic(first, resolved)  # "Peut-on le fractionner ?"
    resolved = resolve_possessive(resolved, entities[0].group() if entities else "")  # "son autonomie"
    # "..., and how long were they kept under the old version 2.4?": another version's document, not the one found
    elsewhere = {m.group() for m in IDENTIFIER.finditer(second)} - set(named)
    scope = "" if elsewhere or _EARLIER.search(second) else FOUND_DOCUMENTS
    return Plan("find_then_ask", (_search(first, first), _search(resolved, resolved, scope=scope)))


def _relative(text: str) -> Plan | None:
    """ "What is the courier cut-off of the depot that houses the lab?": find the depot, then ask of it."""
    parts = relative_parts(text)
    if parts is None:
        return None
    find, ask = parts
    return Plan("find_then_ask", (_search(find, find), _search(ask, ask, scope=FOUND_DOCUMENTS, refer=DOCUMENT)))
