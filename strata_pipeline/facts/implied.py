"""What a question implies of a sheet without naming it in full: the one number column that measures a
value the rows are filtered on ("the total water standing charge"), the distinct values of a first column
that repeats ("how many towns" in a price table), a rate's unit that is no grouping ("per kWh" in
`ct_per_kwh`), and a count per group said by comparing a number of the rows ("more than 5 VLANs").
parse.py asks these when its plainer readings find nothing.
"""

from __future__ import annotations

import re

from strata_pipeline.facts.catalogue import Column, Table
from strata_pipeline.facts.intent import Filter
from strata_pipeline.facts.intent_words import COUNTED
from strata_pipeline.facts.numbers import COMPARE_WORDS, NUMBER
from strata_pipeline.facts.qualities import measure_phrase
from strata_pipeline.facts.wording import forms as _forms
from strata_pipeline.facts.wording import stem_word as _stem
from strata_pipeline.facts.wording import stems as _stems
from strata_pipeline.facts.wording import words


def value_measured(question: str, op: str, table: Table, filters: list[Filter]) -> list[str]:
    """The table's one number column, when what is measured is named by a value the rows are filtered on or by
    the table's own name, less a word for a figure ("rate", "price"): "the total water standing charge" sums the
    price of the water standing charge rows; "the lowest feed-in rate" in the feed-in remuneration table is its
    one number column. "The average fuel consumption" names neither, so it stays unplaced."""
    phrase = _stems(measure_phrase(question, op))
    named = _stems(table.label).union(*(_stems(str(f.value)) for f in filters if isinstance(f.value, str)))
    numeric = [c.name for c in table.columns if c.kind == "number"]
    return numeric if len(numeric) == 1 and phrase and phrase - named <= FIGURE_WORDS and phrase & named else []


# Words for a figure of something, not for what it is of: "the feed-in rate", "the water charge"
FIGURE_WORDS = frozenset(
    _stem(w)
    for w in "rate price cost fee charge amount value tariff preis kosten gebühr betrag satz tarif prix coût frais "
    "montant taux".split()
)


def repeated_first_column(question: str, table: Table, taken: set[str]) -> str:
    """The first column, when a count asks for it and its values repeat over the rows ("how many towns are in
    the water price table": `town`, one per price): the rows are not its things, so its distinct values are
    counted. "" when the counted noun names the table's rows ("how many public holidays"). A later column
    that repeats is no such sign: "wie viele Produkte" in a price list counts its SKU rows, not the families
    its `product` column names."""
    found = re.search(COUNTED, question.lower())
    said = _forms(found.group(1)) if found else set()
    first = table.columns[0] if table.columns else None
    if not said or said & label_forms(table) or first is None or first.name in taken:
        return ""
    repeats = first.kind == "text" and not first.is_date and 0 < len(first.values) < table.row_count
    return first.name if repeats and first.words and _forms(first.words[0]) & said else ""


def rate_of(column: Column, said: set[str]) -> bool:
    """Whether the column is a rate per the word said ("per kWh" in `ct_per_kwh`): a unit, no grouping."""
    return any(a == "per" and _forms(b) & said for a, b in zip(column.words, column.words[1:], strict=False))


def label_forms(table: Table) -> set[str]:
    """Every form of the words of the table's name ("price list": price, prices, list, ...)."""
    return {f for w in words(table.label) for f in _forms(w)}


def counts_per_group(question: str, table: Table) -> str:
    """The rows noun after a comparison ("more than 5 VLANs" in the VLAN plan): a count per group."""
    label = {_stem(w) for w in words(table.label)}
    for pattern in COMPARE_WORDS.values():
        for match in re.finditer(rf"\b(?:{pattern})\s+{NUMBER}\s+([\wäöüéè\-]+)", question.lower()):
            if _stem(match.group(2)) in label:
                return match.group(2)
    return ""
