"""Whole postal addresses: street and number, unit, postcode, city, state and country, as one span.

An address is found from a *street core*, then grown over the parts that follow it (and the
building numbers or units before it) on the same line or the next lines:

- number first: "1455 Market St", "12, rue des Tanneurs", "8 bis avenue Jean Médecin";
- number after the street: "Heilbronner Straße 150", "Via Roma 10", "Herengracht 452",
  "Calle Mayor 18", "ul. Grabowa 112", "Laugavegur 77" (compound street words in many languages);
- a street name between two numbers, the way building and house numbers are written in some
  registers ("0807 Κυλλήνη 182");
- a bare "Name 12" only where the text says an address follows ("lives at", "Anschrift:", "c/o");
- post boxes and US military mail ("PSC 3109, Box 3741 / APO AA 15670", "USS Name / FPO AE 18027").

The grammar follows postal conventions (USPS Publication 28 street suffixes, the street words of
European postal formats, national postcode shapes); none of it is read from a corpus generator.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import regex

from strata_pipeline.redaction.name_cues import CALENDAR_WORDS, HEADER_NAME_WORDS
from strata_pipeline.redaction.name_evidence import word_commonness
from strata_pipeline.redaction.organisations import COMPANY_NAME
from strata_pipeline.redaction.tables import table_cells
from strata_pipeline.text.calendar import MONTH_ABBREVIATIONS, WEEKDAYS, alternation, names
from strata_pipeline.text.placeholders import PLACEHOLDER

# Capitalised word in any script (Κυλλήνη, Ööbiku, Ní), ALL-CAPS included; with inner ' or -.
CAPW = r"(?:\p{Lu}[\p{L}\p{M}'’]*(?:[-‑]\p{L}[\p{L}\p{M}'’]*)*)"
CAP = rf"(?:{CAPW}\.?)"
LOW_PARTICLE = r"(?:u|ob|na|nad|pod|bei|lès|en|de|del|della|degli|delle|dei|di|da|du|des|la|le|les|los|las|el|al|y|e|et|do|dos|das|van|von|der|den|am|an|im|in|zum|zur|auf|sur|sous|aux|d'|l'|kapu|utca|u\.|út|tér|ulica)"
# USPS Publication 28 street suffixes (common forms and abbreviations) and British/Irish ones.
EN_SUFFIX = (
    "Alley|Aly|Annex|Arcade|Avenue|Ave|Av|Bayou|Beach|Bend|Bluffs?|Boulevard|Blvd|Bridge|Brooks?"
    "|Burgs?|Bypass|Canyon|Cape|Causeway|Centers?|Circles?|Cir|Cliffs?|Close|Commons?|Corners?"
    "|Courts?|Ct|Coves?|Creek|Crescent|Cres|Crest|Crossing|Dale|Dam|Drives?|Dr|Estates?"
    "|Expressway|Expy|Extensions?|Falls?|Ferry|Fields?|Flats?|Fords?|Forest|Forges?|Fort|Freeway|Fwy"
    "|Gardens?|Gateway|Glens?|Greens?|Groves?|Harbors?|Harbours?|Haven|Heights|Hts|Highway|Hwy|Hills?|Hollow"
    "|Inlet|Islands?|Isle|Junctions?|Knolls?|Lakes?|Landing|Lane|Ln|Locks?|Loop"
    "|Manors?|Meadows?|Mews|Mills?|Motorway|Mount|Mountains?|Orchard|Overpass|Parks?|Parkways?"
    "|Pkwy|Passage|Path|Pike|Pines?|Place|Pl|Plains?|Plaza|Ports?|Prairie|Ranch"
    "|Rapids?|Ridges?|River|Roads?|Rd|Route|Row|Rue|Shoals?|Shores?|Skyway|Springs?|Squares?"
    "|Sq|Station|Stravenue|Stream|Streets?|St|Summit|Terrace|Ter|Trail|Trl|Tunnel|Turnpike|Underpass"
    "|Valleys?|Viaduct|Villages?|Ville|Vista|Walks?|Ways?|Wharf|Quay|Embankment"
    "|Parade|Promenade|Broadway|Grove|Rise|Chase|Croft|Gate|Yard|Wynd|Vennel"
)
# Street words written before the name in French, Spanish, Portuguese, Italian, Polish, Dutch...
PREFIX = (
    "rue|avenue|av\\.|boulevard|bd|place|chemin|allée|impasse|quai|cours|route|square|passage|faubourg|rampe"
    "|calle|c/|avenida|avda\\.|paseo|plaza|camino|ronda|carrera|travesía|glorieta|pasaje|rambla|alameda"
    "|carretera|ctra\\.|pza\\.|trav\\.|rda\\.|cno\\.|rua|r\\.|travessa|largo|praça|estrada|via|viale|piazza|piazzale|corso|vicolo|borgo|strada"
    "|vico|salita|callejón|cuesta|bajada|subida|urbanización|urb\\.|polígono|cruce|costanilla|bulevar|vía"
    "|contrada|lungomare|ul\\.|ulica|al\\.|aleja|os\\.|pl\\.|plac"
)
# Street words that end a compound name: German, Dutch, Nordic, Finnish, Estonian, Hungarian, Slavic.
COMPOUND = (
    "straße|strasse|str\\.|weg|allee|platz|gasse|damm|ufer|chaussee|steig|pfad|markt|graben|kai|stieg|ring"
    "|wiese|berg|hof|tor|brücke|straat|laan|gracht|kade|singel|plein|dijk|steeg|hof|dreef|vej|gade|allé|stræde"
    "|gatan|vägen|gränd|torget|veien|vegen|gata|gate|katu|tie|kuja|polku|kaari|rinne|brekka|braut|gata"
    "|stígur|vegur|tänav|mnt|utca|út|tér|ulica|cesta|ulice|náměstí|nábřeží|sokak|caddesi|bulvarı|hóyden|høyden"
    "|sletta|bakken|lia|svingen|grend|stien"
)
NUMBER = r"(?:\d{1,5}(?:[ ]?[A-Za-z](?![\p{L}]))?(?:[ ]*[-/][ ]*\d{1,5}[A-Za-z]?)?(?:[ ]?(?:bis|ter))?\.?)"
UNIT = (
    r"(?:(?:Suite|Ste\.?|Apt\.?|Apartment|Unit|Flat|Floor|Fl\.?|Room|Rm\.?|Bldg\.?|Building|Box|Dept\.?|Etage|"
    r"Wohnung|Whg\.?|Stock|OG|EG|bte|boîte|Bus|Piso|Planta|Puerta|Scala|(?i:interno|int\.)|Int\.?|Appartement|Appt\.?"
    r"|Bâtiment|Bât\.?|Escalier|Esc\.?|(?i:escalier|étage|esc\.)|#)[ ]*#?[ ]*\w{1,6}(?:[/.]\w{1,4})?\.?"
    r"|\d{1,2}[ ]?[º°ª][ ]?(?:[A-Za-z]{1,4}\.?)?|\d{1,2}(?:st|nd|rd|th)[ ]+Floor)"
)
POSTCODE = (
    r"(?:\d{6}(?!\d)|\d{5}(?:-\d{4})?|\d{4}[ ]?[A-Z]{2}(?![\p{L}])|[A-Z]\d[A-Z][ ]?\d[A-Z]\d|[A-Z]{1,2}\d[A-Z\d]?[ ]?\d[A-Z]{2}"
    r"|[AC-FHKNPRTV-Y]\d{2}[ ]?[AC-FHKNPRTV-Y0-9]{4}|\d{2}-\d{3}|\d{3}[ ]\d{2}|[A-Z]{1,2}-\d{4,5}|\d{3,4})"
)
STATE = r"(?:\p{Lu}{2}(?![\p{L}\d])|\(\p{Lu}{2}\))"
NOT_CITY = r"(?!(?:Suite|Ste|Apt|Apartment|Unit|Flat|Floor|Box|Tel|Phone|Fax|Mobile|Mobil|Cell|Desk|Email|Office)\b)"
CITYW = r"(?:\p{Lu}[\p{L}\p{M}'’]+(?:[-‑]\p{L}[\p{L}\p{M}'’]*)*(?![\d]))"
CITY = rf"(?:{NOT_CITY}{CITYW}(?:[ \-]+(?:{LOW_PARTICLE}[ \-]+)*{CITYW}){{0,3}}(?:[ ]\p{{Lu}}\b(?!\.))?|\(\p{{Lu}}[\p{{L}} ]+\))"
# Marks that open a quoted or decorated line: "> ", ">> ", "}} ", "• ", "| ", "-- ", "?? " (an
# emoji or bullet lost to an encoding).
LINE_MARKS = r"(?:[>|*•·}{\]:~?=_–—-]{1,4}[ ]*)"
# Not a tab: the next cell is another field.
SEP = rf"(?:[ ]*,[ ]*|(?:[ ]*\n)+[ \t,]*{LINE_MARKS}?|[ ]+|[ ]*[–-][ ]+)"

STREET_WORDS = rf"(?:{CAP}|\d{{1,3}}(?:st|nd|rd|th))(?:[ ]+(?:{LOW_PARTICLE}[ ]+)*(?:{CAP}|\d{{1,3}}(?:st|nd|rd|th)))*"
CORES = (
    ("number first", rf"\b{NUMBER},?[ ]+(?:{STREET_WORDS}[ ]+)?(?:{EN_SUFFIX})\b\.?(?![ ]*\d)"),
    ("number first", rf"\b{NUMBER},?[ ]+(?i:{PREFIX})[ ]+(?:{LOW_PARTICLE}[ ]*)*{STREET_WORDS}"),
    (
        "street then number",
        rf"(?<![\p{{L}}])(?i:{PREFIX})[ ]+(?:{LOW_PARTICLE}[ ]*)*{STREET_WORDS},?[ ]+(?:n[º°o]\.?[ ]*)?{NUMBER}(?!\d)",
    ),
    (
        "street then number",
        rf"\b(?:{STREET_WORDS}[ \-](?:{LOW_PARTICLE}[ ]+)*)?(?:\p{{Lu}}[\p{{L}}\p{{M}}]*(?i:{COMPOUND})|(?<=-)(?i:{COMPOUND}))(?:[ ]+{CAP})?[ ]+{NUMBER}(?!\d)",
    ),
    (
        "street then number",
        rf"\b{CAP}[ ]+(?:{LOW_PARTICLE}[ ]+)*(?i:Straße|Strasse|Weg|Allee|Platz|Gasse|Ring|Markt|Laan|Straat|Gracht|Kade|Plein|Vej|Gade|Road|Street|Lane|Avenue)[ ]+{NUMBER}(?!\d)",
    ),
    (
        "number, street, number",
        rf"\b\d{{1,5}}[ ]+(?:{LOW_PARTICLE}\.?[ ]+)?{STREET_WORDS}(?:[ ]+\p{{Ll}}[\p{{L}}\p{{M}}]*\.?){{0,3}}[ ]+\d{{1,4}}[A-Za-z]?\b\.?",
    ),
    (
        "street then number",
        rf"\b{STREET_WORDS}[ ]+(?i:u\.|utca|út|tér|ulica|cesta|vei|vej|veg|gata|gate|gade|katu|tie|kapu|sokak|caddesi|sokağı)[ ]+{NUMBER}(?!\d)",
    ),
    (
        "intersection",
        rf"(?i:\bthe corner of|\bcorner of)[ ]+(?:{NUMBER}[ ]+)?(?:{STREET_WORDS}|P\.?O\.? Box)(?:[ ]+{NUMBER})?(?:[ ]+(?:{EN_SUFFIX})\.?)?[ ]+and[ ]+(?:{NUMBER}[ ]+)?{STREET_WORDS}(?:[ ]+{NUMBER}(?!\d))?(?:[ ]+(?:{EN_SUFFIX})\b\.?)?",
    ),
    # a street with no street word, recognised by the postcode and city that follow it
    (
        "street, postcode, city",
        rf"\b(?:{STREET_WORDS}|(?:Am|An der|Auf der|Im|In der|Zum|Zur)[ ]+{STREET_WORDS})[ ]+{NUMBER},?[ ]+(?:[A-Z]{{1,2}}-)?\d{{4,5}}(?:[ ]?[A-Z]{{2}})?[ ]+{CITY}(?!\d)",
    ),
    (
        "number, street, city, postcode",
        rf"\b\d{{1,4}}[A-Za-z]?,?[ ]+{STREET_WORDS},[ ]+{CAPW}(?:[ ]+{CAPW})?,?[ ]+(?:[A-Z]{{1,2}}\d[A-Z\d]?[ ]?\d[A-Z]{{2}}|[A-Z]\d[A-Z][ ]?\d[A-Z]\d|\p{{Lu}}{{2}}[ ]+\d{{5}})\b",
    ),
    # a line or table cell holding only a postcode and a city: "12059 Berlin", "London NW1 8AJ"
    (
        "postcode and city",
        rf"(?m)(?:^|(?<=[\t|;]))[ ]*(?:[A-Z]{{1,2}}-)?(?!(?:19|20)\d\d\b)\d{{4,5}}(?:[ ]?[A-Z]{{2}})?[ ]+{CITY}(?:[ ]*\(\p{{Lu}}{{2}}\))?[ ]*(?=$|[\t|;])",
    ),
    (
        "postcode and city",
        rf"(?m)(?:^|(?<=[\t|;]))[ ]*{CITY},?[ ]+(?:[A-Z]{{1,2}}\d[A-Z\d]?[ ]?\d[A-Z]{{2}}|[A-Z]\d[A-Z][ ]?\d[A-Z]\d|\p{{Lu}}{{2}}[ ]+\d{{5}}(?:-\d{{4}})?)[ ]*(?=$|[\t|;])",
    ),
    (
        "post box",
        r"(?i:\bP\.?[ ]?O\.?[ ]?Box|\bPost(?:fach|box)|\bBo[iî]te postale|\bB\.?P\.?|\bApartado(?: de correos)?|\bCasella postale)[ ]*\d[\d \t]{0,8}\d?",
    ),
    ("military mail", r"\b(?:PSC|CMR|Unit)[ ]+\d{3,5},?[ ]+Box[ ]+\d{1,5}\b"),
    ("military mail", r"\b(?:USS|USNS|USNV|USCGC)[ ]+\p{Lu}[\p{L}\p{M}'’\-]+"),
    ("military mail", r"\b[AFD]PO[ ]+A[AEP][ ]+\d{5}\b"),
)
CONTEXT_BEFORE = regex.compile(
    r"(?i:\baddress(?:ed)?|\baddr\.?|\blocated (?:at|on|in)|\blives? (?:at|on|in)|\bliving (?:at|on)|\bresid(?:es|ing|e) (?:at|on|in)"
    r"|\b(?:is|are|was) at|\bsent to|\bsend (?:it )?to|\bship(?:ped)? to|\bdeliver(?:ed|y)? (?:to|at)|\bmail(?:ed)? to"
    r"|\bmeet (?:me |us )?at|\boffice is (?:at|on)|\bdrops? you off at|\bcorner of|\bc/o|\bon|\bat|\bmove to"
    r"|\banschrift|\badresse|\bwohnt (?:in|am|an der)|\bindirizzo|\bdirecci[oó]n|\bdomicilio|\badres|\bwoont (?:aan|op|in))"
    r"[ ]*:?[ ]*(?:the )?$"
)
_SUFFIX_WORD = regex.compile(rf"(?:{EN_SUFFIX})")
BARE_STREET = regex.compile(rf"{STREET_WORDS}[ ]+{NUMBER}(?!\d)|{STREET_WORDS}[ ]+(?:{EN_SUFFIX})\b")
TAIL_PART = regex.compile(
    rf"(?:(?P<unit>{UNIT})|(?P<postal>{POSTCODE}(?![\-./]?\d)(?:[ ]+{CITY})?(?:[ ]*{STATE})?)"
    rf"|(?P<postal2>{STATE}[ ]+{POSTCODE})|(?P<number>{NUMBER}(?=[ ]*(?:,|\n|$)))"
    rf"|(?P<city>{CITY}(?:[ ]\d{{1,2}}(?![\d.:/]))?(?:,?[ ]*{STATE})?(?:,?[ ]*{POSTCODE})?))"
)
LEAD_PART = regex.compile(
    rf"(?:{UNIT}|\d{{1,5}}[A-Za-z]?|(?:Suite|Apt\.?|Apartment|Unit|Flat|Wohnung|Piso)(?=[ ]+\d))(?:[ ,]*|[ ]+[–\-][ ]+)$"
)
# Words that end a line of an address block without being part of it.
NOT_A_PLACE = regex.compile(
    r"(?i)^(?:tel|phone|fax|mobile|mobil|cell|desk|email|e-mail|mail|web|www|http|office|direct|t|m|e|f|p"
    r"|please|thanks|regards|the|this|it|we|he|she|they|and|or|but|after|before|for|from|on|at|in|to|with"
    r"|sitz|registered|company|vat|ust|iban|bic|swift)\b"
)


UNIT_LINE = regex.compile(rf"{UNIT}(?:,[ ]*{UNIT})*")
STREET_LINE = regex.compile(
    rf"{UNIT}(?:,[ ]*{UNIT})*|{NUMBER},?[ ]+{CAPW}(?:[ ]+(?:{LOW_PARTICLE}[ ]+)*{CAPW}){{0,3}}"
    rf"|(?:{STREET_WORDS})[ ]+{NUMBER}(?:,[ ]*{UNIT})?"
)
PHONE_LINE = regex.compile(
    r"[+(]?\d[\d ().\-/]{6,}\d(?:[ ]*(?:x|ext)\.?[ ]*\d+)?[ ]*(?:[-–][ ]*\p{L}+)?[ ]*(?:$|\n|\\|,)"
)


# A redaction placeholder as table headers hold it (case-folded): "[address_1]".
_HEADER_PLACEHOLDER = re.compile(PLACEHOLDER.pattern, re.IGNORECASE)
# Column headers and form labels of address fields, in the languages we read.
STREET_HEADER = regex.compile(
    r"(?i)(?:street|address|addr\b|adres(?:se)?|anschrift|stra(?:ss|ß)e|indirizzo|direcci[oó]n|domicilio|calle|via$|rue$"
    r"|straat|woonadres|huisnummer)"
)
PLACE_HEADER = regex.compile(
    r"(?i)^(?:city|town|ort|wohnort|stadt|gemeinde|ville|commune|ciudad|localidad|municipio|città|comune|località"
    r"|plaats|woonplaats|gemeente|zip|zip ?code|post ?code|postal ?code|postcode|plz|postleitzahl|cap|cp"
    r"|code postal|c\.p\.|c[oó]digo postal|state|province|provincia|county|region|postnummer)$"
)


def column_address_spans(text: str) -> list[tuple[int, int, str]]:
    """Address fields of tables and forms: a cell under a street header that has a house number or is
    in a person's record (a name column); a city or postcode cell when its row is a person's record
    (it also holds a street or a name). Never a cell of a company's row (a cell ends with a legal form)."""
    cells = table_cells(text)
    named_rows = {c.row for c in cells if HEADER_NAME_WORDS.match(c.header)}
    personal_rows = named_rows | {c.row for c in cells if STREET_HEADER.search(c.header)}
    # a row that names a company ("Brandner Gusswerk GmbH | 94032 | Passau | Markus ...") is the company's
    # record: its address is the company's, published on its letterhead, though the row names a contact person
    company_rows = {c.row for c in cells if c.row and COMPANY_NAME.search(text[c.start : c.end])}
    spans = []
    for cell in cells:
        value = text[cell.start : cell.end]
        if not regex.search(r"\p{L}|\d", value) or "@" in value or len(value) > 120 or cell.row in company_rows:
            continue
        # a header's placeholder is no address label: "New (from [ADDRESS_1])" heads a column of times
        header = _HEADER_PLACEHOLDER.sub("", cell.header)
        if STREET_HEADER.search(header) and regex.search(r"\p{L}", value):
            # A street with a house number, or any street in a person's record, locates someone; a
            # list of street names ("Marktplatz; Kirchgasse" in a parking-zone table) does not. A
            # placeholder's number ("[PERSON_1]", as the leak check reads redacted rows) is no house number.
            if regex.search(r"\d", _HEADER_PLACEHOLDER.sub("", value)) or cell.row in named_rows:
                spans.append((cell.start, cell.end, f"column {header!r}"))
        elif PLACE_HEADER.match(header) and cell.row in personal_rows:
            spans.append((cell.start, cell.end, f"column {header!r} of a person's record"))
    return spans


@dataclass(frozen=True)
class AddressSpan:
    start: int
    end: int
    score: float
    reason: str


@lru_cache(maxsize=1)
def _cores() -> list[tuple[str, regex.Pattern]]:
    return [(name, regex.compile(pattern)) for name, pattern in CORES]


def _grow_forward(text: str, end: int, max_lines: int = 4) -> int:
    """Extend over units, postcodes, cities, states and countries that follow the street."""
    lines = 0
    position = end
    while True:
        separator = regex.match(SEP, text[position:])
        if not separator:
            return position
        gap = separator.group(0)
        lines += gap.count("\n")
        if lines > max_lines:
            return position
        if gap.count("\n") > 1:  # a blank line ends the block, unless only the country follows
            country = _country_line(text, position + len(gap))
            return country if country else position
        candidate = position + len(gap)
        new_sentence = (
            text[position - 1 : position] == "." and "\n" not in gap and text[candidate : candidate + 1].isupper()
        )
        if new_sentence and not regex.match(UNIT, text[candidate : candidate + 12]):
            return position  # "Genterstrasse 13. I now live...": a new sentence, not a town ("39. Suite 722" goes on)
        if NOT_A_PLACE.match(text[candidate : candidate + 20]) or _WEEKDAY.match(text, candidate):
            return position  # "Am Lindenhof 4, Aarlingen, Monday to Friday": the opening days, not a place
        if "\n" in gap and PHONE_LINE.match(text, candidate):
            return position  # the next line is a phone number
        part = TAIL_PART.match(text, candidate)
        if not part or part.end() == candidate:
            return position
        part_end = part.end()
        if "\n" in gap and (part.group("number") or text[part_end : part_end + 1] == "\t"):
            return position  # a number starting the next line or table row is an id, not part of the address
        # a city must end its line or be followed by another address part, not run into a sentence
        rest = text[part_end : part_end + 3]
        if (
            part.group("city")
            and rest
            and not regex.match(r"[ ]*(?:,|\n|\t|$|\(|\.(?:\s|$)|\?|!|;|\p{Ll})", rest)
            and not regex.match(rf"[ ]+(?:{POSTCODE}|{STATE}|{UNIT})", text[part_end : part_end + 12])
        ):
            return position
        position = part_end


@lru_cache(maxsize=1)
def _country_names() -> frozenset[str]:
    import pycountry

    names = set()
    for country in pycountry.countries:
        for attribute in ("name", "common_name", "official_name"):
            if value := getattr(country, attribute, None):
                names.add(value.casefold())
    return frozenset(names)


def _country_line(text: str, start: int) -> int | None:
    """End of a line holding only a country name and maybe a postcode ("New Zealand 92534")."""
    line = regex.match(rf"[ ]*(?P<country>\p{{L}}[\p{{L}} .'\-]+?)(?:[ ]+{POSTCODE})?[ ]*(?=\n|$)", text[start:])
    if line and line.group("country").strip().casefold() in _country_names():
        return start + line.end()
    return None


def _grow_backward(text: str, start: int) -> int:
    """Take in building numbers and units written before the street ("Apt. 978 8152 2272 Cedar Drive")."""
    for _ in range(3):
        before = text[max(0, start - 24) : start]
        match = LEAD_PART.search(before)
        if not match or match.end() != len(before):
            return start
        new_start = start - (len(before) - match.start())
        if new_start >= start:
            return start
        start = new_start
    return start


def _grow_backward_lines(text: str, start: int, max_lines: int = 2) -> int:
    """An address that starts a line may continue the lines above it: "Flat 2/1 / 118 Gallowgate /
    Glasgow G1 5AX", "Zur Alten Ziegelei 11 / 84030 Landshut". Take in street and unit lines."""
    for _ in range(max_lines):
        line_start = text.rfind("\n", 0, start) + 1
        if text[line_start:start].strip() or line_start == 0:
            return start
        previous_start = text.rfind("\n", 0, line_start - 1) + 1
        line = text[previous_start : line_start - 1]
        value = regex.sub(rf"^[ \t]*{LINE_MARKS}", "", line).strip()
        if not value or not STREET_LINE.fullmatch(value) or _calendar(value):
            return start
        if not UNIT_LINE.fullmatch(value) and not _plausible_street(value):
            return start
        start = previous_start + line.index(value)
    return start


INTERSECTION_LEAD = regex.compile(rf"{STREET_WORDS}[ ]+(?:and|&)[ ]+$")


def _grow_intersection(text: str, start: int) -> int:
    """An address cue, a street name and "and" before a street make a crossing: "meet at Gaetano and
    Ziegelgasse 13", "lives at Fifth and 3208 James Street". Without the cue, "Smith and 12 Main St" is
    a person and an address."""
    before = text[max(0, start - 60) : start]
    lead = INTERSECTION_LEAD.search(before)
    if not lead:
        return start
    new_start = start - (len(before) - lead.start())
    if not CONTEXT_BEFORE.search(text[max(0, new_start - 40) : new_start]):
        return start
    return new_start


def address_spans(text: str) -> list[AddressSpan]:
    """Postal addresses in `text`, each grown to its whole extent; overlapping finds are merged."""
    return list(_address_spans(text))


@lru_cache(maxsize=16)  # the name recogniser asks for the same text's addresses as the address recogniser
def _address_spans(text: str) -> tuple[AddressSpan, ...]:
    found: list[AddressSpan] = []
    for reason, pattern in _cores():
        for match in pattern.finditer(text):
            start, end = match.start(), match.end()
            if _LEGAL_CITATION.search(text, max(0, start - 12), start):
                continue  # "§ 38 VVG 35 Tage": a section of a law, then a period, not a building number
            if reason == "number, street, number" and not _plausible_bracketed(text, start, end):
                continue
            if reason == "number first" and not _plausible_house_number(text, start):
                continue  # "1. Lock out the robot", "4. Close the valve", "11:20 Port ...": a step or a time
            if reason == "street then number" and not _plausible_street(match.group(0)):
                continue
            if _calendar(match.group(0)):
                continue  # "22 December 2024", "January 18, 2024" are dates
            found.append(AddressSpan(start, end, 0.85, reason))
    for match in BARE_STREET.finditer(text):
        value = match.group(0)
        if regex.search(r"\b(?:19|20)\d\d$", value) or any(
            word_commonness(w) >= 4.5 for w in regex.findall(r"\p{L}{4,}", value) if not _SUFFIX_WORD.fullmatch(w)
        ):
            continue  # "During 2013", "Chapter 12": a year or a common word is not a street
        acronym = regex.match(r"\p{Lu}{2,4}\b", value) is not None  # "ISO 10218", "DIN 5008": standards
        if CONTEXT_BEFORE.search(text[max(0, match.start() - 30) : match.start()]) and not (
            _calendar(value) or acronym
        ):
            found.append(AddressSpan(match.start(), match.end(), 0.7, "street after an address cue"))
    grown = [
        AddressSpan(
            _grow_intersection(text, _grow_backward_lines(text, _grow_backward(text, s.start))),
            _grow_forward(text, s.end),
            s.score,
            s.reason,
        )
        for s in found
    ]
    grown += [  # a field the grammar already read keeps the grammar's finer spans
        AddressSpan(start, end, 0.8, reason)
        for start, end, reason in column_address_spans(text)
        if not any(g.start < end and start < g.end for g in grown)
    ]
    return tuple(_merge(grown))


# What stands right before a section number of a law: "§ 38", "§§ 86", "Art. 15", "Artikel 6", "Abs. 2".
_LEGAL_CITATION = regex.compile(r"(?:§§?|\b(?i:art|artikel|article|abs|absatz))\.?[ \t]*\Z")


# A numbered step ("1. Lock out", "4) Close") starts its line; a clock time or a decimal has a digit and
# ":" or "." right before the number ("11:20 Port", "1.5 Drive").
_LIST_NUMBER = regex.compile(r"(?m)^[ \t>*#•·-]*\d{1,3}[.)][ \t]")
_AFTER_TIME_OR_DECIMAL = regex.compile(r"\d[:.,]\Z")


def _plausible_house_number(text: str, start: int) -> bool:
    """A number-first street's number is a building number, not a list item's or a time's."""
    listed = _LIST_NUMBER.match(text, text.rfind("\n", 0, start) + 1)
    if listed and listed.end() > start:
        return False
    if regex.match(r"\d+\.[ ]", text[start : start + 8]):
        return False  # "in 2025. Route knowledge trips": a number that ends a sentence, no building's
    return not _AFTER_TIME_OR_DECIMAL.search(text, max(0, start - 2), start)


# Calendar words, and months as dates abbreviate them ("14 Dec 2025", "3 Okt. 2024", "1 févr. 2025"): the
# shared English and German abbreviations, and the German and French ones the date ranking does not read.
_CALENDAR = CALENDAR_WORDS | frozenset(MONTH_ABBREVIATIONS) | frozenset("mär mrz janv févr fév avr juil déc".split())


def _calendar(value: str) -> bool:
    return any(w.lower() in _CALENDAR for w in regex.findall(r"\p{L}+", value))


def _plausible_street(value: str) -> bool:
    """ "Lindenstraße 27a" is a street; "During 2013" (ends like "-ring") or "Chapter 12" is not: the street
    word is no common word, and the number is no year."""
    if regex.search(r"\b(?:19|20)\d\d\.?$", value):
        return False
    words = regex.findall(r"\p{L}[\p{L}\p{M}'’\-]*", value)
    return not words or word_commonness(words[0]) < 4.2 or len(words) > 1


# A weekday's full name (a month may be part of a street's: "Cité 7 Novembre", "Rue du 8 Mai").
_WEEKDAY = regex.compile(rf"(?i:{alternation(names(WEEKDAYS, ('en', 'de', 'fr')))})\b")
_RATE_WORDS = frozenset({"je", "pro", "per", "par", "à", "x"})
# A unit of measure right after a number ("100 ml", "5 kg", "20 %", "3 h").
_UNIT_AFTER = regex.compile(r"[ ]?(?i:ml|cl|dl|l|mg|g|kg|t|mm|cm|m|km|m²|m³|h|min|s|%|°c?|€|eur|usd|chf|gbp)(?!\p{L})")


def _plausible_bracketed(text: str, start: int, end: int) -> bool:
    """ "0807 Κυλλήνη 182" is an address; "2024 Annual Report 3" or "5 Whys 2" is not: the words between the
    numbers must not be common vocabulary, and a date or amount is not a building number."""
    words = regex.findall(r"\p{L}[\p{L}\p{M}'’\-]*", text[start:end])
    if not words or regex.match(r"(?:19|20)\d\d\b", text[start:end]):
        return False
    if regex.match(r"[,.]\d", text[end : end + 2]):
        return False  # "bis 4 Haltestellen 1,70 €": the last number is an amount, no house number
    if not any(len(w) >= 3 and w[0].isupper() for w in words):
        return False  # "24 V at up to 2": a street has a name
    if any(w.casefold() in _RATE_WORDS for w in words) or _UNIT_AFTER.match(text, end):
        return False  # "100 KBE je 100 ml": a rate or a measurement, not a building and house number
    return (
        all(word_commonness(w) < 4.5 for w in words if len(w) > 3)
        or CONTEXT_BEFORE.search(text[max(0, start - 30) : start]) is not None
    )


def _merge(spans: list[AddressSpan]) -> list[AddressSpan]:
    merged: list[AddressSpan] = []
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if merged and span.start <= merged[-1].end:
            last = merged[-1]
            merged[-1] = AddressSpan(last.start, max(last.end, span.end), max(last.score, span.score), last.reason)
        else:
            merged.append(span)
    return merged
