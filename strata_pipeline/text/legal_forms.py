"""Legal forms that end a company's name: "GmbH", "AG", "Ltd", "S.A.", "B.V." (a pattern, no anchors)."""

from __future__ import annotations

LEGAL_FORM = (
    r"(?:GmbH|mbH|AG|KG|KGaA|OHG|SE|Ltd\.?|Limited|plc|PLC|Inc\.?|LLC|LLP|Corp\.?|S\.A\.S?\.?|SAS|SARL|S\.?p\.?A\.?"
    r"|S\.r\.l\.|B\.V\.|N\.V\.|Oy|AB|A/S|ApS|Pty|Sp\. z o\.o\.|e\.K\.|GbR|UG)"
)
# As a table cell writes it after the name, Swiss and cooperative forms too ("Gelati Ticino SA", "Épicerie
# Romande Sàrl", "Tiroler Bergkäserei Zillertal eGen"): a cell is no running text, so "SA" cannot be a word
CELL_LEGAL_FORM = rf"(?:{LEGAL_FORM}|SA|Sàrl|eGen|eG|Genossenschaft)"
