"""Phone numbers and payment-card numbers: number shapes, checked by `phonenumbers` and Luhn, read
in context.

- **Phones.** A phone-shaped run of digit groups (7-15 digits, optional +country code, trunk
  "(0)", extension) is scored by what it is: a number that `phonenumbers` accepts for its country
  code or for one of the regions we read, a phone word nearby ("Tel.", "mobile", "Handy", "tél.",
  "móvil"), separators in phone groupings. Dates, times, decimals ("16.875520"), version numbers,
  IP addresses and numbers labelled as orders, invoices or tickets are never phones.
- **Cards.** 12-19 digits, grouped or not, that pass the Luhn check and start with an issuer
  prefix (Visa, Mastercard, Amex, Discover, Maestro, JCB, Diners, UnionPay); a card word nearby
  raises the score.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import phonenumbers

# Regions whose national formats we try when a number has no +country code.
PHONE_REGIONS = ("US", "GB", "DE", "FR", "ES", "IT", "NL", "BE", "CH", "AT", "IE", "CA", "AU", "IN", "BR")

PHONE_SHAPE = re.compile(
    r"(?:(?<=,)(?=\+)|(?<![\w.,/+\-]))"  # after a comma only when a +country code follows
    r"(?:(?:\+|00)\d{1,3}[ \t.\-]?(?:\(0\)[ \t.\-]?)?)?"  # +41 (0), 0031
    r"(?:\(\d{1,5}\)[ \t.\-]?)?"  # (415), (07700)
    r"\d{1,13}(?:[ .\-/]\d{1,8}){0,5}"
    r"(?:[ \t]*(?:x|ext\.?|extension|Durchwahl|poste|int\.?|toestel|tst\.?|interno)[ \t]*\d{1,5})?"
    r"(?![\w]|[.,]\d|-\d)"
)
PHONE_WORDS = re.compile(
    r"(?i)(?:\b(?:tel|tél|tfn|telefon|telephone|téléphone|teléfono|telefono|telefoon|phone|ph|mobile|mobil|mob"
    r"|handy|cell|cellulare|cel|móvil|movil|portable|port|gsm|fax|desk|office|direct|dial|call|calls|called"
    r"|ring|reach|text|sms|whatsapp|hotline|helpline|landline|fijo|bel|numéro|number|nummer|número|numero"
    r"|rappeler|llamar|chiamare|anrufen|bellen|contact|registered|on)\b\.?|\b[TMFPH]\b\.?|☎|📞)[ \t:.\-]*$"
)
NOT_PHONE_WORDS = re.compile(
    r"(?i)(?:\b(?:order|invoice|inv|ticket|case|ref|reference|réf|id|no|nr|n°|nº|#|po|p\.o\.|serial|sku|part"
    r"|account|acct|iban|bic|vat|ust|tax|siret|siren|policy|claim|réclamation|reclamación|pedido|commande"
    r"|rechnung|auftrag|bestellung|ticketnummer|kundennr|customer|client|tracking|version|ver|v|build|release"
    r"|firmware|patch|kb|isbn|issn|doi|batch|lot|room|page|pages|chapter|section|step|figure|table|year|amount"
    r"|total|eur|usd|gbp|chf|centre|center|kostenstelle|code|€|\$|£)\b\.?|[#№€$£])"
    r"(?:[ \t]+(?:number|no|nr|nummer|numéro|número|numero)\b\.?)?[ \t:.\-]*$"  # "customer number:"
)
DATE_OR_TIME = re.compile(
    r"^(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|\d{1,2}:\d{2}(?::\d{2})?|\d{4}-\d{2})$"
)
DATE_START = re.compile(r"^(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[./]\d{1,2}[./]\d{2,4})\b(?![./]\d)")
DECIMAL = re.compile(r"^\d+[.,]\d+$")
DOTTED_VERSION = re.compile(r"^\d{1,4}(?:\.\d{1,5}){2,}$")

CARD_SHAPE = re.compile(r"(?<![\w\-.])\d(?:[ \-]?\d){11,18}(?![\w\-]|\.\d)")
CARD_WORDS = re.compile(
    r"(?i)\b(?:card|cc|credit|debit|visa|mastercard|master card|amex|american express|discover|maestro|jcb"
    r"|diners|unionpay|pan|payment|paid|charged|charge|refund|ending|karte|kreditkarte|carte|tarjeta|carta"
    r"|kaart|creditcard)\b"
)
# Issuer prefixes (IIN ranges) of the major networks.
CARD_PREFIX = re.compile(
    r"^(?:4|5[1-5]|2(?:2[2-9]|[3-6]\d|7[01]|720)|3[47]|6(?:011|5|4[4-9]|2)|5[06-9]|6\d|35|30[0-5]|36|38|2131|1800)"
)


@dataclass(frozen=True)
class NumberSpan:
    entity: str  # PHONE_NUMBER | CREDIT_CARD
    start: int
    end: int
    score: float
    reason: str


def luhn_valid(digits: str) -> bool:
    total = 0
    for position, ch in enumerate(reversed(digits)):
        value = int(ch) * (2 if position % 2 else 1)
        total += value - 9 if value > 9 else value
    return total % 10 == 0


def _phonenumbers_accepts(value: str) -> bool:
    """Does any region's numbering plan (or the written +code) accept this as a possible number?"""
    candidates = [None] if value.lstrip().startswith(("+", "00")) else PHONE_REGIONS
    for region in candidates:
        try:
            number = phonenumbers.parse(value.replace("00", "+", 1) if value.startswith("00") else value, region)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(number):
            return True
    return False


def phone_spans(text: str) -> list[NumberSpan]:
    found = []
    for match in PHONE_SHAPE.finditer(text):
        value = match.group(0).rstrip(" .-/")
        digits = re.sub(r"\D", "", value.split("x")[0].split("ext")[0])
        if not 7 <= len(digits) <= 15:
            continue
        north_american = re.fullmatch(r"\(?\d{3}\)?[.\-]\d{3}[.\-]\d{4}(?:[ \t]*x\d+)?", value) is not None
        french = re.fullmatch(r"0\d(?:\.\d\d){4}", value) is not None  # "03.88.20.31.11"
        if DATE_OR_TIME.match(value) or DECIMAL.match(value):
            continue
        if DOTTED_VERSION.match(value) and not (north_american or french):
            continue
        if re.fullmatch(r"(?:19|20)\d\d[ \t]*[-–/][ \t]*(?:(?:19|20)\d\d|\d\d)", value):
            continue  # "2019-2025", "2024/25": years
        before = text[max(0, match.start() - 30) : match.start()]
        if re.match(r"(?:19|20)\d\d[-/]\d", value) and not PHONE_WORDS.search(before):
            continue  # "2024/11873", "2024-03-1187": a case or ticket number filed by year
        if DATE_START.match(value) or re.match(r"[ \t]*:\d", text[match.start() + len(value) :]):
            continue  # "2014-03-21 05:12", "12.03.2024 14:00"
        if re.fullmatch(r"\d{1,3}(?:\.\d{1,3}){3}", value):
            continue  # an IPv4 address
        if NOT_PHONE_WORDS.search(before):
            continue
        grouped = bool(re.search(r"\d[ \t.\-/()]+\d", value)) or value.startswith(("+", "("))
        if "." in value and " " not in value and "-" not in value and not (north_american or french):
            continue  # other dotted numbers are versions, amounts or ids
        score = 0.3 if grouped else 0.1
        reasons = []
        if value.startswith(("+", "00")):
            score += 0.2
            reasons.append("country code")
        if _phonenumbers_accepts(value):
            score += 0.25
            reasons.append("valid number plan")
        if PHONE_WORDS.search(before):
            score += 0.35
            reasons.append("phone word")
        if grouped and len(digits) >= 8 and re.fullmatch(r"[\d \t\-().+]+(?:[ \t]*x\d+)?", value):
            score += 0.1
        found.append(
            NumberSpan("PHONE_NUMBER", match.start(), match.start() + len(value), min(1.0, score), ", ".join(reasons))
        )
    return found


def card_spans(text: str) -> list[NumberSpan]:
    found = []
    for match in CARD_SHAPE.finditer(text):
        value = match.group(0)
        digits = re.sub(r"\D", "", value)
        if not 12 <= len(digits) <= 19 or not luhn_valid(digits) or not CARD_PREFIX.match(digits):
            continue
        separators = set(re.findall(r"[ \-]", value))
        if len(separators) > 1:
            continue
        score = 0.55
        if CARD_WORDS.search(text[max(0, match.start() - 60) : match.start()]):
            score = 0.95
        elif NOT_PHONE_WORDS.search(text[max(0, match.start() - 30) : match.start()]):
            continue  # "order 4000123412341234" is an order number that happens to pass Luhn
        found.append(NumberSpan("CREDIT_CARD", match.start(), match.end(), score, "Luhn and issuer prefix"))
    return found
