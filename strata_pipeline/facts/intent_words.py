"""The words (en, de, fr) that name an aggregation's operation and its grouping; parse.py reads them."""

from __future__ import annotations

from strata_pipeline.facts.phrasing import LONGEST_AGO, SHARE

OPERATION_WORDS: dict[str, str] = {
    # checked in this order: the first that matches decides
    "share": SHARE,
    "intersect": r"\bboth\b|\bin beiden\b|\bbeiden\b|\bà la fois\b|\bles deux\b|\bdans les deux\b",
    "avg": r"\baverage\b|\bmean\b|\bdurchschnitt\w*|\bmittlere\w*|\bmoyen\w*",
    # "the sum insured" is an amount a policy covers, and a "total-loss" rule a kind of claim: no totals
    "sum": r"\btotal\b(?!-)|\bsum\b(?!\s+(?:insured|assured))|\baltogether\b|\btogether\b|\bcombined\b|\bzusammen\b|"
    r"\ben tout\b|"
    r"\bsumme\b|\binsgesamt\b|\bgesamt\w*|\bsomme\b|\bau total\b|"
    # "how much did we spend", "wie viel wurde ausgegeben", "combien a-t-on dépensé": money spent is a total
    r"\bhow much\b(?=.*\b(?:spen[dt]|paid)\b)|\bwie ?viel\b(?=.*\b(?:ausgegeben|bezahlt)\b)|"
    r"\bcombien\b(?=.*\b(?:dépensé|payé)\w*)",
    "max": r"\bmax\b|\bhighest\b|\blargest\b|\bbiggest\b|\bmaximum\b|\bmost expensive\b|\blongest\b(?! ago)|"
    r"\bhöchste\w*|\bgrößte\w*|\bteuerste\w*|\bmaximal\w*|\ble plus (?:élevé|cher|grand)\w*|"
    r"\bla plus (?:élevée|grande)\b",
    "min": r"(?<!\d)(?<!\d )\bmin\b|\blowest\b|\bsmallest\b|\bcheapest\b|\bminimum\b|\bshortest\b|"
    r"\bniedrigste\w*|\bkleinste\w*|"
    r"\bgünstigste\w*|\bminimal\w*|\ble moins cher\b|\ble plus (?:bas|petit)\b|\bla plus (?:basse|petite)\b|"
    + LONGEST_AGO,  # "serviced longest ago": the earliest
    # "the cost centre number of the Lyon office", "the phone number of": a number a row holds, not a count
    "count": r"\bhow many\b|(?:^|[^\w\s]\s*|\b(?:the|a|total|overall|exact|what|is|me|and|of)\s+)number of\b|"
    r"\bcount\b|\bwie vielen?\b|\bwieviele\b|\banzahl\b|\bcombien\b|"
    r"\bnombre d(?:e\b|')",
    "distinct": r"\bdistinct\b|\bdifferent\b|\bunique\b|\bverschiedene\w*|\bunterschiedliche\w*|\bdifférent\w*",
    # "quels sont les serveurs" lists ("what are the"); "quel est le prix" asks for one value ("what is the")
    # a preposition may come first: "mit welchen Lieferanten", "from which suppliers", "avec quels fournisseurs"
    "list": r"^\s*(?:(?:mit|bei|von|für|an|aus|with|from|for|at|by|to|avec|chez|pour|auprès de|de)\s+)?"
    r"(?:which|list|name|show|what are the|welche\w*|liste\w*|nenne\w*|zeige\w*|"
    r"quel(?!(?:le)?\s+est\b)\w*|lister|donne\w*|énumère\w*)\b",
}
# What stands between an intent word and the noun it asks for: an article, or a possessive ("how many of our
# vehicles", "wie viele unserer Fahrzeuge", "combien de nos véhicules"), which says nothing of which rows
DETERMINER = (
    r"(?:the\s+|of\s+the\s+|(?:of\s+)?(?:our|my|your|their)\s+|of\s+|der\s+|die\s+|den\s+|les\s+|"
    r"(?:unsere|eure|meine|ihre)[rnms]?\s+|(?:nos|notre|vos|votre|mes|leurs)\s+)?"
)
# "how many spare printers", "number of the distinct sites", "combien d'agences": the noun a count asks for
COUNTED = (
    r"\b(?:how many|number of|count|wie vielen?|wieviele|combien de|combien d'|nombre de|nombre d')"
    rf"(?:\s+|(?<=')){DETERMINER}"
    r"(?:(?:distinct|different|unique|verschiedene\w*|unterschiedliche\w*|différent\w*)\s+)?([\wäöüéèàç\-]+)"
)
GROUP_WORDS = (
    r"\b(?:per|by|for each|for every|in each|in every|each|every|pro|je|jede[rnms]?|nach|par|pour chaque|chaque|"
    r"broken down by|grouped by|split by|"
    r"aufgeschlüsselt nach|gruppiert nach|réparti\w* par|ventilé\w* par)\s+(?:the\s+|each\s+|le\s+|la\s+)?"
    r"([\wäöüßéè\-]+)"
)
# Phrases that always ask for one figure per group (unlike "per hour" or "owned by"): when what follows
# is no column, the question is refused rather than answered with one total.
STRONG_GROUP_WORDS = (
    r"\b(?:for each|for every|broken down by|grouped by|split by|pour chaque|aufgeschlüsselt nach|"
    r"gruppiert nach|réparti\w* par|ventilé\w* par)\s"
)
# A grouping by a period of a date column ("per month", "pro Monat", "par mois"): no column holds the
# month, so such a question is refused rather than answered with one total over all rows.
PERIOD_GROUP = (
    r"\b(?:per|by|for each|each|every|pro|je|jede\w*|nach|par|chaque)\s+(?:the\s+|calendar\s+)?"
    r"(?:month|quarter|year|week|weekday|day|monat|quartal|jahr|woche|wochentag|tag|mois|trimestre|année|an|"
    r"semaine|jour)s?\b"
)
