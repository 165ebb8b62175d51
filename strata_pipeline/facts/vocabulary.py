"""A small bilingual vocabulary of common data words, so a German or French question names the same
tables and columns as an English one ("Anzahl der Drucker pro Standort" -> "number of the printers
per site"), plus English short forms ("qty") and number words after a comparison ("under one hour").

`gloss` rewrites only the words listed here and keeps every other word as written, so cell values
("Biotonne", "ZRH", "US") and German column names ("Bezirk") still match as they are.
"""

from __future__ import annotations

import re

# German and French data words -> the English words column and sheet names use. Plural and singular
# are listed apart: the English stem rules do not apply to German or French endings.
DATA_WORDS: dict[str, str] = {
    # German
    "anzahl der": "number of the", "anzahl": "number of", "durchschnittliche": "average",
    "durchschnittlicher": "average", "durchschnittlichen": "average", "durchschnitt": "average",
    "lager": "warehouse", "lagern": "warehouses", "lagerhaus": "warehouse", "bestand": "stock",
    "preis": "price", "preise": "prices", "listenpreis": "list price", "listenpreise": "list prices",
    "standort": "site", "standorte": "sites", "standorten": "sites", "drucker": "printers",
    "dokument": "document", "dokumente": "documents", "dokumenten": "documents",
    "feiertag": "holiday", "feiertage": "holidays", "büro": "office", "büros": "offices",
    "land": "country", "länder": "countries", "stadt": "city", "städte": "cities",
    "kapazität": "capacity", "menge": "quantity", "reserviert": "reserved", "reservierte": "reserved",
    "produkt": "product", "produkte": "products", "produkten": "products", "kategorie": "category",
    "sprache": "language", "priorität": "priority", "prioritäten": "priorities", "garantie": "warranty",
    "lieferzeit": "lead time", "antwortzeit": "response time", "reaktionszeit": "response time",
    "monate": "months", "wochen": "weeks", "stunden": "hours", "stunde": "hour", "alle": "all",
    "mannschaft": "team", "rolle": "role", "eintrag": "entry", "einträge": "entries", "zeile": "row",
    "zeilen": "rows", "kurs": "course", "kurse": "courses", "kursen": "courses", "anbieter": "providers",
    "tage": "days", "tagen": "days", "dauer": "duration", "preisliste": "price list", "preislisten": "price lists",
    "wartung": "maintenance", "wartungen": "maintenance", "tankkarte": "fuel card", "tankkarten": "fuel cards",
    # French
    "nombre de": "number of", "entrepôt": "warehouse", "entrepôts": "warehouses",
    "prix": "price", "prix de liste": "list price", "liste de prix": "price list", "liste des prix": "price list",
    "moyenne": "average", "serveur": "server",
    "serveurs": "servers", "imprimante": "printer", "imprimantes": "printers", "produit": "product",
    "produits": "products", "jour férié": "holiday", "jours fériés": "holidays", "bureau": "office",
    "bureaux": "offices", "pays": "country", "ville": "city", "villes": "cities", "capacité": "capacity",
    "quantité": "quantity", "réservé": "reserved", "réservés": "reserved", "catégorie": "category",
    "langue": "language", "statut": "status", "équipe": "team", "priorité": "priority",
    "délai de livraison": "lead time", "délai de réponse": "response time", "mois": "months",
    "semaines": "weeks", "heure": "hour", "heures": "hours", "tous": "all", "toutes": "all",
    "couleur": "color", "farbe": "color", "farbig": "color", "farbige": "color",
    "coûte": "costs", "coûtent": "cost", "entrée": "entry", "entrées": "entries", "ligne": "row",
    "lignes": "rows", "fournisseur": "supplier", "fournisseurs": "suppliers", "jour": "day", "jours": "days",
    "carte carburant": "fuel card", "cartes carburant": "fuel cards",
    "durée": "duration", "combien de cours": "combien de courses", "nombre de cours": "number of courses",
    "les cours": "the courses",  # "cours" alone is also "en cours" (in progress): only as the counted noun
    "le cours": "the course", "un cours": "a course", "chaque cours": "each course", "des cours": "of the courses",
    # English short forms and spellings
    "qty": "quantity", "avg": "average", "colour": "color", "no. of": "number of", "num": "number",
}  # fmt: skip

# German and French words for the states and stages columns often store in English or clipped ("Entwicklung"
# for `dev` through "development", "aktive" for `active`): the value matcher (values.py) reads a word both
# as written and in this English form, then by its usual tiers, so `dev`, `development` and `Dev` all match.
# Only words that name a state: ordinary adjectives ("hoch", "offen") are no cell values in most questions.
VALUE_WORDS: dict[str, str] = {
    # German
    "entwicklung": "development", "produktion": "production", "produktiv": "production",
    "testumgebung": "test", "aktiv": "active", "aktive": "active", "aktiven": "active", "aktiver": "active",
    "inaktiv": "inactive", "inaktive": "inactive", "inaktiven": "inactive", "reparatur": "repair",
    "bereitschaft": "standby", "stillgelegt": "decommissioned", "stillgelegte": "decommissioned",
    "stillgelegten": "decommissioned", "ausgemustert": "retired", "abgesagt": "cancelled",
    "abgesagte": "cancelled", "storniert": "cancelled", "stornierte": "cancelled", "ausgebucht": "full",
    "ausstehend": "pending", "ausstehende": "pending", "geliefert": "delivered", "gelieferte": "delivered",
    "genehmigt": "approved", "genehmigte": "approved", "bezahlt": "paid", "bezahlte": "paid",
    # French
    "développement": "development", "actif": "active", "actifs": "active", "actives": "active",
    "inactif": "inactive", "inactifs": "inactive", "réparation": "repair", "veille": "standby",
    "annulé": "cancelled", "annulés": "cancelled", "annulée": "cancelled", "annulées": "cancelled",
    "complet": "full", "complets": "full", "attente": "pending", "livré": "delivered", "livrés": "delivered",
    "livrée": "delivered", "livrées": "delivered", "approuvé": "approved", "approuvés": "approved",
    "approuvée": "approved", "approuvées": "approved", "payé": "paid", "payés": "paid", "payée": "paid",
    "payées": "paid",
}  # fmt: skip
# File-format names for the extensions the `documents` table stores ("pdf", "csv" are read as written).
FORMATS: dict[str, str] = {
    "markdown": ".md", "excel": ".xlsx", "powerpoint": ".pptx",
}  # fmt: skip


def english(word: str) -> str:
    """A German or French data or column word's English word ("lieferant" -> "supplier"), "" when none.
    A French word is found without its accents too ("vehicule", as matching folds them)."""
    lowered = word.lower()
    found = DATA_WORDS.get(lowered) or COLUMN_WORDS.get(lowered) or _UNACCENTED.get(lowered, "")
    if " " in found:  # a phrase ("lead time") is no word; a column word may still be ("lieferzeit": delivery)
        found = COLUMN_WORDS.get(lowered, "")
    return found if " " not in found else ""


# German and French names of major European cities whose English name differs: a stored "Munich" is named
# "München" or "Munich", a stored "Vienna" "Wien" or "Vienne". World knowledge, as countries.py is.
CITY_NAMES: dict[str, str] = {
    "münchen": "munich", "köln": "cologne", "wien": "vienna", "zürich": "zurich", "genf": "geneva",
    "mailand": "milan", "rom": "rome", "venedig": "venice", "florenz": "florence", "neapel": "naples",
    "warschau": "warsaw", "prag": "prague", "brüssel": "brussels", "lissabon": "lisbon", "moskau": "moscow",
    "kopenhagen": "copenhagen", "athen": "athens", "nürnberg": "nuremberg", "londres": "london",
    "vienne": "vienna", "genève": "geneva", "venise": "venice", "varsovie": "warsaw", "bruxelles": "brussels",
    "lisbonne": "lisbon", "moscou": "moscow", "copenhague": "copenhagen", "athènes": "athens", "bâle": "basel",
    "berne": "bern", "anvers": "antwerp", "francfort": "frankfurt", "hambourg": "hamburg", "cologne": "cologne",
    "munich": "munich", "zurich": "zurich",
}  # fmt: skip


def value_word(word: str) -> str:
    """A German or French value word's English form ("Reparatur" -> "repair", "München" -> "munich"), or ""
    when none is listed."""
    return VALUE_WORDS.get(word.lower()) or CITY_NAMES.get(word.lower(), "")


# Common column nouns (de, fr) and their English words, only where the word is no English word too. They
# are not glossed in the question (a German column "Bezirk" is named as written, and its values beside it):
# `english` gives a question's or a column's word its English form for matching names only.
COLUMN_WORDS: dict[str, str] = {
    "kosten": "costs", "lieferant": "supplier", "lieferanten": "suppliers", "hersteller": "manufacturer",
    "kunde": "customer",
    "kunden": "customers", "bezirk": "district", "bezirke": "districts", "abteilung": "department",
    "abteilungen": "departments", "eigentümer": "owner", "besitzer": "owner", "betrag": "amount",
    "beträge": "amounts", "gebühr": "fee", "gebühren": "fees", "mitarbeiter": "employees", "datum": "date",
    "jahr": "year", "monat": "month", "typ": "type", "gewicht": "weight", "dauer": "duration",
    "fahrzeug": "vehicle", "fahrzeuge": "vehicles", "bestellung": "order", "bestellungen": "orders",
    "rechnung": "invoice", "rechnungen": "invoices", "vertrag": "contract", "verträge": "contracts",
    "filiale": "branch", "filialen": "branches", "modell": "model", "modelle": "models",
    "fournisseur": "supplier", "fournisseurs": "suppliers", "fabricant": "manufacturer", "quartier": "district",
    "quartiers": "districts", "arrondissement": "district", "arrondissements": "districts",
    "propriétaire": "owner", "montant": "amount", "montants": "amounts", "coût": "cost", "coûts": "costs",
    "employé": "employee", "employés": "employees", "année": "year", "poids": "weight", "durée": "duration",
    "véhicule": "vehicle", "véhicules": "vehicles", "commande": "order", "commandes": "orders",
    "facture": "invoice", "factures": "invoices", "contrat": "contract", "contrats": "contracts",
    "agence": "branch", "agences": "branches", "modèle": "model", "modèles": "models",
    "zertifiziert": "certified", "zertifizierte": "certified", "zertifizierten": "certified",
    "certifié": "certified", "certifiés": "certified", "certifiée": "certified", "certifiées": "certified",
    "bewertung": "rating", "bewertungen": "ratings", "arbeit": "labour",
    "artikel": "article", "maschine": "machine", "maschinen": "machines", "gerät": "device", "geräte": "devices",
    "baujahr": "year", "lieferzeit": "delivery", "leistung": "power", "preis": "price", "werk": "plant",
    "werke": "plants", "standort": "site", "appareil": "device", "appareils": "devices", "usine": "plant",
    "usines": "plants", "puissance": "power", "livraison": "delivery",
}  # fmt: skip

_FOLD = str.maketrans("éèêëàâîïôùûç", "eeeeaaiiouuc")
_UNACCENTED = {
    key.translate(_FOLD): value
    for words in (COLUMN_WORDS, DATA_WORDS)
    for key, value in words.items()
    if key.translate(_FOLD) != key
    and key.translate(_FOLD) not in DATA_WORDS
    and key.translate(_FOLD) not in COLUMN_WORDS
}

NUMBER_WORDS: dict[str, str] = {
    "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
    "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "twenty": "20", "fifty": "50", "hundred": "100",
    "a hundred": "100", "a thousand": "1000", "thousand": "1000",
    "eins": "1", "ein": "1", "einer": "1", "einem": "1", "eine": "1", "zwei": "2", "drei": "3", "vier": "4",
    "fünf": "5", "sechs": "6", "sieben": "7", "acht": "8", "neun": "9", "zehn": "10", "zwölf": "12",
    "zwanzig": "20", "fünfzig": "50", "hundert": "100", "tausend": "1000",
    "un": "1", "une": "1", "deux": "2", "trois": "3", "quatre": "4", "cinq": "5", "sept": "7", "huit": "8",
    "neuf": "9", "dix": "10", "douze": "12", "vingt": "20", "cinquante": "50", "cent": "100", "mille": "1000",
}  # fmt: skip

_PHRASES = sorted(DATA_WORDS, key=len, reverse=True)  # longest first: "prix de liste" before "prix"
_DATA = re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(p) for p in _PHRASES) + r")(?![\w-])", re.IGNORECASE)
_HYPHENATED = re.compile(r"[\wäöüßéèàç]+(?:-[\wäöüßéèàç]+)+")


# "cours" after a number is the plural noun ("au moins 3 cours"), never "en cours" (in progress)
_COUNTED_COURSES = re.compile(r"(?<=\d )cours\b", re.IGNORECASE)


_TONNES = re.compile(r"\b(\d+(?:[.,]\d+)?)[- ]?(?:tonner|tonnern|tonnen|tonnes?|tons?)\b", re.IGNORECASE)


def gloss(question: str) -> str:
    """The question with its data words in English; every other word unchanged. A hyphenated word
    with a data word in it is split first ("Services-Produkte" -> "Services products"), and a German
    compound of a data word and a sheet noun too ("Wartungsprotokoll" -> "maintenance log")."""
    question = _COUNTED_COURSES.sub("courses", question)
    question = _TONNES.sub(r"\1 t", question)  # "die 18-Tonner", "18-tonne trucks": the cells write "18 t"
    split = _SHEET_COMPOUND.sub(_split_sheet_compound, _HYPHENATED.sub(_split_if_known, question))
    return _DATA.sub(lambda m: DATA_WORDS[m.group().lower()], split)


# German sheet nouns a compound ends in, and their English words ("Schulungsliste": the training list)
SHEET_PARTS = {"liste": "list", "listen": "lists", "protokoll": "log", "tabelle": "table", "plan": "plan",
               "verzeichnis": "register"}  # fmt: skip
_SHEET_COMPOUND = re.compile(r"\b[a-zäöüß]{8,}\b", re.IGNORECASE)  # a compound of two words of four letters


def _split_sheet_compound(match: re.Match[str]) -> str:
    """A German compound of two data words read in parts ("Wartungskosten": maintenance costs); "" ->
    unchanged when either part is unknown or the whole word is a data word itself."""
    word = match.group()
    lowered = word.lower()
    if lowered in DATA_WORDS or lowered in COLUMN_WORDS:
        return word
    for at in range(len(lowered) - 3, 3, -1):  # the longest known tail first
        tail = SHEET_PARTS.get(lowered[at:]) or _single(lowered[at:])
        if not tail:
            continue
        head = lowered[:at]
        for known in (head, head[:-1] if head.endswith("s") else ""):  # "Wartungs-": the linking s
            if len(known) >= 4 and _single(known):
                return f"{_single(known)} {tail}"
    return word


def _single(word: str) -> str:
    """The English of a one-word data or column word ("" when it has none, or it is several words)."""
    found = DATA_WORDS.get(word) or COLUMN_WORDS.get(word, "")
    return found if found and " " not in found else ""


def _split_if_known(match: re.Match[str]) -> str:
    parts = match.group().split("-")
    return " ".join(parts) if any(p.lower() in DATA_WORDS for p in parts) else match.group()


NUMBER_WORD = "|".join(re.escape(w) for w in sorted(NUMBER_WORDS, key=len, reverse=True))


def number_value(text: str) -> float:
    """A number written as digits ("2,5" or "2.5") or as a word ("one", "zwei", "trois")."""
    lowered = text.lower()
    return float(NUMBER_WORDS.get(lowered, lowered).replace(",", "."))


# Units people say for the units in column names ("list_price_usd", "hourly_rate_eur", "response_time_h").
UNITS = {
    "dollar": "usd", "dollars": "usd", "$": "usd", "euro": "eur", "euros": "eur", "€": "eur",
    "hour": "h", "hours": "h", "stunden": "h", "heures": "h",
    "day": "days", "days": "days", "tage": "days", "tagen": "days", "jour": "days", "jours": "days",
    "month": "months", "months": "months", "monat": "months", "monate": "months", "monaten": "months",
    "mois": "months", "year": "years", "years": "years", "jahr": "years", "jahre": "years", "jahren": "years",
    "ans": "years", "année": "years", "années": "years",
    # weeks only in the plural: a column "iso_week" or "Kalenderwoche" numbers the week, it measures no weeks
    "weeks": "weeks", "wochen": "weeks", "semaines": "weeks",
    # technical units, written alike in every language: "au moins 1 000 Nm" for "max. Abtriebsmoment Nm"
    "nm": "nm", "kw": "kw", "kwh": "kwh", "kg": "kg", "mm": "mm", "gb": "gb", "tb": "tb",
    # distance, and the quantities said by it ("mileage", "Kilometerstand": the column that ends in km)
    "km": "km", "kilometer": "km", "kilometers": "km", "kilometre": "km", "kilometres": "km", "kilometern": "km",
    "kilomètre": "km", "kilomètres": "km", "mileage": "km", "kilometerstand": "km", "laufleistung": "km",
    "kilométrage": "km", "mile": "mi", "miles": "mi",
}  # fmt: skip
# What people call the `documents` table's rows and its `project` facet (a document's top folder).
DOCUMENT_NOUNS = frozenset("document doc file dokument datei fichier".split())
FOLDER_WORDS = frozenset("folder directory ordner verzeichnis dossier répertoire".split())
