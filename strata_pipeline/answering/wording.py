"""What a question's wording asks for, beyond the kinds of value in abstention.py (branch abstain10).

Each rule reads the question's grammar, not the corpus's words:

- "how fast" asks for a speed or for how soon ("Who do I ring and how fast?": "within 2 hours");
- hours named by what they are for ("visiting hours", "office hours", "Besuchszeiten") ask for clock
  times, as "opening hours" does;
- a deposit or a surcharge is an amount: of money, as a price or a fee is, or a share ("3 %");
- a table whose header names a money column ("price_eur", "Gebühr") states money in its rows;
- in a German or French question, an acronym ("WLAN", "MRT") is a name, as a capitalised word is in
  English (where German capitalises every noun, only an acronym is surely one).

Plain functions over text; no index, no model.
"""

from __future__ import annotations

import re

# "How fast" asks for a speed ("top speed 25 km/h") or for how soon something happens ("within 2
# hours"): either answers it.
ASKS_PACE = re.compile(r"\b(?:how fast|wie schnell)\b", re.IGNORECASE)
PACE_UNITS = frozenset(
    {"m/s", "km/h", "mph", "kmh", "second", "minute", "hour", "day", "week", "month", "minut", "sekund"}
)
# Hours named by what they are for ask for clock times, as "opening hours" does, and so do hours asked by
# which ones ("during which hours", "zu welchen Zeiten", "à quelles heures"), unlike "how many hours".
ASKS_HOURS = re.compile(
    r"\b(?:visiting|office|business|consultation|surgery|service|counter|opening)\s+hours\b|"
    r"\b(?:besuchszeit|sprechzeit|sprechstunde|servicezeit)\w*|\bheures? (?:de visite|d'ouverture)\b|"
    r"\b(?:which|what)\s+hours\b|\bzu\s+welchen\s+(?:uhr)?zeiten\b|\bà\s+quelles\s+heures\b|"
    r"\bquels\s+(?:sont\s+(?:les|vos)\s+)?horaires\b",
    re.IGNORECASE,
)
# Amounts beyond price, cost and fee, given in money or as a share: a deposit, a surcharge, a stipend, an
# insurance excess (en, de, fr); and a charge named as a thing ("what is the surface water drainage charge in
# Colmont", "the annual smart meter charge for ..."), not a battery's ("a full charge", "charge time").
ASKS_DEPOSIT = re.compile(
    r"\b(?:deposits?|surcharges?|stipends?|deductibles?|kaution|pfand|zuschlag|entgelt|caution|supplément|franchise)\b"
    r"|\b(?:what|which)(?:['’]s|\s+(?:is|are|was|were))\s+(?:the|a|an|its|their|our|my)\s+(?:[^\W\d_][\w-]*\s+){0,4}?"
    r"(?<!battery )(?<!full )(?<!fast )charges?(?=\s*(?:\?|$)|\s+(?:for|in|per|of|at|when|if|on|to|with|from)\b)",
    re.IGNORECASE,
)

# A table's header cell that names money ("price_eur", "Fee", "Gebühr (€)", "ct_per_kwh"), and a later line
# with digits.
_MONEY_HEADER = re.compile(
    r"(?:^|\|)\s*[\w ]*?(?:eur|usd|chf|gbp|price|cost|fee|preis|gebühr|betrag|prix|tarif|montant|cents?"
    r"|(?<![^\W_])ct(?=_|\b))[\w ()€$£]*\s*(?=\||$)",
    re.IGNORECASE | re.MULTILINE,
)


def table_states_money(text: str) -> bool:
    """Whether `text` is a table (cells split by "|") whose header line names a money column and whose
    later lines hold a number: "code | procedure | price_gbp\\nADH-1024 | CT scan head | 310"."""
    lines = [line for line in text.splitlines() if "|" in line]
    for at, line in enumerate(lines):
        if _MONEY_HEADER.search(line) and not re.search(r"\d", line):
            return any(re.search(r"(?:^|\|)\s*\d", row) for row in lines[at + 1 :])
    return False


# An acronym: two capitals or more, nothing else (a digit makes it an identifier, checked elsewhere).
_ACRONYM = re.compile(r"(?<![\w-])[A-ZÄÖÜ]{3,}(?![\w-])")


def acronyms(question: str) -> list[str]:
    """The acronyms of a question ("WLAN", "MRT"), each once, in order: names in any language."""
    return list(dict.fromkeys(_ACRONYM.findall(question)))


# A site's name after the noun for the site, in German and French ("im Werk Leipzig", "Standort Basel", "au
# bureau de Lyon"): German capitalises every noun, so of its capitalised words only these read as names.
_SITE_NAME = re.compile(
    r"(?i:\b(?:werk|werks|standort|standorts|filiale|niederlassung|büro|depot|lager|kundencenter|campus|site"
    r"|bureau|agence|dépôt|usine|entrepôt|succursale)[ \t]+(?:(?:de|du|des|in|von)[ \t]+|d['’])?)"
    r"([A-ZÄÖÜÀ-Ý][^\W\d_]+(?:-[A-ZÄÖÜÀ-Ý][^\W\d_]+)*)"
)


def site_names(question: str) -> list[str]:
    """The names of sites a German or French question gives after the noun for the site, each once."""
    return list(dict.fromkeys(_SITE_NAME.findall(question)))


def is_acronym(word: str) -> bool:
    """Whether `word` is written as an acronym ("USV", "WLAN"): capitals only, no digit (a code such as
    "E-1042" or "RX-300" reads alike in every language)."""
    return bool(_ACRONYM.fullmatch(word))


# A statement ends at "." or "!" before the next sentence: "I'd like to run a workshop at the Munich
# depot. How many people fit in the training room there?", also typed in lower case ("i visit every
# day. is there a cheaper way to park?"), but not after a title or an abbreviation ("St.", "Dr.",
# "e.g.", "approx.").
_STATEMENT_END = re.compile(r"(?<=[.!])\s+(?=[\"'(]?[^\W\d_]|[¿¡])")
_ABBREVIATED = re.compile(
    r"(?:\b[A-Z][a-z]{0,2}|\b(?:[a-zA-Z]\.){1,2}[a-zA-Z]|\b(?i:approx|incl|excl|etc|vs|no|nr|ca|bzw|ggf|usw|env|cf|resp))\.$"
)


def asked_part(question: str) -> str:
    """The question without the statements that lead up to it: from the sentence that holds its first
    "?" on; the whole text when it has no "?" or starts with it. What a leading statement names is
    context ("Our Lyon backups crawl during office hours. Is the backup traffic capped?" asks for no
    time), so the kind of value asked and the words it asks about are read in the question itself."""
    if "?" not in question:
        return question
    parts: list[str] = []
    for part in _STATEMENT_END.split(question.strip()):
        if parts and _ABBREVIATED.search(parts[-1]):
            parts[-1] += f" {part}"  # "St. Mary's", "Dr. Weber": no sentence ends there
        else:
            parts.append(part)
    first = next(i for i, part in enumerate(parts) if "?" in part)
    return " ".join(parts[first:])
