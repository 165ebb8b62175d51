"""An organisation's published address is not personal data.

A page whose title or heading names a place of business ("# Kundencenter Aarlingen", "## Service Point
Hafenviertel / ### Address", "Centre clients de Colmont") prints that place's street address so that
people can find it. Masking it protects no one and loses the answer to "where is the customer centre?".
The policy keeps such an address (decision `organisation_address`, recorded in the audit) when:

- a heading above it, or a plain-text document's first line, names premises: an office, branch, centre,
  depot, library, clinic, town hall, ... in English, German or French, also as the end of a German
  compound ("Schadenbüro", "Bürgeramt", "Umspannwerk");
- no person is named in its paragraph (a PERSON the policy would redact, outside the address itself:
  "rue Victor-Hugo" names a street), and the paragraph says nothing that makes
  an address someone's home ("lives at", "private address", "wohnhaft", "domicile", ...).

A table row about an organisation (a row with a cell under "Firma", "Company", "Supplier", ...) holds
that organisation's address too: a supplier list's "Hafenstraße 61 | 4020 Linz" is kept unless the
address's own column says it is a home ("Privatadresse", "Wohnort").

Only the document's structure counts, never the sentence around the address: "Our offices are located
at ..." in a letter or a chat is read as any other address. The vocabulary is general postal and
business wording, read from no corpus.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from strata_pipeline.redaction.scan import scan_text
from strata_pipeline.redaction.tables import Cell, table_cells

PREMISES_WORDS = (
    # English
    "office|offices|branch|centre|center|depot|site|campus|clinic|hospital|library|store|shop|warehouse|plant"
    "|factory|headquarters|hq|town hall|city hall|service point|station|substation|compound|pharmacy|school"
    "|museum|counter|desk|reception|showroom|workshop|lab|laboratory|agency|bureau"
    # German
    "|büro|filiale|niederlassung|geschäftsstelle|zentrale|standort|kundencenter|kundenzentrum|servicecenter"
    "|rathaus|amt|bibliothek|bücherei|lager|werk|klinik|krankenhaus|apotheke|recyclinghof|wertstoffhof"
    "|umspannwerk|wasserwerk|schule|zentrum|praxis|verwaltung|sitz"
    # French
    "|agence|succursale|siège|centre clients|dépôt|mairie|bibliothèque|clinique|hôpital|magasin|entrepôt"
    "|usine|pharmacie|déchèterie|guichet|maison des services"
)
_PREMISES = re.compile(rf"(?i)\b(?:{PREMISES_WORDS})\b")
# German compounds end on the premises word: "Schadenbüro", "Bürgeramt", "Umspannwerk", "Servicezentrum".
_PREMISES_COMPOUND = re.compile(
    r"(?i)\b\w{3,}(?:büro|amt|werk|zentrum|center|filiale|bibliothek|klinik|depot|lager|hof|stelle)(?:e|en|n|s|es)?\b"
)
_PERSONAL = re.compile(
    r"(?i)\b(?:home|private|privat\w*|lives?|living|lived|resides?|residing|residence|wohnhaft|wohnt|wohnort"
    r"|wohnadresse|domicile|domicilié\w*|demeurant|my address|his address|her address|meine adresse"
    r"|mon adresse|son adresse)\b"
)
_HEADING = re.compile(r"(?m)^[ \t]*(#{1,6})[ \t]+(.+?)[ \t#]*$")
# A plain text's title: its first line, set apart by a blank line or an underline ("=====").
_PLAIN_TITLE = re.compile(r"\s*([^\n]+)\n(?:[ \t]*\n|[ \t]*[=-]{3,}[ \t]*\n)")


def names_premises(text: str) -> bool:
    """Whether `text` (a heading or title) names a place of business."""
    return bool(_PREMISES.search(text) or _PREMISES_COMPOUND.search(text))


def headings_above(text: str, position: int) -> list[str]:
    """The heading path over `position` (the nearest heading of each level above it), outermost first;
    for a text with no Markdown heading above it, its title line (the first, set apart by a blank line
    or an underline)."""
    path: dict[int, str] = {}
    for match in _HEADING.finditer(text, 0, position):
        level = len(match.group(1))
        path = {lvl: title for lvl, title in path.items() if lvl < level}
        path[level] = match.group(2)
    if path:
        return [path[level] for level in sorted(path)]
    title = _PLAIN_TITLE.match(text)
    return [title.group(1)] if title and title.end() <= position else []


def paragraph_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The blank-line-delimited paragraph holding text[start:end]."""
    before = text.rfind("\n\n", 0, start)
    after = text.find("\n\n", end)
    return (0 if before < 0 else before + 2), (len(text) if after < 0 else after)


def premises_address(text: str, start: int, end: int, people: Iterable[tuple[int, int]] = ()) -> bool:
    """Whether the address at text[start:end] is an organisation's published address (module doc):
    `people` are the spans of the persons found in `text`."""
    if not any(names_premises(h) for h in headings_above(text, start)):
        return False
    low, high = paragraph_bounds(text, start, end)
    if _PERSONAL.search(text[low:high]):
        return False
    # a line that names the premises beside the address ("Depot Innsbruck · Rossaugasse 14, 6020 Innsbruck")
    # is the address's own: a person on the next line ("Verantwortlich: ...") is not its addressee
    line_low, line_end = text.rfind("\n", 0, start) + 1, text.find("\n", end)
    line_high = len(text) if line_end < 0 else line_end
    if names_premises(text[line_low:start] + " " + text[end:line_high]):
        low, high = line_low, line_high
    return not any(low <= p_start < high and not start <= p_start < end for p_start, _ in people)


# The header of a column naming the organisation a table row is about.
_COMPANY_HEADER = re.compile(
    r"(?i)^(?:company|supplier|vendor|provider|manufacturer|carrier|contractor|organi[sz]ation|firm|firma"
    r"|lieferant|anbieter|hersteller|fournisseur|entreprise|société|raison sociale)(?:s|en|n)?(?:[ _]?name)?$"
)


@lru_cache(maxsize=16)  # the policy asks once per address of the same text
def _table_cells(text: str) -> tuple[Cell, ...]:
    return tuple(table_cells(scan_text(text)))


def company_row_address(text: str, start: int, end: int) -> bool:
    """Whether the address at text[start:end] stands in a table row about an organisation: the row has a
    cell under a company header, and no column the address fills says it is a home (module doc)."""
    cells = _table_cells(text)
    own = [c for c in cells if c.row > 0 and c.start < end and start < c.end]
    if not own or any(_PERSONAL.search(c.header) for c in own):
        return False
    return any(c.row == own[0].row and _COMPANY_HEADER.match(c.header) for c in cells)
