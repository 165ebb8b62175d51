"""Two question forms read around the rest of the question: a condition on each group's count or total
("which sites have more than 5 VLANs", "how many sites have more than 5 VLANs") and rows missing from another
sheet ("which vehicles have no fuel card"). Each finds its phrase, parses the question less that phrase over
the tables it may be about (`rest`, the parser itself), then adds the grouping or the anti-join to that intent.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from strata_pipeline.facts.absence import absence, shared_key
from strata_pipeline.facts.catalogue import DOCUMENTS, Catalogue, Table
from strata_pipeline.facts.cells import cell_values
from strata_pipeline.facts.intent import Filter, Intent
from strata_pipeline.facts.key_overlap import DEFER, catalogue_columns
from strata_pipeline.facts.parsed import Parsed, refused
from strata_pipeline.facts.per_group import TOTAL_WORDS, counted_per_group, most_rows, totalled_per_group
from strata_pipeline.facts.wording import forms, stems, words

Rest = Callable[[str, Catalogue], Parsed]
WHICH_WORDS = r"\b(?:which|welche[rsnm]?|quel(?:le)?s?)\b"  # "which garages charged ... in total": groups, no sum
COUNT_WORDS = r"\b(?:how many|number of|wie vielen?|wieviele|anzahl|combien|nombre de|nombre d')"


def group_condition(question: str, operation: str, asked: str, tables: list[Table], rest: Rest) -> Parsed | None:
    """A `which` or `how many` question that compares each group's row count or total with a number: the groups
    that meet it, or how many do (`count_groups`). None when the question compares no count or total per group."""
    counting = operation == "count" or bool(re.search(COUNT_WORDS, question.lower()))  # "how many ... in total": sum
    if not counting and operation != "list" and not re.search(WHICH_WORDS, question.lower()):
        return None
    grouped = counted_per_group(question, asked, tables) or totalled_per_group(question, asked, tables)
    if grouped is None:
        return None
    left = _blank(question, grouped.start, grouped.end)
    if grouped.measure:  # "in total" belongs to the condition, not to the rest (no sum of every row)
        left = re.sub(TOTAL_WORDS, lambda m: " " * len(m.group()), left, flags=re.IGNORECASE)
    parsed = rest(left, Catalogue((grouped.table,)))
    if parsed.intent is None:
        return parsed
    counted = grouped.table
    intent = Intent(
        "sum" if grouped.measure else "group_by",
        counted.name,
        columns=(grouped.measure,) if grouped.measure else (),
        filters=parsed.intent.filters,
        group_by=(grouped.column,),
        source_sets=(counted.source_set,),
        having=(Filter("value", grouped.op, grouped.value),),
        count_groups=counting,
    )
    figure = f"total {grouped.measure}" if grouped.measure else f"count of {counted.label!r}"
    evidence = [*parsed.evidence, f"{figure} per {grouped.column} {grouped.op} {grouped.value:g}"]
    if intent.count_groups:
        evidence.append(f"counts the {grouped.column} values that meet it")
    return dataclasses.replace(
        parsed, intent=intent, score=parsed.score + 2, operation=intent.operation, evidence=evidence, names_table=True
    )


def counted_extreme(question: str, op: str, asked: str, tables: list[Table], rest: Rest) -> Parsed | None:
    """`which X has the most Y` where Y names another table than X's ("which supplier received the most
    orders"): the X whose rows in Y's table are most (fewest) often. The rest of the question is parsed over
    Y's table for its conditions ("in 2025"). None when no such table is named."""
    grouped = most_rows(question, op, asked, tables)
    if grouped is None:
        return None
    parsed = rest(question, Catalogue((grouped.table,)))
    if parsed.intent is None and parsed.why:
        return parsed  # a condition it cannot read ("in May" over no dates): no figure for another question
    counted = grouped.table
    filters = parsed.intent.filters if parsed.intent is not None else ()
    intent = Intent(op, counted.name, filters=filters, group_by=(grouped.column,), source_sets=(counted.source_set,))
    evidence = [*parsed.evidence, f"the {grouped.column} with the {'most' if op == 'argmax' else 'fewest'} rows "
                f"in {counted.label!r}"]  # fmt: skip
    return Parsed(intent, max(parsed.score, 0.0) + 3, op, evidence, True)


def anti_join(question: str, tables: list[Table], rest: Rest) -> Parsed | None:
    """Rows said to have no row in another table ("SKUs with no stock entry", "vehicles with no fuel card"): an
    anti-join on the column both hold, or else on the pair of columns whose values overlap (`key_overlap`).
    None when no table is named as missing, or no table shares a key or values with it."""
    missing = absence(question, tables)
    if missing is None:
        return None
    other = missing.table
    left = _blank(question, missing.start, missing.end)
    keyed = [t for t in tables if t.source_set == other.source_set and t is not other and shared_key(t, other)]
    if keyed:  # the rest of the question, over the tables that share a key with the one the rows are missing from
        parsed = rest(left, Catalogue(tuple(keyed)))
        if parsed.intent is None:
            return parsed
        rows = next(t for t in keyed if t.name == parsed.intent.table)
        key, other_key = shared_key(rows, other), ""
    else:  # no column of the same name: the key is the pair whose values overlap ("vehicle_id" and "fahrzeug")
        sheets = [t for t in tables if t.source_set == other.source_set and t is not other and t.name != DOCUMENTS]
        if not sheets:
            return None
        parsed = rest(left, Catalogue(tuple(sheets)))
        if parsed.intent is None:
            return None
        rows = next(t for t in sheets if t.name == parsed.intent.table)
        pair = catalogue_columns(rows, other)
        if pair is None:
            return None
        key, other_key = pair
    intent = dataclasses.replace(parsed.intent, absent_from=other.name, key=key, other_key=other_key)
    if (key, other_key) == DEFER:
        joined = "the columns whose values overlap, read from the rows"
    else:
        joined = f"{key} = {other_key}, by their values" if other_key else key
    evidence = [*parsed.evidence, f"no row in {other.label!r} (by {joined})"]
    return dataclasses.replace(parsed, intent=intent, score=parsed.score + 2, evidence=evidence)


def _blank(question: str, start: int, end: int) -> str:
    """The question with one phrase blanked, offsets of the rest kept."""
    return question[:start] + " " * (end - start) + question[end:]


def unjoined(question: str, parsed: Parsed, tables: list[Table]) -> Parsed:
    """A figure over every row of one sheet, asked in a question that also names another sheet keyed to it by
    its label ("Wie viele Maschinen laufen auf Kostenstellen, für die X verantwortlich ist?": the cost centre
    list, keyed by KST), reads none of the condition across the two: refused, since counting every machine
    answers another question. Only a figure over every row: a grouping or a filter ("servers per site", "servers
    in the sites list's region EU") reads the other sheet's words as its own column or value."""
    intent = parsed.intent
    rows = next((t for t in tables if intent is not None and t.name == intent.table), None)
    if intent is None or rows is None or rows.name == DOCUMENTS:
        return parsed
    if intent.filters or intent.group_by or intent.tables or intent.absent_from:
        return parsed
    said = stems(question)
    for other in tables:
        if other is rows or other.source_set != rows.source_set or other.name == DOCUMENTS:
            continue
        label = words(other.label)
        if set(label) <= set(words(rows.label)) or [c.name for c in other.columns] == [c.name for c in rows.columns]:
            continue  # its words name this sheet too: another version ("the 2026 broker commission" beside 2024's)
        key = shared_key(rows, other)
        if not key:
            continue
        named = f"{other.label!r}" if label and all(forms(w) & said for w in label) else ""
        # or one of its values: "which articles do we buy from Bodensee Tiefkühlkost", a supplier of the
        # supplier list, which the article master knows only by supplier number
        value = next((f for f in cell_values(question, other) if f.op == "eq" and f.column != key), None)
        named = named or (f"{value.value!r} of {other.label!r}" if value is not None else "")
        if named:
            why = f"names {named}, a second sheet keyed to it by {key}; no condition across two sheets is read"
            return refused(parsed.score, parsed.operation, parsed.evidence, why, parsed.names_table)
    return parsed
