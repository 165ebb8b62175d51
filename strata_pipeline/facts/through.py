"""Rows picked through another sheet: "Which articles do we buy from Bodensee Tiefkühlkost?" names a supplier of
the supplier list, and the article master knows its suppliers only by number (`Lief.-Nr.`). When a question
names a value of one sheet that no sheet keyed to it holds, the rows asked for are those of a keyed sheet whose
key a row with that value holds: a semi-join (`Intent.through`). The value, with the words just before it that
name its sheet or column ("von Lieferanten mit Sitz in Österreich"), is blanked, and the rest of the question is
parsed as usual over the keyed sheets ("Wie viele Artikel im Artikelstamm beziehen wir von ...": a count).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from strata_pipeline.facts.absence import shared_key
from strata_pipeline.facts.catalogue import DOCUMENTS, Catalogue, Table
from strata_pipeline.facts.cells import value_spans
from strata_pipeline.facts.compounds import compound_label
from strata_pipeline.facts.intent import Filter
from strata_pipeline.facts.key_overlap import DEFER, catalogue_columns
from strata_pipeline.facts.parsed import Parsed
from strata_pipeline.facts.table_score import LIST_NOUNS
from strata_pipeline.facts.wording import inflected_forms, words

Rest = Callable[[str, Catalogue], Parsed]
LEAD = 4  # words between the sheet's name and its value: "Lieferanten mit Sitz in Österreich"
_TOKEN = re.compile(r"[\wäöüßéèàç][\w\-.'/]*")


def through_sheet(question: str, tables: list[Table], rest: Rest) -> Parsed | None:
    """The best-scored semi-join the question names, or None when it names no value of one sheet that only a
    sheet keyed to it can be asked through."""
    best: Parsed | None = None
    # each sheet's values said, read once: a sheet is the keyed one of every other as well as the other itself
    spans = {t.name: value_spans(question, t) for t in tables if t.name != DOCUMENTS}
    for other in tables:
        if other.name == DOCUMENTS:
            continue
        keys = {t.name: pair for t in tables if t is not other and (pair := _keys(t, other)) is not None}
        keyed = [t for t in tables if t.name in keys]
        picks = _picks(question, spans, other, keyed, {pair[1] for pair in keys.values()}) if keyed else []
        if not picks:
            continue
        left = question
        for start, end in _phrases(question, other, picks):
            left = left[:start] + " " * (end - start) + left[end:]
        parsed = rest(left, Catalogue(tuple(keyed)))
        if parsed.intent is None or parsed.intent.table not in keys or not parsed.operation:
            continue  # no intent word ("Wann fährt der erste Bus der Linie 41?"): a passage's question, no join
        key, other_key = keys[parsed.intent.table]
        filters = tuple(f for _, _, f in picks)
        intent = dataclasses.replace(
            parsed.intent,
            through=other.name,
            through_filters=filters,
            key=key,
            other_key="" if other_key == key else other_key,
        )
        by = key if key == other_key else f"{key} = {other_key}"
        said = " and ".join(f"{f.column}={f.value!r}" for f in filters)
        evidence = [*parsed.evidence, f"value {said} of {other.label!r}, its rows joined by {by}"]
        found = dataclasses.replace(parsed, intent=intent, score=parsed.score + 2 * len(filters), evidence=evidence)
        if best is None or found.score > best.score:
            best = found
    return best


def _keys(rows: Table, other: Table) -> tuple[str, str] | None:
    """(column of `rows`, column of `other`) a semi-join compares: `other`'s key (its first column), which the
    rows refer to by the same name (an article's `Lief.-Nr.`) or in a column whose values overlap with it (a
    deviation's `Objekt` holding the vehicle list's `Fz.-Nr.`); None when the rows do not refer to it. A value
    then says which of `other`'s rows the rows belong to ("from Bodensee Tiefkühlkost"); the other way round (a
    log's rows that a vehicle has: "vehicles with a deviation of an Anhänger") a value of the log is too weak a
    sign, since the rows' own sheet often says the same word ("Fahrzeuge und Anhänger")."""
    if rows.source_set != other.source_set or rows.name == DOCUMENTS or not other.columns:
        return None
    key = other.columns[0].name
    if shared_key(rows, other) == key:
        return key, key
    pair = catalogue_columns(rows, other)
    return pair if pair is not None and pair != DEFER and pair[1] == key else None


def _picks(
    question: str,
    spans: dict[str, list[tuple[int, int, Filter]]],
    other: Table,
    keyed: list[Table],
    joined_by: set[str],
) -> list[tuple[int, int, Filter]]:
    """The values of `other` the question names (`spans`: each sheet's, as `value_spans` reads them), not its key
    column's, nor one a keyed sheet holds as well: that is the rows' own condition."""
    held = {str(f.value).lower() for t in keyed for _, _, f in spans[t.name]}
    # a value said as a column's name ("static addressing for DHCP": the VLAN plan's `dhcp_server`) is no value
    columns = {form for t in keyed for c in t.columns for w in c.words if len(w) > 2 for form in inflected_forms(w)}
    # nor one the sheet's own name says: "controles-hygiene-lausanne-2025.csv" is about Lausanne already
    named = {w for t in keyed for w in (*words(t.label), *words(t.doc_id.replace("-", " ").replace("_", " ")))}
    return [
        (start, end, f)
        for start, end, f in spans[other.name]
        if f.op in ("eq", "ne")
        and f.column not in joined_by
        and str(f.value).lower() not in held
        and not all(inflected_forms(w) & columns for w in words(question[start:end]))
        and not set(words(str(f.value))) <= named
    ]


def _phrases(question: str, other: Table, picks: list[tuple[int, int, Filter]]) -> list[tuple[int, int]]:
    """Each value's span, from the word within LEAD words before it that names its sheet or column when one does
    ("Lieferanten mit Sitz in Österreich"; "Bodensee Tiefkühlkost" alone)."""
    named = _naming_words(other, {f.column for _, _, f in picks})
    tokens = [(m.start(), m.group().lower()) for m in _TOKEN.finditer(question)]
    spans = []
    for start, end, _ in picks:
        before = [(at, word) for at, word in tokens if at < start][-LEAD - 1 :]
        lead = next((at for at, word in before if inflected_forms(word) & named), start)
        spans.append((lead, end))
    return spans


def _naming_words(other: Table, columns: set[str]) -> set[str]:
    """Forms of the words that name the sheet (its label, a compound in its parts, less nouns such as "list")
    and the picked columns ("Land")."""
    label = words(other.label)
    said = [w for w in {*label, *compound_label(label)} if w not in LIST_NOUNS]
    said += [w for c in other.columns if c.name in columns for w in c.words if len(w) > 2]
    return {form for w in said for form in inflected_forms(w)}
