"""Known cell values a question names as written ("ZRH", "Windows Server 2022", "RX-200"), and in the
forms people use for codes: a language's name for its code ("in German" for `de`), a country's name for
its two-letter code ("Germany", "Deutschland", "Allemagne" for `DE`), a file format's name for its
extension ("Markdown files" for `.md`).
"""

from __future__ import annotations

import itertools
import re

from strata_pipeline.facts.catalogue import Column, Table
from strata_pipeline.facts.countries import COUNTRIES
from strata_pipeline.facts.intent import Filter
from strata_pipeline.facts.list_cells import listed_items
from strata_pipeline.facts.phrasing import negated
from strata_pipeline.facts.vocabulary import FORMATS
from strata_pipeline.text.legal_forms import CELL_LEGAL_FORM

# Words a value is never matched on alone: they are also ordinary words of questions.
NOT_VALUES = frozenset("yes no none all true false ja nein oui non - n/a".split())
LANGUAGES = {
    "german": "de", "english": "en", "french": "fr", "deutsch": "de", "deutsche": "de", "deutschen": "de",
    "englisch": "en", "englische": "en", "englischen": "en", "französisch": "fr", "französische": "fr",
    "französischen": "fr", "français": "fr", "française": "fr", "anglais": "en", "anglaise": "en",
    "allemand": "de", "allemande": "de",
}  # fmt: skip
# "German-language", "English-speaking", "deutschsprachige": a language's adjective for documents or rows
LANGUAGE_ADJECTIVE = rf"\b({'|'.join(map(re.escape, LANGUAGES))})-?(?:language|speaking|sprachig\w*)\b"
CODE_NAMES = frozenset({*LANGUAGES, *COUNTRIES, *FORMATS})  # a counted word that is one of them is read


def names_code(word: str) -> bool:
    """Whether a counted word is a name for a code ("german", "markdown") or a language's adjective."""
    return word in CODE_NAMES or re.fullmatch(LANGUAGE_ADJECTIVE, word) is not None


def cell_values(question: str, table: Table) -> list[Filter]:
    """Known cell values the question names, longest first, each span used once."""
    return [f for _, _, f in value_spans(question, table)]


def value_spans(question: str, table: Table) -> list[tuple[int, int, Filter]]:
    """`cell_values` with where the question says each (start, end offsets), in the question's order."""
    # names for codes, padded to the name's length so that offsets stay those of the question: "in German"
    # -> "in de", "Markdown" -> ".md" in both forms; "Germany" -> "DE" only in the question as written, where
    # a capital code is matched, so that "in Germany" is never the language code "in de"
    lowered = _named_codes(_named_codes(question.lower(), LANGUAGES), FORMATS)
    question = _named_codes(_named_codes(_named_codes(question, LANGUAGES), FORMATS), COUNTRIES)
    found: list[tuple[int, int, Filter]] = []
    candidates = [(v, c, v.lower().strip().lstrip(".")) for c in table.columns for v in c.values]
    candidates += [(v, c, head) for c in table.columns for v, head in _heads(c.values).items()]
    candidates += [(v, c, v.lower()) for c in table.columns if c.is_list for v in listed_items(c.values)]
    # a value two columns hold goes first to the one named beside it: "das Werk Chemnitz" (not the town `Ort`)
    for value, column, text in sorted(candidates, key=lambda vct: (-len(vct[2]), _beside(lowered, *vct[1:]) is None)):
        if not text:
            continue
        match = _value_match(question, lowered, value, text, column)
        if match is None or any(a < match.end() and match.start() < b for a, b, _ in found):
            continue
        op = "ne" if negated(lowered, match.start(), column) else "eq"
        found.append((match.start(), match.end(), Filter(column.name, op, value)))
    found.sort(key=lambda item: item[0])
    return [(start, end, f) for (start, end, _), f in zip(found, _paired(found, lowered, table), strict=True)]


# what joins two values of one column: "Augsburg and Chemnitz", "l'usine d'Augsburg et celle de Chemnitz"
_JOINED = re.compile(r"\s*(?:,|and|or|und|oder|sowie|et|ou)\s+(?:(?:celle|celui|ceux|der|die|das|the|that|those)\s+)?"
                     r"(?:\w+\s+|\w+')?\s*$")  # fmt: skip


def _paired(found: list[tuple[int, int, Filter]], lowered: str, table: Table) -> list[Filter]:
    """Two values joined by "and" or "or" are values of one column when one column holds both: "the plants of
    Augsburg and Chemnitz" are two plants, though "Chemnitz" is also a town of the `Ort` column."""
    filters = [f for _, _, f in found]
    for i in range(1, len(found)):
        (_, end, first), (start, _, second) = found[i - 1], found[i]
        if first.column == second.column or not _JOINED.fullmatch(lowered[end:start]):
            continue
        for this, other in ((i, first), (i - 1, second)):
            column = table.column(other.column)
            held = [v for v in column.values if v.lower() == str(filters[this].value).lower()] if column else []
            if held:
                filters[this] = Filter(other.column, filters[this].op, held[0])
                break
    return filters


_GLOSSED = re.compile(r"(.{6,}?)\s*\([^()]+\)")  # "water standing charge (meter Q3=4)": a name, then a gloss
_COMPANY = re.compile(rf"(\w.{{3,}}?),?\s+(?:&\s+Co\.?\s+)?{CELL_LEGAL_FORM}")  # "Pfister & Co. AG": "Pfister"


def _heads(values: tuple[str, ...]) -> dict[str, str]:
    """Values that end in a gloss in brackets or a legal form, by their name without it ("water standing
    charge", "bodensee tiefkühlkost" of "Bodensee Tiefkühlkost AG"), when no other value of the column has the
    same name: people say the name, not the gloss or the legal form."""
    heads = {v: m.group(1).lower().strip() for v in values if (m := _GLOSSED.fullmatch(v.strip()))}
    heads |= {v: m.group(1).lower() for v in values if v not in heads and (m := _COMPANY.fullmatch(v.strip()))}
    shared = {h for h in heads.values() if list(heads.values()).count(h) > 1}
    return {v: h for v, h in heads.items() if h not in shared}


def _names_pattern(names: dict[str, str]) -> re.Pattern[str]:
    """One pattern for every name, longest first ("united states of america" before "america")."""
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\w.-])(?:{alternatives})(?![\w-])", re.IGNORECASE)


NAME_PATTERNS = {id(names): (names, _names_pattern(names)) for names in (LANGUAGES, FORMATS, COUNTRIES)}


def _named_codes(text: str, names: dict[str, str]) -> str:
    pattern = NAME_PATTERNS[id(names)][1]
    # the code padded to the name's length: same offsets in the question as written
    return pattern.sub(lambda m: names[m.group(0).lower()].ljust(len(m.group(0))), text)


def country_codes(question: str) -> set[str]:
    """The lower-case two-letter codes of the countries the question names ("Österreich": "at"), as a whole name
    ("United Kingdom") or as a part of a hyphenated word ("des Österreich-Tarifs")."""
    whole = {COUNTRIES[m.group(0).lower()] for m in NAME_PATTERNS[id(COUNTRIES)][1].finditer(question)}
    parts = {COUNTRIES[w] for w in re.findall(r"[^\W\d_]+", question.lower()) if w in COUNTRIES}
    return {code.lower() for code in whole | parts}


def _beside(lowered: str, column: Column, text: str) -> re.Match[str] | None:
    """Where the value is said right after or before the column's last word ("Werk Chemnitz", "zone a")."""
    if not text:
        return None
    head = re.escape(column.words[-1] if column.words else column.name.lower())
    return re.search(rf"\b{head}\w*\s+{re.escape(text)}(?![\w-])|(?<![\w-]){re.escape(text)}\s+{head}", lowered)


def _value_match(question: str, lowered: str, value: str, text: str, column: Column) -> re.Match[str] | None:
    """Where the question names `value` of `column`. Ordinary words ("all", "yes") and short codes in
    lower case ("de") count only next to the column's name ("all offices", "zone a"); language codes
    also as "in German"; two-letter codes with a capital ("US", "P1") as written."""
    if column.name == "language" and text in ("de", "en", "fr"):
        # "in German", or the adjective "German-language", "deutschsprachige" (not replaced by its code)
        adjective = re.search(LANGUAGE_ADJECTIVE, lowered)
        named = adjective is not None and LANGUAGES[adjective.group(1)] == text
        return (
            re.search(rf"\b(?:in|auf|en)\s+{text}\b", lowered)
            or _beside(lowered, column, text)
            or (adjective if named else None)
        )
    if text in NOT_VALUES or len(text) == 1 or (len(text) == 2 and value.strip() == text):
        return (
            _beside(lowered, column, text)
            or _class_compound(question, value.strip())
            or _class_letter(question, value.strip())
        )
    if len(text) == 2:  # "TK" as written, or opening a compound ("TK-Artikel": the TK class of articles)
        exact = re.search(rf"(?<![\w-]){re.escape(value.strip())}(?![\w-])", question)
        return exact or _class_compound(question, value.strip())
    return re.search(rf"(?<![\w-]){re.escape(text)}(?:s|es)?(?![\w-])", lowered)


def _class_letter(question: str, value: str) -> re.Match[str] | None:
    """A capital class letter said between an article and the noun it classes names that value: "the A
    suppliers", "all B customers" (ABC classes). Not "I", nor a letter at the start of the question."""
    if len(value) != 1 or not value.isupper() or value == "I":
        return None
    after = "|".join(rf"(?<=\b{article} )" for article in ("the", "all", "our", "of"))
    return re.search(rf"(?:{after}){re.escape(value)}(?= [a-z]{{3,}})", question)


def _class_compound(question: str, value: str) -> re.Match[str] | None:
    """A capital class letter or two-letter code opening a German compound names that value: "A-Lieferant",
    "C-Teile", "TK-Artikel". As written only: "a-" or a lower-case word after the hyphen is not one."""
    if not (value.isupper() and value.isalnum()):
        return None
    return re.search(rf"(?<![\w-]){re.escape(value)}(?=-[A-ZÄÖÜ][a-zäöüß]{{3,}})", question)


def unknown_value(question: str, table: Table, filters: list[Filter]) -> str:
    """A column named with a proper name it does not hold, as "column Name" ("" when none): "am Standort
    Basel" where the sites are BSL, ZRH ... Counting all rows would answer another question."""
    filtered = {f.column for f in filters}
    for column in table.columns:
        if column.kind != "text" or not column.values or column.name in filtered or column.is_date:
            continue
        held = {_compact(v) for v in column.values}
        for word in (w for w in column.words if len(w) > 2):
            # the column word in any case ("im Depot München": German capitalises nouns), the name capitalised
            said = rf"\b(?i:{re.escape(word)}\w*)\s+(?:(?i:of|von|de)\s+)?([A-ZÄÖÜ][\w-]+)"
            for match in re.finditer(said, question):
                name = _compact(match.group(1))
                if name in {w for c in table.columns for w in c.words}:
                    continue  # "VLAN ID": the words of another column's name, no value
                if not any(h.startswith(name) or name.startswith(h) for h in held):
                    return f"{column.name} {match.group(1)}"
    return ""


def unknown_sibling(question: str, table: Table) -> str:
    """A column said by the first word two or more columns share, with a name none of them has ("" when none):
    "im Werk Leipzig" where the columns are `Werk Augsburg` and `Werk Chemnitz`. One of them shown would be
    another place's figure."""
    heads: dict[str, set[str]] = {}
    for column in table.columns:
        if len(column.words) == 2:
            heads.setdefault(column.words[0], set()).add(column.words[1])
    for head, names in heads.items():
        if len(names) < 2 or len(head) < 3:
            continue
        for match in re.finditer(rf"\b(?i:{re.escape(head)})\s+([A-ZÄÖÜ][\w-]+)", question):
            if match.group(1).lower() not in names:
                return f"{head.capitalize()} {match.group(1)}"
    return ""


def _compact(text: str) -> str:
    return re.sub(r"[^0-9a-zäöüß]", "", text.lower())


def one_value_per_column(question: str, filters: list[Filter]) -> list[Filter]:
    """One eq filter per column, the first named; two values of one column joined by "or" ("in ZRH or BSL",
    "BSL oder STG", "ZRH ou LYO") are one `in` filter."""
    lowered = question.lower()
    kept: list[Filter] = []
    for f in filters:
        same = next((i for i, k in enumerate(kept) if k.column == f.column), -1)
        if f.op != "eq" or same < 0:
            kept.append(f)
            continue
        first = kept[same]
        values = first.value if first.op == "in" and isinstance(first.value, tuple) else (str(first.value),)
        if first.op in ("eq", "in") and _joined_by_or(lowered, values[-1], str(f.value)):
            kept[same] = Filter(f.column, "in", (*values, str(f.value)))
    return kept


def _between(lowered: str, first: str, second: str) -> str | None:
    """The question's text between `first` and the `second` that follows it; None when it does not follow."""
    a, b = lowered.find(first.lower().lstrip(".")), lowered.find(second.lower().lstrip("."))  # ".pdf": "PDF"
    return lowered[a + len(first.lstrip(".")) : b] if 0 <= a < b else None


def _joined_by_or(lowered: str, first: str, second: str) -> bool:
    """Whether `second` follows `first` in the question with an "or" between them, close by."""
    between = _between(lowered, first, second)
    return between is not None and len(between) <= 30 and re.search(r"\b(?:or|oder|ou|bzw)\b", between) is not None


def each_value_named(question: str, filters: list[Filter]) -> tuple[tuple[str, ...], list[Filter]]:
    """A grouping by the column whose two or more values the question names joined by "and" ("in Augsburg
    und wie viele in Chemnitz", "at the sites Augsburg, Chemnitz and Lyon"), and the filters with those
    values as one `in` filter: the figure for each. ((), filters) when no column's values are named so;
    values joined by "or" are one set of rows (`one_value_per_column`)."""
    lowered = question.lower()
    for column in dict.fromkeys(f.column for f in filters):
        named = [f for f in filters if f.column == column and f.op == "eq"]
        values = [str(f.value) for f in named]
        if len(values) < 2 or any(_joined_by_or(lowered, a, b) for a, b in itertools.pairwise(values)):
            continue
        if all(_joined_by_and(lowered, a, b) for a, b in itertools.pairwise(values)):
            kept = [f for f in filters if f not in named]
            return (column,), [*kept, Filter(column, "in", tuple(values))]
    return (), filters


def _joined_by_and(lowered: str, first: str, second: str) -> bool:
    """Whether `second` follows `first` in the question close by, an "and" or a comma between them."""
    between = _between(lowered, first, second)
    return between is not None and len(between) <= 40 and re.search(r"\b(?:and|und|et|sowie)\b|,", between) is not None
