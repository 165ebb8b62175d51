"""A question's word for a stored value in another form: "in production" for `prod`, "staging" for `stg`,
"development" for `dev`, "non-production" for `nonprod`, "on call" for `on-call`, "Produktion" for `prod`.

Matched against the column's actual distinct values (the catalogue's short value lists), never a table of
known synonyms. A question span (one word, or two or three joined) and a value are compared in a compact
form (case folded, accents and ß folded, everything but letters and digits dropped), in three tiers:

1. same: equal, or equal once an English plural is dropped ("wave 3" = `wave3`, "repairs" = `repair`);
   head: the first word(s) of values that add only numbers, dates or versions ("decommissioned" for
   `decommissioned 2025-01` and `decommissioned 2024-04`, "Windows Server" for `Windows Server 2012 R2` and
   `Windows Server 2022`: all of them, an `in` filter; "Rocky Linux" for the one `Rocky Linux 9.4`); a
   value that goes on in words ("Office wired clients") is a phrase of its own, which one word of it does
   not name;
2. prefix: the value clips the word ("prod" in "production", "nonprod" in "non-production");
3. skeleton: a value with no vowel after its first letter (an abbreviation made by dropping vowels)
   whose letters occur in the word in order from its first letter ("stg" in "staging", "mgmt" in
   "management"; "prod" is no skeleton, so it is not read in "procedure").

Tiers 2 and 3 read a clipped word, so they need a value of 3 to 8 letters, a word longer than it, and a
value written in lower case: a capitalised code ("STG", "BSL", "USD") names a place or unit, not a clipped
word, and matches only as written (parse._values). Tie rule: the best tier wins, then the longest value;
two different values still tied is no match (the question does not say which). These matches refine the
chosen table's rows and never choose a table (parse scores only values named as written).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from strata_pipeline.facts.catalogue import Column, Table
from strata_pipeline.facts.intent import Filter
from strata_pipeline.facts.phrasing import negated
from strata_pipeline.facts.vocabulary import value_word

TIERS = ("same", "head", "prefix", "skeleton")
MIN_CLIP, MAX_CLIP = 3, 8  # a clipped value's length: "dev" .. "nonprod"
VOWELS = frozenset("aeiouy")
# Words that are never read as a clipped value: question and function words of en, de, fr.
NEVER = frozenset(
    "how many much what which where when who whose with without that this these those there their they them "
    "have has does did doing done been being were average total number count list show give sum mean "
    "wie viele welche welcher welches sind gibt haben durchschnitt summe anzahl alle nicht "
    "combien quels quelles quel quelle sont dans avec sans pour nombre moyenne".split()
)
_WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*")


@dataclass(frozen=True)
class ValueMatch:
    column: str
    value: str | tuple[str, ...]  # the stored value as the column holds it; several for a head
    phrase: str  # the question's words it was read from
    tier: str  # same, prefix or skeleton
    start: int  # where the phrase starts in the question (for negation)

    def describe(self) -> str:
        return f"value {self.column}={self.value!r} read from {self.phrase!r} ({self.tier})"


def compact(text: str) -> str:
    """Case folded, accents dropped, ß as ss, only letters and digits: "Non-Prod" -> "nonprod"."""
    folded = unicodedata.normalize("NFKD", text.casefold().replace("ß", "ss"))
    return "".join(ch for ch in folded if ch.isalnum() and not unicodedata.combining(ch))


def singular(word: str) -> str:
    """An English plural's singular in compact form ("entries" -> "entry", "repairs" -> "repair")."""
    if len(word) <= 3 or not word.endswith("s") or word.endswith("ss"):
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    return word[:-2] if word.endswith(("xes", "ches", "shes", "sses")) else word[:-1]


def cognate(word: str) -> str:
    """A French or German adjective's English form by its ending: "electrique" -> "electric",
    "automatisch" -> "automatic"; a German noun in -ktion: "inspektionen" -> "inspection" (compact forms;
    other words unchanged)."""
    for ending in ("ique", "ischen", "ische", "ischer", "isches", "isch"):
        if word.endswith(ending) and len(word) > len(ending) + 2:
            return word[: -len(ending)] + "ic"
    if word.endswith(("ktion", "ktionen")):  # "Inspektionen", "Produktion": inspection, production
        return word[: word.rfind("ktion")] + "ction"
    return word


def tier(phrase: str, value: str, clipped: bool) -> str:
    """How the compact `phrase` names the compact `value`: same, prefix, skeleton, or "" (not at all).
    `clipped` allows tiers 2 and 3 (the value is a lower-case word of MIN_CLIP..MAX_CLIP letters)."""
    if not phrase or not value:
        return ""
    if value in (phrase, singular(phrase), cognate(singular(phrase))) or (len(value) > 4 and singular(value) == phrase):
        return "same"  # "repairs" for `repair`, "brake" for `brakes`, "électriques" for `electric`
    if not clipped or len(phrase) <= len(value):
        return ""
    if phrase.startswith(value):
        return "prefix"
    if phrase[0] == value[0] and not VOWELS & set(value[1:]) and _subsequence(value[1:], phrase[1:]):
        return "skeleton"
    return ""


def _subsequence(short: str, long: str) -> bool:
    letters = iter(long)
    return all(ch in letters for ch in short)


def clippable(value: str) -> bool:
    """A stored value that may be a clipped word: lower case letters only, 3 to 8 of them."""
    text = value.strip().lstrip(".")  # an extension ".txt" is the clipped "text"
    return text.isalpha() and text == text.lower() and MIN_CLIP <= len(text) <= MAX_CLIP


def spans(question: str, longest: int = 3) -> list[tuple[int, str, str]]:
    """(start, words as written, compact form) of every run of 1..`longest` words of the question."""
    found = [(m.start(), m.group()) for m in _WORD.finditer(question)]
    runs = []
    for i in range(len(found)):
        for n in range(1, longest + 1):
            if i + n > len(found):
                break
            start, end_word = found[i][0], found[i + n - 1]
            written = question[start : end_word[0] + len(end_word[1])]
            runs.append((start, written, compact(written)))
    return runs


def match_values(
    question: str, table: Table, skip: set[str], taken: set[str], ordinary: frozenset[str] = frozenset()
) -> list[ValueMatch]:
    """The values of `table`'s text columns (not those in `taken`, nor date columns) that the question names
    in another form; `ordinary` values ("yes", "all") and values under MIN_CLIP characters are never read.
    Spans whose compact form is in `skip` (table and column names, words already read as values) are not
    read, nor are single words in NEVER or shorter than MIN_CLIP letters. One match per column and per span,
    by the tie rule in the module docstring."""
    columns = [
        Column(c.name, c.kind, tuple(v for v in c.values if len(compact(v)) >= MIN_CLIP and v.lower() not in ordinary))
        for c in table.columns
        if c.kind == "text" and c.values and c.name not in taken and not c.is_date
    ]
    best: dict[int, list[tuple[int, int, ValueMatch]]] = {}
    for start, written, phrase in spans(question):
        if phrase in skip or len(phrase) < MIN_CLIP or written.lower() in NEVER:
            continue
        ranked = _ranked(start, written, phrase, columns)
        if ranked:
            best.setdefault(start, []).extend(ranked)
    chosen: list[ValueMatch] = []
    used_columns: set[str] = set()
    used_until = -1
    for start in sorted(best):
        if start < used_until:
            continue  # inside a longer span already read
        candidates = sorted(best[start], key=lambda c: (c[0], c[1]))
        top = [c for c in candidates if c[:2] == candidates[0][:2]]
        if len({(c[2].column, c[2].value) for c in top}) > 1:
            continue  # two values fit equally well: the question does not say which
        found = top[0][2]
        if found.column in used_columns:
            continue
        chosen.append(found)
        used_columns.add(found.column)
        used_until = start + len(found.phrase)
    return chosen


def _ranked(start: int, written: str, phrase: str, columns: list[Column]) -> list[tuple[int, int, ValueMatch]]:
    """(tier rank, minus value length, match) for each value the span names."""
    ranked = []
    single = " " not in written.strip()
    english = compact(value_word(written)) if single else ""  # "Reparatur" is also read as "repair"
    for column in columns:
        heads = tuple(v for v in column.values if _head(phrase, v) or (english and _head(english, v)))
        if len(heads) > 1:
            ranked.append((TIERS.index("head"), -len(phrase), ValueMatch(column.name, heads, written, "head", start)))
        elif heads:  # the one value with a version after the name: "Rocky Linux" for `Rocky Linux 9.4`
            ranked.append(
                (TIERS.index("head"), -len(phrase), ValueMatch(column.name, heads[0], written, "head", start))
            )
        for value in column.values:
            how = _best(tier(phrase, compact(value), clippable(value)), tier(english, compact(value), clippable(value)))
            if how and (how == "same" or single):  # a clipped value reads one word
                ranked.append((TIERS.index(how), -len(value), ValueMatch(column.name, value, written, how, start)))
    return ranked


def _best(*tiers: str) -> str:
    """The best of the tiers found ("" when none)."""
    found = [t for t in tiers if t]
    return min(found, key=TIERS.index) if found else ""


def _head(phrase: str, value: str) -> bool:
    """Whether the compact `phrase` is the first word(s) of `value` and every word left holds a digit
    ("Windows Server" in "Windows Server 2012 R2", "RHEL" in "RHEL 9.4")."""
    parts = value.split()
    while len(parts) > 1 and any(ch.isdigit() for ch in parts[-1]):
        parts.pop()
    return len(parts) < len(value.split()) and compact(" ".join(parts)) == phrase


def variant_filters(
    question: str, table: Table, filters: list[Filter], ordinary: frozenset[str] = frozenset()
) -> list[tuple[Filter, ValueMatch]]:
    """The filters for values the question names in another form, on columns no filter in `filters` uses
    yet: eq (ne after a negation), or `in` for a head's values (one ne for each after a negation). The
    table's and its columns' names, and values already read as written, are never read again."""
    named = [*re.split(r"[^\w]+", table.label), *(w for c in table.columns for w in (*c.words, c.name))]
    named += [f.value for f in filters if isinstance(f.value, str)]
    skip = {compact(w) for w in named} | {singular(compact(w)) for w in named}
    found = []
    for m in match_values(question, table, skip, {f.column for f in filters}, ordinary):
        column = table.column(m.column)
        negative = column is not None and negated(question.lower(), m.start, column)
        if isinstance(m.value, tuple):  # "not decommissioned": none of them (filters hold together)
            found += (
                [(Filter(m.column, "ne", v), m) for v in m.value]
                if negative
                else [(Filter(m.column, "in", m.value), m)]
            )
            continue
        found.append((Filter(m.column, "ne" if negative else "eq", m.value), m))
    return found
