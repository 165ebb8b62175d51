"""Ranking priors applied at query time.

Classification records a prior per document (`rank_weight`, from the `ranking:` rules): archived
versions that a current twin supersedes count less, say. Here a candidate's score is multiplied
by its prior and the list re-sorted. A superseded document keeps full weight when the query asks
about earlier versions: "the old policy" should find the old policy.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from strata_pipeline.embedding.identifiers import IDENTIFIER, identifiers
from strata_pipeline.retrieval.candidate import Candidate
from strata_pipeline.retrieval.twins import proper_words, query_words
from strata_pipeline.text.calendar import MONTH_ABBREVIATIONS, MONTHS, alternation, names

# Words that ask about an earlier state, in the languages BM25 analyses (en, de, fr, es, it, pt, nl).
HISTORY_WORDS = (
    r"old|older|previous(ly)?|prior|former(ly)?|earlier|archived|deprecated|superseded|obsolete|legacy"
    r"|outdated|before the (current|new)"
    # "what was X before the 2025 rules": a year naming the change, as "the current" would; only in
    # the past tense ("what to do before the 2026 audit" is a step still to come)
    r"|(was|were|did|had)\b[^.?!;]{0,80}?\bbefore the (19|20)\d\d(?![-./]\d)"
    # "we used to file form X" is history; "the form is used to request X" is a present passive.
    r"|(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bwere )(?<!\bbe )(?<!\bbeen )(?<!\bbeing )(?<!\bget )(?<!\bgot )used to"
    r"|alte[nmrs]?|früher\w*|vorherige\w*|veraltet\w*|archiviert\w*|ehemalige\w*|bisherige\w*"
    r"|ancien(ne)?s?|précédente?s?|archivée?s?|obsolètes?|auparavant|autrefois"
    r"|anterior(es)?|antigu[oa]s?|obsolet[oa]s?|precedente|vecchi[oa]|oud(e|ere)?|vorige"
)
# A time before a change the query names in the past tense: "before the SafeCheck app was
# introduced", "bevor die Replikation eingeführt wurde". Only past forms: "before replacing the belt"
# and "bevor das Teil ersetzt wird" are steps of a current procedure.
CHANGE_VERBS = (
    r"(was|were|had been) (introduced|replaced|launched|rolled out|switched|migrated|set up|installed)"
    r"|existed|took effect|came into (force|effect)"
    r"|(eingeführt|ersetzt|umgestellt|abgelöst|eingerichtet|installiert) (wurde|wurden)|gab|existierte"
)
BEFORE_A_CHANGE = (
    rf"(before|until|bevor|bis)\b[^.?!;]{{0,60}}?\b({CHANGE_VERBS})"
    r"|vor (der|dem) (einführung|umstellung|änderung|ablösung|wechsel)\w*"
    r"|back then|in the past|at that time|damals|seinerzeit|ehemals|à l'époque"
    r"|avant (l'introduction|la mise en place|le passage)"
)
_HISTORY = re.compile(rf"\b({HISTORY_WORDS}|{BEFORE_A_CHANGE})\b", re.IGNORECASE)


# Readings of those words that say nothing about an earlier version. Lifting old versions on them
# puts an outdated twin first, so each is told apart by the words around it:
# - age: "how old", "18 years old", "old enough", "older than", German "ab welchem Alter" (the noun,
#   capitalised) against "die alte Richtlinie"; and any capitalised "old" after the first word is part
#   of a name ("the Old Town depot", "am Alten Markt");
_AGE = re.compile(r"(?i)(?:\bhow|\d|\byears?|\bmonths?|\bweeks?|\bdays?)[ -]?$|^(?:enough|than)\b")
# - "prior" and "earlier" name an earlier version after a determiner ("the prior policy", "in earlier
#   versions"), not as "prior approval", "prior to travel", "arrive earlier", "earlier than";
_DETERMINED = re.compile(r"(?i)\b(?:the|an?|our|its|their|your|this|that|in|under|from|of)\s+$")
# - a present passive or a state: "how long are logs archived", "which APIs are deprecated", "wo werden
#   die Protokolle archiviert", "où sont-ils archivés" (the past "the policy that was archived" stays);
_STATES = r"archived|deprecated|superseded|obsolete|outdated|archiviert|veraltet|archivée?s?|obsolètes?"
_PRESENT_BE = re.compile(
    r"(?i)\b(?:is|are|be|being|been|gets?|getting|ist|sind|wird|werden|est|sont|sera|seront|être)\b(?:\W+\w+){0,3}\W+$"
)
# - people who held a role: "former employees", "ehemalige Mitarbeitende", "anciens élèves" are
#   asked about today ("what happens to former employees' accounts").
_PEOPLE = re.compile(
    r"(?i)^\s+(?:employees?|staff|colleagues?|members?|students?|pupils?|customers?|clients?|workers?|tenants?"
    r"|residents?|owners?|users?|patients?|contractors?|partners?|managers?|mitarbeite\w*|kolleg\w*|kund\w*"
    r"|studierend\w*|schüler\w*|mieter\w*|nutzer\w*|beschäftigt\w*|salariée?s?|employée?s?|élèves?"
    r"|étudiante?s?|clients?|locataires?|collaborat\w*)\b"
)


def _is_history(query: str, match: re.Match[str]) -> bool:
    """Whether one match of _HISTORY asks about an earlier version (see the readings above)."""
    word, before, after = match.group(0), query[: match.start()], query[match.end() :]
    lower = word.lower()
    if lower in ("old", "older") and (_AGE.search(before) or _AGE.search(after.strip())):
        return False
    if lower.startswith(("old", "alte", "ancien")) and word[0].isupper() and before.strip():
        return False  # a name ("Old Town"), or the German noun "Alter" (age)
    if lower in ("prior", "earlier") and (not _DETERMINED.search(before) or re.match(r"\s+(?:to|than)\b", after)):
        return False
    if re.fullmatch(_STATES, lower) and _PRESENT_BE.search(before):
        return False
    return not (lower.startswith(("former", "ehemalig", "ancien")) and _PEOPLE.match(after))


def asks_about_history(query: str) -> bool:
    """Whether the query asks about an earlier version ("the old policy", "vor der Änderung")."""
    return any(_is_history(query, m) for m in _HISTORY.finditer(query))


# Years and version numbers a query names: "the 2023 procedure", "policy v2", "version 2.4".
_NAMED_VERSION = re.compile(r"(?i)\b(?:(?:19|20)\d\d|v\d+(?:\.\d+)*)\b")
# A version spelt out as a word, in the languages BM25 analyses: "version 2", "Fassung 3", "révision 2",
# "rev. 4". Read as the "v2" a file name would carry, so query and labels compare.
_VERSION_WORD = re.compile(
    r"(?i)\b(?:version|versión|versione|versie|versão|fassung|révision|revision|revisión|rev\.?)"
    r"[ \t]*(?:n[o°º.]*[ \t]*)?(\d+(?:\.\d+)*)\b"
)


def spelt_versions(text: str) -> str:
    """`text` with versions written as words in their short form: "policy (version 2)" -> "policy (v2)".
    A year stays a year ("price list, version 2023" is the 2023 list)."""
    return _VERSION_WORD.sub(
        lambda m: m.group(1) if re.fullmatch(r"(?:19|20)\d\d", m.group(1)) else f"v{m.group(1)}", text
    )


# A year that labels a version stands alone ("mfa-enrolment-2023.md", "MFA enrolment 2023"); one inside
# a date is when something happened or ended ("valid until 2025-01-31", "31.01.2025").
_VERSION_PARTS = re.compile(r"(?i)(?<!\d[-./])(?:19|20)\d\d(?![-./]\d)|v\d+(?:\.\d+)*")


@dataclass(frozen=True)
class History:
    """What a query says about earlier versions."""

    asks: bool = False  # it asks about history in words ("the old policy")
    names: frozenset[str] = frozenset()  # years and versions it names, lower-cased ("2023", "v2")
    # every word of the query, as file names may spell it (retrieval/twins.py)
    words: frozenset[str] = field(default=frozenset(), compare=False)
    # the identifiers it names, lower-cased (retrieval/records.py)
    identifiers: frozenset[str] = field(default=frozenset(), compare=False)
    lookup: bool = field(default=False, compare=False)  # the query is nothing but identifiers ("zrh-db-03")
    # the words it writes with a capital, not counting its first (retrieval/twins.py)
    proper: frozenset[str] = field(default=frozenset(), compare=False)


# Month names in the languages BM25 analyses. A year after one ("commissioned in September 2025",
# "im März 2024") or inside a date ("2025-09-01", "01.09.2025") says when something happened, not which
# version of a document is meant, so it does not lift an archived document that carries the year.
_MONTH = alternation(names(MONTHS, tuple(MONTHS)) + MONTH_ABBREVIATIONS)
_DATED_YEAR = re.compile(
    rf"(?i)\b(?:{_MONTH})\.?(?:[ \t]+(?:de|del|di))?[ \t]+(?:19|20)\d\d\b|\d[-./](?:19|20)\d\d\b|\b(?:19|20)\d\d[-./]\d"
)


def named_versions(query: str) -> frozenset[str]:
    """The years and versions `query` names, lower-cased, leaving out years that date an event."""
    return frozenset(m.lower() for m in _NAMED_VERSION.findall(_DATED_YEAR.sub(" ", spelt_versions(query))))


def history_of(query: str) -> History:
    names = named_versions(query)
    named = frozenset(identifiers(query))
    lookup = bool(named) and not re.search(r"\w", IDENTIFIER.sub(" ", query))
    return History(asks_about_history(query), names, query_words(query), named, lookup, proper_words(query))


def names_this_version(payload: dict, history: History) -> bool:
    """Whether the query names a year or version that this document's path or title carries: "the 2023
    MFA procedure" asks for mfa-enrolment-2023.md, current twin or not."""
    if not history.names:
        return False
    labels = spelt_versions(f"{payload.get('doc_id') or ''} {payload.get('title') or ''}")
    return bool(history.names & {m.lower() for m in _VERSION_PARTS.findall(labels)})


def title_words(payload: dict) -> frozenset[str]:
    """The words a document is named by: its title's and its path's ("mfa-enrolment.md" says MFA, where
    its title spells it out)."""
    return query_words(f"{payload.get('title') or ''} {payload.get('doc_id') or ''}")


def named_old_versions(candidates: list[Candidate], history: History) -> frozenset[str]:
    """Superseded documents the query names by a word of their title or path that no current
    candidate's title or path carries: "beim Patchen mit Uyuni" names the archived "Monthly Linux
    patching with Uyuni", not "Monthly Linux patching (current)", so it asks about the old version as
    a named year would. Only words the query capitalises after its first (names; in German also
    nouns) count, and a word current documents are named by too ("the VPN on Windows") says nothing
    about the version."""
    if not history.proper:
        return frozenset()
    current: set[str] = set()
    for c in candidates:
        if not c.payload.get("superseded"):
            current |= title_words(c.payload)
    return frozenset(
        c.doc_id
        for c in candidates
        if c.payload.get("superseded") and (title_words(c.payload) & history.proper) - current
    )


def prior_of(payload: dict, historical: History | bool, named: bool = False) -> float:
    """The multiplier for one chunk: its document's weight; for a superseded document whose version
    the query asks about (history words, its year or version named, or `named` by a word only its
    title carries), the inverse of its weight. Points indexed before priors existed count 1."""
    history = historical if isinstance(historical, History) else History(asks=historical)
    weight = float(payload.get("rank_weight") or 1.0)
    if payload.get("superseded") and (history.asks or named or names_this_version(payload, history)):
        # The query wants the earlier version: it is lifted by what demotes it otherwise, so it
        # passes its current twin when the two match the words about equally.
        return 1.0 / weight if weight < 1.0 else 1.0
    return weight


def weighted(score: float, prior: float) -> float:
    """`score` scaled by the prior in the right direction, also for a negative (cosine) score."""
    return score * prior if score >= 0 else score / prior


def apply_priors(ranked: list[Candidate], historical: History | bool) -> list[Candidate]:
    """The candidates re-sorted by prior-weighted score; equal scores keep their order (Qdrant's)."""
    named = named_old_versions(ranked, historical) if isinstance(historical, History) else frozenset()
    with_priors = [dataclasses.replace(c, prior=prior_of(c.payload, historical, c.doc_id in named)) for c in ranked]
    if all(c.prior == 1.0 for c in with_priors):
        return with_priors
    return sorted(with_priors, key=lambda c: -weighted(c.fused_score, c.prior))
