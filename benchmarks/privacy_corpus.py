"""The generator of the redaction regression set: synthetic corpora with exact labels.

Data tooling, not part of the runtime package (Faker is a dev dependency). The eval report reads the
sets this writes, committed under golden/privacy/regression-*.jsonl:

    python -m benchmarks.privacy_corpus    # rewrite them (after changing a template)

Three corpora, each a pure function of its seed:

- `pii_documents`: employment contracts, HR notes, support tickets, meeting minutes, invoices,
  security reviews with log excerpts, e-mails, expense claims, team directories, CVs, customer
  complaints, chat exports, CSV exports and visitor logs, with planted personal data: names from six
  Faker locales (also written "Last, First"), their e-mails, phone numbers in national and
  international formats, IBANs, Luhn-valid card numbers, IPv4 addresses and street addresses.
  Role contacts (support@...), headings, product and company names, meeting rooms, stations,
  dates, amounts, order, ticket, serial, PO, VAT and tracking numbers and 4-part build versions are
  there too and are *not* planted: they must not be redacted.
- `secret_documents`: .env files, runbooks, chat exports, incident reports and credential dumps
  with planted secrets of every kind the secret detector claims (the span is the value only).
- `clean_documents`: what a corpus holds that is not secret but can look like it: policies about
  passwords, release notes with commit SHAs and checksums, logs with trace ids, code that reads
  secrets from the environment, configuration that names secrets, placeholders, public keys,
  certificates, integrity hashes, links with document ids, inline images.

Realism, not convenience, decides the values: phone numbers follow the national numbering plans
(real area codes and mobile prefixes), and Spanish and Italian street types are the common ones
(Faker also emits "Incrocio", "Stretto", "Pasadizo", which no address uses). Offsets are exact:
every planted span is checked against its value while the text is built.
"""

from __future__ import annotations

import base64
import json
import random
import re
import string
import unicodedata
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from faker import Faker

from strata_pipeline.evaluation.labels import LabelledDoc, LabelledSecretDoc, Planted

PII_TYPES = ("PERSON", "EMAIL", "PHONE", "IBAN", "CREDIT_CARD", "IP_ADDRESS", "ADDRESS")
LOCALES = ("en_US", "en_GB", "de_DE", "fr_FR", "es_ES", "it_IT")


@dataclass(frozen=True)
class V:
    """A planted value inside a template."""

    type: str
    value: str


FIELD = re.compile(r"\{(\w+)\}")


def render(template: str, fields: dict[str, str | V]) -> tuple[str, list[Planted]]:
    """Fill `{name}` fields; values wrapped in `V` are recorded with their exact offsets."""
    parts: list[str] = []
    planted: list[Planted] = []
    position = cursor = 0
    for match in FIELD.finditer(template):
        literal = template[cursor : match.start()]
        parts.append(literal)
        position += len(literal)
        value = fields[match.group(1)]
        text = value.value if isinstance(value, V) else str(value)
        if isinstance(value, V):
            planted.append(Planted(value.type, position, position + len(text)))
        parts.append(text)
        position += len(text)
        cursor = match.end()
    parts.append(template[cursor:])
    text = "".join(parts)
    return text, planted


@dataclass
class _Builder:
    """Concatenates rendered pieces, shifting their spans."""

    parts: list[str] = field(default_factory=list)
    planted: list[Planted] = field(default_factory=list)
    values: list[str] = field(default_factory=list)
    length: int = 0

    def add(self, template: str, **fields: str | V) -> None:
        text, planted = render(template, fields)
        self.planted += [Planted(p.type, p.start + self.length, p.end + self.length) for p in planted]
        self.values += [f.value for f in _planted_in_order(template, fields)]
        self.parts.append(text)
        self.length += len(text)

    def build(self) -> tuple[str, list[Planted]]:
        text = "".join(self.parts)
        for span, value in zip(self.planted, self.values, strict=True):
            assert text[span.start : span.end] == value, (span, value)
        return text, list(self.planted)


def _planted_in_order(template: str, fields: dict[str, str | V]) -> list[V]:
    return [v for m in FIELD.finditer(template) if isinstance(v := fields[m.group(1)], V)]


# --------------------------------------------------------------------------------------------
# People and their personal data
# --------------------------------------------------------------------------------------------

CITIES: dict[str, list[tuple[str, str]]] = {  # (city, how a postcode is written there)
    "en_US": [
        ("San Francisco, CA", "941##"),
        ("Austin, TX", "787##"),
        ("Boston, MA", "021##"),
        ("Seattle, WA", "981##"),
        ("Chicago, IL", "606##"),
        ("Denver, CO", "802##"),
    ],
    "en_GB": [("London", "NW1 #XE"), ("Manchester", "M1 #AD"), ("Leeds", "LS1 #UR"), ("Bristol", "BS1 #TR")],
    "de_DE": [("Berlin", "10###"), ("München", "80###"), ("Hamburg", "20###"), ("Köln", "50###")],
    "fr_FR": [("Paris", "750##"), ("Lyon", "6900#"), ("Toulouse", "3100#"), ("Nantes", "4400#")],
    "es_ES": [("Madrid", "280##"), ("Barcelona", "080##"), ("Valencia", "460##"), ("Sevilla", "410##")],
    "it_IT": [("Roma", "001##"), ("Milano", "201##"), ("Torino", "101##"), ("Bologna", "401##")],
}

EN_STREET_SUFFIXES = (
    "Street Street Street Road Road Avenue Avenue Lane Drive Boulevard Parkway Way Court Place Terrace "
    "Close Crescent Gardens Grove Hill Row Square Mews Circle Trail"
).split()
EN_STREET_WORDS = (
    "Baker Church High Mill Station Park Victoria Oak Maple Cedar Elm Market Bridge Kings Queens "
    "Amphitheatre Mission Harbor Lincoln Washington Sunset Willow Chestnut Spring Valley Meadow"
).split()

COMPANY_DOMAINS = (
    "northwind-robotics.com",
    "kestrel-packaging.de",
    "bluefjord-logistics.com",
    "corp.helixdata.io",
    "lumen-energie.fr",
    "atlanticfoods.es",
    "fabbrica-verdi.it",
    "harbourline.co.uk",
)
ROLE_CONTACTS = ("support", "info", "hr", "billing", "privacy", "careers", "payroll", "helpdesk", "noreply")


@dataclass(frozen=True)
class Person:
    locale: str
    first: str
    last: str
    email: str
    phone: str
    address: str
    city: str
    postcode: str
    iban: str
    card: str

    @property
    def name(self) -> str:
        return f"{self.first} {self.last}"


def _ascii(value: str) -> str:
    folded = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z]", "", folded.lower())


def _digits(rng: random.Random, n: int, first: str = "0123456789") -> str:
    return rng.choice(first) + "".join(rng.choice(string.digits) for _ in range(n - 1))


def phone_number(rng: random.Random, locale: str) -> str:
    """A phone number written the way people write them in that country, national or international."""
    d = lambda n, first="0123456789": _digits(rng, n, first)  # noqa: E731
    international = rng.random() < 0.6
    if locale == "en_US":
        area = rng.choice(["415", "212", "617", "312", "206", "512", "303", "646", "650", "408"])
        exchange, line = d(3, "23456789"), d(4)
        if rng.random() < 0.3:
            exchange, line = "555", "01" + d(2)  # the range reserved for fiction
        return rng.choice(
            [
                f"+1 {area}-{exchange}-{line}",
                f"({area}) {exchange}-{line}",
                f"{area}-{exchange}-{line}",
                f"+1 ({area}) {exchange}-{line}",
                f"{area}.{exchange}.{line}",
            ]
        )
    if locale == "en_GB":
        kind = rng.choice(["london", "manchester", "mobile"])
        if kind == "london":
            number = f"20 {rng.choice('378')}{d(3)} {d(4)}"
        elif kind == "manchester":
            number = f"161 {rng.choice('24789')}{d(2)} {d(4)}"
        else:
            number = f"7{rng.choice('4579')}{d(2)} {d(6)}"
        return f"+44 {number}" if international else f"0{number}"
    if locale == "de_DE":
        kind = rng.choice(["berlin", "munich", "mobile"])
        if kind == "berlin":
            area, subscriber = "30", d(rng.choice([6, 7, 8]), "123456789")
        elif kind == "munich":
            area, subscriber = "89", d(rng.choice([7, 8]), "123456789")
        else:  # 0151 and 0176 numbers have 8 digits after the prefix, 0160 and 0170 have 7
            area = rng.choice(["151", "160", "170", "176"])
            subscriber = d(8 if area in ("151", "176") else 7, "123456789")
        if international:
            return rng.choice([f"+49 {area} {subscriber}", f"+49 (0){area} {subscriber}"])
        return rng.choice([f"0{area} {subscriber}", f"0{area}/{subscriber}"])
    if locale == "fr_FR":  # Paris, Nantes, Lille, Lyon, Marseille, Toulouse; mobiles
        first, lead = rng.choice(["14", "15", "24", "32", "47", "49", "56", "61", "62", "64", "67", "76", "78"])
        pairs = " ".join([lead + d(1)] + [d(2) for _ in range(3)])
        return f"+33 {first} {pairs}" if international else f"0{first} {pairs}"
    if locale == "es_ES":
        number = f"91{d(1)} {d(3)} {d(3)}" if rng.random() < 0.5 else f"6{d(2)} {d(3)} {d(3)}"
        return f"+34 {number}" if international else number
    # it_IT
    if rng.random() < 0.5:
        number = rng.choice([f"06 {d(4)} {d(4)}", f"02 {d(4)} {d(4)}"])
    else:
        number = f"3{rng.choice('234')}{d(1)} {d(3)} {d(4)}"
    return f"+39 {number}" if international else number


def street_address(fake: Faker, rng: random.Random, locale: str) -> str:
    if locale in ("en_US", "en_GB"):
        word = rng.choice(EN_STREET_WORDS) if rng.random() < 0.5 else fake.last_name()
        number = str(rng.choice([rng.randint(1, 99), rng.randint(100, 999), rng.randint(1000, 9999)]))
        line = f"{number} {word} {rng.choice(EN_STREET_SUFFIXES)}"
        if locale == "en_US" and rng.random() < 0.25:
            line += rng.choice([f", Suite {rng.randint(100, 900)}", f", Apt {rng.randint(1, 40)}{rng.choice('ABC')}"])
        return line
    if locale == "de_DE":
        return fake.street_address()
    if locale == "fr_FR":
        value = fake.street_address()
        return value if value[0].isdigit() else f"{fake.building_number()}, {value}"
    # Faker's Spanish and Italian street types include some no address uses ("Incrocio", "Stretto",
    # "Canale", "Pasadizo", "Acceso"); these are the common ones, the name part is Faker's.
    if locale == "es_ES":
        prefix = rng.choice(ES_STREET_TYPES)
        particle = rng.choice(["", "", "de "])
        return f"{prefix} {particle}{fake.first_name()} {fake.last_name()} {fake.building_number()}"
    prefix = rng.choice(IT_STREET_TYPES)
    return f"{prefix} {rng.choice([fake.first_name(), fake.last_name()])}, {fake.building_number()}"


ES_STREET_TYPES = (
    "Calle Calle Calle Calle Avenida Avenida Paseo Plaza Camino Ronda Travesía Glorieta Rambla Callejón Pasaje "
    "Cuesta Alameda Urbanización"
).split()
IT_STREET_TYPES = "Via Via Via Via Viale Viale Piazza Piazza Corso Largo Vicolo Borgo Contrada Strada".split()


def _postcode(rng: random.Random, pattern: str) -> str:
    return "".join(rng.choice(string.digits) if ch == "#" else ch for ch in pattern)


def _spaced(value: str, groups: list[int] | None = None, sep: str = " ") -> str:
    out, i = [], 0
    for size in groups or [4] * (len(value) // 4 + 1):
        if i >= len(value):
            break
        out.append(value[i : i + size])
        i += size
    if i < len(value):
        out.append(value[i:])
    return sep.join(out)


def card_number(fake: Faker, rng: random.Random) -> str:
    kind = rng.choice(["visa16", "visa16", "mastercard", "mastercard", "amex", "discover"])
    number = fake.credit_card_number(kind)
    style = rng.random()
    if kind == "amex":
        return _spaced(number, [4, 6, 5]) if style < 0.6 else number
    if style < 0.5:
        return _spaced(number)
    if style < 0.65:
        return _spaced(number, sep="-")
    return number


def iban(fakers: dict[str, Faker], rng: random.Random, locale: str) -> str:
    source = locale if locale != "en_US" else rng.choice(["de_DE", "fr_FR", "en_GB"])
    value = fakers[source].iban()
    return _spaced(value) if rng.random() < 0.5 else value


def make_person(fakers: dict[str, Faker], rng: random.Random, locale: str, domain: str | None = None) -> Person:
    fake = fakers[locale]
    first, last = fake.first_name(), fake.last_name()
    f, last_ascii = _ascii(first), _ascii(last)
    if domain is None:
        domain = rng.choice([*COMPANY_DOMAINS, fake.free_email_domain()])
    local = rng.choice([f"{f}.{last_ascii}", f"{f[0]}.{last_ascii}", f"{f}{last_ascii}", f"{f}.{last_ascii}"])
    city, postcode_pattern = rng.choice(CITIES[locale])
    return Person(
        locale=locale,
        first=first,
        last=last,
        email=f"{local}@{domain}",
        phone=phone_number(rng, locale),
        address=street_address(fake, rng, locale),
        city=city,
        postcode=_postcode(rng, postcode_pattern),
        iban=iban(fakers, rng, locale),
        card=card_number(fake, rng),
    )


def _postal(person: Person) -> str:
    """The rest of the address after the street line; not planted (only the street line is)."""
    if person.locale == "en_US":
        return f"{person.city} {person.postcode}"
    if person.locale == "en_GB":
        return f"{person.city} {person.postcode}"
    return f"{person.postcode} {person.city}"


HONORIFIC = {
    "en_US": ("Mr.", "Ms."),
    "en_GB": ("Mr", "Ms"),
    "de_DE": ("Herr", "Frau"),
    "fr_FR": ("M.", "Mme"),
    "es_ES": ("Sr.", "Sra."),
    "it_IT": ("Sig.", "Dott."),
}

PRODUCTS = (
    "Helix Analytics Suite 4.2",
    "Northwind RX-200 Controller",
    "Atlas Scheduler",
    "Kestrel Label Printer KL-40",
    "Orion Data Gateway",
    "Lumen Billing Portal",
    "Fjord Fleet Tracker",
)
DEPARTMENTS = ("Finance", "Customer Success", "Platform Engineering", "People Operations", "Logistics", "Sales EMEA")
JOB_TITLES = (
    "Senior Data Engineer",
    "Account Executive",
    "Warehouse Team Lead",
    "Payroll Specialist",
    "Product Designer",
    "Site Reliability Engineer",
    "Customer Support Agent",
)


def _date(rng: random.Random) -> str:
    day, month = (
        rng.randint(1, 28),
        rng.choice(
            ["January", "February", "March", "April", "June", "July", "September", "October", "November", "December"]
        ),
    )
    year = rng.choice([2024, 2025])
    return rng.choice([f"{day} {month} {year}", f"{month} {day}, {year}", f"{year}-{rng.randint(1, 12):02d}-{day:02d}"])


def _money(rng: random.Random) -> str:
    amount = rng.randint(40, 9000) + rng.choice([0, 0.5, 0.99])
    return rng.choice([f"EUR {amount:,.2f}", f"${amount:,.2f}", f"£{amount:,.2f}", f"{amount:,.2f} €"])


def _people(fakers: dict[str, Faker], rng: random.Random, n: int, domain: str | None = None) -> list[Person]:
    return [make_person(fakers, rng, rng.choice(LOCALES), domain) for _ in range(n)]


def _p(person: Person) -> dict[str, V]:
    return {
        "name": V("PERSON", person.name),
        "first": V("PERSON", person.first),
        "last": V("PERSON", person.last),
        "email": V("EMAIL", person.email),
        "phone": V("PHONE", person.phone),
        "address": V("ADDRESS", person.address),
        "iban": V("IBAN", person.iban),
        "card": V("CREDIT_CARD", person.card),
    }


def _prefixed(prefix: str, person: Person) -> dict[str, V]:
    return {f"{prefix}_{key}": value for key, value in _p(person).items()}


# --------------------------------------------------------------------------------------------
# PII document styles
# --------------------------------------------------------------------------------------------


def _contract(fakers: dict[str, Faker], rng: random.Random) -> _Builder:
    domain = rng.choice(COMPANY_DOMAINS)
    employee, signatory = _people(fakers, rng, 1)[0], _people(fakers, rng, 1, domain)[0]
    company = rng.choice(["Northwind Robotics GmbH", "Bluefjord Logistics Ltd", "Helix Data Inc.", "Lumen Énergie SAS"])
    office = make_person(fakers, rng, rng.choice(LOCALES))
    b = _Builder()
    b.add(
        "EMPLOYMENT AGREEMENT\n\n"
        'This Employment Agreement (the "Agreement") is made on {date} between {company}, with its '
        'registered office at {office}, {office_city} (the "Company"), and {e_name}, residing at '
        '{e_address}, {e_city} (the "Employee").\n\n',
        date=_date(rng),
        company=company,
        office=V("ADDRESS", office.address),
        office_city=_postal(office),
        e_city=_postal(employee),
        **_prefixed("e", employee),
    )
    b.add(
        "1. Position and Duties\n"
        "The Employee is employed as {title} in the {dept} department and reports to {s_name}. "
        "The place of work is the Company's office; remote work follows the Hybrid Work Policy.\n\n"
        "2. Start Date and Probation Period\n"
        "Employment starts on {start}. The first six months are a probation period during which either "
        "party may terminate with two weeks' notice.\n\n"
        "3. Remuneration\n"
        "The gross annual salary is {salary}, paid monthly in arrears to the Employee's account "
        "{e_iban}. Expenses are reimbursed under the Travel and Expenses Policy.\n\n",
        title=rng.choice(JOB_TITLES),
        dept=rng.choice(DEPARTMENTS),
        start=_date(rng),
        salary=rng.choice(["EUR 64,000", "$92,500", "£58,000", "EUR 71,250"]),
        **_prefixed("s", signatory),
        **_prefixed("e", employee),
    )
    b.add(
        "4. Annual Leave\n"
        "The Employee is entitled to 28 working days of paid annual leave per calendar year.\n\n"
        "5. Confidentiality\n"
        "The Employee shall keep confidential all information about the Company's customers, products "
        "and pricing, during and after employment.\n\n"
        "6. Notices\n"
        "Notices to the Employee are sent to {e_email} or by post to the address above; questions about "
        "this Agreement go to {role}@{domain}. The Employee can be reached on {e_phone}.\n\n"
        "Signed for the Company: {s_name}, {s_title}\n"
        "Signed by the Employee: {e_name}\n",
        role=rng.choice(["hr", "careers", "legal"]),
        domain=domain,
        s_title=rng.choice(["Head of People", "Managing Director", "HR Business Partner"]),
        **_prefixed("s", signatory),
        **_prefixed("e", employee),
    )
    return b


def _hr_note(fakers: dict[str, Faker], rng: random.Random) -> _Builder:
    domain = rng.choice(COMPANY_DOMAINS)
    employee, manager = _people(fakers, rng, 2, domain)
    honorific = HONORIFIC[employee.locale][rng.randint(0, 1)]
    b = _Builder()
    b.add(
        "HR Note - {topic}\nEmployee: {e_name} (ID {emp_id}, cost centre {cost})\nManager: {m_name}\nDate: {date}\n\n",
        topic=rng.choice(["Change of Personal Details", "Return to Work Meeting", "Parental Leave Request"]),
        emp_id=f"{rng.randint(1000, 99999):06d}",
        cost=f"{rng.randint(1000, 9999)}-{rng.randint(100, 999)}",
        date=_date(rng),
        **_prefixed("e", employee),
        **_prefixed("m", manager),
    )
    b.add(
        "{honorific} {e_last} contacted People Operations to update the personal record. New home address: "
        "{e_address}, {city}. Private mobile: {e_phone}. Salary payments should go to {e_iban} from "
        "the next payroll run onwards.\n\n"
        "{m_first} confirmed the change and asked that the Benefits Portal be updated as well. The employee "
        "record was updated in Workday on {date}; the old bank details were archived under the Records "
        "Retention Policy.\n\n",
        honorific=honorific,
        city=_postal(employee),
        date=_date(rng),
        **_prefixed("e", employee),
        **_prefixed("m", manager),
    )
    b.add(
        "Follow-up: send the confirmation letter to {e_email} and copy {m_email}. Questions about payroll "
        "go to payroll@{domain}.\n",
        domain=domain,
        **_prefixed("e", employee),
        **_prefixed("m", manager),
    )
    return b


def _support_ticket(fakers: dict[str, Faker], rng: random.Random) -> _Builder:
    customer = _people(fakers, rng, 1)[0]
    agent = _people(fakers, rng, 1, "northwind-robotics.com")[0]
    ip = fakers["en_US"].ipv4_public() if rng.random() < 0.7 else fakers["en_US"].ipv4_private()
    second_ip = fakers["en_US"].ipv4_private()
    b = _Builder()
    b.add(
        "Ticket INC-{ticket} | Priority: {priority} | Product: {product}\n"
        "Customer: {company} (account {account})\n"
        "Reporter: {c_name} <{c_email}>\n"
        "Assignee: {a_name}\n"
        "Opened: {date}\n\n",
        ticket=str(rng.randint(10000, 99999)),
        company=fakers[customer.locale].company(),
        account=f"ACC-{rng.randint(100000, 999999)}",
        priority=rng.choice(["P1", "P2", "P3"]),
        product=rng.choice(PRODUCTS),
        date=_date(rng),
        **_prefixed("c", customer),
        **_prefixed("a", agent),
    )
    b.add(
        "Customer reports that sign-in to the Lumen Billing Portal fails with error 403 since the last "
        "release (client version {build}, serial number {serial}). Requests come from {ip}; the load balancer "
        "forwards them from {ip2}. The customer was "
        "charged twice for order #{order} on the card {c_card} and asks for a refund of {amount}.\n\n",
        ip=V("IP_ADDRESS", ip),
        ip2=V("IP_ADDRESS", second_ip),
        build=f"{rng.randint(2, 6)}.{rng.randint(0, 9)}.{rng.randint(0, 3)}.{rng.randint(0, 250)}",
        serial=f"RX200-{rng.randint(10, 99)}{rng.randint(100000, 999999)}",
        order=str(rng.randint(100000, 999999)),
        amount=_money(rng),
        **_prefixed("c", customer),
    )
    tracking = f"{rng.randint(100, 999)}AA1{rng.randint(10**9, 10**10 - 1)}"
    b.add(
        "Agent notes ({a_first}): reproduced on staging, the session cookie is dropped after the redirect. "
        "Called the customer back on {c_phone} and confirmed the workaround. Refund approved by Finance; the "
        "replacement badge reader ships with tracking number 1Z{tracking}.\n"
        "Status: Waiting for Customer. Public replies are sent from support@northwind-robotics.com.\n",
        tracking=tracking,
        **_prefixed("a", agent),
        **_prefixed("c", customer),
    )
    return b


def _minutes(fakers: dict[str, Faker], rng: random.Random) -> _Builder:
    domain = rng.choice(COMPANY_DOMAINS)
    people = _people(fakers, rng, 4, domain)
    a, b_, c, d = people
    b = _Builder()
    b.add(
        "Meeting Minutes - {title}\n"
        "Date: {date}, 10:00-11:00, Room Aurora / video call\n"
        "Attendees: {a_name}, {b_name}, {c_name}\n"
        "Apologies: {d_name}\n\n",
        title=rng.choice(["Q3 Planning", "Warehouse Rollout Steering Group", "Release Readiness Review"]),
        date=_date(rng),
        **_prefixed("a", a),
        **_prefixed("b", b_),
        **_prefixed("c", c),
        **_prefixed("d", d),
    )
    b.add(
        "1. Roadmap Review\n"
        "{a_first} presented the roadmap for {product}. The Data Retention Module slips to the next "
        "quarter; the Customer Advisory Board will be informed on {date}.\n\n"
        "2. Site Visit\n"
        "{c_name} will host the visit at {c_address}, {city}. Visitors report to reception and call "
        "{c_phone} on arrival.\n\n",
        product=rng.choice(PRODUCTS),
        date=_date(rng),
        city=_postal(c),
        **_prefixed("a", a),
        **_prefixed("c", c),
    )
    b.add(
        "Action Items\n"
        "- {b_name} to send the updated budget to {b_email} distribution by Friday.\n"
        "- {c_first} to book the meeting room and circulate the agenda.\n"
        "- {d_name} to confirm the vendor contract with legal@{domain}.\n\n"
        "Next meeting: {date}.\n",
        domain=domain,
        date=_date(rng),
        **_prefixed("b", b_),
        **_prefixed("c", c),
        **_prefixed("d", d),
    )
    return b


def _invoice(fakers: dict[str, Faker], rng: random.Random) -> _Builder:
    customer = _people(fakers, rng, 1)[0]
    year, number = str(rng.choice([2024, 2025])), f"{rng.randint(1, 9999):04d}"
    b = _Builder()
    lines = "\n".join(
        f"  {item:<34}{qty:>4} x {_money(rng)}"
        for item, qty in zip(
            rng.sample(
                ["Helix Analytics Suite licence", "Onboarding Workshop", "Premium Support Plan", "Label rolls 500"], 2
            ),
            [rng.randint(1, 12), rng.randint(1, 3)],
            strict=True,
        )
    )
    b.add(
        "INVOICE INV-{year}-{number}\n"
        "Invoice date: {date}    Due: 30 days net    Customer no. C-{customer_no}    PO {po}\n"
        "Supplier VAT ID: DE{vat}\n\n"
        "Bill to:\n"
        "{company}\n"
        "Attn. {c_name}\n"
        "{c_address}\n"
        "{city}\n"
        "{c_email}\n\n"
        "Items:\n{lines}\n\n",
        year=year,
        number=number,
        date=_date(rng),
        customer_no=str(rng.randint(100000, 999999)),
        po=f"4500{rng.randint(100000, 999999)}",
        vat=str(rng.randint(100000000, 999999999)),
        company=fakers[customer.locale].company(),
        city=_postal(customer),
        lines=lines,
        **_prefixed("c", customer),
    )
    if rng.random() < 0.5:
        b.add(
            "Payment: charged to the card on file, {c_card}, on {date}.\n",
            date=_date(rng),
            **_prefixed("c", customer),
        )
    else:
        b.add(
            "Payment: by direct debit from IBAN {c_iban}, mandate reference MNDT-{ref}.\n",
            ref=str(rng.randint(100000, 999999)),
            **_prefixed("c", customer),
        )
    b.add(
        "Questions about this invoice: billing@northwind-robotics.com or call our accounts team. "
        "Please quote the invoice number INV-{year}-{number} with every payment.\n",
        year=year,
        number=number,
    )
    return b


def _security_log(fakers: dict[str, Faker], rng: random.Random) -> _Builder:
    user = _people(fakers, rng, 1, rng.choice(COMPANY_DOMAINS))[0]
    analyst = _people(fakers, rng, 1)[0]
    ips = [fakers["en_US"].ipv4_public() for _ in range(2)] + [fakers["en_US"].ipv4_private()]
    b = _Builder()
    b.add(
        "Security Review - Suspicious Sign-in Activity\n"
        "Prepared by {a_name} on {date}\n\n"
        "Summary: the account {u_email} had 14 failed sign-in attempts within ten minutes, followed by a "
        "successful sign-in from a new country. Conditional Access blocked the session.\n\n"
        "Log excerpt:\n",
        date=_date(rng),
        **_prefixed("a", analyst),
        **_prefixed("u", user),
    )
    for i, ip in enumerate(ips):
        b.add(
            '  {time} sign-in {result} user={u_email} src={ip} app="Orion Data Gateway" mfa={mfa}\n',
            time=f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}Z",
            result="failure" if i < 2 else "success",
            ip=V("IP_ADDRESS", ip),
            mfa=rng.choice(["none", "push", "totp"]),
            **_prefixed("u", user),
        )
    b.add(
        "\nActions: password reset forced, sessions revoked, {u_first} was contacted on {u_phone} to confirm "
        "the new device. The source addresses were added to the block list. Report abuse to "
        "security@northwind-robotics.com.\n",
        **_prefixed("u", user),
    )
    return b


def _email(fakers: dict[str, Faker], rng: random.Random) -> _Builder:
    sender, recipient = _people(fakers, rng, 2)
    b = _Builder()
    b.add(
        "From: {s_name} <{s_email}>\nTo: {r_email}\nSubject: {subject}\nDate: {date}\n\nDear {r_first},\n\n",
        subject=rng.choice(["Relocation and new bank details", "Delivery address for the test units", "Contract"]),
        date=_date(rng),
        **_prefixed("s", sender),
        **_prefixed("r", recipient),
    )
    b.add(
        "thank you for your help last week. As discussed, please ship the two evaluation units of the "
        "{product} to my new address:\n\n"
        "{s_address}\n{city}\n\n"
        "The reimbursement for the travel costs can go to my account {s_iban}. If anything is unclear, "
        "call me on {s_phone} - I am usually available after 14:00.\n\n"
        "Kind regards,\n{s_name}\n{title}\n",
        product=rng.choice(PRODUCTS),
        city=_postal(sender),
        title=rng.choice(JOB_TITLES),
        **_prefixed("s", sender),
    )
    return b


def _expense_claim(fakers: dict[str, Faker], rng: random.Random) -> _Builder:
    domain = rng.choice(COMPANY_DOMAINS)
    claimant, approver = _people(fakers, rng, 2, domain)
    hotel = make_person(fakers, rng, rng.choice(LOCALES))
    b = _Builder()
    b.add(
        "Expense Claim EXP-{number}\n"
        "Claimant: {c_name} ({dept})\n"
        "Trip: Customer Workshop, {start}, {days} days\n\n"
        "Hotel: Grand Hotel Central, {hotel}, {hotel_city} - 3 nights, {amount}\n"
        "Paid with corporate card {c_card}.\n",
        number=str(rng.randint(10000, 99999)),
        dept=rng.choice(DEPARTMENTS),
        start=_date(rng),
        days=str(rng.randint(2, 5)),
        hotel=V("ADDRESS", hotel.address),
        hotel_city=_postal(hotel),
        amount=_money(rng),
        **_prefixed("c", claimant),
    )
    second = card_number(fakers[claimant.locale], rng)
    b.add(
        "Flight {flight}, booking reference {ref}. Taxi from {station} to the customer site and train tickets: "
        "{amount}, paid with my private card {card}; please reimburse to {c_iban}.\n\n"
        "Approved by {a_name} on {date}. Finance contact: finance@{domain}.\n",
        flight=f"{rng.choice(['LH', 'BA', 'AF', 'IB', 'AZ', 'UA'])} {rng.randint(100, 9999)}",
        ref="".join(rng.choice(string.ascii_uppercase + "23456789") for _ in range(6)),
        station=rng.choice(["Victoria Station", "Gare de Lyon", "Milano Centrale", "Madrid Atocha", "Penn Station"]),
        amount=_money(rng),
        card=V("CREDIT_CARD", second),
        date=_date(rng),
        domain=domain,
        **_prefixed("c", claimant),
        **_prefixed("a", approver),
    )
    return b


def _directory(fakers: dict[str, Faker], rng: random.Random) -> _Builder:
    domain = rng.choice(COMPANY_DOMAINS)
    people = _people(fakers, rng, rng.randint(4, 6), domain)
    b = _Builder()
    b.add(
        "Team directory - {dept} (exported from the HR system on {date})\n\n"
        "| Name | Role | Phone | E-mail | Desk |\n|---|---|---|---|---|\n",
        dept=rng.choice(DEPARTMENTS),
        date=_date(rng),
    )
    for person in people:
        # HR exports write "Last, First" as often as "First Last".
        name = f"{person.last}, {person.first}" if rng.random() < 0.4 else person.name
        b.add(
            "| {name} | {title} | {phone} | {email} | {desk} |\n",
            name=V("PERSON", name),
            title=rng.choice(JOB_TITLES),
            phone=V("PHONE", person.phone),
            email=V("EMAIL", person.email),
            desk=f"{rng.choice('ABC')}{rng.randint(1, 5)}.{rng.randint(1, 40):02d}",
        )
    b.add("\nShared mailboxes: {role}@{domain}, helpdesk@{domain}.\n", role=rng.choice(ROLE_CONTACTS), domain=domain)
    return b


def _cv(fakers: dict[str, Faker], rng: random.Random) -> _Builder:
    person, referee = _people(fakers, rng, 1)[0], _people(fakers, rng, 1, rng.choice(COMPANY_DOMAINS))[0]
    b = _Builder()
    b.add(
        "CURRICULUM VITAE\n\n{p_name}\n{p_address}, {city}\nTel. {p_phone} · {p_email}\n\n"
        "Profile\n{title} with {years} years of experience in logistics and retail analytics.\n\n"
        "Experience\n2019-2025  {title}, Kestrel Packaging GmbH, Hamburg\n"
        "2016-2019  BI Developer, Atlantic Foods S.A., Madrid\n\n"
        "Languages: English (C2), Spanish (C1), German (B2)\n\n"
        "References\n{r_name}, Head of Data, {r_email}, {r_phone}\n",
        city=_postal(person),
        title=rng.choice(JOB_TITLES),
        years=str(rng.randint(3, 15)),
        **_prefixed("p", person),
        **_prefixed("r", referee),
    )
    return b


def _complaint(fakers: dict[str, Faker], rng: random.Random) -> _Builder:
    person = _people(fakers, rng, 1)[0]
    b = _Builder()
    b.add(
        "Subject: Complaint about order {order} - charged twice\n\nHello,\n\nmy name is {p_name} and I have "
        "been a customer since {since}. On {date} my card {p_card} was charged twice. I already called your "
        "hotline twice. Please refund the amount to my account {p_iban} or back to the card.\n\n"
        "You can reach me at {p_phone} or by post: {p_address}, {city}.\n\nRegards\n{first} {last}\n",
        order=str(rng.randint(10000, 99999)),
        since=str(rng.randint(2012, 2023)),
        date=_date(rng),
        city=_postal(person),
        first=V("PERSON", person.first),
        last=V("PERSON", person.last),
        **_prefixed("p", person),
    )
    return b


def _chat_export(fakers: dict[str, Faker], rng: random.Random) -> _Builder:
    agent, colleague = _people(fakers, rng, 2, rng.choice(COMPANY_DOMAINS))
    ip = fakers["en_US"].ipv4_public()
    b = _Builder()
    b.add(
        "#it-support - exported {date}\n\n"
        "[10:02] {a_first}: hi, can someone look at the VPN issue for {c_name}?\n"
        "[10:03] {a_first}: the laptop connects from {ip} but gets no route to the file server\n"
        "[10:05] ops-bot: ticket INC-{ticket} created, assigned to Network Operations\n"
        "[10:11] {c_first}: thanks! best number to call me today is {c_phone}\n"
        "[10:12] {a_first}: ok, the Network Operations team will call you before noon\n",
        date=_date(rng),
        ip=V("IP_ADDRESS", ip),
        ticket=str(rng.randint(10000, 99999)),
        **_prefixed("a", agent),
        **_prefixed("c", colleague),
    )
    return b


def _csv_export(fakers: dict[str, Faker], rng: random.Random) -> _Builder:
    people = _people(fakers, rng, rng.randint(4, 6))
    b = _Builder()
    b.add("employee_id;full_name;email;phone;iban;start_date\n")
    for person in people:
        b.add(
            "{id};{p_name};{p_email};{p_phone};{p_iban};{start}\n",
            id=str(rng.randint(10000, 99999)),
            start=f"{rng.randint(2015, 2025)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            **_prefixed("p", person),
        )
    return b


def _visitor_log(fakers: dict[str, Faker], rng: random.Random) -> _Builder:
    people = _people(fakers, rng, 3)
    b = _Builder()
    b.add("Visitor log - Reception Building B - {date}\n\n", date=_date(rng))
    for person in people:
        b.add(
            "{time}  {p_name} (visiting {dept}), badge V-{badge}, car plate {plate}\n",
            time=f"{rng.randint(8, 17):02d}:{rng.randint(0, 59):02d}",
            dept=rng.choice(DEPARTMENTS),
            badge=str(rng.randint(100, 999)),
            plate=f"{rng.choice(['B', 'M', 'HH'])}-{rng.choice(['AB', 'KX', 'ZR'])} {rng.randint(100, 9999)}",
            **_prefixed("p", person),
        )
    b.add("\nEvacuation drill on Friday; the assembly point is the Main Gate car park.\n")
    return b


PII_STYLES: list[tuple[str, Callable[[dict[str, Faker], random.Random], _Builder]]] = [
    ("contracts", _contract),
    ("hr-notes", _hr_note),
    ("support-tickets", _support_ticket),
    ("meeting-minutes", _minutes),
    ("invoices", _invoice),
    ("security-reviews", _security_log),
    ("emails", _email),
    ("expense-claims", _expense_claim),
    ("directories", _directory),
    ("cvs", _cv),
    ("complaints", _complaint),
    ("chat-exports", _chat_export),
    ("csv-exports", _csv_export),
    ("visitor-logs", _visitor_log),
]


def _fakers(seed: int) -> dict[str, Faker]:
    fakers = {}
    for index, locale in enumerate(LOCALES):
        fake = Faker(locale)
        fake.seed_instance(seed * 100 + index)
        fakers[locale] = fake
    return fakers


def pii_documents(seed: int = 7, n_docs: int = 120) -> list[LabelledDoc]:
    """Documents with planted personal data; same seed, same texts and spans."""
    rng = random.Random(seed)
    fakers = _fakers(seed)
    docs = []
    for i in range(n_docs):
        style, make = PII_STYLES[i % len(PII_STYLES)]
        text, planted = make(fakers, rng).build()
        docs.append(LabelledDoc(f"{style}/{i:03d}.txt", text, planted))
    return docs


# --------------------------------------------------------------------------------------------
# Secrets
# --------------------------------------------------------------------------------------------

ALNUM = string.ascii_letters + string.digits
UPPER_DIGITS = string.ascii_uppercase + string.digits
B64 = ALNUM + "+/"


def _rand(rng: random.Random, n: int, alphabet: str = ALNUM) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _random_token(rng: random.Random, n: int, alphabet: str = ALNUM) -> str:
    """Random, but with letters of both cases and digits, as every real generator's output has."""
    while True:
        token = _rand(rng, n, alphabet)
        if any(c.isdigit() for c in token) and any(c.islower() for c in token) and any(c.isupper() for c in token):
            return token


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _jwt(rng: random.Random) -> str:
    header = {"alg": rng.choice(["HS256", "RS256"]), "typ": "JWT"}
    payload = {
        "sub": str(rng.randint(10_000, 99_999)),
        "scope": rng.choice(["read:orders", "admin", "deploy"]),
        "iat": 1_700_000_000 + rng.randint(0, 30_000_000),
    }
    signature = bytes(rng.getrandbits(8) for _ in range(32))
    return ".".join(_b64url(json.dumps(p, separators=(",", ":")).encode()) for p in (header, payload)) + (
        "." + _b64url(signature)
    )


def _pem(rng: random.Random) -> str:
    label = rng.choice(["RSA PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY"])
    body = base64.b64encode(bytes(rng.getrandbits(8) for _ in range(rng.choice([180, 240, 300])))).decode()
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


def _password(rng: random.Random) -> str:
    words = ["Winter", "Falcon", "Harbor", "Maple", "Orbit", "Copper", "Tiger", "Summer", "Nebula", "Granite"]
    style = rng.random()
    if style < 0.4:
        return f"{rng.choice(words)}{rng.choice(['-', '!', '#', '_', ''])}{rng.choice(words)}{rng.randint(1, 2025)}"
    if style < 0.6:
        return f"{rng.choice(words).lower()}{rng.randint(10, 99)}{rng.choice('!?#$%')}"
    return _random_token(rng, rng.choice([16, 20, 24]), ALNUM + "!#%^*-_")


def _uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


# kind -> (value generator, context templates). `{v}` is the value; tags say where a line fits.
SecretGen = Callable[[random.Random], str]
SECRET_KINDS: dict[str, tuple[SecretGen, list[str]]] = {
    "hex": (
        lambda r: _rand(r, r.choice([32, 40, 64]), "0123456789abcdef"),
        [
            "Webhook signing secret for the payments endpoint: {v}",
            "HMAC key (do not share): {v}",
            "The old deploy script used {v} to talk to the license server.",
            "webhook_secret: {v}",
        ],
    ),
    "base64": (
        lambda r: _random_token(r, r.choice([32, 40, 44]), B64),
        [
            'curl -H "Authorization: Bearer {v}" https://api.internal/v2/orders',
            "Use this token for the staging tenant: {v}",
            "X-Auth-Token: {v}",
            'session_token = "{v}"',
        ],
    ),
    "uuid_api_key": (
        _uuid,
        [
            "X-API-Key: {v}",
            "The API key for the sandbox account is {v}",
            "HEROKU_API_KEY={v}",
            "apiKey: '{v}'",
            "Datadog API key {v} (rotate after the migration)",
        ],
    ),
    "jwt": (
        _jwt,
        [
            "Authorization: Bearer {v}",
            "Here is the service token I used for testing: {v}",
            "id_token={v}",
        ],
    ),
    "pem_private_key": (_pem, ["{v}"]),
    "aws_access_key": (
        lambda r: r.choice(["AKIA", "ASIA"]) + _rand(r, 16, string.ascii_uppercase + "234567"),
        ["aws_access_key_id = {v}", "AWS_ACCESS_KEY_ID={v}", "Access key {v} belongs to the ci-deploy user."],
    ),
    "aws_secret_key": (
        lambda r: _random_token(r, 40, B64),
        [
            "aws_secret_access_key = {v}",
            "export AWS_SECRET_ACCESS_KEY={v}",
            "Secret access key: {v}",
            "AWS secret key {v} was created for the backup job.",
        ],
    ),
    "github_token": (
        lambda r: (
            "ghp_" + _random_token(r, 36) if r.random() < 0.5 else "github_pat_" + _rand(r, 22) + "_" + _rand(r, 59)
        ),
        ["GITHUB_TOKEN={v}", "git clone https://{v}@github.com/northwind/infra.git", "token: {v}"],
    ),
    "gitlab_token": (
        lambda r: "glpat-" + _random_token(r, 20, ALNUM + "_-"),
        ["GITLAB_TOKEN={v}", "Personal access token for the runner: {v}", "private_token: {v}"],
    ),
    "slack_token": (
        lambda r: (
            f"xox{r.choice('bpa')}-{_digits(r, 12, '123456789')}-{_digits(r, 13, '123456789')}-" + _random_token(r, 24)
        ),
        ["SLACK_BOT_TOKEN={v}", "slack: the bot token is {v}", "slack_token: {v}"],
    ),
    "stripe_key": (
        lambda r: r.choice(["sk_live_", "rk_live_"]) + _random_token(r, r.choice([24, 34, 99])),
        ["STRIPE_SECRET_KEY={v}", "Stripe live key: {v}", 'stripe.api_key = "{v}"'],
    ),
    "google_api_key": (
        lambda r: "AIza" + _random_token(r, 35, ALNUM + "_-"),
        ["GOOGLE_MAPS_API_KEY={v}", "Maps key {v} is restricted to our referrers.", '"apiKey": "{v}",'],
    ),
    "connection_string": (
        _password,
        [
            "DATABASE_URL=postgres://app_user:{v}@db.internal:5432/orders",
            "postgresql://reporting:{v}@10.20.3.14/warehouse",
            "MONGO_URI=mongodb+srv://svc-etl:{v}@cluster0.x1ab2.mongodb.net/analytics?retryWrites=true",
            "CACHE_URL=redis://:{v}@cache.internal:6379/0",
            "amqp://orders:{v}@rabbitmq.internal:5672/prod",
            "mysql://root:{v}@127.0.0.1:3306/shop",
            "Server=tcp:nw-sql.database.windows.net,1433;Database=orders;User ID=app;Password={v};Encrypt=true;",
        ],
    ),
    "key_value": (
        _password,
        [
            "keystore_password: {v}",
            'client_secret: "{v}"',
            "DB_PASSWORD={v}",
            "export SMTP_PASSWORD={v}",
            "spring.datasource.password={v}",
            "ldap_bind_password = {v}",
            '"admin_password": "{v}",',
            "REDIS_PASSWORD={v}",
            "  - encryption_key={v}",
            "set SQL_SA_PASSWORD={v}",
            "jwt_signing_key: '{v}'",
        ],
    ),
    "email_password": (
        _password,
        ["{email}:{v}"],
    ),
    "openai_style_key": (
        lambda r: r.choice(["sk-proj-", "sk-ant-api03-", "sk-"]) + _random_token(r, r.choice([32, 48]), ALNUM + "_"),
        ["OPENAI_API_KEY={v}", "Key for the eval harness: {v}", 'ANTHROPIC_API_KEY="{v}"'],
    ),
    "npm_token": (
        lambda r: "npm_" + _random_token(r, 36),
        ["//registry.npmjs.org/:_authToken={v}", "NPM_TOKEN={v}", "npm publish token: {v}"],
    ),
    "sendgrid_key": (
        lambda r: "SG." + _random_token(r, 22, ALNUM + "_-") + "." + _random_token(r, 43, ALNUM + "_-"),
        ["SENDGRID_API_KEY={v}", "Mail relay key: {v}"],
    ),
    "slack_webhook": (
        lambda r: f"T{_rand(r, 9, UPPER_DIGITS)}/B{_rand(r, 10, UPPER_DIGITS)}/{_random_token(r, 24)}",
        ["Alerts go to https://hooks.slack.com/services/{v}", "webhook_url: https://hooks.slack.com/services/{v}"],
    ),
    "url_secret": (
        lambda r: _random_token(r, r.choice([24, 32, 40]), ALNUM + "_-"),
        [
            "Reset link (valid 24h): https://app.northwind-robotics.com/reset?token={v}",
            "curl 'https://api.northwind-robotics.com/v1/export?format=csv&api_key={v}'",
            "Dashboard embed: https://grafana.internal/d/ops?orgId=1&auth={v}",
        ],
    ),
    "azure_storage_key": (
        lambda r: base64.b64encode(bytes(r.getrandbits(8) for _ in range(64))).decode(),
        ["DefaultEndpointsProtocol=https;AccountName=nwstore;AccountKey={v};EndpointSuffix=core.windows.net"],
    ),
}


def _secret_line(
    rng: random.Random, fakers: dict[str, Faker], kind: str, context: str | None = None
) -> tuple[str, dict[str, str | V]]:
    make, contexts = SECRET_KINDS[kind]
    template = context or rng.choice(contexts)
    fields: dict[str, str | V] = {"v": V(kind, make(rng))}
    if "{email}" in template:
        person = make_person(fakers, rng, rng.choice(LOCALES))
        fields["email"] = person.email
    return template, fields


def _env_file(b: _Builder, lines: list[tuple[str, dict]], rng: random.Random) -> None:
    b.add("# .env for the {service} service - do not commit\n", service=rng.choice(["orders", "billing", "etl"]))
    b.add("APP_ENV=production\nLOG_LEVEL=info\nPORT=8080\n")
    for template, fields in lines:
        b.add(template + "\n", **fields)
    b.add("FEATURE_NEW_CHECKOUT=true\nREQUEST_TIMEOUT_SECONDS=30\n")


def _runbook(b: _Builder, lines: list[tuple[str, dict]], rng: random.Random) -> None:
    b.add(
        "# Runbook: {system} failover\n\n"
        "Owner: Platform Engineering. Last reviewed {date}.\n\n"
        "## Steps\n\n1. Announce the maintenance window in #ops-announce.\n"
        "2. Drain traffic from the primary region.\n3. Use the credentials below (legacy, to be moved "
        "to Vault):\n\n",
        system=rng.choice(["Orders API", "Warehouse ETL", "Billing"]),
        date=_date(rng),
    )
    for template, fields in lines:
        b.add(template + "\n", **fields)
    b.add("\n4. Verify the health checks, then announce the end of the window.\n")


def _chat(b: _Builder, lines: list[tuple[str, dict]], rng: random.Random) -> None:
    b.add("#platform-help - exported {date}\n\n", date=_date(rng))
    names = ["priya", "tom.b", "jonas", "amelie", "marco"]
    b.add("[09:12] {n}: deploy to staging is failing with 401, anyone know which creds it uses?\n", n=rng.choice(names))
    minutes = sorted(rng.sample(range(13, 60), len(lines)))
    for minute, (template, fields) in zip(minutes, lines, strict=True):
        b.add("[09:{m}] {n}: " + template + "\n", m=f"{minute:02d}", n=rng.choice(names), **fields)
    b.add("[10:02] {n}: thanks, works now. I'll rotate it after the release.\n", n=rng.choice(names))


def _incident(b: _Builder, lines: list[tuple[str, dict]], rng: random.Random) -> None:
    b.add(
        "Post-incident report SEC-{n}: credentials exposed in a public repository\n\n"
        "Timeline: on {date} a secret scanner alert fired for a commit to a public fork. The commit "
        "contained the following values, all of which were revoked within two hours:\n\n",
        n=str(rng.randint(100, 999)),
        date=_date(rng),
    )
    for template, fields in lines:
        b.add("    " + template + "\n", **fields)
    b.add("\nFollow-up: enable push protection on every repository and move remaining secrets to Vault.\n")


def _dump(b: _Builder, lines: list[tuple[str, dict]], rng: random.Random) -> None:
    b.add("Credential stuffing list found on a paste site ({date}); accounts of our customers:\n\n", date=_date(rng))
    for template, fields in lines:
        b.add(template + "\n", **fields)
    b.add("\nAll listed accounts were reset and the customers notified.\n")


SECRET_STYLES = [("env", _env_file), ("runbooks", _runbook), ("chat", _chat), ("incidents", _incident)]


def secret_documents(seed: int = 7) -> list[LabelledSecretDoc]:
    """Documents with planted secrets: every kind at least 12 times, in each of its contexts."""
    rng = random.Random(seed)
    fakers = _fakers(seed + 1)
    lines: list[tuple[str, str, dict]] = []  # (kind, template, fields)
    for kind, (_make, contexts) in SECRET_KINDS.items():
        repeats = max(12, len(contexts) * 3)
        for i in range(repeats):
            template, fields = _secret_line(rng, fakers, kind, contexts[i % len(contexts)])
            lines.append((kind, template, fields))
    dumps = [line for line in lines if line[0] == "email_password"]
    others = [line for line in lines if line[0] != "email_password"]
    rng.shuffle(others)
    docs: list[LabelledSecretDoc] = []
    for i in range(0, len(dumps), 4):
        b = _Builder()
        _dump(b, [(t, f) for _, t, f in dumps[i : i + 4]], rng)
        text, planted = b.build()
        docs.append(LabelledSecretDoc(f"credential-dumps/{len(docs):03d}.txt", text, planted))
    for i in range(0, len(others), 3):
        style, make = SECRET_STYLES[(i // 3) % len(SECRET_STYLES)]
        b = _Builder()
        make(b, [(t, f) for _, t, f in others[i : i + 3]], rng)
        text, planted = b.build()
        docs.append(LabelledSecretDoc(f"{style}/{len(docs):03d}.txt", text, planted))
    return docs


# --------------------------------------------------------------------------------------------
# Clean documents (nothing secret in them)
# --------------------------------------------------------------------------------------------


def _sha(rng: random.Random, n: int = 40) -> str:
    return _rand(rng, n, "0123456789abcdef")


def _version(rng: random.Random) -> str:
    return f"{rng.randint(1, 9)}.{rng.randint(0, 20)}.{rng.randint(0, 15)}"


def _previous(version: str) -> str:
    major, minor, patch = (int(x) for x in version.split("."))
    return f"{major}.{minor}.{patch - 1}" if patch else f"{major}.{max(minor - 1, 0)}.0"


def _clean_policy(fake: Faker, rng: random.Random) -> str:
    length = rng.choice([12, 14, 16])
    return (
        f"Password and Access Policy (version {rng.randint(2, 6)}.{rng.randint(0, 9)}, effective {_date(rng)})\n\n"
        f"1. Passwords must be at least {length} characters long and may not reuse any of the last "
        f"{rng.choice([5, 10, 24])} passwords. Password rotation is no longer forced; change it when you "
        "suspect it was exposed.\n"
        "2. API keys and tokens are issued per service, never per person, and expire after "
        f"{rng.choice([30, 60, 90])} days. Secrets are stored in Vault under secret/data/<team>/<service>.\n"
        "3. Never paste a password, token or private key into a ticket, chat or wiki page. If it happens, "
        "report it to security@northwind-robotics.com and rotate the secret.\n"
        "4. Multi-factor authentication is mandatory for the VPN, the Admin Console and the build system.\n\n"
        "Questions: contact the Security Team via the service desk (INC queue 'Access').\n"
    )


def _clean_minutes(fake: Faker, rng: random.Random) -> str:
    names = [fake.first_name() for _ in range(3)]
    return (
        f"Platform sync - {_date(rng)}\n\n"
        f"Present: {', '.join(names)}\n\n"
        f"- INC-{rng.randint(10000, 99999)} (checkout latency): root cause was a missing index on orders.created_at; "
        f"fixed in {_sha(rng, 7)}.\n"
        f"- Token refresh bug (PLAT-{rng.randint(1000, 9999)}): the access token TTL stays at 3600 seconds, "
        "the refresh token moves to 14 days.\n"
        f"- Budget: the observability contract renews at ${rng.randint(20, 90)},{rng.randint(100, 999)}/year.\n"
        f"- Docs: https://wiki.northwind-robotics.com/display/PLAT/Secrets+Management is the source of truth.\n"
        f"Next sync {_date(rng)}.\n"
    )


def _clean_release_notes(fake: Faker, rng: random.Random) -> str:
    version = _version(rng)
    shas = [_sha(rng, 7) for _ in range(3)]
    return (
        f"Release notes - Helix Analytics Suite v{version} ({_date(rng)})\n\n"
        "Fixed\n"
        f"- Exports no longer time out for reports over 50,000 rows ({shas[0]}).\n"
        f"- The password reset e-mail now links to the right tenant ({shas[1]}).\n"
        f"- INC-{rng.randint(10000, 99999)}: dashboard colors #{_sha(rng, 6)} and #{_sha(rng, 6)} had too little "
        "contrast.\n"
        "Changed\n"
        f"- API tokens now expire after 24 hours by default ({shas[2]}).\n\n"
        f"Full changelog: https://github.com/northwind/helix/compare/v{_previous(version)}...v{version}\n"
        f"Release commit: {_sha(rng)}\n"
        f"Docker image: ghcr.io/northwind/helix@sha256:{_sha(rng, 64)}\n\n"
        "Checksums (SHA-256):\n"
        f"{_sha(rng, 64)}  helix-{version}-linux-amd64.tar.gz\n"
        f"{_sha(rng, 64)}  helix-{version}-darwin-arm64.tar.gz\n"
    )


def _clean_python(fake: Faker, rng: random.Random) -> str:
    return (
        "import getpass\nimport os\nimport uuid\nfrom dataclasses import dataclass\n\n\n"
        "@dataclass\nclass DatabaseConfig:\n"
        "    host: str\n    user: str\n    password: str\n    port: int = 5432\n\n\n"
        "class ApiClient:\n"
        "    def __init__(self, base_url: str, api_key: str, timeout: float = 30.0) -> None:\n"
        "        self.base_url = base_url\n"
        "        self.api_key = api_key\n"
        "        self.timeout = timeout\n\n\n"
        "def load_config() -> DatabaseConfig:\n"
        '    password = os.environ.get("DB_PASSWORD")\n'
        "    if password is None:\n"
        "        password = getpass.getpass()\n"
        f'    return DatabaseConfig(host="db.internal", user="{fake.user_name()}", password=password)\n\n\n'
        "TOKEN_TTL_SECONDS = 3600\n"
        f"MAX_RETRIES = {rng.randint(2, 6)}\n"
        "request_id = str(uuid.uuid4())\n"
    )


def _clean_js(fake: Faker, rng: random.Random) -> str:
    return (
        "// client.ts\n"
        "export interface Credentials {\n  username: string;\n  password: string;\n}\n\n"
        "const apiKey = process.env.STRIPE_API_KEY;\n"
        "const token = await auth.getAccessToken({ scope: 'orders:read' });\n\n"
        "export async function fetchOrders(page = 1) {\n"
        "  const res = await fetch(`${BASE_URL}/orders?page=${page}`, {\n"
        "    headers: { Authorization: `Bearer ${token}`, 'X-Request-Id': crypto.randomUUID() },\n"
        f"    signal: AbortSignal.timeout({rng.choice([5000, 10000, 30000])}),\n"
        "  });\n"
        "  if (!res.ok) throw new Error(`orders: ${res.status}`);\n"
        "  return res.json();\n}\n"
    )


def _clean_yaml(fake: Faker, rng: random.Random) -> str:
    service = rng.choice(["orders-api", "billing-worker", "etl-runner"])
    return (
        f"# values.yaml for {service}\n"
        f"replicaCount: {rng.randint(2, 6)}\n"
        f"image:\n  repository: ghcr.io/northwind/{service}\n  tag: v{_version(rng)}\n"
        "auth:\n"
        "  token_ttl_seconds: 3600\n"
        "  password_min_length: 12\n"
        "  existingSecret: db-credentials\n"
        "  passwordSecretKey: password\n"
        "  secret_name: db-credentials\n"
        "timeout: 30\n"
        "env:\n"
        "  - name: DB_PASSWORD\n"
        "    valueFrom:\n"
        "      secretKeyRef:\n"
        "        name: db-credentials\n"
        "        key: password\n"
        "  - name: API_TOKEN_FILE\n"
        "    value: /var/run/secrets/api/token\n"
        "resources:\n  limits:\n    memory: 512Mi\n    cpu: 500m\n"
    )


def _clean_env_example(fake: Faker, rng: random.Random) -> str:
    return (
        "# .env.example - copy to .env and fill in the values from Vault\n"
        "APP_ENV=development\n"
        "DATABASE_URL=postgres://app_user:${DB_PASSWORD}@localhost:5432/orders\n"
        "DB_PASSWORD=\n"
        "STRIPE_SECRET_KEY=<your-stripe-test-key>\n"
        "SESSION_SECRET=changeme\n"
        "TOKEN_EXPIRY=3600\n"
        "REDIS_URL=redis://localhost:6379/0\n"
    )


def _clean_terraform(fake: Faker, rng: random.Random) -> str:
    return (
        'resource "aws_db_instance" "orders" {\n'
        '  identifier        = "orders-prod"\n'
        '  engine            = "postgres"\n'
        f'  engine_version    = "{rng.choice(["15.4", "16.2"])}"\n'
        '  instance_class    = "db.r6g.large"\n'
        "  username          = var.db_username\n"
        "  password          = var.db_password\n"
        f"  allocated_storage = {rng.choice([100, 200, 500])}\n"
        "}\n\n"
        'variable "db_password" {\n  type      = string\n  sensitive = true\n}\n'
    )


def _clean_log(fake: Faker, rng: random.Random) -> str:
    lines = []
    for _ in range(4):
        lines.append(
            f"{_date(rng)}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}Z INFO "
            f"orders-api request_id={_uuid(rng)} trace_id={_sha(rng, 32)} span_id={_sha(rng, 16)} "
            f"method=GET path=/v2/orders/{rng.randint(1000, 9999)} status={rng.choice([200, 200, 404])} "
            f"duration_ms={rng.randint(3, 900)}"
        )
    return f"Log excerpt attached to INC-{rng.randint(10000, 99999)}:\n\n" + "\n".join(lines) + "\n"


def _clean_git_log(fake: Faker, rng: random.Random) -> str:
    out = []
    for _ in range(3):
        out.append(
            f"commit {_sha(rng)}\nAuthor: {fake.name()} <{fake.user_name()}@users.noreply.github.com>\n"
            f"Date:   {_date(rng)}\n\n"
            f"    {rng.choice(['Fix token refresh race', 'Bump fastapi', 'Add retry to ETL'])}\n"
        )
    return "\n".join(out)


def _clean_ssh_onboarding(fake: Faker, rng: random.Random) -> str:
    key = base64.b64encode(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00 " + bytes(rng.getrandbits(8) for _ in range(32)))
    return (
        "Onboarding: access to the build servers\n\n"
        '1. Create a key pair with `ssh-keygen -t ed25519 -C "you@laptop"`.\n'
        "2. Paste the PUBLIC key (the .pub file) into the access request. It looks like this:\n\n"
        f"   ssh-ed25519 {key.decode()} {fake.user_name()}@laptop\n\n"
        "3. Never share the private key file (~/.ssh/id_ed25519). Access is granted within one working day.\n"
    )


def _clean_certificate(fake: Faker, rng: random.Random) -> str:
    body = base64.b64encode(bytes(rng.getrandbits(8) for _ in range(rng.choice([300, 420])))).decode()
    lines = "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    return (
        "Installing the internal root CA\n\n"
        "Save the certificate below as northwind-root-ca.crt and run `sudo update-ca-certificates`.\n\n"
        f"-----BEGIN CERTIFICATE-----\n{lines}\n-----END CERTIFICATE-----\n\n"
        f"Fingerprint (SHA-256): {':'.join(_sha(rng, 2).upper() for _ in range(32))}\n"
    )


def _clean_html(fake: Faker, rng: random.Random) -> str:
    digest = base64.b64encode(bytes(rng.getrandbits(8) for _ in range(48))).decode()
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n  <meta charset="utf-8">\n'
        "  <title>Status - Northwind Robotics</title>\n"
        f'  <script src="https://cdn.jsdelivr.net/npm/chart.js@{_version(rng)}/dist/chart.umd.min.js"\n'
        f'          integrity="sha384-{digest}" crossorigin="anonymous"></script>\n'
        f"  <style>.ok {{ color: #{_sha(rng, 6)}; }} .down {{ color: #{_sha(rng, 6)}; }}</style>\n"
        "</head>\n<body>\n  <h1>All systems operational</h1>\n"
        f"  <p>Last incident: INC-{rng.randint(10000, 99999)}, resolved {_date(rng)}.</p>\n</body>\n</html>\n"
    )


def _clean_kb(fake: Faker, rng: random.Random) -> str:
    return (
        "How do I reset my password?\n\n"
        "Open Settings > Security and choose Reset password. We send a link to your registered e-mail "
        "address; it is valid for 30 minutes. If you use single sign-on, reset the password with your "
        "identity provider instead.\n\n"
        "Still stuck? Write to support@northwind-robotics.com and quote your customer number "
        f"(C-{rng.randint(100000, 999999)}). Premium support costs ${rng.randint(19, 99)}.00 per month.\n"
        "See also: https://help.northwind-robotics.com/articles/360012345-two-factor-authentication\n"
    )


def _clean_java(fake: Faker, rng: random.Random) -> str:
    return (
        "@Configuration\n"
        "public class SecurityConfig {\n"
        "    @Bean\n"
        "    public OAuth2AuthorizedClientManager authorizedClientManager(\n"
        "            ClientRegistrationRepository registrations, OAuth2AuthorizedClientRepository clients) {\n"
        "        var provider = OAuth2AuthorizedClientProviderBuilder.builder().clientCredentials().build();\n"
        "        var manager = new DefaultOAuth2AuthorizedClientManager(registrations, clients);\n"
        "        manager.setAuthorizedClientProvider(provider);\n"
        "        return manager;\n"
        "    }\n"
        "}\n"
    )


def _clean_package_lock(fake: Faker, rng: random.Random) -> str:
    entries = []
    for name in rng.sample(["lodash", "axios", "chalk", "zod", "dayjs", "nanoid"], 3):
        digest = base64.b64encode(bytes(rng.getrandbits(8) for _ in range(64))).decode()
        version = _version(rng)
        entries.append(
            f'    "node_modules/{name}": {{\n      "version": "{version}",\n'
            f'      "resolved": "https://registry.npmjs.org/{name}/-/{name}-{version}.tgz",\n'
            f'      "integrity": "sha512-{digest}"\n    }}'
        )
    return (
        '{\n  "name": "status-page",\n  "lockfileVersion": 3,\n  "packages": {\n' + ",\n".join(entries) + "\n  }\n}\n"
    )


def _clean_sql(fake: Faker, rng: random.Random) -> str:
    return (
        f"-- migration {rng.randint(100, 999)}_users.sql\n"
        "CREATE TABLE users (\n"
        "    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),\n"
        "    email         text NOT NULL UNIQUE,\n"
        "    password_hash text NOT NULL,\n"
        "    created_at    timestamptz NOT NULL DEFAULT now()\n"
        ");\n"
        "CREATE INDEX users_created_at_idx ON users (created_at);\n"
    )


def _clean_css(fake: Faker, rng: random.Random) -> str:
    return (
        ":root {\n"
        f"  --brand: #{_sha(rng, 6)};\n  --brand-dark: #{_sha(rng, 6)};\n  --radius: {rng.randint(2, 8)}px;\n}}\n"
        ".button-primary {\n  background: var(--brand);\n  border-radius: var(--radius);\n"
        "  transition: background-color 150ms ease-in-out;\n}\n"
    )


def _clean_ci(fake: Faker, rng: random.Random) -> str:
    return (
        "name: deploy\non: [push]\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: actions/checkout@v4\n      - run: ./scripts/deploy.sh\n        env:\n"
        "          DEPLOY_TOKEN: ${{ secrets.DEPLOY_TOKEN }}\n"
        "          AWS_SECRET_ACCESS_KEY: ${{ secrets.AWS_SECRET_ACCESS_KEY }}\n"
        f"          TIMEOUT_MINUTES: {rng.randint(5, 30)}\n"
    )


def _clean_compose(fake: Faker, rng: random.Random) -> str:
    return (
        f"services:\n  db:\n    image: postgres:{rng.choice([14, 15, 16])}\n    environment:\n"
        "      POSTGRES_USER: app\n      POSTGRES_PASSWORD_FILE: /run/secrets/db_password\n"
        "    secrets:\n      - db_password\n"
        "  app:\n    environment:\n      SPRING_DATASOURCE_PASSWORD: ${DB_PASSWORD}\n"
        "      NPM_CONFIG_USERCONFIG: /run/secrets/npmrc\n"
        "secrets:\n  db_password:\n    file: ./secrets/db_password.txt\n"
    )


def _clean_django(fake: Faker, rng: random.Random) -> str:
    return (
        "# settings.py\n"
        'SECRET_KEY = env("DJANGO_SECRET_KEY")\n'
        'DEBUG = env.bool("DEBUG", default=False)\n'
        "AUTH_PASSWORD_VALIDATORS = [\n"
        '    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", '
        f'"OPTIONS": {{"min_length": {rng.choice([10, 12, 14])}}}}},\n]\n'
        "SESSION_COOKIE_AGE = 1209600\n"
        "PASSWORD_RESET_TIMEOUT = 259200\n"
    )


def _clean_ansible(fake: Faker, rng: random.Random) -> str:
    return (
        "- name: Configure the reporting database user\n"
        "  community.postgresql.postgresql_user:\n"
        "    name: reporting\n"
        '    password: "{{ vault_reporting_password }}"\n'
        "  become: true\n"
        "  vars:\n"
        '    ansible_become_password: "{{ vault_become_password }}"\n'
    )


def _clean_properties(fake: Faker, rng: random.Random) -> str:
    return (
        "spring.datasource.url=jdbc:postgresql://db.internal:5432/orders\n"
        "spring.datasource.username=orders\n"
        "spring.datasource.password=${DB_PASSWORD}\n"
        f"server.port={rng.choice([8080, 8081, 9090])}\n"
        "//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n"
    )


def _clean_links(fake: Faker, rng: random.Random) -> str:
    doc_id = _rand(rng, 44, ALNUM + "_-")
    return (
        "![build](https://img.shields.io/github/actions/workflow/status/northwind/helix/ci.yml?branch=main)\n"
        f"Design doc: https://docs.google.com/document/d/{doc_id}/edit\n"
        f"Recording: https://www.youtube.com/watch?v={_rand(rng, 11, ALNUM + '_-')}\n"
        f"Thread: https://northwind.slack.com/archives/C0{_rand(rng, 9, string.ascii_uppercase + string.digits)}/"
        f"p{rng.randint(10**15, 10**16 - 1)}\n"
        f"Login redirect: https://login.northwind-robotics.com/authorize?client_id=helix-web&response_type=code"
        f"&state={_rand(rng, 16)}&nonce={_rand(rng, 16)}\n"
        "The secret lives in AWS Secrets Manager: "
        f"arn:aws:secretsmanager:eu-west-1:{rng.randint(10**11, 10**12 - 1)}:secret:prod/orders/db-{_rand(rng, 6)}\n"
    )


def _clean_terraform_random(fake: Faker, rng: random.Random) -> str:
    return (
        'resource "random_password" "db" {\n'
        f"  length  = {rng.choice([24, 32, 40])}\n  special = true\n}}\n\n"
        'output "db_password" {\n  value     = random_password.db.result\n  sensitive = true\n}\n'
    )


def _clean_notes_about_secrets(fake: Faker, rng: random.Random) -> str:
    return (
        f"Tokens: {rng.choice(['1,024', '4,096', '8,192'])} per request on the free plan.\n"
        "Password: must contain at least one digit and one symbol.\n"
        "Secret rotation: quarterly, owned by the Platform team.\n"
        "Stripe test mode: use the publishable key (pk_test_...) in the browser, never the secret key. "
        f"Customer ids look like cus_{_rand(rng, 14)}.\n"
        "Sentry DSN: https://examplePublicKey@o0.ingest.sentry.io/0\n"
    )


def _clean_hashing(fake: Faker, rng: random.Random) -> str:
    return (
        "import hashlib\nimport uuid\n\n"
        "digest = hashlib.sha256(payload).hexdigest()\n"
        f"# e.g. {_sha(rng, 64)}\n"
        f"run_id = uuid.uuid4().hex  # {_sha(rng, 32)}\n\n"
        "Model card: helix-ranker v2\n"
        f"Weights checksum: {_sha(rng, 64)}\n"
        "Training data snapshot: s3://northwind-ml/snapshots/2025-03-01/\n"
    )


def _clean_html_email(fake: Faker, rng: random.Random) -> str:
    image = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(rng.getrandbits(8) for _ in range(60))).decode()
    return (
        f"<p>Best regards,<br>{fake.name()}<br>Customer Success</p>\n"
        f'<p><img src="data:image/png;base64,{image}" alt="Northwind logo"></p>\n'
    )


def _clean_settings_table(fake: Faker, rng: random.Random) -> str:
    return (
        "| Setting | Value |\n|---|---|\n"
        f"| password_expiry_days | {rng.choice([0, 90, 180])} |\n"
        f"| max_failed_logins | {rng.randint(3, 10)} |\n"
        "| token_lifetime | 1h |\n\n"
        "<<<<<<< HEAD\ntimeout_seconds: 30\n=======\ntimeout_seconds: 45\n>>>>>>> feature/longer-timeouts\n\n"
        'curl -H "Authorization: Bearer $TOKEN" https://api.northwind-robotics.com/v2/orders\n'
        "export API_TOKEN=$(vault kv get -field=token secret/orders)\n"
    )


CLEAN_STYLES: list[Callable[[Faker, random.Random], str]] = [
    _clean_policy,
    _clean_minutes,
    _clean_release_notes,
    _clean_python,
    _clean_js,
    _clean_yaml,
    _clean_env_example,
    _clean_terraform,
    _clean_log,
    _clean_git_log,
    _clean_ssh_onboarding,
    _clean_certificate,
    _clean_html,
    _clean_kb,
    _clean_java,
    _clean_package_lock,
    _clean_sql,
    _clean_css,
    _clean_ci,
    _clean_compose,
    _clean_django,
    _clean_ansible,
    _clean_properties,
    _clean_links,
    _clean_terraform_random,
    _clean_notes_about_secrets,
    _clean_hashing,
    _clean_html_email,
    _clean_settings_table,
]


def clean_documents(seed: int = 7, n_docs: int = 120) -> list[str]:
    """Ordinary documents and code with no secret in them."""
    rng = random.Random(seed)
    fakers = _fakers(seed + 2)
    return [CLEAN_STYLES[i % len(CLEAN_STYLES)](fakers[rng.choice(LOCALES)], rng) for i in range(n_docs)]


REGRESSION_FILES = {
    "pii": "regression-pii.jsonl",
    "secrets": "regression-secrets.jsonl",
    "clean": "regression-clean.jsonl",
}


def regression_records() -> dict[str, list[dict]]:
    """The three regression sets as the JSON records `evaluation.pii_sets` loads."""

    def spans(planted: list[Planted]) -> list[dict]:
        return [{"type": p.type, "start": p.start, "end": p.end} for p in planted]

    return {
        "pii": [{"id": d.doc_id, "text": d.text, "entities": spans(d.entities)} for d in pii_documents()],
        "secrets": [{"id": d.doc_id, "text": d.text, "secrets": spans(d.secrets)} for d in secret_documents()],
        "clean": [{"id": f"clean/{i:03d}", "text": text} for i, text in enumerate(clean_documents())],
    }


def regression_jsonl(records: list[dict]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def main() -> None:
    from strata_pipeline.evaluation.pii_sets import BUNDLED

    for name, records in regression_records().items():
        path = BUNDLED / REGRESSION_FILES[name]
        path.write_text(regression_jsonl(records), encoding="utf-8")
        print(f"{path}: {len(records)} documents")


if __name__ == "__main__":
    main()
