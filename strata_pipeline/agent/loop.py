"""Run the agent: the offline planner's steps, or Claude's tool calls, then one audited answer.

Offline each step's passages are answered as /ask answers them (QueryEngine.ask: extractive, quoted,
cited), or by the table row its question names (rows.py); a query_facts step answers with its exact
figure and cites the rows it counted. A dependent step is asked of what the step before it found: its
back-reference resolved to that document's name, or run once on a count's filter values. The parts are
joined under their labels and the whole answer passes the engine's privacy audit once more.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from strata_pipeline.agent.claude_loop import ToolUser, run_with_claude, uses_tools
from strata_pipeline.agent.coreference import bind_demonstrative
from strata_pipeline.agent.documents import document_chunks, sections
from strata_pipeline.agent.planner import DOCUMENT, EACH_VALUE, FOUND_DOCUMENTS, Plan, PlannedStep, plan
from strata_pipeline.agent.references import NAME_WORD, entity_name, named_in, resolve_back_reference
from strata_pipeline.agent.rows import Row, as_answer, asks_column, found_row
from strata_pipeline.agent.tools import (
    AgentBudgetExceeded,
    Budget,
    Observation,
    Step,
    Toolbox,
    defines,
    fact_citations,
    has_facts,
)
from strata_pipeline.answering.answer import Answer, Citation
from strata_pipeline.answering.headings import deepest_heading
from strata_pipeline.embedding.identifiers import IDENTIFIER, identifiers
from strata_pipeline.indexing.engine import DENSE
from strata_pipeline.injection.defence import sanitise
from strata_pipeline.retrieval.candidate import Candidate
from strata_pipeline.retrieval.search import UnknownSourceSetError

if TYPE_CHECKING:
    from strata_pipeline.query_engine import QueryEngine

MAX_VALUES = 5  # follow-up searches after a query_facts step, one per value found
# A scoped step's sentence that states the kind of value asked is quoted first within this much of the best
# score: the answerer's margin for statements as good as the best (AnswerConfig.conflict_margin). "Saturday:
# closed" outscores "Monday to Friday: 07:00 - 17:00" by 0.06 for "close on weekdays" ("closed" shares a word)
SCOPED_KIND_MARGIN = 0.08
FOLLOW_DOCUMENTS = 1  # documents a dependent step is restricted to: the best one the first step found


@dataclass
class AgentResult:
    question: str  # as answered: personal data replaced by placeholders
    answer: Answer
    trajectory: list[Step] = field(default_factory=list)
    form: str = ""  # the planner's form, or "claude"


def run_agent(
    engine: QueryEngine,
    question: str,
    history: Sequence[dict[str, str]] = (),
    k: int = 5,
    source_sets: list[str] | None = None,
    budget: Budget | None = None,
    client: Any = None,
) -> AgentResult:
    """Answer `question` (after `history`, a list of {role, content}) with the tools of `engine`, a
    scoped engine: the caller's access holds for every call. With a tool-using Claude client (`client`,
    else the engine's llm when enabled) Claude chooses the calls; otherwise the offline planner does.
    AgentBudgetExceeded when the steps or tokens run out; AnswerWithheld when the audit fails."""
    budget = budget or Budget()
    unknown = sorted(set(source_sets or ()) - set(engine.versions))
    if unknown:  # the request's own scope: a 404, not a failed tool call
        raise UnknownSourceSetError(
            f"No published index for source-set(s): {', '.join(unknown)}. "
            f"Published: {', '.join(sorted(engine.versions)) or 'none'}."
        )
    question = engine.redact_query(question).text
    toolbox = Toolbox(engine, k, source_sets)
    llm = client if client is not None else engine.llm
    if uses_tools(llm):
        turns = [{"role": m["role"], "content": engine.redact_query(m["content"]).text} for m in history]
        answer, context = run_with_claude(toolbox, cast(ToolUser, llm), question, turns, budget)
        answer = engine.audited_answer(answer, context)
        answer.routing = agent_routing("claude", toolbox.steps)
        return AgentResult(question, answer, toolbox.steps, "claude")
    planned = plan(question, facts=has_facts(engine))
    if has_facts(engine):
        planned = routed(planned, lambda part: engine.route(part, source_sets).route == "aggregation")
    answer, context = run_plan(toolbox, planned, budget)
    answer = engine.audited_answer(answer, context, asked_labels(answer.text, question))  # question: redacted above
    answer.routing = agent_routing(planned.form, toolbox.steps, answer.routing)
    return AgentResult(question, answer, toolbox.steps, planned.form)


def routed(planned: Plan, aggregation: Callable[[str], bool]) -> Plan:
    """The plan with each part that stands on its own and that the router calls an aggregation (`aggregation`)
    asked as one query_facts call, as a routed ask would answer it: "How many servers are in ZRH, and
    what is the mileage rate?" counts, then searches. A part scoped to what an earlier step found, and
    the sides of a comparison, are searches whatever they ask."""
    if planned.form not in ("single", "two_questions", "find_then_ask"):
        return planned
    steps = tuple(
        PlannedStep("query_facts", {"request": step.ask}, step.label)
        if step.tool == "semantic_search" and not step.scope and aggregation(step.ask)
        else step
        for step in planned.steps
    )
    return Plan(planned.form, steps)


def agent_routing(form: str, steps: list[Step], single: Any = None) -> Any:
    """The routing block of an agent answer: the route its tool calls amount to, the plan, engine "agent".
    A single-step plan keeps the route its routed ask chose."""
    from strata_pipeline.routing.route import Routing

    tools = {s.tool for s in steps}
    if single is not None and form == "single":
        return Routing(single.route, f"agent: one routed ask ({single.reason})", "agent", single.confidence)
    if "query_facts" in tools:
        route = "hybrid" if tools - {"query_facts"} else "aggregation"
    elif (tools and tools <= {"lookup", "read_document_section"}) or form in ("lookup_then_ask", "section"):
        route = "lookup"
    else:
        route = "semantic"
    return Routing(route, f"agent: {form} plan, {len(steps)} tool calls ({', '.join(s.tool for s in steps)})", "agent")


def run_plan(toolbox: Toolbox, planned: Plan, budget: Budget) -> tuple[Answer, list[Candidate]]:
    """Each planned step (a dependent one once per value or within the documents found before), each
    result answered; the composed answer and every passage it was read from."""
    parts: list[tuple[str, Answer]] = []
    context: list[Candidate] = []
    previous: tuple[Observation, Answer] | None = None
    pick = asked = ""
    row: tuple[Candidate, Row] | None = None  # the table row the previous step answered with
    for step in planned.steps:
        first: tuple[Observation, Answer] | None = None
        carried = row if step.scope == FOUND_DOCUMENTS else None
        row = None
        bound = bind_demonstrative(step.ask, carried[1].header, carried[1].cells) if carried is not None else ""
        if bound and step.tool == "semantic_search":
            # "When does that wave run?" after the row "patch_wave: wave0": asked of the value, in any document
            step = dataclasses.replace(step, arguments={**step.arguments, "query": bound}, label=bound, ask=bound)
            step, carried = dataclasses.replace(step, scope="", refer=""), None
        calls = _expand(step, previous, pick, asked)
        facts = previous[0].facts if previous is not None else None
        valued = step.unvalued and facts is not None and bool(_values(facts.value, pick))
        step_answers: list[Answer] = []
        queue = list(calls)
        while queue:
            arguments, label, ask = queue.pop(0)
            if len(toolbox.steps) >= budget.max_steps:
                raise AgentBudgetExceeded(
                    f"The agent's step budget ({budget.max_steps} tool calls) ran out before the question was "
                    "answered; ask a narrower question or raise STRATA_AGENT_MAX_STEPS."
                )
            observation = toolbox.call(step.tool, arguments)
            if step.scope == EACH_VALUE and previous is not None:
                observation = _beside_table(observation, previous[0])
            about = f"{ask} {arguments.get('query', '')}"
            answer, answered_row = _part_answer(
                toolbox,
                observation,
                ask,
                about,
                step.tool,
                bool(arguments.get("doc_ids")),
                step.pick,
                carried,
                dependent=bool(step.scope),
            )
            row = row or answered_row
            parts.append((label, answer))
            context += observation.passages
            first = first or (observation, answer)
            step_answers.append(answer)
            if not queue and valued and len(step_answers) == len(calls) and all(a.abstained for a in step_answers):
                # no value's own passages answered ("what the on-call policy says about working on them"
                # is said of holidays in general): the question once more, without the values
                queue.append(_unvalued(step, facts))
        previous, pick, asked = first, step.pick, step.ask
    return compose(parts), context


def _expand(
    step: PlannedStep, previous: tuple[Observation, Answer] | None, pick: str = "", asked: str = ""
) -> list[tuple[dict[str, Any], str, str]]:
    """The calls one planned step makes: (arguments, label, question its passages answer). `pick` is the
    previous (query_facts) step's: "most" or "fewest" follows up only that end of its grouping; `asked` is
    the previous step's question."""
    observation = previous[0] if previous is not None else None
    chained = _chained(step, previous, asked)
    if chained:
        # "Which server is behind error KF-5201, and which patch wave is it in?": asked of the server the
        # answer named, wherever its own record is
        ask = resolve_back_reference(step.ask, chained)
        query = resolve_back_reference(str(step.arguments.get("query", "")), chained)
        return [({**step.arguments, "query": query}, ask, ask)]
    if step.scope == EACH_VALUE:
        facts = observation.facts if observation is not None else None
        values = _values(facts.value, pick) if facts is not None else []
        if not values:
            # a count or a single figure names no entity: the follow-up still runs once, searching on what
            # the filter named ("wave3 runbooks patching"), or on the topic alone. Its question leaves the
            # filter out: the documents about the topic need not repeat it ("Munich" for a count of Munich's
            # holidays), and the answerer abstains when a quoted passage misses a name the question gives.
            named = _filter_values(facts)
            arguments = {k: _fill(v, named) for k, v in step.arguments.items()}
            return [(arguments, _fill(step.label, named), _fill(step.ask, ""))]
        return [
            ({k: _fill(v, value) for k, v in step.arguments.items()}, _fill(step.label, value), _fill(step.ask, value))
            for value in values[:MAX_VALUES]
        ]
    arguments = dict(step.arguments)
    label, ask = step.label, step.ask
    if step.scope == FOUND_DOCUMENTS and previous is not None:
        found = _found_documents(*previous)
        if found and step.refer == DOCUMENT and not previous[1].abstained:
            # the thing a "which ...?" step found is the one its answer names: that document first
            at = named_in(found, previous[1].text)
            found = [found[at], *found[:at], *found[at + 1 :]]
        if found:
            arguments["doc_ids"] = [doc_id for doc_id, _ in found[:FOLLOW_DOCUMENTS]]
            if step.refer == DOCUMENT:
                # "Which depot ..., and what time does it close?" is asked of what the first step found, by
                # its name (a lookup's identifier or a name the first question gave is already in the search)
                entity = entity_name(found[0][1], found[0][0])
                ask = label = resolve_back_reference(ask, entity)
                if "query" in arguments:
                    arguments["query"] = resolve_back_reference(str(arguments["query"]), entity)
    return [(arguments, label, ask)]


def _chained(step: PlannedStep, previous: tuple[Observation, Answer] | None, asked: str) -> str:
    """The identifier a "which ...?" step's answer found when that step asked from another identifier: one
    code leads to another ("KF-5201" -> "zrh-erp-lic-01"), and "it" stands for the one found; or the one
    value a fact step named ("RX300-AMR"). "" otherwise."""
    if step.refer != DOCUMENT or previous is None or previous[1].abstained:
        return ""
    facts = previous[0].facts
    if facts is not None:
        # "Which SKU has the longest lead time, and what does it cost?": "it" is the one row the figure named
        named = _values(facts.value)
        return named[0] if len(named) == 1 else ""
    if not identifiers(asked):
        return ""
    known = set(identifiers(asked))
    text = re.sub(r"\[[^\]\s]+\]", " ", previous[1].text)  # citations ("[a/b.md#s2]") name no thing
    # a code of joined parts names a thing ("zrh-erp-lic-01"); a short one is a level or a grade ("P2")
    codes = (m.group() for m in IDENTIFIER.finditer(text) if re.search(r"[-_./]", m.group()))
    found = list(dict.fromkeys(c for c in codes if c.lower() not in known))
    return found[0] if len(found) == 1 else ""


def _unvalued(step: PlannedStep, facts: Any) -> tuple[dict[str, Any], str, str]:
    """A per-value step's call on what the fact filter named instead of each value ("wave0 runbooks patching
    servers": the runbook speaks of waves, not of the hosts in one); its question leaves the values out."""
    named = _filter_values(facts)
    return ({k: _fill(v, named) for k, v in step.arguments.items()}, _fill(step.label, named), _fill(step.ask, ""))


def _beside_table(observation: Observation, facts_step: Observation) -> Observation:
    """A follow-up on the values a fact result found, without the passages of the table it read them from:
    "..., and what do the runbooks say about them?" asks what other documents say, and the value's own row
    would answer every such question with the record the figure already came from. Unchanged when no other
    passage is left."""
    tables = {row.doc_id for row in getattr(facts_step.facts, "rows", None) or ()}
    kept = [p for p in observation.passages if p.doc_id not in tables]
    if not tables or not kept or len(kept) == len(observation.passages):
        return observation
    return dataclasses.replace(observation, passages=kept)


def _found_documents(observation: Observation, answer: Answer) -> list[tuple[str, str]]:
    """(doc_id, title) of what a step found, best first: the documents its answer cites, then those of
    its passages, then the documents a lookup named."""
    titles = {p.doc_id: str(p.payload.get("title") or "") for p in observation.passages}
    titles |= {d["doc_id"]: str(d.get("title") or "") for d in observation.data.get("documents", [])}
    cited = [c.doc_id for c in answer.citations if not answer.abstained and c.doc_id in titles]
    ordered = dict.fromkeys([*cited, *(p.doc_id for p in observation.passages), *titles])
    return [(doc_id, titles.get(doc_id, "")) for doc_id in ordered]


def _values(value: Any, pick: str = "") -> list[str]:
    """The entities a fact result names, each once: a list's items or a grouping's keys; a single figure
    names none. With `pick` ("most" or "fewest"), only the grouping's keys with the highest (lowest) figure."""
    if isinstance(value, dict):
        if pick and value:
            figures = {k: v for k, v in value.items() if isinstance(v, (int, float))}
            if figures:
                end = (max if pick == "most" else min)(figures.values())
                return [str(k) for k, v in figures.items() if v == end]
        return list(dict.fromkeys(str(v) for v in value))
    if isinstance(value, (list, tuple)):
        return list(dict.fromkeys(str(v) for v in value))
    return []


def _filter_values(facts: Any) -> str:
    """The values a fact result's filters named ("ZRH", "wave3"), for a follow-up about a count."""
    intent = getattr(facts, "intent", None)
    return " ".join(str(f.value) for f in getattr(intent, "filters", ()) or ())


def _fill(template: Any, value: str) -> Any:
    """A template with "{value}" filled; with no value, the words that only framed it go too."""
    if not isinstance(template, str):
        return template
    if value:
        return template.replace("{value}", value)
    text = re.sub(r"\s+(?:for|about|of|on)\s+\{value\}", "", template)
    return " ".join(text.replace("{value}", "").split()).lstrip(": ")


def _part_answer(
    toolbox: Toolbox,
    observation: Observation,
    ask: str,
    about: str = "",
    tool: str = "",
    scoped: bool = False,
    pick: str = "",
    carried: tuple[Candidate, Row] | None = None,
    dependent: bool = False,
) -> tuple[Answer, tuple[Candidate, Row] | None]:
    """One step's answer, and the table row it answered with: a fact result's figure; the table row the
    step names (`about`: its question and search, rows.py; read from any passage when they are a lookup's
    or `scoped` to the documents found before); the row the step before answered with (`carried`) when
    the step refers back to it and asks another of its columns ("the list price of the RX Dock, and how
    long is its warranty?"); else its passages answered as /ask answers `ask`."""
    if observation.error:
        return Answer(text="", abstained=True, reason=observation.error, mode="agent"), None
    if observation.facts is not None:
        facts = observation.facts
        top = ", ".join(_values(facts.value, pick)) if pick and isinstance(facts.value, dict) else ""
        return Answer(
            text="" if facts.abstained else (f"{pick.capitalize()}: {top}. " if top else "") + facts.answer,
            citations=fact_citations(facts),
            abstained=facts.abstained,
            reason=facts.answer if facts.abstained else "",
            mode="agent",
            facts=facts,
        ), None
    if not observation.passages:
        documents = observation.data.get("documents", [])
        if documents and tool == "lookup":
            # "What is NR-4471-D?" named a document: its opening sentence says what it is
            opening = _opening(toolbox, documents[0])
            if opening is not None:
                observation.passages.append(opening[0])
                return opening[1], None
        if documents:
            return Answer(text="Documents: " + ", ".join(d["doc_id"] for d in documents), mode="agent"), None
        return Answer(text="", abstained=True, reason=f"Nothing found ({observation.summary}).", mode="agent"), None
    row = found_row(about or ask, observation.passages, anywhere=tool == "lookup" or scoped)
    if row is None and carried is not None and asks_column(ask, _attributes(carried[1])):
        row = carried
    if row is not None:
        return as_answer(*row), row
    passages = observation.passages
    if tool != "lookup":
        # the request's source-sets bound the routed ask too: else its facts route reads other sets' tables.
        # Passages scoped to the thing found before are about it: of its sentences nearly as close as the
        # best, the one that states the kind of value asked answers (answering/near_miss.stating_kind)
        config = getattr(toolbox.engine, "answer_config", None)
        config = dataclasses.replace(config, kind_margin=SCOPED_KIND_MARGIN) if scoped and config else None
        # a step on what an earlier one found is a search whatever it asks: its passages answer it ("what do
        # the runbooks say about patching servers for zrh-db-13" is no count of servers)
        extra = {"facts_route": False} if dependent else {}
        answer = toolbox.engine.ask(
            ask, toolbox.k, toolbox.source_sets, candidates=passages, answer_config=config, **extra
        )
        return answer, None
    answer = toolbox.engine.ask(
        ask, toolbox.k, toolbox.source_sets, candidates=_read_as_asked(toolbox.engine, ask, passages)
    )
    return _under_heading(answer, passages, set(identifiers(ask))), None


def _attributes(row: Row) -> Row:
    """`row` without the columns named after a thing ("Item | Stuttgart": a transposed table's column is the
    site, not an attribute a follow-up about Stuttgart asks for)."""
    kept = [(h, c) for h, c in zip(row.header, row.cells, strict=True) if not NAME_WORD.fullmatch(h.strip())]
    return dataclasses.replace(row, header=tuple(h for h, _ in kept), cells=tuple(c for _, c in kept))


def _opening(toolbox: Toolbox, document: dict[str, Any]) -> tuple[Candidate, Answer] | None:
    """The first sentence of a document's body (after its front matter and headings), as the answer to what
    the thing it is named after is, with the section it was read from; None when it has no body text."""
    found = sections(document_chunks(toolbox.engine, document["doc_id"], str(document.get("source_set") or "")))
    for section in sanitise([Candidate(point_id=s.section_id, payload=s.payload) for s in found[:3]]):
        text = str(section.payload.get("text") or "")
        lines = text.split("\n")
        if text.startswith("---"):
            continue  # front matter
        body = next((i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")), None)
        if body is None:
            continue
        paragraph = "\n".join(itertools.takewhile(lambda line: bool(line.strip()), lines[body:]))
        sentence = re.split(r"(?<=[.!?])\s+(?=[A-Z])", paragraph, maxsplit=1)[0].strip()
        if len(sentence.split()) < 4:
            continue
        p = section.payload
        line = int(p.get("line_start", 1)) + body
        citation = Citation(p.get("chunk_id", ""), p.get("doc_id", ""), p.get("source_set", ""), line,
                            line + sentence.count("\n"), sentence, p.get("page"))  # fmt: skip
        return section, Answer(text=f"{sentence} [{citation.chunk_id}]", citations=[citation], mode="agent")
    return None


def _under_heading(answer: Answer, passages: list[Candidate], wanted: set[str]) -> Answer:
    """A lookup's answer under the heading of the section it quotes, when that heading names the identifier
    looked up: "E-101 Joint Overtemperature: **Cause:** ...". Such a heading is the identifier's own name,
    and headings are never quoted as sentences."""
    if answer.abstained or not answer.citations or not wanted:
        return answer
    cited = answer.citations[0].chunk_id
    passage = next((p for p in passages if p.payload.get("chunk_id") == cited), None)
    heading = deepest_heading(str(passage.payload.get("heading_path") or "")) if passage else ""
    if heading and wanted & set(identifiers(heading)) and heading not in answer.text:
        answer.text = f"{heading}: {answer.text}"
    return answer


def _read_as_asked(engine: QueryEngine, ask: str, passages: list[Candidate]) -> list[Candidate]:
    """A lookup's passages with their dense score taken against the question they answer, where that is
    closer: they were found by the bare identifier ("N-733"), whose likeness to any passage is low, and
    the answerer's too-far check would otherwise refuse the passage that holds it."""
    closeness = engine.similarity(ask, [p.payload.get("text", "") for p in passages])
    # a passage that defines the identifier asked about is about it, however short the question
    config = getattr(engine, "answer_config", None)
    wanted = set(identifiers(ask))
    floor = config.min_dense_score if config is not None and wanted else 0.0
    read = []
    for passage, close in zip(passages, closeness, strict=True):
        defining = floor if floor and defines(passage.payload.get("text", ""), wanted) else 0.0
        read.append(
            dataclasses.replace(
                passage, scores=passage.scores | {DENSE: max(passage.dense_score or 0.0, close, defining)}
            )
        )
    return read


def asked_labels(text: str, question: str) -> list[str]:
    """The labels of a composed answer's parts ("ZRH: The answer is 18") that `question` (as its redaction
    kept it) holds verbatim: the asker's own words, which read alone out of the question ("ZRH:") the
    answer audit's NER would take for a name. A name the question's redaction replaced is no such label. A part
    of the question asked alone ends in "?" where the question goes on ("Why did Hoffmann Lagertechnik miss the
    date?" of "Why did Hoffmann Lagertechnik miss the date, and ..."): its words before it count."""
    labels = (line.partition(": ")[0].strip() for line in text.splitlines() if ": " in line)
    return [label for label in dict.fromkeys(labels) if label and _said(label, question)]


def _said(label: str, question: str) -> bool:
    core = label.rstrip("?!. ")
    return label in question or (len(core.split()) > 2 and core in question)


def compose(parts: list[tuple[str, Answer]]) -> Answer:
    """One answer from the parts: each under its label (alone, as it is), citations once each."""
    facts = next((part.facts for _, part in parts if part.facts is not None), None)
    if len(parts) == 1:
        only = parts[0][1]
        return Answer(only.text, list(only.citations), only.abstained, only.reason, "agent", routing=only.routing,
                      facts=facts)  # fmt: skip
    lines: list[str] = []
    reasons: list[str] = []
    citations: dict[tuple[str, str], Citation] = {}
    for label, part in parts:
        if part.abstained:
            lines.append(f"{label}: no answer ({part.reason})")
            reasons.append(f"{label}: {part.reason}")
        else:
            lines.append(f"{label}: {part.text}")
        for c in part.citations:
            citations.setdefault((c.chunk_id, c.quote), c)
    abstained = all(part.abstained for _, part in parts)
    return Answer(
        text="" if abstained else "\n".join(lines),
        citations=list(citations.values()),
        abstained=abstained,
        reason="; ".join(reasons),
        mode="agent",
        facts=facts,
    )
