"""Rows of one table with no matching row in another: "which servers have no patch-wave entry", "welche
Mitarbeiter fehlen in der Schulungsliste", "quels SKU n'ont aucune entrée de stock". A second table is
named right after a negation or an absence word, with only articles, prepositions and row nouns
("entry", "Eintrag", "entrée") between them; the question less that phrase is parsed as usual, over a
table that shares a key column with the one named (an anti-join on that key).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from strata_pipeline.facts.catalogue import DOCUMENTS, Table
from strata_pipeline.facts.wording import GERMAN_ENDINGS, forms, stem_word, words

# Words that say the rows lack something ("no", "fehlen", "aucune"); "n'ont", "haven't" by their form.
NEGATIONS = frozenset(
    "no not without never none nowhere missing absent lacking nicht ohne nie nirgends kein keine keinen keinem "
    "keiner keines fehlen fehlt fehlend fehlende fehlenden aucun aucune aucuns aucunes sans pas jamais manquent "
    "manque manquant manquants manquante manquantes absents absente absentes".split()
)
# Words that may stand between the negation and the table's name: articles, prepositions, verbs of being
# listed, and nouns for a sheet's rows or the sheet itself ("no entry in the stock sheet").
FILLERS = frozenset(
    "a an any single the in into from on of at for de du des la le les l' d' dans sur der die das dem den im "
    "ins vom von auf einen eine einem einer irgendeinen listed appear appears present found recorded mentioned "
    "vorhanden aufgeführt enthalten gelistet erfasst verzeichnet figurent figure apparaissent apparaît répertorié "
    "répertoriés have has had haben hat ont".split()
)
ROW_NOUNS = frozenset(
    "entry entries record records row rows line lines item items eintrag einträge einträgen datensatz zeile zeilen "
    "entrée entrées ligne lignes enregistrement enregistrements".split()
)
SHEET_NOUNS = frozenset(
    "sheet sheets list table log register file journal plan liste tabelle blatt protokoll verzeichnis registre "
    "tableau fichier feuille".split()
)
_WORD = re.compile(r"[a-z0-9äöüßéèàç$€][\w\-.'/]*")


@dataclass(frozen=True)
class Absence:
    table: Table  # the table the rows have no match in
    start: int  # the phrase that says so ("no stock entry"), as offsets in the question
    end: int


def absence(question: str, tables: tuple[Table, ...] | list[Table]) -> Absence | None:
    """The one table a negation names as where the rows are missing; None when none or several do."""
    lowered = question.lower()
    tokens = [(m.start(), m.end(), m.group().strip(".'")) for m in _WORD.finditer(lowered)]
    found: dict[str, Absence] = {}
    for table in tables:
        if table.name == DOCUMENTS or table.name in found:
            continue
        for first, last in mentions([t[2] for t in tokens], table):
            start = _negated_from(tokens, first)
            if start < 0:
                continue
            while last + 1 < len(tokens) and tokens[last + 1][2] in ROW_NOUNS | SHEET_NOUNS:
                last += 1  # "no stock entry", "missing from the price list sheet"
            found[table.name] = Absence(table, tokens[start][0], tokens[last][1])
            break
    if len(found) != 1:
        return None
    return next(iter(found.values()))


def _negated_from(tokens: list[tuple[int, int, str]], first: int) -> int:
    """The first token of the negation and fillers right before token `first`, or -1 when no negation
    stands there."""
    at, negated = first, False
    while at > 0:
        word = tokens[at - 1][2]
        if _negation(word):
            negated = True
        elif not negated and at > 1 and _negation(tokens[at - 2][2]):
            pass  # one verb right after the negation: "never received a purchase order", "n'ont jamais passé de"
        elif word not in FILLERS | ROW_NOUNS | SHEET_NOUNS:
            break
        at -= 1
    return at if negated else -1


def _negation(word: str) -> bool:
    return word in NEGATIONS or word.endswith(("n't", "n’t")) or word.startswith(("n'", "n’"))


def mentions(said: list[str], table: Table) -> list[tuple[int, int]]:
    """Token spans that name the table: its label's words in order; for a sheet named for its form ("maintenance
    log"), the words before that noun; for a longer label, its head noun ("holidays")."""
    label = words(table.label)  # as written: "verträge" has an English word, its folded stem "vertraege" none
    heads = [stem_word(w) for w in label]
    if not heads:
        return []
    shapes = [label]
    if len(heads) > 1 and heads[-1] in SHEET_NOUNS:
        shapes.append(label[:-1])
    elif len(heads) > 1 and len(heads[-1]) >= 5:
        shapes.append(label[-1:])
    spans = []
    for shape in shapes:
        for at in range(len(said) - len(shape) + 1):
            if all(_names(said[at + i], head) for i, head in enumerate(shape)):
                spans.append((at, at + len(shape) - 1))
    return sorted(set(spans))


def _names(word: str, head: str) -> bool:
    """Whether a question's word is a label's word: its stem, English form, or a German ending on it."""
    said = forms(word) | {stem_word(word)}
    wanted = forms(head) | {stem_word(head)}
    if said & wanted:
        return True
    return any(len(w) >= 4 and word.startswith(w) and word[len(w) :] in GERMAN_ENDINGS for w in wanted)


def shared_key(rows: Table, missing_in: Table) -> str:
    """The column the anti-join compares: the rows' key (their first column) when the other table holds it
    ("vehicle_id" in the maintenance log), else the other table's key when the rows hold it ("provider" of
    a course, missing from the provider list); "" when they share neither."""
    for key in (rows.columns[0].name if rows.columns else "", missing_in.columns[0].name if missing_in.columns else ""):
        if key and rows.column(key) is not None and missing_in.column(key) is not None:
            return key
    return ""
