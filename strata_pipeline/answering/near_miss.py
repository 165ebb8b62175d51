"""Near misses: the sentences an answer would quote are on the topic, but do not say what was asked.

The offline answerer (answer.py) runs these checks on the sentences it chose, in order, and abstains
with the first reason found (code `no_support`):

1. the question asks for a kind of value (a price, hours, a time, a number) and no quoted sentence
   states one (abstention.asked_kind, states_kind);
   beyond units (answer_type), which version asks for a version number;
2. a rate per period ("days a week") and no quoted sentence states that period; which provider or
   brand and no quoted sentence names one; which colours and none names a colour (answer_type);
3. the question itself (not a statement before it) names something (names.question_names) that no
   quoted passage mentions;
4. the question names something and asks for a kind of value, and the quoted sentences that state
   such a value all come from passages that do not mention the name (Basel's "fuel for 48 hours"
   does not say how long Zürich's generator runs), or from the template twin of a document whose
   title holds the name ("IT on-site support - Stuttgart office" for a question on Lyon); a question
   that asks for no kind abstains when all quoted sentences come from such a twin;
5. the question asks about a year none of the quoted passages holds, and they hold others;
   the question names a numbered thing ("Level 4", "tariff zone 6") and the quoted sentences speak
   of others of its kind only ("Level 1", "tariff_zone: 2"; numbered.py);
   the quoted sentences speak of the question's head noun with a sibling qualifier ("partial cover"
   for "comprehensive cover", siblings.py);
6. the question gives a figure ("a 60 kWp system") and the quoted rows' bands in its unit do not
   hold it ("up to 10 kWp", "10 to 40 kWp"; ranges.py);
7. the quoted rows' table gives what the question asks of a name for other rows only (the drainage
   charge for Aarlingen and Weißbach, none for Colmont; table_siblings.py).

Plain functions over text; no index, no model.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from strata_pipeline.answering.abstention import asked_kind, states_kind
from strata_pipeline.answering.answer_type import (
    TYPES,
    asked_period,
    asked_type,
    asks_colour,
    asks_name,
    states_colour,
    states_name,
    states_period,
    states_type,
)
from strata_pipeline.answering.calendar_words import calendar_named, weekdays_named
from strata_pipeline.answering.names import named_sibling, named_words, question_names, unmentioned
from strata_pipeline.answering.numbered import other_numbered
from strata_pipeline.answering.ranges import bands, figures, fits
from strata_pipeline.answering.siblings import english_sibling_qualifier
from strata_pipeline.answering.table_siblings import sibling_row as table_sibling
from strata_pipeline.answering.wording import asked_part, is_acronym
from strata_pipeline.classification.language import query_language
from strata_pipeline.facts.periods import named_years, years_in


@dataclass(frozen=True)
class Quoted:
    """A sentence the answer would quote: verbatim, as scored (read in its section and table) and its
    passage's text (title, heading path and text)."""

    quote: str
    scored: str
    passage: str
    title: str = ""  # of its document
    foreign: bool = False  # its passage is in another language than the question


def near_miss(
    question: str,
    quoted: Sequence[Quoted],
    retrieved: Sequence[str],
    stem: Callable[[str], str],
    titles: Sequence[str] = (),
    terms: Callable[[str], set[str]] | None = None,
) -> str | None:
    """Why the `quoted` sentences do not answer `question`, or None when they may. `retrieved` are the
    texts of the passages the answer was chosen from (a name most of them mention is the setting),
    `titles` their documents' titles; `terms` (stemmed content words) finds template twins."""
    kind = asked_kind(question) or asked_type(question)
    if kind is not None and not any(_states(kind, q.scored) for q in quoted):
        what = {
            "amount": "amount of money or percentage",
            "address": "postal address",
            "email": "e-mail address",
            "phone": "phone number",
            "room": "room number",
            "command": "command",
            "minut": "number of minutes",  # the unit's stem, as "minutes" and "Minuten" are one kind
        }.get(kind, f"{kind} value")
        return f"The closest sentences are on the topic but state no {what}, which the question asks for."
    outside = out_of_band(question, [q.scored for q in quoted])
    if outside is not None:
        return outside
    period = asked_period(question)
    if period is not None and not any(states_period(period, q.scored) for q in quoted):
        return f"The closest sentences state no figure per {period}, which the question asks for."
    if asks_name(question) and not any(states_name(q.quote, question) for q in quoted):
        return "The closest sentences name no provider, brand or maker, which the question asks for."
    if asks_colour(question) and not any(states_colour(q.quote) for q in quoted):
        return "The closest sentences name no colour, which the question asks for."
    # a name in a statement before the question is context ("I'm flying to a customer in Tokyo. From what
    # flight length may I book business class?"); the twin and sibling checks below still read it
    names = question_names(asked_part(question), retrieved, stem)
    if any(q.foreign for q in quoted):  # an acronym is a word of its language: "USV" is "UPS"
        names = replace(names, words=[w for w in names.words if not is_acronym(w)])
    unnamed = unmentioned(names, [q.passage for q in quoted], stem)
    if unnamed:
        return f"The passages the answer would quote do not mention {', '.join(unnamed)}, which the question names."
    other_year = _another_year(question, [q.passage for q in quoted])
    if other_year is not None:
        return other_year
    other = _another_of_its_kind(question, [(q.scored, q.passage) for q in quoted], stem, kind)
    if other is not None:
        return other
    keyed = _keyed_by_other(question, quoted, stem, kind)
    if keyed:
        return (
            f"The quoted table rows do not mention {keyed}, which the question names and other rows of their table do."
        )
    if terms is not None and all("|" in q.quote for q in quoted):
        sibling_row = table_sibling(question, [q.passage for q in quoted], terms)
        if sibling_row is not None:
            return (
                f"The quoted table gives what the question asks for rows other than {sibling_row[0]}'s "
                f'("{sibling_row[1].strip()[:80]}"), and no row of {sibling_row[0]} gives it.'
            )
    if kind is None:
        # no kind to state: every quoted sentence is from the twin of the document the question names
        if terms is not None and quoted and all(_twin_of_named(question, q, titles, terms) for q in quoted):
            return f"The quoted sentences are from a document on another thing of the same kind ({quoted[0].title})."
        return None
    stating = [q.passage for q in quoted if _states(kind, q.scored)]
    # the asked-for value must come from a passage about what the question names
    if names and all(unmentioned(names, [p], stem) for p in stating):
        return (
            f"The quoted sentences that state a {kind} value are from passages that do not mention "
            f"{names}, which the question names."
        )
    # a name most passages mention (the setting) still tells apart two things the sentences name
    own = named_words(question) if query_language(question) == "en" else []
    sibling = named_sibling(own, [q.quote for q in quoted if _states(kind, q.scored)], retrieved, stem)
    if sibling:
        return (
            f"The quoted sentences that state a {kind} value are about {sibling}, not {', '.join(own)}, which "
            "the question names."
        )
    if terms is not None and stating and all(_twin_of_named(question, q, titles, terms) for q in quoted
                                             if _states(kind, q.scored)):  # fmt: skip
        return (
            f"The quoted {kind} value is from a document on another thing of the same kind "
            f"({next(q.title for q in quoted if _states(kind, q.scored))}) than the one the question names."
        )
    return None


def _another_year(question: str, passages: Sequence[str]) -> str | None:
    """The question asks about a year ("the holidays in 2026") that none of the quoted passages holds, and
    they speak of others ("2025-12-26 | Second Day of Christmas"): a year they do not cover. A year in a
    statement before the question is context ("I placed a policy this year (2026). What commission ...?")."""
    held = set().union(*map(years_in, passages))
    missing = [y for y in named_years(asked_part(question)) if y not in held]
    if not missing or not held:
        return None
    return (
        f"The passages the answer would quote speak of {', '.join(sorted(held))}, not {', '.join(missing)}, "
        "which the question asks about."
    )


def _keyed_by_other(question: str, quoted: Sequence[Quoted], stem: Callable[[str], str], kind: str | None) -> str:
    """A name of the question that other rows of the quoted table rows' tables hold and the quoted rows
    (read with their section and columns) do not: "the surface water drainage charge in Colmont" quoted
    from the rows for Weißbach and Aarlingen, in a price table with rows for Colmont. A name most
    retrieved passages mention counts here too: in a table keyed by towns, the row is the town's. ""
    when some quoted row that states the asked `kind` names it, or none is a table row."""
    rows = [q for q in quoted if "|" in q.quote and (kind is None or _states(kind, q.scored))]
    if not rows:
        return ""
    names = question_names(asked_part(question), [], stem)  # a name before the question is context
    tables = ["\n".join(line for line in q.passage.splitlines() if "|" in line) for q in rows]
    missing = [set(unmentioned(names, [q.scored], stem)) - set(unmentioned(names, [table], stem))
               for q, table in zip(rows, tables, strict=True)]  # fmt: skip
    common = set.intersection(*missing)
    return ", ".join(sorted(common))


def _twin_of_named(question: str, quoted: Quoted, titles: Sequence[str], terms: Callable[[str], set[str]]) -> bool:
    """Whether the quoted sentence's document is the twin of a retrieved document whose title differs
    from its own in one word only, a name of the question: "IT on-site support - Stuttgart office"
    quoted for a question on Lyon, with "IT on-site support - Lyon office" retrieved. The question's
    capitalised words count in any language here, and also when most passages mention them (the
    setting): the one word that tells the twins apart is what the question picked."""
    names = {stem for word in named_words(question) for stem in terms(word)}
    own = terms(quoted.title)
    for title in titles:
        other = terms(title)
        if len(own - other) == 1 and len(other - own) == 1 and (other - own) <= names and not own & names:
            return True
    return False


def _states(kind: str, text: str) -> bool:
    """Whether `text` states a value of `kind`: abstention.asked_kind's kinds or answer_type.asked_type's."""
    return states_type(kind, text) if kind in TYPES else states_kind(kind, text)


T = TypeVar("T")


def stating_kind(
    question: str,
    ranked: Sequence[tuple[float, T]],
    scored: Callable[[T], str],
    margin: float,
    limit: int,
    eligible: Callable[[T], bool] = lambda _: True,
) -> list[tuple[float, T]]:
    """The sentences to quote first when the `limit` best of `ranked` (score, sentence) state no value of
    the kind the question asks for, and `eligible` sentences within `margin` of the best score do: "What
    time does the depot close on weekdays?" is answered by "Monday to Friday: 07:00 - 17:00", not by the
    rows that say Saturday and Sunday are closed, though those score a little higher. [] when `margin` is
    0, the question asks no kind, or the best already state one (the caller keeps its own choice)."""
    if margin <= 0 or not ranked:
        return []
    kind = asked_kind(question) or asked_type(question)
    if kind is None or any(_states(kind, scored(s)) for _, s in ranked[:limit]):
        return []
    best = ranked[0][0]
    return [(score, s) for score, s in ranked
            if score >= best - margin and eligible(s) and _states(kind, scored(s))][:limit]  # fmt: skip


def on_asked_day(
    question: str,
    ranked: Sequence[tuple[float, T]],
    chosen: Sequence[tuple[float, T]],
    scored: Callable[[T], str],
    margin: float,
    limit: int,
) -> list[tuple[float, T]]:
    """The sentences to quote instead of `chosen` when the question asks about one weekday ("until what
    time ... on Thursdays?"), no chosen sentence names it, and sentences within `margin` of the best do (in
    any language, or inside a range: "| Donnerstag | 9:00 – 19:00 |", "Montag bis Freitag") and state the
    kind of value asked. [] when there is nothing better (the caller keeps its choice)."""
    days = weekdays_named(asked_part(question))
    if len(days) != 1 or not ranked:
        return []
    day = next(iter(days.values()))
    if any(calendar_named(day, scored(s)) for _, s in chosen):
        return []
    kind = asked_kind(question) or asked_type(question)
    best = ranked[0][0]
    return [(score, s) for score, s in ranked if score >= best - margin and calendar_named(day, scored(s))
            and (kind is None or _states(kind, scored(s)))][:limit]  # fmt: skip


def naming(
    question: str,
    ranked: Sequence[tuple[float, T]],
    chosen: Sequence[tuple[float, T]],
    read: Callable[[T], tuple[str, str]],
    retrieved: Sequence[str],
    stem: Callable[[str], str],
    limit: int,
) -> list[tuple[float, T]]:
    """The sentences to quote instead of `chosen` when the question names something, the chosen ones
    that state the kind of value asked (all of them when none is asked) come from passages that do not
    mention it, and some of `ranked` (those above the floor, best first) come from passages that do
    and state that kind: "Within how many working days does the Dresden claims office arrange an
    inspection?" is answered from the Dresden office's page in German, not by an English sentence on
    another office that scores a little higher for sharing the question's language. [] when there is
    nothing better (the caller keeps its choice; near_miss then says what is missing). `read` gives a
    sentence's (scored text, passage text)."""
    names = question_names(asked_part(question), retrieved, stem)  # a name before the question is context
    if not names:
        return []
    kind = asked_kind(question) or asked_type(question)

    def answers(sentence: T) -> bool:
        scored, passage = read(sentence)
        return (kind is None or _states(kind, scored)) and not unmentioned(names, [passage], stem)

    if any(answers(s) for _, s in chosen):
        return []
    return [(score, s) for score, s in ranked if answers(s)][:limit]


def out_of_band(question: str, quoted: Sequence[str]) -> str | None:
    """Why `quoted` (their scored texts) do not answer `question`: it gives a figure, some quoted
    sentences state bands in its unit, and none of them holds it ("a 60 kWp system" over rows for
    "up to 10 kWp" and "10 to 40 kWp"); None otherwise."""
    verdicts = [fits(question, text) for text in quoted]
    if True in verdicts or False not in verdicts:
        return None
    value, unit = figures(question)[0]
    stated = sorted({(b.low, b.high) for text in quoted for b in bands(text) if b.unit == unit})
    shown = ", ".join(f"{low:g} to {high:g}" if high != float("inf") else f"from {low:g}" for low, high in stated)
    return f"The quoted rows cover {shown} {unit}, not the {value:g} {unit} the question gives."


def in_band(
    question: str, ranked: Sequence[tuple[float, T]], chosen: Sequence[tuple[float, T]], scored: Callable[[T], str],
    limit: int,
) -> list[tuple[float, T]]:  # fmt: skip
    """The sentences to quote instead of `chosen` when the question gives a figure, no chosen sentence
    states a band that holds it, and some of `ranked` (above the floor, best first) do: "a motor claim
    worth 12,000 €" is answered by the fee row for 7,501 to 25,000 €, not by an authority table that
    happens to hold "12,000 €"; of chosen rows, those whose bands miss it are left out. [] otherwise
    (the caller keeps its choice)."""
    if not figures(question):
        return []
    verdicts = [fits(question, scored(s)) for _, s in chosen]
    if True in verdicts:  # the band that holds it, without the rows beside it that do not ("M1: 0 to 7,500")
        kept = [c for c, verdict in zip(chosen, verdicts, strict=True) if verdict is not False]
        return kept if len(kept) < len(chosen) else []
    return [(score, s) for score, s in ranked if fits(question, scored(s))][:limit]


def _another_of_its_kind(
    question: str, quoted: Sequence[tuple[str, str]], stem: Callable[[str], str], kind: str | None
) -> str | None:
    """Why the `quoted` sentences (scored text, passage text) speak of another thing of the kind the
    question asks about: another numbered one ("Level 1" for "Level 4", numbered.py) or one with a
    sibling qualifier ("partial cover" for "comprehensive cover", siblings.py; only the sentences
    that state the asked `kind` of value are read); None when neither."""
    return other_numbered(question, quoted) or english_sibling_qualifier(
        question, quoted, stem, lambda s: kind is None or _states(kind, s)
    )


def row_near_miss(question: str, record: str, passage: str, stem: Callable[[str], str]) -> str | None:
    """Why a table row the question names (read as a record, "grade: Claims handler II; property
    claims: 12,000 €; ...") does not answer it: its columns speak of other kinds of the asked thing
    ("cyber claim" against property, motor and liability claims), or of another numbered thing; None
    when it may. The other near-miss checks are the row lookup's own (agent/rows.py)."""
    record = record.replace("_", " ")  # a column "property_claims" is read as its words
    return _another_of_its_kind(question, [(record, passage)], stem, asked_kind(question) or asked_type(question))
