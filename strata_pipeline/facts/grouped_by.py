"""Which column a question groups by: "per site", "je Lieferant", "par type de service"."""

from __future__ import annotations

import re

from strata_pipeline.facts.catalogue import DOCUMENTS, Column, Table
from strata_pipeline.facts.implied import rate_of
from strata_pipeline.facts.intent_words import GROUP_WORDS
from strata_pipeline.facts.phrasing import initials
from strata_pipeline.facts.vocabulary import FOLDER_WORDS
from strata_pipeline.facts.wording import forms, stem_word, words


def grouped_by(question: str, table: Table) -> tuple[str, ...]:
    """The column a grouping word names ("per site", "je Lieferant", "par type"): by a column sharing the
    word (the words after it choosing between several), by initials ("per operating system": `os`), or by a
    clipped name ("per environment": `env`); `project` for "per folder" of documents; () when none."""
    for match in re.finditer(GROUP_WORDS, question.lower()):
        said = forms(match.group(1))  # "je Lieferant": lieferant, supplier
        word = stem_word(match.group(1))
        if table.name == DOCUMENTS and word in FOLDER_WORDS and table.column("project"):
            return ("project",)  # "per folder": the project facet is the document's top folder
        if any(c.kind == "number" and (rate_of(c, said) or _per_slash(c, said)) for c in table.columns):
            continue  # "Einkaufspreis pro VE": the unit of the price column `EK-Preis CHF/VE`, no grouping
        following = words(question.lower()[match.start(1) :])[:3]
        near = {f for w in following for f in forms(w)}
        sharing = [
            c
            for c in table.columns
            if said & {f for w in c.words if len(w) > 1 for f in forms(w)} and not rate_of(c, said)
        ]
        if sharing:  # "per service type": service_type before service_date, by the words said after "per"
            return (max(sharing, key=lambda c: sum(1 for w in c.words if forms(w) & near)).name,)
        for column in table.columns:
            # "per operating system" for `os`; "per environment" for `env` (a clipped column name)
            clipped = any(len(w) >= 3 and word.startswith(w) for w in column.words)
            if (initials(column.name, following) or clipped) and not rate_of(column, said):
                return (column.name,)
    return ()


def _per_slash(column: Column, said: set[str]) -> bool:
    """Whether the column's name ends in "/" and the word said ("EK-Preis CHF/VE" for "pro VE")."""
    if "/" not in column.name:
        return False
    tail = words(column.name.rsplit("/", 1)[1])
    return len(tail) == 1 and bool(forms(tail[0]) & said)
