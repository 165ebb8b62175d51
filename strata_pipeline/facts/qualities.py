"""What a question says the counted rows have: "vehicles that have no air conditioning", "Fahrzeuge mit
Standheizung", "véhicules avec une boîte automatique". A quality the table has no column or value for
cannot pick rows, so the count over every row would be a confident figure for another question: the
parser refuses it and names the columns that exist.
"""

from __future__ import annotations

import re

from strata_pipeline.facts.catalogue import DOCUMENTS, Column, Table
from strata_pipeline.facts.intent import Filter
from strata_pipeline.facts.intent_words import COUNTED, OPERATION_WORDS
from strata_pipeline.facts.numbers import comparisons
from strata_pipeline.facts.phrasing import priced_columns
from strata_pipeline.facts.vocabulary import DOCUMENT_NOUNS, NUMBER_WORDS, UNITS
from strata_pipeline.facts.wording import column_named, forms, inflected_forms, stem_word, stems, unit_named, words

# a verb or preposition of having, an optional article or negation, then the noun said of the rows
HAVE = (
    r"\b(?:have|has|having|with|without|haben|hat|besitzen|besitzt|mit|ohne|ont|avec|sans|possèdent|possède|"
    r"(?:paid|payé\w*|bezahlt)\s+(?:by|via|par|per))\s+"  # "paid by credit card": how, which a column must hold
    # a negation or time word before a participle: "have not been delivered" reads "been", "have never had" "had"
    r"(?:(?:not|never|yet|already|nicht|nie|noch|schon|bereits|pas|jamais|encore|déjà)\s+)*"
    r"(?:(?:a|an|no|any|kein\w*|eine?\w*|un|une|des|de|du|pas\s+de|pas\s+d'|d')(?:\s+|(?<=')))?"
    # "haben alle unsere 18-Tonner": the quality is what follows the quantifier and the possessive
    r"(?:(?:all|alle|allen|sämtliche|tous|toutes|les|our|unsere|unserer|unseren|nos|notre)\s+)*"
    r"([\wäöüéèàçîôû\-]+)"
)
# words after "have"/"with" that start a comparison, an extreme or an article, not a quality
FUNCTION_WORDS = frozenset(
    "the a an more less fewer most least highest lowest largest smallest biggest fewest best worst over under above "
    "below at than exactly between same different value values status been only at least each every "
    "der die das den dem des mehr weniger meisten wenigsten höchsten niedrigsten über unter genau jede jeder jedes "
    "jeden chaque "
    # quantifiers and possessives: "haben alle unsere Fahrzeuge", "have all our vans" say which rows, no quality
    "all alle allen aller alles sämtliche tous toutes our unsere unserer unseren unserem nos notre "
    "le la les l plus moins au exactement "
    # prepositions: "have in total", "haben insgesamt", "ont au total" end the phrase, they name nothing
    "in on of for to by from per total insgesamt im am zum zur bei für von en à pour par sur dans "
    # participles of being that start a passive ("ont été passées", "have been placed"), no noun
    "été eu worden gewesen "
    # "with another depot", "gemeinsam mit einem anderen Depot", "avec un autre dépôt": which of them, no quality
    "other another andere anderen anderem anderer anderes autre autres "
    # pronouns: a German or French question puts its subject after the verb ("Welche Bedingungen haben wir
    # vereinbart?", "Quels tarifs avons-nous ?"), an English one its object ("the terms we have with us")
    "we you they i he she it us them him her wir ihr sie er es ich du man uns euch ihm ihnen nous vous ils elles il "
    "elle on je tu eux lui leur "
    # question words after a preposition: "mit welchen Lieferanten", "with which suppliers", "avec quels"
    "which what whom whose welche welcher welches welchen welchem quel quels quelle quelles lequel lesquels".split()
)


def known_words(table: Table) -> set[str]:
    """The words that name something in `table`: its label, its column words and cell values (stemmed,
    and in English for German and French names)."""
    known = {f for w in words(table.label) for f in forms(w)}
    known |= {f for c in table.columns for w in c.words for f in forms(w)}
    known |= {v.lower() for c in table.columns for v in c.values}
    known |= {stem_word(w) for c in table.columns for v in c.values for w in words(v)}
    return known


def unread_quality(question: str, table: Table, measured: tuple[int, ...] = ()) -> str:
    """The noun a question says its rows have (or lack) when `table` has no column or value for it; ""
    when every such noun is known. Numbers, units and comparison words are no quality ("have 2 cores",
    "with more than", "with the highest"), nor is the noun a comparison placed on a number column
    measures (`measured`: where those comparisons start): "ont un couple de sortie d'au moins 1 000 Nm"
    names the torque column by its unit, in words the column does not use."""
    known = known_words(table)
    lowered = question.lower()
    for match in re.finditer(HAVE, lowered):
        word = match.group(1).strip("-")
        if word[:1].isdigit():  # "have 2 cores", "18 t"; but "18-Tonner" says a kind of row, the noun after it
            word = re.sub(r"^\d+(?:[.,]\d+)?-(?=[a-zäöüéè])", "", word)
        if not word or word[0].isdigit() or word in FUNCTION_WORDS or word in NUMBER_WORDS or word in UNITS:
            continue
        if any(_measures(lowered[match.end(1) : start]) for start in measured if start >= match.end(1)):
            continue
        if _names_column_next(lowered[match.end(1) :], table):
            continue  # "ont un certificat IFS/BRC qui expire": the noun says what the column `IFS/BRC gültig bis` is
        if forms(word) & known or word in known:
            continue
        parts = [p for p in word.split("-") if p]
        if parts and all(forms(p) & known or p.isdigit() for p in parts):
            continue
        if len(word) >= 8 and any(len(k) >= 8 and word[:6] == k[:6] for k in known):
            continue  # a German compound or inflection of a known word ("Wartungskosten" for wartungskost...)
        return word
    return ""


def _names_column_next(after: str, table: Table) -> bool:
    """Whether the two words after a noun name a column in full (its `name_words`): "certificat IFS/BRC"."""
    following = set(words(after)[:2]) | {p for w in words(after)[:2] for p in re.split(r"[/\-]", w) if p}
    return any(c.said_words and set(c.said_words) <= following for c in table.columns)


def _measures(between: str) -> bool:
    """Whether a noun is what the comparison after it measures: at most four words between, in one clause
    ("a torque of at least", "un couple de sortie maximal d'au moins"), not "a battery and more than"."""
    return len(words(between)) <= 4 and not re.search(r",|;|\b(?:and|or|und|oder|et|ou)\b", between)


# an extreme word that is part of what a condition measures: "a maximum torque of at least 1000 Nm", "un couple
# de sortie maximal d'au moins 1 000 Nm" (not "the cheapest vehicle with more than 100 kW", which asks for one)
_MEASURE_EXTREME = (
    r"\b(?:max(?:imum|imal\w*)?|min(?:imum|imal\w*)?|höchst\w*)\.?\s+(?:[\w\-]+\s+){0,2}(?:of|de|d'|von|du)\s*$"
)


def without_measure_extremes(question: str, measured: tuple[int, ...]) -> str:
    """The question less the extreme words that name the measure of a condition placed on a number column
    (`measured`: where those conditions start), so that they are not read as asking for a maximum."""
    for start in sorted(measured, reverse=True):
        window = max(0, start - 50)
        found = re.search(_MEASURE_EXTREME, question[window:start], flags=re.IGNORECASE)
        if found:
            at = window + found.start()
            question = question[:at] + " " * (start - at) + question[start:]
    return question


FLAG_VALUES = {"yes": "no", "ja": "nein", "oui": "non", "true": "false"}  # a yes/no column's pair
NEGATION = r"\b(?:not|\w+n't|\w+n’t|non|no|without|nicht|kein\w*|ohne|sans|pas)[\s-]+(?:\w+[\s-]+)?"


def flags(question: str, question_stems: set[str], table: Table, filters: list[Filter]) -> list[Filter]:
    """A yes/no column named as a quality of the rows: "colour printers" is color = yes, "printers
    without duplex" is duplex = no."""
    found = []
    taken = {f.column for f in filters}
    lowered = question.lower()
    for column in table.columns:
        values = {v.lower() for v in column.values}
        pair = next(((y, n) for y, n in FLAG_VALUES.items() if values and values <= {y, n}), None)
        if pair is None or column.name in taken or not column.words:
            continue
        head = column.words[-1]
        # the whole name, or its last word when that is a word of its own ("certified" for `iso_certified`)
        by_head = len(head) >= 5 and head not in UNITS.values() and bool(forms(head) & question_stems)
        if not (column_named(question_stems, column) or by_head):
            continue
        # the word that names it in the question, in any language ("certifiés", "zertifiziert")
        named = {w for w in words(lowered) if forms(w.strip("-")) & forms(head)} | {head}
        negated = any(re.search(rf"{NEGATION}{re.escape(w)}", lowered) for w in named)
        wanted = pair[1] if negated else pair[0]
        value = next((v for v in column.values if v.lower() == wanted), wanted)
        found.append(Filter(column.name, "eq", value))
    return found


def numeric_conditions(
    question: str, question_stems: set[str], table: Table
) -> tuple[list[Filter], str, tuple[int, ...]]:
    """The numeric conditions as filters, the first condition no number column was found for (""), and
    where each condition placed on a column starts (the noun before it names what it measures)."""
    numeric = [c for c in table.columns if c.kind == "number"]
    found: list[Filter] = []
    unplaced = ""
    starts: list[int] = []
    for compared in comparisons(question):
        after = stems(question[compared.end : compared.end + 40])
        before = stems(question[max(0, compared.start - 40) : compared.start])
        if compared.unit:  # "a warranty of 24 months": the column whose name ends with the unit said
            unit = UNITS.get(compared.unit, stem_word(compared.unit))
            ends = [
                c for c in numeric if c.words and unit in (UNITS.get(c.words[-1], c.words[-1]), stem_word(c.words[-1]))
            ]
            ends = [c for c in ends if column_named(before, c)] if len(ends) > 1 else ends
            found += [Filter(ends[0].name, "eq", compared.value)] if len(ends) == 1 else []
            continue  # "of 24 months" may also be a description, not a condition: never refused
        # the column named right after the number, then right before it, then by unit, then anywhere
        named = (
            [c for c in numeric if column_named(after, c)]
            or [c for c in numeric if column_named(before, c)]
            or [c for c in numeric if unit_named(after, c)]
            or [c for c in numeric if column_named(question_stems, c)]
            or [c for c in numeric if unit_named(question_stems, c)]
            or [c for c in numeric if c.name in priced_columns(question, table)][:1]
        )
        if named:
            found.append(Filter(named[0].name, compared.op, compared.value))
            starts.append(compared.start)
        elif not unplaced:
            unplaced = question[compared.start : compared.end].strip()
    return found, unplaced, tuple(starts)


# "no", "without", "zero" before what a number column measures: "business types with no fire surcharge"
NONE_OF = (
    r"\b(?:no|without|zero|kein\w*|ohne|sans|aucune?|pas de|pas d')[\s-]+"
    r"((?:[\wäöüéèàç\-]+\s+){0,2}[\wäöüéèàç\-]+)"
)


def absent_amounts(question: str, table: Table, filters: list[Filter]) -> list[Filter]:
    """A number column said to be absent is 0: "which business types have no fire surcharge" keeps the rows whose
    `fire_surcharge_percent` is 0. The column must be named in full by the words after the negation.

    A text column said to be absent holds its "nothing" values: "items that need no approval" keeps the rows
    whose `approval_required` is "none", "codes that need no customer action" those whose `customer_action`
    starts "none; ...". Named in full, or by a first word of 5 letters or more that no other column has."""
    taken = {f.column for f in filters}
    found = []
    texts = {c.name: said for c in table.columns if c.kind == "text" and (said := _nothing_values(c))}
    for match in re.finditer(NONE_OF, question.lower()):
        after = stems(match.group(1))
        named = [c for c in table.columns if c.kind == "number" and c.name not in taken and column_named(after, c)]
        if len(named) == 1:
            found.append(Filter(named[0].name, "eq", 0.0))
            taken.add(named[0].name)
            continue
        named = [
            c
            for c in table.columns
            if c.name in texts
            and c.name not in taken
            and (column_named(after, c) or _named_by_first_word(after, c, table))
        ]
        if len(named) == 1:
            nothing = texts[named[0].name]
            found.append(
                Filter(named[0].name, "eq", nothing[0]) if len(nothing) == 1 else Filter(named[0].name, "in", nothing)
            )
            taken.add(named[0].name)
    return found


# What a text column writes for "nothing", alone or before its remark ("none; renewed remotely").
NOTHING_WORDS = frozenset("none nothing n/a nil - keine kein keiner entfällt nichts aucun aucune néant rien".split())


def _nothing_values(column: Column) -> tuple[str, ...]:
    """The column's values that say "nothing"; none when every value does (then it tells no rows apart)."""
    nothing = tuple(
        v for v in column.values if re.split(r"[;,:(]", v.casefold(), maxsplit=1)[0].strip() in NOTHING_WORDS
    )
    return nothing if len(nothing) < len(column.values) else ()


def _named_by_first_word(said: set[str], column: Column, table: Table) -> bool:
    """ "no approval" for `approval_required`: the column's first word, long enough to be a word of its own
    and no other column's first word."""
    first = column.words[0] if column.words else ""
    if len(first) < 5 or sum(1 for c in table.columns if c.words[:1] == (first,)) > 1:
        return False
    return bool(forms(first) & said)


# Words that end what an aggregate measures: "the average fuel consumption of the diesel vehicles"
MEASURE_END = frozenset(
    "of for in at per by from with over under across among der des für pro je von im in de du des pour par sur".split()
)


# nouns of a quantity as such: what they measure follows them ("number of robots", "Anzahl der Plätze")
QUANTITY_NOUNS = frozenset({"number", "count", "amount", "quantity", "anzahl", "zahl", "menge", "nombre", "quantité"})


def measure_phrase(question: str, op: str) -> str:
    """The words an aggregate word is followed by, up to a preposition ("fuel consumption"); "" when none."""
    found = re.search(OPERATION_WORDS[op], question.lower())
    said = words(question.lower()[found.end() :]) if found else []
    if len(said) > 2 and said[0] in QUANTITY_NOUNS and said[1] in ("of", "de", "d", "an", "der", "des", "von"):
        said = said[2:]  # "the maximum number of robots per site" measures robots, not "number"
    taken: list[str] = []
    for word in said:
        if word in MEASURE_END or len(taken) == 3:
            break
        if word not in ("the", "a", "an", "die", "der", "das", "le", "la", "les"):
            taken.append(word.strip("?.!"))
    return " ".join(w for w in taken if w)


def counted_quantity(question: str, table: Table) -> str:
    """The number column a count question asks the value of, "" when it asks for rows: "how many bays
    does Depot 7 have" reads Depot 7's `bays`, not the number of Depot 7 rows. The counted noun must be
    the head (last word) of a number column's name ("bays", "parking_bays"), so "how many servers" never
    reads a `server_id`; or the question says the counted things "are" what a number column is named
    ("how many units are on hand": `on_hand`)."""
    found = re.search(COUNTED, question.lower())  # the noun as the parser reads it (facts/parse.py)
    if not found:
        return ""
    said = forms(found.group(1)) | forms(found.group(1).rstrip("s"))
    heads = [c for c in table.columns if c.kind == "number" and c.words and forms(c.words[-1]) & said]
    if len(heads) == 1:
        return heads[0].name
    # "how many RX300-AMR units are on hand": the count is the value of the number column the verb's
    # complement names ("on_hand"), not the number of rows
    lowered = question.lower()
    stated = [c for c in table.columns if c.kind == "number" and c.words
              and re.search(rf"\b(?:are|is)\s+(?:currently\s+|still\s+)?{' '.join(c.words)}\b", lowered)]  # fmt: skip
    return stated[0].name if len(stated) == 1 and not heads else ""


# "the total amount of VAT", "le montant total de la TVA": what follows "of" says whose amount is measured
OF_WHAT = (
    r"(?<!number )(?<!nombre )(?:\b(?:of|de|du|des|von)\b|\bd')\s*(?:(?:the|la|le|les|l'|all|every|tous|toutes|alle|"
    r"aller|die|der|den|dem)\s+)*([\wäöüéèàçîôû\-]+)(?:\s+([\wäöüéèàçîôû\-]+))?"
)


def measured_of_unknown(question: str, op: str, table: Table) -> str:
    """The noun an aggregate word's measure is "of" when `table` has no column, value or name for it: "TVA"
    in "le montant total de la TVA sur les commandes" (the table's amount column holds no VAT). "" when the
    noun is known, a number or a function word, or the question says no "of" after the aggregate word."""
    found = re.search(OPERATION_WORDS[op], question.lower())
    after = re.search(OF_WHAT, question.lower()[found.end() :]) if found else None
    if after is None:
        return ""
    word, following = after.group(1).strip("-"), (after.group(2) or "").strip("-")
    known = known_words(table)
    if not word or word[0].isdigit() or word in FUNCTION_WORDS or word in NUMBER_WORDS or word in UNITS:
        return ""
    parts = [p for p in re.split(r"[-_]", word) if p]  # "on_hand": a column's own name
    if forms(word) & known or word in known or all(forms(p) & known for p in parts):
        return ""
    # a word before a value it names ("der Kostenstelle IT", "du fournisseur SUP-01") is that value's column
    values = {v.lower() for c in table.columns for v in c.values}
    values |= {stem_word(w) for c in table.columns for v in c.values for w in words(v)}
    return "" if following and (stem_word(following) in values or following in values) else word


# Nouns that name a table's rows in any table, and words that may stand between "how many" and them.
ROW_WORDS = frozenset("row entry line record item are is there do does of in at the sind gibt il y".split())


def unread_counted_noun(question: str, table: Table) -> str:
    """The word a count asks for when `table` has no column, value or name for it ("" when it has):
    "spare" in "how many spare label printers". A German compound counts by its first part
    ("Abfuhrtermine" for the "Abfuhrkalender")."""
    found = re.search(COUNTED, question.lower())
    if not found:
        return ""
    word = found.group(1)
    after = words(question.lower()[found.end(1) :])[:1]
    joined = f"{word}{after[0]}" if after else ""  # "service desk" of a sheet named "servicedesk-sla"
    return "" if _knows(table, word) or (joined and _knows(table, joined)) else word


def counted_head(question: str) -> str:
    """The plural noun that ends the phrase an English count asks for, when it is not the phrase's first word:
    "priorities" in "how many service desk priorities are there" ("" when none)."""
    found = re.search(COUNTED, question.lower())
    english = found is not None and found.group(0).startswith(("how many", "number of", "count"))
    said = words(question.lower()[found.start(1) :])[:3] if found and english else []
    # "rota entries", "VLAN rows": a word for rows in general leaves the sheet to the word before it
    plurals = [w for w in said[1:] if w.endswith("s") and stem_word(w) != w and stem_word(w) not in ROW_WORDS]
    return plurals[-1] if plurals else ""


# German names of a list end in what kind of list it is: "Maschinenliste", "Lieferantenverzeichnis".
_LIST_TAILS = ("liste", "verzeichnis", "übersicht", "tabelle", "katalog")


def _listed_noun(word: str) -> str:
    """What a German list's name lists: "maschinenliste" -> "maschinen" (the word itself when no list)."""
    tail = next((t for t in _LIST_TAILS if word.endswith(t) and len(word) > len(t) + 3), "")
    return word[: -len(tail)] if tail else word


def _knows(table: Table, word: str) -> bool:
    """Whether a column, value or the name of `table` says `word` (a German compound by its first part)."""
    known = {f for w in words(table.label) for f in forms(w) | forms(_listed_noun(w))} | ROW_WORDS
    known |= DOCUMENT_NOUNS if table.name == DOCUMENTS else set()  # "how many files": the documents
    known |= {f for c in table.columns for w in c.words for f in forms(w)}  # "articles" for "Artikel-Nr."
    known |= {v.lower() for c in table.columns for v in c.values} | {
        stem_word(w) for c in table.columns for v in c.values for w in words(v)
    }
    if word in known or inflected_forms(word) & known:
        # a value: "how many rx-200 products" counts the rows whose product is RX-200; a German plural or
        # case ending: "in wie vielen Zonen" counts the rows of the column `Zone`
        return True
    if all(part in known or forms(part) & known or part.isdigit() for part in word.split("-") if part):
        return True  # every part of "sla-entries" is known
    return len(word) >= 8 and any(len(k) >= 8 and word[:6] == k[:6] for k in known)
