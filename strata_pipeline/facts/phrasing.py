"""Phrasings beyond a plain count or total, read by general rules (en, de, fr):

- a share: "what share of the servers are in prod", "Anteil der Drucker in BSL", "quelle proportion des ...";
  the filters named before the verb are the rows it is a share of, those after it are counted;
- the group with the highest or lowest figure: "which site has the most servers", "welcher Standort hat die
  meisten Drucker", "quel site a le plus de VLAN";
- a value negated: "not in ZRH", "nicht in ZRH", "ne sont pas sur le site BSL", "other than", "except";
- a date range over a column of ISO dates: "since 2025-05-01", "after 2023", "vor 2025", "depuis 2024", and the
  periods of periods.py ("in March 2025", "Q2 2025", "between 2025-05-01 and 2025-07-31").

When such a phrasing is seen but cannot be read in full, the parser refuses rather than answering
another question (see parse.py).
"""

from __future__ import annotations

import re

from strata_pipeline.facts.catalogue import Column, Table
from strata_pipeline.facts.compounds import head_said
from strata_pipeline.facts.intent import Filter
from strata_pipeline.facts.periods import read_periods
from strata_pipeline.facts.validity import validity_conditions

# A share word followed by what it is a share of ("percentage of", "Anteil der", "pourcentage des"): "what
# percentage discount" or "Prozent Rabatt" ask for a figure a document states, not a share of rows.
SHARE = (
    r"\b(?:share|percentage|percent|proportion|fraction|%)\s+of\b|\banteil\w*\s+(?:der|an|von|aller)\b|"
    r"\bprozent\s+(?:der|aller|von)\b|\b(?:pourcentage|proportion|part)\s+(?:de|des|d')"
)
# "which site has the most servers": the group with the highest figure (argmax) or the lowest (argmin)
WHICH = r"^\s*(?:which|what|welche\w*|quel\w*|in which|in welche\w*|dans quel\w*|when|wann|quand)\b"
WHEN = r"^\s*(?:when|wann|quand)\b"  # "when was the most recent order placed": the newest row, by its date
# French "le plus" with an adjective of smallness or age is a minimum ("le plus court", "la plus ancienne")
_FRENCH_LOW = r"(?:court|bas|petit|ancien|faible)\w*"
# "longest ago", "am längsten her", "il y a le plus longtemps": the earliest date, a minimum
LONGEST_AGO = r"\blongest ago\b|\bam längsten her\b|\bil y a le plus longtemps\b"
EXTREMES = {
    "argmax": r"\bmost expensive\b|\bteuerste\w*|\ble plus cher\b|\bla plus chère\b|"
    r"\bmost\b|\bhighest\b|\blargest\b|\bbiggest\b|\blongest\b(?! ago)|\bnewest\b|\blatest\b|\bmeisten\b|"
    r"\bbest\b|\bbeste[nrs]?\b|\bmeilleure?s?\b|"  # "the best-rated supplier": the highest rating
    r"\bhöchsten?\b|\bgrößten?\b|\blängsten?\b(?! her)|\bneuesten?\b|\bjüngsten?\b|"
    rf"(?<!il y a )\b(?:le|la|les) plus\b(?!\s+{_FRENCH_LOW})",
    "argmin": r"\bcheapest\b|\bgünstigste\w*|\bbilligste\w*|\ble moins cher\b|\bla moins chère\b|\bfewest\b|"
    r"\bleast\b|\blowest\b|\bsmallest\b|\bshortest\b|\boldest\b|\bearliest\b|\bwenigsten\b|"
    r"\bworst\b|\bschlechteste[nrs]?\b|\bpires?\b|"
    r"\bniedrigsten?\b|\bkleinsten?\b|\bkürzesten?\b|\bältesten?\b|\bfrühesten?\b|"
    rf"\ble moins\b|\bla moins\b|\bles moins\b|\b(?:le|la|les) plus\s+{_FRENCH_LOW}|{LONGEST_AGO}",
}
# Extremes that say the measure is a date: "the newest vehicle", "das älteste Fahrzeug", "le plus récent"
DATE_EXTREMES = (
    r"\b(?:newest|latest|most recent|most recently|oldest|earliest|neueste\w*|jüngste\w*|älteste\w*|früheste\w*|"
    rf"plus récente?s?|plus ancien\w*)\b|{LONGEST_AGO}"
)
# A negation right before a value: "not in ZRH", "nicht am Standort ZRH", "pas sur le site BSL", "except"
NEGATIONS = (
    r"not|\w+n't|\w+n’t|nicht|kein\w*|pas|except|excluding|outside(?: of)?|other than|apart from|außer|ausser|"
    r"außerhalb(?: von)?|"
    r"ausgenommen|sauf|hors(?: de)?|en dehors d[eu]"
)
# A verb may stand between the negation and the value, a preposition after it: "do not apply to the US
# offices", "don't run Windows", "laufen nicht unter Windows", "ne sont pas situés en"
NEGATED_VERB = r"(?:[a-zäöüéèàç]+\s+)?"
FILLER = (
    "in at on of from the a im am in der in den aus von vom en au aux à dans de du des sur le la les der die das den"
)
PREPOSITIONS = r"to|for|in|at|on|from|under|with|für|an|auf|bei|unter|mit|pour|à|en|dans|sur|sous|avec"
# Where a subject ends and what is asked of it begins: "[the servers in ZRH] are in prod"
VERBS = (
    r"\b(?:are|is|were|was|have|has|run|runs|use|uses|cost|costs|hold|holds|belong|belongs|sind|ist|haben|hat|"
    r"stehen|steht|liegen|liegt|laufen|läuft|gehören|sont|est|ont|a|se trouvent|tournent|coûtent|appartiennent)\b"
)
DATE_WORDS = {
    "ge": r"since|from|as of|on or after|starting|seit|ab|depuis|à partir d[eu]",
    "gt": r"after|later than|nach|après",
    "lt": r"before|earlier than|prior to|vor|avant",
    "le": r"until|through|up to|till|bis|jusqu'(?:à|au)",
}
DATE = r"(\d{4}-\d{2}-\d{2}|\d{4}-\d{2}|\d{4})(?![\d-])"


# Extreme words that say the measure is a price: "the cheapest", "am teuersten", "le moins cher"
PRICE_EXTREMES = (
    r"\b(?:cheapest|most expensive|günstigste\w*|billigste\w*|teuerste\w*|"
    r"moins ch[eè]re?s?|plus ch[eè]re?s?)\b"
)
PRICE_WORDS = frozenset("price cost fee amount preis kosten gebühr prix coût tarif".split())
COST_VERBS = r"\b(?:costs?|costing|kostet|kosten|coûte|coûtent)\b"  # "courses that cost more than 500"


def price_columns(question: str, table: Table) -> list[str]:
    """The number columns that hold a price, when the question asks for the cheapest or dearest rows."""
    if not re.search(PRICE_EXTREMES, question.lower()):
        return []
    return _price_number_columns(table)


def priced_columns(question: str, table: Table) -> list[str]:
    """The number columns that hold a price, when the question says what rows cost."""
    if not re.search(COST_VERBS, question.lower()):
        return []
    return _price_number_columns(table)


def _price_number_columns(table: Table) -> list[str]:
    return [c.name for c in table.columns if c.kind == "number" and any(_prices(w) for w in c.words)]


# German compounds end in their price word: "Listenpreis", "Versandkosten", "Grundgebühr".
_PRICE_TAILS = ("preis", "kosten", "gebühr")


def _prices(word: str) -> bool:
    return word in PRICE_WORDS or (len(word) > 6 and word.endswith(_PRICE_TAILS))


# Words for an amount of money that name no column: "the total value of all orders", "what did HR spend",
# "der Gesamtbetrag", "le montant", "la valeur" (a German compound by its tail: "Bestellwert")
MONEY_WORDS = (
    r"\b(?:values?|amounts?|spend|spends|spent|spending|paid|pay|worth|expenditures?|expenses?|"
    r"\w*betr[aä]ge?|\w*wert|ausgaben|ausgegeben|bezahlt|montants?|valeurs?|dépens\w*|payé\w*)\b"
)
CURRENCY_UNITS = frozenset("eur usd chf gbp".split())


def money_columns(question: str, table: Table) -> list[str]:
    """The table's one column of money (a price word or a currency in its name), when the question asks
    for an amount of money without naming a column; [] when it does not, or several columns hold money."""
    if not re.search(MONEY_WORDS, question.lower()):
        return []
    held = [
        c.name
        for c in table.columns
        if c.kind == "number" and (CURRENCY_UNITS & set(c.words) or any(_prices(w) for w in c.words))
    ]
    return held if len(held) == 1 else []


def negated(lowered: str, start: int, column: Column) -> bool:
    """Whether a negation stands right before the value at `start`, past prepositions, articles and the
    column's own name ("not in ZRH", "nicht am Standort ZRH", "pas sur le site BSL")."""
    filler = "|".join(re.escape(w) for w in sorted({*FILLER.split(), *column.words}, key=len, reverse=True))
    before = lowered[max(0, start - 60) : start]
    if re.search(rf"\b(?:{NEGATIONS})\s+(?:(?:{filler})s?\s+){{0,4}}$", before):
        return True
    after_verb = rf"\b(?:{NEGATIONS})\s+{NEGATED_VERB}(?:(?:{PREPOSITIONS})\s+)?(?:(?:{filler})s?\s+){{0,3}}$"
    return re.search(after_verb, before) is not None


def date_filters(question: str, table: Table, years: bool = True) -> tuple[list[Filter], list[str]]:
    """Order filters on the table's date column for "since 2025-05-01", "before 2024" ..., and the dates
    they read (which are then no cell values). A year after "after" starts the next year; "until 2025"
    takes in all of 2025. With several date columns, the one named in the question; none named: nothing.
    `years`: a year alone ("in 2024") is a period too."""
    dated = [c for c in table.columns if c.is_date]
    lowered = question.lower()
    found: list[Filter] = []
    dates: list[str] = []
    spans, texts = read_periods(question, years)
    column = _date_column(dated, lowered) if spans else None
    if column is not None:  # "in March 2025", "Q2 2025", "between 2025-05-01 and 2025-07-31"
        for (start_op, start, end_op, end), text in zip(spans, texts, strict=True):
            bounds = [(start_op, start), (end_op, end)]
            said = _date_word(lowered[: max(0, lowered.find(text))])  # "until March 2025": one bound
            bounds = {"ge": bounds[:1], "gt": [("ge", end)], "lt": [("lt", start)], "le": [(end_op, end)]}.get(
                said, bounds
            )
            found += [Filter(column.name, op, value) for op, value in bounds]
        dates += [d for text in texts for d in re.findall(r"\d{4}(?:-\d{2}){0,2}", text)]
        lowered = _blank(lowered, texts)
    named = [c for c in dated if _names_all(c, lowered)]
    if len(named) == 1:  # "out of warranty on 2025-04-01": `Warranty until`, named in full
        lapsed, days = validity_conditions(lowered, named[0].name)
        found, dates, lowered = found + lapsed, dates + days, _blank(lowered, days)
    for op, words in DATE_WORDS.items():
        for match in re.finditer(rf"\b(?:{words})\s+(?:the\s+|dem\s+|le\s+)?{DATE}", lowered):
            column = _date_column(dated, lowered)
            if column is None:
                continue
            value = match.group(1)
            if len(value) < 10 and op in ("gt", "le"):  # "after 2023" is from 2024 on, "until 2025-04" takes April
                op, value = ("ge" if op == "gt" else "lt"), _next(value)
            found.append(Filter(column.name, op, value))
            dates.append(match.group(1))
    return found, dates


def _date_word(before: str) -> str:
    """The order a date word right before a period asks for ("since", "until" ...), "" when none."""
    for op, words in DATE_WORDS.items():
        if re.search(rf"\b(?:{words})\s+(?:the\s+|dem\s+|le\s+|(?:of\s+)?)?$", before):
            return op
    return ""


def _blank(lowered: str, texts: list[str]) -> str:
    """The question with the periods already read blanked out, so their dates are not read twice."""
    for text in texts:
        lowered = lowered.replace(text, " " * len(text), 1)
    return lowered


def _next(value: str) -> str:
    """The year or month after a year ("2023") or a year-month ("2025-04")."""
    if len(value) == 4:
        return str(int(value) + 1)
    year, month = int(value[:4]), int(value[5:7])
    return f"{year + month // 12:04d}-{month % 12 + 1:02d}"


def date_column(table: Table, lowered: str) -> Column | None:
    """The table's date column the (lower-case) question means: its only one, or the one it names."""
    return _date_column([c for c in table.columns if c.is_date], lowered)


def _names_all(column: Column, lowered: str) -> bool:
    return all(w in lowered for w in column.said_words)


def _date_column(dated: list[Column], lowered: str) -> Column | None:
    if len(dated) == 1:
        return dated[0]
    named = [c for c in dated if _names_all(c, lowered)]
    # none named in full: a German compound by its head, said as a verb or noun ("Verträge, die enden":
    # `Vertragsende`, not `Vertragsbeginn`)
    named = named or [c for c in dated if head_said(c.words, lowered)]
    return named[0] if len(named) == 1 else None


def extreme(question: str) -> str:
    """argmax or argmin for "which X has the most/fewest Y" ("" otherwise)."""
    lowered = question.lower()
    if not re.search(WHICH, lowered):
        return ""
    return next((op for op, pattern in EXTREMES.items() if re.search(pattern, lowered)), "")


def share_split(question: str, filters: list[Filter]) -> tuple[list[Filter], list[Filter]]:
    """(base, counted): the filters named before the first verb after the share word are the rows the
    share is of; the rest are counted. With no verb, every filter is counted (a share of all rows)."""
    lowered = question.lower()
    word = re.search(SHARE, lowered)
    verb = re.search(VERBS, lowered[word.end() :]) if word else None
    if verb is None or word is None:
        return [], filters
    cut = word.end() + verb.start()
    base = [f for f in filters if 0 <= _position(lowered, f) < cut]
    return base, [f for f in filters if f not in base]


def _position(lowered: str, f: Filter) -> int:
    """Where the question names a filter: its value, else its column's last word."""
    value = f.value if isinstance(f.value, str) else format(f.value, "g")
    for text in (value.lower(), f.column.lower().split("_")[-1]):
        at = lowered.find(text)
        if at >= 0:
            return at
    return -1


def initials(name: str, following: list[str]) -> bool:
    """A column named by the initials of the words after "per": "os" for "operating system", "ip" for
    "internet protocol" (two or three words, the column name two or three letters)."""
    short = name.lower()
    return 2 <= len(short) <= 3 and short.isalpha() and "".join(w[0] for w in following[: len(short)]) == short
