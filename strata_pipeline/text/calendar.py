"""Weekday and month names by language: the one table the calendar matchers derive from.

Each matcher takes the part it needs: answering/calendar_words.py every name and spelling of six
languages, answering/abstention.py and redaction/addresses.py the full names of English, German
and French, redaction/names.py those with their abbreviations ("Mo–Fr", "Mon-Fri", "lun.-ven."),
retrieval/priors.py month names and their abbreviations before a year ("März 2024", "Sept. 2025").
Names are lower case, Monday and January first.
"""

from __future__ import annotations

WEEKDAYS: dict[str, tuple[str, ...]] = {
    "en": ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
    "de": ("montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag"),
    "fr": ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"),
    "es": ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"),
    "it": ("lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica"),
    "nl": ("maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag"),
}
MONTHS: dict[str, tuple[str, ...]] = {
    "en": ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december"),
    "de": ("januar", "februar", "märz", "april", "mai", "juni", "juli", "august", "september", "oktober",
           "november", "dezember"),
    "fr": ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
           "novembre", "décembre"),
    "es": ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
           "noviembre", "diciembre"),
    "it": ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre",
           "novembre", "dicembre"),
    "nl": ("januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober",
           "november", "december"),
    "pt": ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
           "novembro", "dezembro"),
}  # fmt: skip
# Other spellings of a day or month: without accents ("miercoles", "fevrier"), Austrian and northern
# German ("Jänner", "Feber", "Sonnabend"), "ae" for "ä" ("Maerz"). One tuple a day or month.
WEEKDAY_VARIANTS: tuple[tuple[str, ...], ...] = (
    ("lunedi",),
    ("martedi",),
    ("miercoles", "mercoledi"),
    ("giovedi",),
    ("venerdi",),
    ("sonnabend", "sabado"),
    (),
)
MONTH_VARIANTS: tuple[tuple[str, ...], ...] = (
    ("jänner",),
    ("feber", "fevrier"),
    ("maerz",),
    (),
    (),
    (),
    (),
    ("aout",),
    (),
    (),
    (),
    ("decembre",),
)
# Abbreviations, written with or without a dot: "Mo–Fr", "Mon-Fri", "lun.-ven.", "Sept. 2025".
WEEKDAY_ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "en": ("mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun"),
    "de": ("mo", "di", "mi", "do", "fr", "sa", "so"),
    "fr": ("lu", "ma", "me", "je", "ve", "sa", "di", "lun", "mar", "mer", "jeu", "ven", "sam", "dim"),
}
# the English ones, and German "Okt" and "Dez"
MONTH_ABBREVIATIONS = (
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "okt", "nov", "dec", "dez",
)  # fmt: skip


def names(table: dict[str, tuple[str, ...]], languages: tuple[str, ...]) -> tuple[str, ...]:
    """Every word `table` (WEEKDAYS, MONTHS, WEEKDAY_ABBREVIATIONS) gives in these languages, each once,
    in table order."""
    return tuple(dict.fromkeys(name for language in languages for name in table[language]))


def alternation(words: tuple[str, ...]) -> str:
    """A regular-expression alternation of `words`, longest first (none holds a metacharacter)."""
    return "|".join(sorted(words, key=lambda w: (-len(w), w)))
