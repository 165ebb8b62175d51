"""Which table a question is about: its label said (in parts, for a German compound), the noun it counts or
lists, a year or number in its file name, its columns and values named. `score_table` returns the points with
the evidence the router weighs."""

from __future__ import annotations

import re

from strata_pipeline.facts.catalogue import DOCUMENTS, Table
from strata_pipeline.facts.cells import cell_values, country_codes
from strata_pipeline.facts.compounds import compound_ending_in, compound_label
from strata_pipeline.facts.intent import Filter
from strata_pipeline.facts.intent_words import DETERMINER
from strata_pipeline.facts.qualities import counted_head
from strata_pipeline.facts.ranking import top_n
from strata_pipeline.facts.vocabulary import DOCUMENT_NOUNS
from strata_pipeline.facts.wording import column_named as _column_named
from strata_pipeline.facts.wording import forms as _forms
from strata_pipeline.facts.wording import inflected_forms, words
from strata_pipeline.facts.wording import said as _said
from strata_pipeline.facts.wording import stem_word as _stem
from strata_pipeline.facts.wording import unit_named as _unit_named


def shared_numbers(tables: list[Table]) -> set[str]:
    """Numbers in the names of most spreadsheets, three or more ("…-2025.xlsx" across a folder): the corpus's
    year, which names no one file. A year that tells twins apart ("fees-2022", "fees-2026") is in fewer."""
    files: dict[str, set[str]] = {}
    for table in tables:
        for number in re.findall(r"\b\d{2,4}\b", table.doc_id):
            files.setdefault(number, set()).add(table.doc_id)
    sheets = len({t.doc_id for t in tables if t.doc_id})
    return {number for number, named in files.items() if len(named) >= 3 and 2 * len(named) > sheets}


def score_table(
    question: str, stems: set[str], table: Table, shared: set[str] | frozenset[str] = frozenset()
) -> tuple[float, list[str], list[Filter]]:
    evidence = []
    label_words = words(table.label)
    score = _label_score(question, stems, table, label_words)
    if not score and (parts := compound_label(label_words)) != label_words:
        # a German sheet named in one compound ("Lieferantenliste"), said by its parts ("welche Lieferanten")
        score, label_words = _label_score(question, stems, table, parts), parts
    if score:
        evidence.append(f"table {table.label!r}")
    heads = [_stem(w) for w in label_words]
    label = heads + [f for w in label_words for f in _forms(w) if f not in heads]
    limit, noun = top_n(question)
    asked = _stem(noun) if limit else asked_noun_of(question, table)  # "what are the three biggest orders": orders
    # a count's phrase is named by its last noun: "how many service desk priorities" asks for priorities
    asked = _stem(counted_head(question)) or asked
    # the noun names the rows (the label) or a column by its first word ("which SKUs", "which owner teams");
    # a column's last word is often its unit ("capacity_units"), which "how many units" does not ask for.
    # A German or French noun names them by its English word ("Bestellungen", "commandes": orders)
    asked = next(iter(sorted(inflected_forms(asked) & set(label))), asked) if asked else asked
    if asked and (asked in label or any(asked == _stem(c.words[0]) for c in table.columns if c.words)):
        # what the question counts or lists ("which SKUs", "how many servers") is here; the half point
        # prefers this table over one that only holds the same value ("SKUs in the RNO warehouse")
        score += 2.5
        evidence.append(f"asks for {asked!r}" + (" (table)" if asked in label else ""))
    numbers = set(re.findall(r"\b\d{2,4}\b", table.doc_id)) & set(re.findall(r"\b\d{2,4}\b", question)) - shared
    if numbers:
        score += 1  # "the 2026 fee schedule": the document whose name holds that year or number
        evidence.append(f"document {table.doc_id!r}")
    named = [column for column in table.columns if _column_named(stems, column)]
    # a unit is one word however many columns end with it: "euros" names five `_eur` fee columns no better than one
    named += [column for column in table.columns if column not in named and _unit_named(stems, column)][:1]
    score += len(named) + (1 if len(named) > 1 else 0)  # columns of one table named together: its rows
    evidence += [f"column {column.name!r}" for column in named]
    filters = cell_values(question, table)
    score += 2 * len(filters)
    evidence += [f"value {f.column}={f.value!r}" for f in filters]
    return score, evidence, filters


def said_in_full(question: str, stems: set[str], table: Table) -> bool:
    """Whether the question says every word of a label of two words or more ("contrôles d'hygiène ... Lausanne"
    for `controles-hygiene-lausanne-2025.csv`). One word ("warehouses") is often only the kind of a value named."""
    label = words(table.label)
    return table.name != DOCUMENTS and len(label) > 1 and _label_score(question, stems, table, label) == 3.0


def _label_score(question: str, stems: set[str], table: Table, label_words: list[str]) -> float:
    """How fully the question names the table by its label's words: 3 for all of them, 2 for the part
    that says which sheet, 0 for none."""
    heads = [_stem(w) for w in label_words]

    codes = country_codes(question)

    def named(word: str) -> bool:  # as written or in English: "orders" names `Bestellungen`
        # or, a long word, less a German plural ending ("Temperaturabweichung" names `Temperaturabweichungen`), or
        # a country's code by its name ("des Österreich-Tarifs" names the sheet `Tarif AT`)
        said = inflected_forms(word) if len(word) >= 8 and word not in LIST_NOUNS else _forms(word)
        return any(_said(f, stems) for f in said) or word in codes

    if (heads and all(map(named, label_words))) or (table.name == DOCUMENTS and asks_documents(question)):
        return 3.0  # its label, or for `documents` what people call documents ("how many text files")
    if len(heads) > 1 and len(heads[-1]) >= 5 and named(label_words[-1]):
        return 2.0  # its head noun: "holidays" for "public holidays"
    if len(heads) > 1 and heads[-1] in LIST_NOUNS and all(map(named, label_words[:-1])):
        return 2.0  # a sheet named for what it lists: "maintenance" for the "maintenance log", "suppliers" for
        # the "Lieferantenliste"
    if len(heads) > 2 and all(map(named, label_words[:-1])):
        return 2.0  # its two or more modifiers, which say which sheet: "self-pay" for the "self pay prices"
    if len(label_words) == 1 and compound_ending_in(label_words[0], question.lower()):
        return 2.0  # a German compound the label is the head of: "Kühlräumen" for the sheet "Räume"
    return 0.0


# Short English words a question uses as words, never as a column's abbreviation: "which articles do we buy"
# names no `Rest-MHD WE min.` (WE: Wareneingang, goods received)
FUNCTION_WORDS = frozenset("we us our in on at to of by or an as is it be do if so up".split())


def names_columns(word: str) -> bool:
    return len(word) > 1 and word not in FUNCTION_WORDS


# Nouns that name a sheet by its form, not its rows ("maintenance log", "price list", "VLAN plan")
LIST_NOUNS = frozenset(
    "log list register sheet table plan matrix schedule overview journal "
    "liste tabelle übersicht uebersicht verzeichnis protokoll stamm registre tableau carnet".split()
)  # German "Artikelstamm" (master data) and French "carnet d'entretien" (log book) too
ASKED = (
    r"\b(?:how many|which|what|wie vielen?|welche\w*|combien de|combien d'|quels|quelles|quel|quelle|list|number of|"
    r"count)"
    rf"(?:\s+|(?<=')){DETERMINER}([\wäöüé\-]+)"
)


def asked_noun_of(question: str, table: Table | None = None) -> str:
    """The noun after the intent word: "servers" in "how many servers ...", stemmed. With `table`, an
    intent word that is the first word of one of its columns ("list" in "the smallest list price") is
    that column's name, not an intent word."""
    for found in re.finditer(ASKED, question.lower()):
        if table is None or not _starts_column(found.group(0), table):
            return _stem(found.group(1))
    return ""


def _starts_column(phrase: str, table: Table) -> bool:
    """Whether the intent word and the word after it are a column's first two words ("list price")."""
    said = [_stem(w) for w in words(phrase)[-2:]]
    return len(said) == 2 and any([_stem(w) for w in c.words[:2]] == said for c in table.columns)


def asks_documents(question: str) -> bool:
    """A count or list of documents or files: a document noun within three words of the intent word."""
    found = re.search(ASKED, question.lower())
    after = words(question.lower()[found.start(1) :])[:3] if found else []
    return any(_stem(w) in DOCUMENT_NOUNS for w in after)
