"""Why an answer abstains, and the checks that decide it beyond a weak best score.

Every abstention carries a machine-readable code (`Answer.abstain_code`) beside its human reason:

- `no_support`: no retrieved passage supports an answer: none retrieved, none close enough, none
  holding the identifier the question names, the closest sentences state no value of the kind
  asked for (a near miss: a passage on the right topic that does not say what was asked), or the
  passages to be quoted do not mention a name the question gives (a near miss on the wrong entity:
  the Madrid depot answered from the Munich page);
- `contradictory_facts`: two current documents state different values for the same thing;
- `zero_rows`: an aggregation counted nothing (set by the facts engine);
- `withheld`: a generated answer was held back (content the sources do not hold, or no citation of
  a supplied passage).

Plain functions over sentences; no index, no model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from strata_pipeline.answering import wording
from strata_pipeline.answering.answer_type import states_number
from strata_pipeline.answering.calendar_words import ENGLISH_CALENDAR_WORDS
from strata_pipeline.text.calendar import WEEKDAY_ABBREVIATIONS, WEEKDAYS, alternation, names

NO_SUPPORT = "no_support"
CONTRADICTORY = "contradictory_facts"
ZERO_ROWS = "zero_rows"
WITHHELD = "withheld"
ABSTAIN_CODES = (NO_SUPPORT, CONTRADICTORY, ZERO_ROWS, WITHHELD)


@dataclass(frozen=True)
class Statement:
    """A sentence an answer could quote, with what the checks need to know about it."""

    quote: str  # verbatim
    scored: str  # read in its document and section ("Leave Policy > Parental Leave: ...")
    doc_id: str
    title: str  # of its document
    superseded: bool  # from an outdated version kept for reference (rules' `superseded: true`)
    score: float  # how well it answers the question (answer.py's sentence score)


# --- values --------------------------------------------------------------------------------

# 07:30, 7h30; with a dot only before "Uhr" ("14.30 Uhr"): "2.50 EUR" is money, not a time
_TIME = re.compile(r"\b([01]?\d|2[0-3])(?::|h|\.(?=[0-5]\d\s*Uhr))([0-5]\d)\b")
# Numbers that count nothing: a number after the word of what it labels, a room, floor, level or step
# ("room 1.02", "Etage 3", "Intensive care unit, level 3", "Gebäude 2", "step 4"), an ordinal ("1st floor").
_ROOM = re.compile(
    r"\b(?:room|raum|salle|floor|etage|étage|stock|level|ebene|niveau|building|gebäude|bâtiment|wing|ward|gate"
    r"|tier|step|schritt|étape|phase|stage)\s+[\w.-]*\d[\w.-]*|\b\d+(?:st|nd|rd|th)\b",
    re.IGNORECASE,
)
_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b|\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b")
# "20 €." and "1,80 € pro Stunde": after "€" no word boundary follows, so the end is "no letter next"
# also a currency in words: "250 euros par semaine", "30 Euro", "12 dollars", "40 Franken"
_MONEY = re.compile(
    r"([$€£])\s?(\d[\d,]*(?:\.\d+)?)|(\d[\d,.]*)\s?(EUR|USD|CHF|GBP|€|euros?|dollars?|franken)(?![^\W\d_])",
    re.IGNORECASE,
)
# each currency's code, from its symbol or word ("EUR" stays "EUR")
_CURRENCY_CODES = {"€": "EUR", "$": "USD", "£": "GBP", "EURO": "EUR", "EUROS": "EUR", "DOLLAR": "USD",
                   "DOLLARS": "USD", "FRANKEN": "CHF"}  # fmt: skip
_QUANTITY = re.compile(r"(?<![\w.,:-])(\d+(?:[.,]\d+)?)\s?(%|[^\W\d_]+(?:/[^\W\d_]+)?)((?:\s+[^\W\d_]+){0,2})")
# Words after a number that name no unit of a value: "3 of them", "2 to 4", list positions.
_NOT_UNITS = frozenset(
    "a an and or to of the in on at by for per from with x than times am pm bis und oder et ou".split()
)


def _number(text: str) -> str:
    """A number as one canonical string: "1,100" and "1100" match, "2.0" and "2" match."""
    text = text.replace(",", "") if re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d+)?", text) else text.replace(",", ".")
    try:
        value = float(text)
    except ValueError:
        return text
    return f"{value:g}"


# German and French units of time, as _unit leaves them, in English: a German question over an English
# passage asks for "Jahre" and is answered "5 years".
_IN_ENGLISH = {
    "tag": "day", "woch": "week", "monat": "month", "jahr": "year", "stund": "hour", "nächt": "night",
    "jour": "day", "semain": "week", "moi": "month", "ans": "year", "anné": "year", "heur": "hour",
}  # fmt: skip
_GERMAN_TIME = ("tag", "woch", "monat", "jahr", "stund")


def _unit(word: str) -> str:
    """Singular, lower-case unit, in English for units of time: "days" and "day", "Wochen", "semaines"
    and "weeks" are one kind."""
    word = word.lower()
    for ending in ("en", "es", "s", "n", "e"):
        if len(word) > len(ending) + 2 and word.endswith(ending):
            word = word[: -len(ending)]
            break
    if word in _IN_ENGLISH:
        return _IN_ENGLISH[word]
    # a German compound ends in its unit: "Arbeitstagen", "Kalenderwochen", "Überstunden"
    return next((_IN_ENGLISH[u] for u in _GERMAN_TIME if word.endswith(u) and len(word) >= len(u) + 3), word)


# Units a quantity's noun may follow an adjective for ("5 paid days", "24 study places"); otherwise
# the word right after the number is its unit ("12 robots").
_UNITS = frozenset(
    _unit(word)
    for word in (
        "days weeks months years hours minutes seconds nights kg g t mm cm m km miles nm v w kw kwh db percent "
        "pages persons people seats places bays rooms slots tickets points users devices licenses "
        "Tage Wochen Monate Jahre Stunden Minuten Nächte Plätze jours semaines mois ans heures places"
    ).split()
)


# Units of time and measure, which an answer states with a number in one of few ways.
_MEASURES = frozenset(
    _unit(word)
    for word in (
        "days weeks months years hours minutes seconds nights kg mm cm km miles kwh percent kilometres kilometers "
        "Tage Wochen Monate Jahre Stunden Minuten Nächte jours semaines mois ans heures"
    ).split()
)


def _quantity_unit(words: list[str]) -> str | None:
    """The unit of a number from the words after it: a known unit among them before any word that
    names none ("5 paid days" -> day, "3 of them" -> none), else the first ("12 robots" -> robot)."""
    named = []
    for word in words:
        if word.lower() in _NOT_UNITS:
            break
        named.append(_unit(word))
    return next((u for u in named if u in _UNITS), named[0] if named else None)


def values(text: str) -> dict[str, frozenset[str]]:
    """The values a sentence states, by kind: clock times ("time"), dates ("date"), amounts of money
    (the currency) and quantities (their unit: "day", "week", "kg", "%"). Bare numbers are left out:
    without a unit there is no telling what they count."""
    found: dict[str, set[str]] = {}
    rest = text
    for match in _DATE.finditer(text):
        found.setdefault("date", set()).add(match.group())
        rest = rest.replace(match.group(), " ")
    for match in _TIME.finditer(rest):
        found.setdefault("time", set()).add(f"{int(match.group(1)):02d}:{match.group(2)}")
    rest = _TIME.sub(" ", rest)
    for match in _MONEY.finditer(rest):
        currency = (match.group(1) or match.group(4)).upper()
        currency = _CURRENCY_CODES.get(currency, currency)
        found.setdefault(currency, set()).add(_number((match.group(2) or match.group(3)).rstrip(".,")))
    rest = _MONEY.sub(" ", rest)
    for match in _QUANTITY.finditer(rest):
        unit = _quantity_unit([match.group(2), *match.group(3).split()])
        if unit is not None:
            found.setdefault(unit, set()).add(_number(match.group(1)))
    return {kind: frozenset(v) for kind, v in found.items()}


# --- contradictions ------------------------------------------------------------------------

Terms = Callable[[str], set[str]]


@dataclass(frozen=True)
class Conflict:
    first: Statement
    second: Statement
    kind: str  # the kind of value they disagree on
    first_values: frozenset[str]
    second_values: frozenset[str]

    @property
    def reason(self) -> str:
        return (
            f"The sources contradict each other: {self.first.doc_id} says {_listed(self.first_values)} and "
            f"{self.second.doc_id} says {_listed(self.second_values)} ({self.kind})."
        )


def _listed(found: frozenset[str]) -> str:
    return ", ".join(sorted(found))


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


def template_twins(first: str, second: str, terms: Terms, overlap: float = 0.5) -> bool:
    """Two different names from one pattern: titles ("Lisbon Depot - Site Information" and "Porto
    Depot - Site Information", "Controller firmware v3.2" and "v3.12") or document paths
    ("waste/recyclinghof-ost.md" and "waste/recyclinghof-west.md"). Their documents describe different
    things of one kind, so different values in them are no contradiction. Twins share a word and differ
    in one word each, or share at least `overlap` of their words."""
    a, b = terms(first), terms(second)
    if a == b or not a & b:
        return False
    return (len(a - b) == 1 and len(b - a) == 1) or _jaccard(a, b) >= overlap


def contradictions(
    statements: Sequence[Statement],
    question_terms: set[str],
    terms: Terms,
    margin: float = 0.08,
    min_overlap: float = 0.3,
) -> list[Conflict]:
    """Pairs of near-best statements that give different values of one kind for the same thing.

    Only statements within `margin` of the best score are compared (both must be credible answers),
    from different documents, neither superseded. They must be about the same thing: they cover the
    same words of the question, their documents are not template twins by title or path (two depots,
    two versions),
    and with values removed they share at least `min_overlap` of their words. Then for a kind of value
    both state (a unit, a currency, a time) neither's set of values may hold the other's: "16 weeks"
    against "16 weeks, within 12 months" agrees, "16 weeks" against "14 weeks" does not.
    """
    if not statements:
        return []
    best = max(s.score for s in statements)
    near = [s for s in statements if s.score >= best - margin and not s.superseded]
    conflicts = []
    for i, first in enumerate(near):
        for second in near[i + 1 :]:
            if first.doc_id == second.doc_id or template_twins(first.title, second.title, terms):
                continue
            if template_twins(first.doc_id, second.doc_id, terms):
                continue
            if question_terms & terms(first.scored) != question_terms & terms(second.scored):
                continue  # one names what the question asks about, the other does not
            if _jaccard(_masked_terms(first.quote, terms), _masked_terms(second.quote, terms)) < min_overlap:
                continue
            a, b = values(first.quote), values(second.quote)
            for kind in sorted(a.keys() & b.keys()):
                if not (a[kind] <= b[kind] or b[kind] <= a[kind]):
                    conflicts.append(Conflict(first, second, kind, a[kind], b[kind]))
                    break
    return conflicts


def _masked_terms(text: str, terms: Terms) -> set[str]:
    return {t for t in terms(text) if not any(ch.isdigit() for ch in t)}


# The kind of value a question asks for, by its wording (en, de, fr): a price asks for money, "how
# many hours" for hours, "what time" for a clock time. None when the wording names no kind.
_ASKS_MONEY = re.compile(
    r"\b(?:price|prices|cost|costs|fee|fees|preis|preise|gebühr|gebühren|kostet|kosten|prix|coût|coûte|tarif|"
    r"betrag|beträge|montant|montants|gekostet|kostete|coûté|coûtait)\b"  # "bis zu welchem Betrag": a sum of money
    r"(?![ \t]+(?:cent(?:re|er)s?|codes?|units?|objects?|elements?)\b)"  # a "cost centre" is an account's code
    # the currency the sum is asked in: "Wie hoch ist das Tagesgeld in Euro?", "en francs"
    r"|\b(?:in|en)[ \t]+(?:euros?|eur|chf|franken|francs?|dollars?|usd|pounds?|gbp)\b",
    re.IGNORECASE,
)
# "Auf welche Kostenstelle buche ich Kosten ...?", "Which supplier charges the lowest fee?": the noun after
# "which" is what is asked, and it is no sum of money; the money word is what picks it.
_ASKS_WHICH_THING = re.compile(
    r"^\W*(?:\w+\s+)?(?:which|welche[rsmn]?|quel(?:le)?s?|lequel|laquelle)\s+(?!(?:price|prices|cost|costs|fee|fees"
    r"|preis|preise|gebühr|gebühren|kosten|prix|coût|coûts|tarif|tarifs|betrag|beträge|montant|montants"
    r"|is|are|was|were|ist|sind|war|waren|est|sont|était|étaient|sera|seront)\b)"
    r"[^\W\d_]",
    re.IGNORECASE,
)
# "how many" and up to two words before its noun: "how many paid volunteering days" asks for days
_ASKS_COUNT = re.compile(
    r"\b(?:how many|wie vielen?|combien de)\s+([^\W\d_]+)(?:\s+([^\W\d_]+))?(?:\s+([^\W\d_]+))?", re.IGNORECASE
)
# A question on how much or how many, or on a limit, asks for a number, whatever it counts.
_ASKS_NUMBER = re.compile(
    r"\b(?:how much|how many|wie viel|wie vielen?|combien|limits?|limites?|grenzen?)\b", re.IGNORECASE
)
_ASKS_DURATION = re.compile(r"\b(?:how long|wie lange|combien de temps)\b", re.IGNORECASE)
# an age, or how long ago: a number of years, months, weeks or days, whatever its noun costs ("how recently
# must a car have been registered to get new-price compensation" asks no price)
_ASKS_AGE = re.compile(r"\b(?:how recently|how long ago|how old|wie alt|quel âge)\b", re.IGNORECASE)
_AGE_UNITS = frozenset({"year", "month", "week", "day"})
# a weight, or a load carried, which is one ("the rated payload", "die Nennlast", "la charge utile")
_ASKS_WEIGHT = re.compile(
    r"\b(?:weigh|weighs|weight|how heavy|wiegt|gewicht|wie schwer|poids|pèse|payload|nutzlast|nennlast|traglast|"
    r"tragkraft|charge utile|charge nominale)\b",
    re.IGNORECASE,
)
# a tightening torque, stated in Nm; not a tool named by it ("How often must torque wrenches be calibrated?")
_ASKS_TORQUE = re.compile(
    r"\b(?:torque|drehmoment|anzugsmoment|anzugsdrehmoment|couple de serrage|quel couple|(?:mit\s+)?welchem\s+moment)\b"
    r"(?!\s+(?:wrench|wrenches|screwdriver|screwdrivers|tool|tools|sensor|sensors|limiter|meter|tester|gauge)\b)",
    re.IGNORECASE,
)
# a distance or size: "reach" and "distance" only as a thing measured ("How do I reach the desk?" asks for a
# contact, "help from a distance" for remote help), no "radius" (RADIUS is a protocol), no "length" or "how
# far" (a notice period's length, how far ahead), no "Höhe" or "hauteur" ("in welcher Höhe": an amount)
_ASKS_LENGTH = re.compile(
    r"\b(?:(?:the|its|maximum|max\.?)\s+reach|reach of|width|height|depth|diameter|"
    r"(?:the|what|minimum|maximum) distance|how wide|how tall|"
    r"reichweite|breite|durchmesser|entfernung|wie weit|wie breit|portée maximale|largeur|diamètre)\b",
    re.IGNORECASE,
)
_ASKS_SPEED = re.compile(r"\b(?:top speed|maximum speed|höchstgeschwindigkeit|vitesse maximale)\b", re.IGNORECASE)
_ASKS_PERCENT = re.compile(
    r"\b(?:what|which|how much|how high(?: a| is the)?)\s+(?:[^\W\d_]+\s+)?(?:discount|percentage|rabatt|remise)\b",
    re.IGNORECASE,
)
# a change by a share ("um wie viel Prozent erhöht", "by what percentage", "de combien de pour cent"): a
# percentage, never the money a row states
_ASKS_PERCENT_CHANGE = re.compile(
    r"\bum\s+wie\s*viele?\s+prozent\b|\bby\s+(?:how\s+(?:many|much)\s+(?:percent|per\s+cent)|what\s+percentage)\b"
    r"|\bde\s+combien\s+de\s+(?:pour\s*cent|%)|\bde\s+quel\s+pourcentage\b",
    re.IGNORECASE,
)
# a share of something ("what share of the catalogue price", "welcher Anteil des Preises", "quelle part du
# prix", "what percentage of the premium"), asked before the money word in it
_ASKS_SHARE = re.compile(
    r"\b(?:share|proportion|percentage|per ?cent|fraction|portion)\s+of\b|\bwie\s+viel\s+prozent\b"
    r"|\bwelche[nmrs]?\s+anteil\b|\bquel(?:le)?\s+(?:part|pourcentage|proportion)\b",
    re.IGNORECASE,
)
_ASKS_NOISE = re.compile(
    r"\b(?:noise level|how loud|sound level|geräuschpegel|lautstärke|niveau sonore)\b", re.IGNORECASE
)
_ASKS_WEEKDAY = re.compile(
    r"\b(?:which|what) (?:weekdays?|days? of the week)\b|\bwochentag|\bquels? jours? de la semaine\b", re.IGNORECASE
)
# A weekday in English (whole, abbreviated or plural: "Saturdays", "Wed"), German or French, working days
# or the weekend.
_WEEKDAYS = re.compile(
    rf"\b(?:{alternation(names(WEEKDAYS, ('en',)) + WEEKDAY_ABBREVIATIONS['en'])})s?\b"
    rf"|\b(?:{alternation(names(WEEKDAYS, ('de', 'fr')))}|werktag\w*|wochenende)\b|\bweekends?\b",
    re.IGNORECASE,
)
_KILOMETRE = {_unit("kilometres"): "km", _unit("kilometers"): "km"}  # one kind, however spelt
_WEIGHT_UNITS = frozenset({"kg", "g", "t", "lb", "lbs", "tonne", "ton"})
_SPEED_UNITS = frozenset({"m/s", "km/h", "mph", "kmh"})
_LENGTH_UNITS = frozenset(
    _unit(word)
    for word in "mm cm m km metre metres meter meters kilometre kilometres kilometer kilometers mètre mètres "
    "inch inches ft foot feet mile miles".split()
)
_ASKS_TIME = re.compile(
    r"\b(?:what time|opening hours|um wie viel uhr|öffnungszeiten|à quelle heure|horaires d'ouverture)\b", re.IGNORECASE
)
_CURRENCIES = frozenset({"USD", "EUR", "GBP", "CHF"})
_CENTS = frozenset({_unit("ct"), _unit("cents")})


def _in_cents(stated: dict[str, frozenset[str]]) -> bool:
    """Whether a quantity is in cents ("29.95 ct/kWh", "31 cents per kWh"): a price."""
    return any(unit.split("/")[0] in _CENTS for unit in stated)


# A number under a label that names money: a table column read as "list_price_usd: 38500", "Fee: 8.00".
_MONEY_LABEL = re.compile(
    r"(?:\b|_)(?:eur|usd|chf|gbp|price|cost|fee|preis|gebühr|prix|tarif|cents?|ct(?=_|\b))\w*\)?\s*:\s*\d",
    re.IGNORECASE,
)
_NUMBER_WORDS = re.compile(
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|ein|eine|zwei|drei|vier|fünf|sechs|"
    r"sieben|acht|neun|zehn|deux|trois|quatre|cinq|sept|huit|neuf|dix)\b",
    re.IGNORECASE,
)


def asked_kind(question: str) -> str | None:
    """The kind of value the question asks for: "money", "amount" (money or a percentage), "time", "age" (years,
    months, weeks or days), a unit ("hour", "day") or None. Statements before the question are context,
    not what it asks (wording.asked_part)."""
    question = wording.asked_part(question)
    if _ASKS_AGE.search(question):
        return "age"
    if _ASKS_DURATION.search(question):
        return None  # "for how long are the costs paid": a duration, whatever it is of
    if _ASKS_PERCENT_CHANGE.search(question):
        return "percent"
    if _ASKS_SHARE.search(question):
        return "amount"  # "what share of the catalogue price is billed": a percentage, or the money it comes to
    if _ASKS_MONEY.search(question) and not _ASKS_WHICH_THING.search(question):
        return "money"
    if wording.ASKS_DEPOSIT.search(question):
        return "amount"  # money or a share: "a surcharge of 3 %", "Zuschlag von 100 %", "a deposit of 50 €"
    if count := _ASKS_COUNT.search(question):
        # only units of measure: "how many people" may be answered "6 persons" or "a group of six"
        units = [_unit(word) for word in count.groups() if word]
        unit = next((u for u in units if u in _MEASURES), None)
        if unit is not None:
            return _KILOMETRE.get(unit, unit)
    if _ASKS_TIME.search(question) or wording.ASKS_HOURS.search(question):
        return "time"
    if _ASKS_PERCENT.search(question):
        return "percent"
    if _ASKS_NOISE.search(question):
        return "noise"
    if _ASKS_WEEKDAY.search(question):
        return "weekday"
    if _ASKS_WEIGHT.search(question):
        return "weight"
    if _ASKS_TORQUE.search(question):
        return "nm"
    if _ASKS_SPEED.search(question):
        return "speed"
    if _ASKS_LENGTH.search(question):
        return "length"
    if wording.ASKS_PACE.search(question):
        return "pace"  # "how fast": a speed, or how soon
    if _ASKS_NUMBER.search(question):
        return "number"
    return None


# the wording that asks for a kind of value (asked_kind), taken out of a question by without_kind_cues
_KIND_CUES: tuple[re.Pattern[str], ...] = (
    _ASKS_PERCENT_CHANGE,
    _ASKS_SHARE,
    _ASKS_MONEY,
    _ASKS_TIME,
    _ASKS_PERCENT,
    _ASKS_NOISE,
    _ASKS_WEEKDAY,
)
_KIND_CUES += (_ASKS_WEIGHT, _ASKS_SPEED, _ASKS_NUMBER, wording.ASKS_PACE, wording.ASKS_HOURS, wording.ASKS_DEPOSIT)
_KIND_CUES += (_ASKS_AGE, _ASKS_LENGTH, _ASKS_TORQUE)


def without_kind_cues(question: str) -> str:
    """The question less the words that ask for a kind of value ("price", "what time", "how many" and
    the unit after it): what is left says what the value is about."""
    rest = question
    for cue in _KIND_CUES:
        rest = cue.sub(" ", rest)
    if count := _ASKS_COUNT.search(question):
        rest = rest.replace(count.group(1), " ")
    return rest


def value_word(word: str) -> bool:
    """Whether a word names a value, not a thing: a unit ("weeks", "kg"), a month or weekday, "percent"."""
    folded = word.casefold()
    if _unit(folded) in _UNITS | _MEASURES or folded in ENGLISH_CALENDAR_WORDS or _WEEKDAYS.fullmatch(folded):
        return True
    return folded in ("percent", "percentage", "weekday", "weekdays")


def states_kind(kind: str, text: str) -> bool:
    """Whether `text` states a value of `kind` (numbers written as words count: "two weeks")."""
    numbered = _NUMBER_WORDS.sub("2", text)
    if kind == "number":  # a clock time, a date or a room number ("room 1.02") counts nothing
        return states_number(_ROOM.sub(" ", _TIME.sub(" ", _DATE.sub(" ", numbered))))
    stated = values(numbered)
    if kind in ("money", "percent", "amount"):  # an amount is money or a share
        share = kind != "money" and ("%" in stated or "percent" in stated)
        return share or (
            kind != "percent"
            and (
                bool(_CURRENCIES & stated.keys() or _in_cents(stated) or _MONEY_LABEL.search(text))
                or wording.table_states_money(text)
            )
        )
    if kind == "weekday":
        return bool(_WEEKDAYS.search(text))
    if kind == "age":
        return bool(_AGE_UNITS & stated.keys())
    if kind == "noise":
        return "db" in stated or "db(a)" in stated
    if kind == "weight":
        return bool(_WEIGHT_UNITS & stated.keys())
    if kind == "speed":
        return bool(_SPEED_UNITS & stated.keys())
    if kind == "length":
        return bool(_LENGTH_UNITS & stated.keys())
    if kind == "pace":
        return bool(wording.PACE_UNITS & stated.keys())
    return kind in stated
