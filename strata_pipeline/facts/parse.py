"""Rule-based text-to-intent: intent words (en, de, fr), the catalogue's table names, column names
and known cell values. No model, so it runs offline and gives the same intent every time.

`parse` returns the intent with the evidence it was built from (`Parsed.score`), so the router can
tell an aggregation ("how many servers are in ZRH?") from a question that only says "how many"
("how many weeks of parental leave?"): an aggregation names a table, a column or a value.
German and French data words are read through `vocabulary.gloss`; a count or grouping the parser
cannot read fully gets no intent (refused), never a figure for another question.
"""

from __future__ import annotations

import dataclasses
import re

from strata_pipeline.facts.catalogue import DOCUMENTS, Catalogue, Table
from strata_pipeline.facts.cell_words import contained_words, two_parts_of_one_column
from strata_pipeline.facts.cells import (
    NOT_VALUES,
    each_value_named,
    names_code,
    one_value_per_column,
    unknown_sibling,
    unknown_value,
)
from strata_pipeline.facts.conditioned import anti_join, counted_extreme, group_condition, unjoined
from strata_pipeline.facts.elapsed import read_elapsed, without_elapsed
from strata_pipeline.facts.grouped_by import grouped_by
from strata_pipeline.facts.implied import (
    counts_per_group,
    label_forms,
    repeated_first_column,
    value_measured,
)
from strata_pipeline.facts.intent import ORDER_OPS, Filter, Intent
from strata_pipeline.facts.intent_words import COUNTED, OPERATION_WORDS, PERIOD_GROUP, STRONG_GROUP_WORDS
from strata_pipeline.facts.own_column import dated_own_column, own_column
from strata_pipeline.facts.parsed import Parsed
from strata_pipeline.facts.parsed import refused as _refused
from strata_pipeline.facts.periods import ISO_DAY, iso_dates, read_periods
from strata_pipeline.facts.phrasing import (
    DATE_EXTREMES,
    EXTREMES,
    WHEN,
    date_column,
    date_filters,
    extreme,
    money_columns,
    price_columns,
    priced_columns,
    share_split,
)
from strata_pipeline.facts.qualities import (
    absent_amounts,
    counted_quantity,
    flags,
    measure_phrase,
    measured_of_unknown,
    numeric_conditions,
    unread_counted_noun,
    unread_quality,
    without_measure_extremes,
)
from strata_pipeline.facts.ranking import dated_measure, lasting_columns, said_before, sole_measure, top_n, with_figure
from strata_pipeline.facts.shown_columns import ASKS_PERSON, names_for_numbers, person_asked, second_table
from strata_pipeline.facts.table_score import (
    ASKED,
    asks_documents,
    names_columns,
    said_in_full,
    score_table,
    shared_numbers,
)
from strata_pipeline.facts.table_score import asked_noun_of as _asked
from strata_pipeline.facts.through import through_sheet
from strata_pipeline.facts.unit_cells import unheld_amount
from strata_pipeline.facts.values import compact, variant_filters
from strata_pipeline.facts.vocabulary import UNITS, gloss
from strata_pipeline.facts.wording import column_named as _column_named
from strata_pipeline.facts.wording import forms as _forms
from strata_pipeline.facts.wording import inflected_forms, words
from strata_pipeline.facts.wording import said as _said
from strata_pipeline.facts.wording import stem_word as _stem
from strata_pipeline.facts.wording import stems as _stems
from strata_pipeline.facts.years import uncovered_year, year_conditions, year_or_date_filters
from strata_pipeline.text.placeholders import PLACEHOLDER


def operation_of(question: str) -> str:
    lowered = question.lower()
    return next((op for op, pattern in OPERATION_WORDS.items() if re.search(pattern, lowered)), "")


def parse(question: str, catalogue: Catalogue, source_sets: tuple[str, ...] = ()) -> Parsed:
    """The best-supported intent for `question` over `catalogue` (None when no table is named).
    German and French data words are read in English (`gloss`); every other word as written. Rows said
    to have no row in another table ("SKUs with no stock entry") are an anti-join on their shared key."""
    glossed = iso_dates(gloss(question))
    visible = [t for t in catalogue.tables if not source_sets or t.source_set in source_sets]

    def rest(text: str, tables: Catalogue) -> Parsed:
        return _parse(text, tables, source_sets)

    joined = anti_join(glossed, visible, rest)
    if joined is not None:
        return joined
    grouped = group_condition(glossed, operation_of(glossed), _asked(glossed), visible, rest)
    if grouped is not None:  # "which sites have more than 5 VLANs": a count per site, then the condition on it
        return grouped
    most = extreme(glossed)
    counted = counted_extreme(glossed, most, _asked(glossed), visible, rest) if most else None
    if counted is not None:  # "which supplier received the most orders": orders counted per supplier
        return counted
    parsed = _own_column(_parse(question, catalogue, source_sets), glossed, visible)
    through = through_sheet(glossed, visible, rest)
    if through is not None and _through_rather(parsed, through):
        return through  # "which articles do we buy from Bodensee Tiefkühlkost": the supplier list picks them
    return unjoined(glossed, parsed, visible)


def _in_full_rather(question: str, stems: set[str], table: Table, best: tuple[float, Table, list, list]) -> bool:
    return said_in_full(question, stems, table) and not said_in_full(question, stems, best[1])


def _through_rather(parsed: Parsed, through: Parsed) -> bool:
    """Whether the semi-join reads the question better than the plain parse: the plain one read no intent, or read
    the rows of the same sheet and dropped the other sheet's value (their sheet does not hold it), or scored less.
    A plain parse of the sheet that holds the value ("how many suppliers are in Austria") is its own condition."""
    if parsed.intent is None:
        return True
    assert through.intent is not None
    if parsed.intent.table == through.intent.through:
        return False
    return parsed.intent.table == through.intent.table or through.score > parsed.score


def _own_column(parsed: Parsed, question: str, tables: list[Table]) -> Parsed:
    """A measure or the distinct values of a column that only one visible table has, named in full ("the
    highest odometer reading", "the distinct makes"): that names the table as its label would."""
    intent = parsed.intent
    if intent is None or parsed.score >= 3 or intent.operation not in ("sum", "avg", "min", "max", "distinct"):
        return parsed
    if not intent.columns or not own_column(intent.columns[0], question, tables):
        return parsed
    evidence = [*parsed.evidence, f"column {intent.columns[0]!r} only this table has"]
    return dataclasses.replace(parsed, score=parsed.score + 2, evidence=evidence, names_table=True)


def _parse(question: str, catalogue: Catalogue, source_sets: tuple[str, ...]) -> Parsed:
    stems = _stems(question)
    said, question = question, iso_dates(gloss(question))  # "seit dem 01.03.2025" compares with ISO dates
    elapsed = read_elapsed(question.lower())
    if elapsed is not None:  # "vor mehr als 12 Monaten": a condition on a date column, no number compared
        question = without_elapsed(question, elapsed)
    operation = operation_of(question)
    stems |= _stems(question)
    best: tuple[float, Table, list[str], list[Filter]] | None = None
    visible = [t for t in catalogue.tables if not source_sets or t.source_set in source_sets]
    shared = shared_numbers(visible)
    for table in visible:
        score, evidence, filters = score_table(question, stems, table, shared)
        # at equal points the table said by its name wins over one that only holds a value named: "la note des
        # contrôles d'hygiène du dépôt de Lausanne" is the hygiene checks' file, not the fleet with Depot=Lausanne
        if best is None or score > best[0] or (score == best[0] and _in_full_rather(question, stems, table, best)):
            best = (score, table, evidence, filters)
    if best is None or best[0] <= 0:
        return Parsed(None, 0.0, operation)
    score, table, evidence, filters = best
    compared, unplaced, placed = numeric_conditions(question, stems, table)
    operation = operation_of(_without_column_names(without_measure_extremes(question, placed), table))
    if operation == "sum" and _counts_rows(question, table):
        operation = "count"  # "total number of VLANs", "how many holidays in total": rows, not a column's sum
    if operation == "count" and not _counts_rows(question, table) and counted_quantity(question, table):
        operation = "sum"  # "how many bays does Depot 7 have": the value in the bays column, not a row count
    all_of = operation in ("", "list") and re.search(FIGURE_OF_ALL, question.lower())
    if all_of and _mentioned(stems, table, kind="number", exclude=set()):
        operation = "sum"  # "Wie hoch ist der Jahreswert aller aktiven Verträge": one figure of all of them
    # the table named by its label, its key column, or what the question asks for ("which VLAN names")
    names_table = any(e.startswith("table ") or e.endswith("(table)") for e in evidence) or _column_named(
        stems, table.columns[0]
    )
    # a year alone is a period of a count or a total, or of a list that names its date column ("registered in
    # 2024"); "which holidays did Northwind observe in 2023" is no list of the table's 2023 rows
    years = operation not in ("", "list") or any(c.is_date and _column_named(stems, c) for c in table.columns)
    dated, dates = date_filters(question, table, years)
    if not any(c.is_date for c in table.columns) and read_periods(question, years=False)[0]:
        # "migrated to production in May 2025" over a table with no dates: the period cannot be applied
        return _refused(score, operation, evidence, "names a period, but the table holds no dates", False)
    dated_named = any(_column_named(stems, c) for c in table.columns if c.name in {f.column for f in dated})
    dated, by_year = year_or_date_filters(dated, dated_named, year_conditions(question, table))
    date_names = [c.name for c in table.columns if c.is_date]
    periods = read_periods(question, years)[1]
    if periods and not dated and not by_year and len(date_names) > 1:
        # "Verträge, die 2025 auslaufen" over Vertragsbeginn and Vertragsende, neither said: counting every row
        # would answer another question
        why = f"names the period {periods[0]!r}, but not which date column ({', '.join(date_names)}) it applies to"
        return _refused(score, operation, evidence, why, names_table)
    if elapsed is not None:
        column = date_column(table, question.lower())
        if column is None:
            why = f"counts back {elapsed.said!r}, but names no date column ({', '.join(date_names) or 'none'})"
            return _refused(score, operation, evidence, why, names_table)
        dated.append(Filter(column.name, elapsed.op, elapsed.cutoff))
        evidence.append(f"{elapsed.said!r} counted back from {elapsed.anchor}")
        score += 1  # a condition on a date column, as a column named: "mehr als 12 Monate zurück" picks rows
    if not names_table and (own := dated_own_column({f.column for f in dated}, stems, table, visible)):
        score, names_table = score + 2, True  # a condition on a date column only this table has names it
        evidence.append(f"date condition on {own!r}, which only this table has")
    uncovered = "" if by_year else uncovered_year(question, table)
    if uncovered:  # "which holidays does Munich observe in 2026" over the 2025 holiday list
        return _refused(score, operation, evidence, uncovered, names_table)
    filters = [f for f in filters if f.value not in dates]  # "since 2025-05-01" is a range, not a cell value
    filters += compared + flags(question, stems, table, filters) + dated + by_year
    filters += absent_amounts(question, table, filters)  # "no fire surcharge": the rows where it is 0
    filters += contained_words(said, table, filters)  # "Skonto" in "30 Tage netto, 14 Tage 2 % Skonto"
    if split := two_parts_of_one_column(filters):
        parts = ", ".join(repr(f.value) for f in filters if f.column == split and f.op == "contains")
        why = f"names {parts}, two parts of the cells of {split!r}; a figure for each is not read"
        return _refused(score, operation, evidence, why, names_table)
    variants = variant_filters(question, table, filters, NOT_VALUES)  # "in production": refines, never scores
    filters += [f for f, _ in variants]
    evidence = [*evidence, *(m.describe() for _, m in variants)]
    unread_day = next((d for d in ISO_DAY.findall(question) if d not in {str(f.value) for f in filters}), "")
    if unread_day:  # "out of warranty on 1 April 2025", a day no condition reads: every row would be counted
        why = f"names the day {unread_day}, which no condition reads"
        return _refused(score, operation, evidence, why, names_table)
    unknown = unknown_sibling(question, table) or unknown_value(question, table, filters)
    unknown = unknown or unheld_amount(question, table, filters)  # "die 40-Tonner" where no vehicle is "40 t"
    if unknown:  # "am Standort Basel" where no site is Basel: the rows it means cannot be told apart
        return _refused(score, operation, evidence, f"names {unknown!r}, a value the column does not hold", names_table)
    if masked := PLACEHOLDER.search(said):  # "für die [PERSON_1] verantwortlich ist": cells mask names alike
        return _refused(
            score, operation, evidence, f"names {masked.group(0)}, masked, so no row is told by it", names_table
        )
    group_by = grouped_by(question, table) or grouped_by(said, table)  # "je Bezirk" over a column `bezirk`
    per_group = counts_per_group(question, table)
    if per_group:
        # "which sites have more than 5 VLANs": a condition on a count per group, which no intent holds
        return _refused(score, operation, evidence, f"compares a count of {per_group!r} per group", names_table)
    if unplaced:
        # "courses that last more than one day" where no number column is named by "day": dropping the
        # condition would count every row, a figure for another question
        numbers = ", ".join(c.name for c in table.columns if c.kind == "number") or "none"
        why = f"compares with {unplaced!r}, but names no number column ({numbers})"
        return _refused(score, operation, evidence, why, names_table)
    most = extreme(question) or (extreme(f"which {question}") if top_n(question)[0] else "")  # "Nenne die drei ..."
    per = group_by[0] if group_by else ""  # "the most expensive product in each category"
    named_extreme = _extreme(question, stems, table, filters, most, per) if most else None
    if named_extreme is not None and re.search(OPERATION_WORDS["avg"], question.lower()):
        # "which product has the lowest average price": an average per group, then its extreme; not supported
        return _refused(score, operation, evidence, "the extreme of an average per group", names_table)
    if named_extreme is not None:  # "..., and how many days is it?": the figure, its rows named
        named_extreme = with_figure(named_extreme, question, table)
        return Parsed(named_extreme, score, most, [*evidence, f"names the {most[3:]}imum's group"], names_table)
    if not group_by and any(c.is_date for c in table.columns) and re.search(PERIOD_GROUP, question.lower()):
        return _refused(score, operation, evidence, "a grouping by a period of the dates, which no column holds", True)
    if not group_by and re.search(STRONG_GROUP_WORDS, question.lower()):
        # "for each X" where X is no column: a total over every row would answer another question
        return _refused(score, operation, evidence, "a grouping that names no column", names_table)
    unread = unread_counted_noun(question, table) if operation == "count" else ""
    if unread and (names_code(unread) or any(compact(unread) == compact(m.phrase) for _, m in variants)):
        unread = ""  # "how many production servers": the counted word is a value's other form
    if unread:
        # "how many spare label printers": a kind of row the table cannot tell apart, so counting all
        # of them would be a wrong figure
        return _refused(score, operation, evidence, f"counts {unread!r}, no column or value", names_table)
    quality = unread_quality(question, table, placed) if operation else ""
    if quality and not (names_code(quality) or any(compact(quality) == compact(m.phrase) for _, m in variants)):
        # "how many vehicles have no air conditioning": no column says so; every row would be counted
        why = f"says the rows have {quality!r}, no column or value"
        return dataclasses.replace(_refused(score, operation, evidence, why, names_table), unplaced=quality)
    # no intent word: a filter still picks rows (the facts half of a hybrid question)
    op = operation or ("group_by" if group_by else "list" if filters else "")
    if op == "list" and ASKS_PERSON.search(said) and any(f.op in ORDER_OPS for f in filters):
        operation = op  # "wer hatte ... vor mehr als 12 Monaten": the people a range picks, as "which" asks
    if not op:
        return Parsed(None, score, "", evidence, names_table)
    if op in ("count", "sum", "avg", "min", "max") and not group_by:
        # "wie viele in Augsburg und wie viele in Chemnitz", "per site: A, B and C": a figure for each value named
        group_by, filters = each_value_named(question, filters)
    if op != "intersect":
        filters = one_value_per_column(question, filters)
    base: list[Filter] = []
    if op == "share":
        base, filters = share_split(question, filters)
        if not filters:  # "what share of the servers?": of what, is not said
            return _refused(score, op, evidence, "a share that names no condition", names_table)
    filter_columns = {f.column for f in filters}
    columns: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()
    if op in ("sum", "avg", "min", "max"):
        # a column compared with a number may still be the one measured ("the average price of SKUs over $1,000")
        kept = {f.column for f in filters if f.op not in ORDER_OPS}
        measured = _mentioned(stems, table, kind="number", exclude=kept | set(group_by))
        prices = price_columns(question, table)
        if measured and measured[0] in {f.column for f in filters} and prices:
            measured = prices  # "the cheapest tool with more than 2 kg": a price, of those rows
        measured = measured or prices  # "what does the cheapest one cost"
        measured = measured or money_columns(question, table)  # "the total value of all orders": its one amount
        priced = priced_columns(question, table)
        measured = measured or (priced if len(priced) == 1 else [])  # "was kostet ein M80 im Durchschnitt"
        measured = measured or value_measured(question, op, table, filters)
        columns = (measured[0],) if measured else ()
        if not columns:
            # "the average fuel consumption": no number column holds what is measured, so no figure can be given
            phrase = measure_phrase(question, op)
            why = f"measures {phrase or 'nothing'!r}, but names no number column"
            return dataclasses.replace(_refused(score, op, evidence, why, names_table), unplaced=phrase)
        whose = measured_of_unknown(question, op, table)
        if whose:  # "le montant total de la TVA": the table's amounts are no VAT, so their total is another figure
            why = f"measures {columns[0]!r} of {whose!r}, which no column or value holds"
            return dataclasses.replace(_refused(score, op, evidence, why, names_table), unplaced=whose)
    elif op in ("list", "distinct", "intersect"):
        # "welche Bestellungen": the rows, by their key; not `order_date`, which "order" names only in part
        shown = _mentioned(stems, table, kind=None, exclude=filter_columns | set(group_by), rows=label_forms(table))
        if not shown and operation == "list" and table.columns[0].name in {f.column for f in filters if f.op == "eq"}:
            # "quels sont les prix de l'eau à Colmont": listing the key the question pins ("Colmont, Colmont")
            # answers nothing; a column the table's name shares ("prices": price_eur) is what it asks
            shown = _mentioned(stems, table, kind=None, exclude=filter_columns | set(group_by))
        columns = (shown[0] if shown else table.columns[0].name,)  # none named: the rows' key
        within = len([f for f in filters if f.op == "eq"]) >= 2  # "suppliers of both depots": one table's rows
        if op == "list" or (op == "intersect" and within):
            columns = (person_asked(said, table, names_for_numbers(question, table, columns[0])),)
        if op == "intersect" and not within:
            tables = second_table(stems, catalogue, table, columns)
    elif op == "count" and re.search(OPERATION_WORDS["distinct"], question.lower()):
        shown = _mentioned(stems, table, kind="text", exclude=filter_columns)
        columns = (shown[0],) if shown else ()
    elif op == "count" and (repeated := repeated_first_column(question, table, filter_columns)):
        columns = (repeated,)  # "how many towns" in a price table: its 3 towns, not its 11 price rows
    if group_by and op == "count":
        op = "group_by"
    intent = Intent(
        operation=op,
        table=table.name,
        columns=columns,
        filters=tuple(filters),
        group_by=group_by,
        source_sets=(table.source_set,),
        tables=tables,
        base=tuple(base),
        # "combien de fournisseurs ... à la fois": how many keys both sets hold, not the keys
        count_groups=op == "intersect" and bool(re.search(OPERATION_WORDS["count"], question.lower())),
    )
    return Parsed(intent, score, operation, evidence, names_table)


def _extreme(
    question: str, stems: set[str], table: Table, filters: list[Filter], op: str, per: str = ""
) -> Intent | None:
    """ "Which site has the most servers": the site column's values with the highest row count; "which SKU
    has the highest list price": the SKU with the highest total list price. None unless the asked noun
    names a text column or the table's rows ("what is the highest price" asks for a figure: max)."""
    limit, noun = top_n(question)  # "the three cheapest vehicles": the three best rows
    asked = _stem(noun) if limit else _asked(question, table)
    if re.search(WHEN, question.lower()):  # "when was the newest order placed": a date, of the rows themselves
        if not dated_measure(question, stems, table):
            return None
        asked = next(iter(_stem(w) for w in words(table.label)[-1:]), "")
    copula = re.search(COPULA_ASKED, question.lower())
    if copula and copula.group(0).startswith("what") and not re.search(DATE_EXTREMES, question.lower()):
        copula = None  # "what is the most expensive SKU" asks for the figure; "what is the newest vehicle" for one
    if copula and asked == _stem(copula.group(1)):  # "quel est le véhicule le moins cher": the noun after
        asked = _stem(copula.group(2))
    label = {_stem(w) for w in words(table.label)}
    known = inflected_forms(asked) & label
    asked = next(iter(known)) if known else asked  # "Fahrzeug", "Fahrzeuge": vehicle
    label_inflected = {f for w in words(table.label) for f in inflected_forms(w)}
    if asked and len(label) == 1 and asked not in label and inflected_forms(asked) & label_inflected:
        asked = next(iter(label))  # "the oldest vehicle", "welches Fahrzeug" of the sheet `Fahrzeuge`
    if asked and any(f.value == asked or str(f.value).lower() == asked for f in filters):
        asked = _word_after(question, asked)  # "which RX-300 SKU": the value qualifies the noun after it
    # a date column is no group of rows ("which order": the orders, not their `order_date`)
    named = [c for c in table.columns if c.kind == "text" and not c.is_date and asked in {_stem(w) for w in c.words}]
    if not asked or not (named or asked in label):
        return None
    found = re.search(ASKED, question.lower())
    phrase = {_stem(w) for w in words(question.lower()[found.start(1) :])[:3]} if found else set()
    if label and label <= phrase:  # "which parking zone": the rows themselves, by their key column
        named = []
    group = (named or [table.columns[0]])[0].name
    per = "" if per == group else per  # "which site has the most servers per site" is one grouping
    excluded = {group, per, *(f.column for f in filters)}
    after = re.search(rf"(?:{EXTREMES[op]})[\s-]+(?:(?:of|de|d'|der|an)\s+)?(.*)", question.lower())
    tail = words(after.group(1)) if after else []
    # "the most servers": a count of rows; "the highest list price": a measure named after the extreme word
    # ("le plus de VLAN" counts rows even though vlan_id holds the word: only a column named in full measures).
    # Anything else ("which printer is the most reliable") is no figure: None.
    rows = label | {asked} | {_stem(w) for w in table.columns[0].words}  # the rows, or their key ("SKUs")
    if tail and _stem(tail[0]) == asked and group == table.columns[0].name:
        tail = tail[1:]  # "the cheapest vehicles": the rows by their key; what measures them is said otherwise
    tail_stems = _stems(" ".join(tail[:4]))
    if after and tail and question[after.start(1) - 1] == "-":  # "best-rated": a compound's participle
        tail_stems |= _stems(f"{question[: after.start(1)].split()[-1]}{tail[0]}")
    numeric = [c for c in table.columns if c.kind == "number" and c.name not in excluded]
    full = [c.name for c in numeric if all(_stem(w) in tail_stems for w in c.words if w not in UNITS.values())]
    dated = dated_measure(question, stems, table)
    if dated:  # "the newest vehicle": the latest date, not a total
        measured = dated
    elif tail and _stem(tail[0]) in rows:
        measured = full or price_columns(question, table)  # "the most expensive procedure": a price, no row count
        measured = measured or sole_measure(question, table, group)
    elif before := said_before(question, op, table, excluded):  # "le délai de réponse le plus court"
        measured = before
    else:
        measured = (
            full
            or price_columns(question, table)  # "the cheapest tool heavier than 2 kg": its price, not its weight
            or _mentioned(tail_stems, table, kind="number", exclude=excluded)
            or lasting_columns(question, table, excluded)  # "welcher Kurs dauert am längsten": its duration
            or sole_measure(question, table, group)
        )
        if not measured:
            return None
    return Intent(op, table.name, tuple(measured[:1]), tuple(one_value_per_column(question, filters)), (group,),
                  (table.source_set,), limit=limit, per=per)  # fmt: skip


# "Wie hoch ist der Jahreswert aller aktiven Verträge", "what is the annual value of all active contracts",
# "quelle est la valeur de tous les contrats": a number column's figure of all the rows named is their total
FIGURE_OF_ALL = (
    r"^\s*(?:wie hoch (?:ist|war|sind|waren)|what (?:is|was|are|were) the|quel(?:le)?s? (?:est|était|sont))\b"
    r"(?:(?!\b(?:each|every|jede\w*|chaque)\b).)*\b(?:aller|all|de tous les|de toutes les)\b"
)
# "which is the X", "welches ist das X", "quel est le X": the asked noun follows the copula and article
# "what is the newest vehicle": an extreme word between the article and the noun is skipped
_ADJECTIVE = r"(?:(?:most|least)\s+\w+|\w+est|\w{3,}ste[nrs]?|\w+-\w+(?:ed|ing))\s+"  # "the best-rated X"
COPULA_ASKED = (
    r"\b(?:which|what|welche\w*|quel\w*)\s+(is|ist|est)\s+(?:the\s+|das\s+|der\s+|die\s+|le\s+|la\s+|l')"
    rf"(?:{_ADJECTIVE})?([\wäöüéè\-]+)"
)


def _word_after(question: str, word: str) -> str:
    """The stemmed word right after `word` in the question ("" when none)."""
    said = words(question.lower())
    at = next((i for i, w in enumerate(said) if _stem(w) == word), -1)
    return _stem(said[at + 1]) if 0 <= at < len(said) - 1 else ""


def asked_noun(question: str) -> str:
    """The noun a count or list asks for, stemmed ("server" in "which servers ..."); "" when none."""
    return _asked(question)


def stem(word: str) -> str:
    """A word's English singular, as tables and columns are matched ("warehouses" -> "warehouse")."""
    return _stem(word)


def _counts_rows(question: str, table: Table) -> bool:
    """A count word asks for the table's rows ("number of VLANs", "how many public holidays"), not for a
    quantity held in a number column ("how many units are reserved in total")."""
    found = re.search(COUNTED, question.lower())
    if not found:
        return False
    return bool(_forms(found.group(1)) & label_forms(table)) or (table.name == DOCUMENTS and asks_documents(question))


def _without_column_names(question: str, table: Table) -> str:
    """The question less the names of the table's columns: "minimum fee" names minimum_fee_eur, it does
    not ask for a minimum."""
    for column in table.columns:
        named = [w for w in column.words if w not in UNITS.values()]
        if len(named) > 1:
            phrase = r"[\s_-]+".join(re.escape(w) for w in named[:2])
            question = re.sub(rf"\b{phrase}\w*", " ", question, flags=re.IGNORECASE)
    return question


def _mentioned(
    stems: set[str], table: Table, kind: str | None, exclude: set[str], rows: frozenset[str] | set[str] = frozenset()
) -> list[str]:
    """Columns the question names (all their words first, then any word), not those filtered on. A column
    named in part only by `rows` (the words that name the table's rows) is not named. Between two named
    alike, one named by words of the table's own name comes second: "which item on our price list has the
    longest delivery lead time" names lead_time_weeks, and says "price list" of the table, not of list_price_usd."""
    label = label_forms(table)
    ranked = []
    for position, column in enumerate(table.columns):
        if column.name in exclude or (kind and column.kind != kind):
            continue
        said = [w for w in column.words if names_columns(w) and any(_said(f, stems) for f in _forms(w))]
        hits = len(said)
        if hits < len(column.words) and all(_forms(w) & rows for w in said):
            continue
        if hits:
            by_label = all(_forms(w) & label for w in said)
            ranked.append((-(hits / len(column.words)), -hits, by_label, position, column.name))
    return [name for *_, name in sorted(ranked)]
