"""The offline planner: a compound question becomes a fixed sequence of tool calls, by its form.

Pure (no engine, no I/O): `plan(question, facts=...)` returns the same plan for the same question. The
forms, tried in this order (docs/agent.md lists them with examples):

- `section`: "what does the <heading> section of <doc_id> say" -> read_document_section.
- `facts_then_search` (only when facts are available): "<fact filter>, and what (their|its|the) <documents>
  say about <topic>" -> query_facts, then one semantic_search per value it found, "<value> <documents>
  <topic>".
- `compare`: "compare <aspect> of <A> and <B>", "compare <A> and <B> on <aspect>", "what is the difference
  between <A> and <B> (in <aspect>)" -> one semantic_search per side.
- `two_questions`: "<question 1>, and [preposition] <wh-word> ...", or two questions in a row. When the
  second refers back (its, their, it, there, ...) it is searched within the documents the first step found
  (`find_then_ask`), its "it"/"its"/"they"/"their" replaced by what the first step found (the document's
  name, `resolve_back_reference`); a first part that names an identifier (E-1042, NR-4471-B) is a `lookup`
  (`lookup_then_ask`) and the identifier replaces them in the search. Otherwise the two are searched
  independently.

Anything else is `single`: one semantic_search answered as /ask answers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from strata_pipeline.embedding.identifiers import IDENTIFIER

# Scopes of a step that depends on an earlier one
EACH_VALUE = "each_value"  # one call per value the previous (query_facts) step found; "{value}" in the query
FOUND_DOCUMENTS = "found_documents"  # restricted to the documents the previous step found

WH = r"(?:what|which|who|whom|whose|when|where|how|why|is|are|was|were|does|do|did|can|could|should|must)"
END = r"[\s?.!]*$"
SECTION = re.compile(
    r"^(?:what\s+does|what\s+do|show(?:\s+me)?|read)\s+(?:the\s+)?[\"'“‘]?(?P<heading>.+?)[\"'”’]?\s+section\s+"
    r"(?:of|in)\s+(?P<doc>[\w./-]+\.\w+)(?:\s+say)?" + END,
    re.IGNORECASE,
)
FACTS_THEN_SEARCH = re.compile(
    r"^(?P<facts>.+?),?\s+and\s+what\s+(?:(?:do|does|did)\s+)?(?:their|its|the|each|these|those)\s+(?P<docs>[\w\s-]+?)\s+"
    r"say\s+(?:about|on|regarding)\s+(?P<topic>.+?)" + END,
    re.IGNORECASE,
)
JOIN = r"\s+(?:and|with|to|versus|vs\.?)\s+"
COMPARE = re.compile(r"^(?:compare|contrast)\s+(?P<rest>.+?)" + END, re.IGNORECASE)
DIFFERENCE = re.compile(
    r"^(?:what\s+is|what's|what\s+are)\s+the\s+differences?\s+between\s+(?P<a>.+?)" + JOIN + r"(?P<b>.+?)"
    r"(?:\s+(?:in|on|regarding|for|when\s+it\s+comes\s+to)\s+(?P<aspect>.+?))?" + END,
    re.IGNORECASE,
)
ASPECT_FIRST = re.compile(
    r"^(?:the\s+)?(?P<aspect>.+?)\s+(?:of|for|at|between)\s+(?P<a>.+?)" + JOIN + r"(?P<b>.+)$", re.IGNORECASE
)
SIDES_FIRST = re.compile(
    r"^(?P<a>.+?)" + JOIN + r"(?P<b>.+?)(?:\s+(?:on|for|regarding|in\s+terms\s+of|by)\s+(?P<aspect>.+))?$",
    re.IGNORECASE,
)
# "..., and until when ...", "..., and in which city ...": a preposition may lead the second question
PREPOSITION = r"(?:until|till|since|by|for|from|in|at|on|to|with)"
SPLIT = re.compile(r"(?:,\s*|\s+)and\s+(?=(?:" + PREPOSITION + r"\s+)?" + WH + r"\b)|(?<=\?)\s+(?=\S)", re.IGNORECASE)
BACK_REFERENCE = re.compile(r"\b(?:it|its|they|them|their|there|this|that|these|those)\b", re.IGNORECASE)
LEADING_THE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)
# The back-references an entity can stand in for ("this", "that", "there" also start other phrases)
REFERRING = re.compile(r"\b(?P<word>it|its|they|them|their)\b", re.IGNORECASE)
# Where a document title stops naming its subject: "Munich Depot - Site Information" -> "Munich Depot"
TITLE_TAIL = re.compile(r"\s+[-\u2013\u2014|]\s+.*$|:\s.*$")


@dataclass(frozen=True)
class PlannedStep:
    tool: str
    arguments: dict[str, Any]
    label: str  # the part of the question this step answers, as the answer shows it
    ask: str = ""  # the question its passages answer ("" for query_facts: its result states the figure)
    scope: str = ""  # "", EACH_VALUE or FOUND_DOCUMENTS


@dataclass(frozen=True)
class Plan:
    form: str
    steps: tuple[PlannedStep, ...] = field(default_factory=tuple)


def plan(question: str, facts: bool = False) -> Plan:
    """The plan for `question`; `facts` says whether the query_facts tool exists."""
    text = " ".join(question.split())
    for form in (_section, _facts_then_search if facts else None, _compare, _two_questions):
        found = form(text) if form else None
        if found is not None:
            return found
    return Plan("single", (_search(text, text),))


def _search(query: str, label: str, ask: str | None = None, scope: str = "", **extra: Any) -> PlannedStep:
    return PlannedStep("semantic_search", {"query": query, **extra}, label, ask or query, scope)


def _section(text: str) -> Plan | None:
    m = SECTION.match(text)
    if m is None:
        return None
    args = {"doc_id": m["doc"], "heading": m["heading"]}
    return Plan("section", (PlannedStep("read_document_section", args, m["heading"], text),))


def _facts_then_search(text: str) -> Plan | None:
    m = FACTS_THEN_SEARCH.match(text)
    if m is None:
        return None
    facts = m["facts"].strip()
    docs = m["docs"].strip()
    topic = " ".join(BACK_REFERENCE.sub(" ", m["topic"]).split())  # "about them": the values themselves
    follow = " ".join(("{value}", docs, topic)).strip()
    label = f"{{value}}: {docs}" + (f" on {topic}" if topic else "")
    ask = (
        f"What do the {docs} say about {topic} for {{value}}?" if topic else f"What do the {docs} say about {{value}}?"
    )
    return Plan(
        "facts_then_search",
        (PlannedStep("query_facts", {"request": facts}, facts), _search(follow, label, ask, EACH_VALUE)),
    )


def _compare(text: str) -> Plan | None:
    m = DIFFERENCE.match(text)
    if m is not None:
        a, b, aspect = m["a"], m["b"], m["aspect"]
    else:
        m = COMPARE.match(text)
        if m is None:
            return None
        rest = m["rest"]
        sides = ASPECT_FIRST.match(rest) or SIDES_FIRST.match(rest)
        if sides is None:
            return None
        a, b, aspect = sides["a"], sides["b"], sides.groupdict().get("aspect")
    steps = []
    for side in (a.strip(), b.strip()):
        query = f"{LEADING_THE.sub('', aspect.strip())} of {side}" if aspect else side
        steps.append(_search(query, side, f"What is the {query}?" if aspect else query))
    return Plan("compare", tuple(steps))


def _two_questions(text: str) -> Plan | None:
    parts = [p.strip(" ,") for p in SPLIT.split(text, maxsplit=1)]
    if len(parts) != 2 or not all(parts):
        return None
    first, second = (p if p.endswith("?") else p + "?" for p in parts)
    second = second[0].upper() + second[1:]
    if not BACK_REFERENCE.search(second):
        return Plan("two_questions", (_search(first, first), _search(second, second)))
    named = [m.group() for m in IDENTIFIER.finditer(first)]
    if named:
        step = PlannedStep("lookup", {"name": named[0]}, first, first)
        # the identifier is what "it" stands for: the search and the label name it; the passages answer the
        # question as asked, else the sentences that repeat the identifier outscore the one that answers
        resolved = resolve_back_reference(second, named[0])
        return Plan("lookup_then_ask", (step, _search(resolved, resolved, second, scope=FOUND_DOCUMENTS)))
    return Plan("find_then_ask", (_search(first, first), _search(second, second, scope=FOUND_DOCUMENTS)))


def resolve_back_reference(question: str, entity: str) -> str:
    """`question` with "it", "they", "them" replaced by `entity` and "its", "their" by "<entity>'s":
    "What time does it close?" -> "What time does Munich Depot close?". A question that says neither is
    returned as it is, and so is any question when `entity` is empty."""
    entity = " ".join(entity.split())
    if not entity:
        return question

    def name(m: re.Match[str]) -> str:
        return f"{entity}'s" if m["word"].lower() in ("its", "their") else entity

    return REFERRING.sub(name, question)


def entity_name(title: str, doc_id: str = "") -> str:
    """What a found document is about, to stand in for a back-reference: its title up to a dash or colon
    ("Munich Depot - Site Information" -> "Munich Depot"), else its file name ("sites/lyon-depot.md" ->
    "lyon depot")."""
    head = TITLE_TAIL.sub("", " ".join(title.split())).strip()
    if head:
        return head
    stem = doc_id.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return " ".join(re.split(r"[-_\s]+", stem)).strip()
