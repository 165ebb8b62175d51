"""Which capitalised word runs are people's names: evidence, weighed, never one list as a gate.

Candidates are runs of name-shaped tokens ("Siobhan Ní Bhriain", "Hunor D. Kultsár", "van der
Berg", "VUČKOVIĆ Milenko", "Müller, Hans" at the start of a cell), spaCy PERSON entities, and chat
handles ("anna.k:" at the start of a chat line, "@m.schroeder"). Each gets a score from:

- the statistical NER (spaCy) calling it a PERSON, or something else;
- how popular each word is as a first or last name worldwide (names-dataset), against how common
  it is as an ordinary word in European languages (wordfreq): "Wilson" is both, "Street" is a word;
- context: honorifics, greetings, introductions ("my name is"), speech verbs, chat speakers,
  signature lines after a sign-off, table columns headed name/owner/contact;
- evidence against: company suffixes (GmbH, Ltd, S.A.), words that name places and things
  (Street, Station, University), sign-off phrases, title-cased headings.

The cue words are general language knowledge (how letters, chats and tables mark people), written
for this module; none is taken from a corpus generator.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from strata_pipeline.redaction.name_index import NO_RANK, NameIndex, NameRanks

NO_RANK_RANKS = NameRanks(NO_RANK, NO_RANK)

ZIPF_LANGUAGES = ("en", "de", "fr", "es", "it", "nl")


class Token(Protocol):  # the parts of a spaCy token we read
    text: str
    idx: int
    pos_: str
    ent_type_: str
    whitespace_: str
    is_sent_start: bool | None


@dataclass
class PersonCandidate:
    start: int
    end: int
    score: float
    reasons: list[str] = field(default_factory=list)


HONORIFICS = frozenset(
    "mr mrs ms miss mx dr prof sir dame lord lady herr frau fr hr mme mlle m monsieur madame sr sra srta "
    "don doña sig sig.ra dott dott.ssa ing avv dhr mevr mw capt col gen lt sgt rev fr".split()
)
PARTICLES = frozenset(
    "van von der den de del della delle di da du des le la y dos das do ten ter zu af av bin ibn al el ben "
    "ní nic mac mc st ap ferch ó ua bint binti".split()
)
# Words that end a capitalised phrase naming a place, an organisation or a thing.
THING_WORDS = frozenset(
    (
        "street st road rd avenue ave boulevard blvd lane drive parkway way plaza square station airport "
        "quay terminal hotel room building centre center campus office tower hall park bridge "
        "gmbh ag kg ltd limited inc llc llp plc corp corporation company co group holdings partners sas sarl "
        "sa spa bv nv oy ab as se srl sl kft university college school hospital clinic foundation institute "
        "museum library cathedral church bank trust fund capital ventures labs systems solutions services "
        "technologies software project team review policy portal module board plan period program programme "
        "award prize report meeting workshop summit conference release edition series day week month year "
        "festival league club association council ministry department committee agency river lake mountain "
        "valley island beach coast county district province state republic kingdom city town village "
        "straße strasse platz weg allee gasse rue via calle piazza corso plein straat gracht laan "
        "hbf bahnhof gare estación stazione conseil consulting trading logistics hub depot plant warehouse "
        "factory store shop branch authority"
    ).split()
)
# Job titles under a name in a signature ("Compliance Officer", "Directora Financiera"): never names.
JOB_WORDS = frozenset(
    (
        "officer coordinator manager director directora director directeur directrice head lead engineer "
        "analyst consultant specialist assistant associate administrator architect developer designer "
        "accountant accountmanager controller counsel advisor adviser executive president vice secretary "
        "treasurer clerk technician supervisor representative intern trainee auditor recruiter buyer planner "
        "responsabile direttore direttrice impiegato impiegata ingegnere tecnico commerciale "
        "geschäftsführer geschäftsführerin leiter leiterin referent referentin sachbearbeiter sachbearbeiterin "
        "berater beraterin prokurist vertrieb einkauf chargé chargée gérant gérante ingénieur ingénieure "
        "gerente jefe jefa coordinador coordinadora asesor asesora responsable financiera financiero "
        "adviseur medewerker beheerder bedrijfsleider teamleider"
    ).split()
)
COMPANY_SUFFIX = re.compile(
    r"^,?[ ]*(?:&[ ]*[A-Z][\w\-]*[ \t]+(?i:plc|ltd|inc|llc|gmbh|ag|sa|spa|bv|nv)\b|(?i:plc|ltd|inc|llc)\b"
    r"|&[ \t]*(?:Co|Cie|Sons|Söhne|Partners|Associates|Asociados|Associati|Figli|Fils|Hijos)\b"
    r"|GmbH|mbH|AG\b|KG\b|KGaA|OHG|e\.V\.|SE\b|Ltd|Limited"
    r"|LLC|LLP|Inc\b|PLC|Corp\b|Corporation|Company|Co\.|S\.?A\.?S?\b|S\.?p\.?A\.?|S\.?L\.?\b|S\.?r\.?l\.?|SARL|B\.?V\.?"
    r"|N\.?V\.?|Oy\b|AB\b|A/S|ApS|Pty|Group|Holdings?|Partners|Wine|Foods|Bank|Capital|Consulting|Solutions"
    r"|FZE\b|FZCO\b|FZ-LLC|DMCC\b|K\.?K\.?\b|Pte\b|Sdn\.? Bhd)",
)
SIGN_OFFS = frozenset(
    (
        "regards|best regards|kind regards|warm regards|best wishes|best|cheers|thanks|many thanks|thank you"
        "|sincerely|yours sincerely|yours faithfully|yours truly|respectfully|all the best|take care"
        "|beste grüße|viele grüße|liebe grüße|freundliche grüße|mit freundlichen grüßen|mit besten grüßen"
        "|grüße|gruß"
        "|lg|vg|mfg|cordialement|bien cordialement|bien à vous|salutations|amitiés|meilleures salutations"
        "|saludos|un saludo|atentamente|cordiales saludos|saluti|cordiali saluti|distinti saluti|un saluto"
        "|met vriendelijke groet|met vriendelijke groeten|vriendelijke groet|groeten|groet|mvg"
    ).split("|")
)
SIGN_OFF_WORDS = frozenset(word for phrase in SIGN_OFFS for word in phrase.split())
GREETING_BEFORE = re.compile(
    r"(?:^|[\s,(])(?:hi|hello|hey|dear|hallo|liebe|lieber|sehr geehrte[rs]?|bonjour|salut|cher|chère|hola"
    r"|estimad[oa]|querid[oa]|ciao|caro|cara|gentile|beste|hoi|thanks|thank you|cheers|welcome)[ \t,]+$",
    re.IGNORECASE,
)
INTRO_BEFORE = re.compile(
    r"(?:\bmy name is|\bname is|\bi['’]m|\bi am|\bthis is|\bcall me|\bnamed|\bcalled|\bknown as|\bje m'appelle"
    r"|\bich bin|\bich heiße|\bme llamo|\bmi chiamo|\bik ben|\bsoy|\bsono"
    r"|\bin the name of|\ba nombre de|\bau nom de|\bim namen von|\bauf den namen|\ba nome di|\bop naam van)\s+$",
    re.IGNORECASE,
)
ROLE_BEFORE = re.compile(
    r"(?:\b(?:name|full name|first name|last name|surname|given name|contact|contact person|owner|author"
    r"|assignee|assigned to|reporter|reported by|requester|requested by|approved by|approver|reviewed by"
    r"|reviewer|signed by|prepared by|written by|created by|updated by|directed by|attn|attention"
    r"|employee|manager|customer|client|patient|tenant|applicant|candidate|driver|visitor|participants?"
    r"|attendees?|organi[sz]er|account holder|cardholder|recipient|addressee|beneficiary|guarantor"
    r"|destinatari[oa]|destinataire|empfänger(?:in)?|begünstigter|beneficiario|bénéficiaire|ontvanger"
    r"|vorname|nachname|ansprechpartner(?:in)?|kontakt|verantwortlich|kontoinhaber|prénom|nom|responsable"
    r"|titulaire|nombre|apellidos?|contacto|titular|nome|cognome|referente|intestatario|naam|voornaam"
    r"|achternaam|contactpersoon)[ \t]*[:=\-–?]?"
    # everyday words that mark a person only as a field label: "From:", "Cc:", "Host:", "Lead:"
    r"|\b(?:by|from|to|cc|bcc|with|signed|present|absent|chair|minutes|host|speaker|lead)[ \t]*:)[ \t]*$",
    re.IGNORECASE,
)
# "your case worker, Dolores Yazzie,": a role noun, a comma, then the person (an apposition).
APPOSITION_BEFORE = re.compile(
    r"(?i)\b(?:worker|operator|engineer|manager|officer|director|lead|treasurer|colleague|assistant|analyst"
    r"|consultant|technician|representative|coordinator|supervisor|owner|guarantor|contact|advisor|adviser"
    r"|secretary|clerk|nurse|doctor|lawyer|accountant|auditor|landlord|tenant|customer|client|interpreter)"
    r"[ \t]*,[ \t]*$"
)
# Words just before a candidate that mark a person, with how much each counts.
CUES_BEFORE = (
    (GREETING_BEFORE, 0.35, "greeting"),
    (INTRO_BEFORE, 0.35, "introduction"),
    (ROLE_BEFORE, 0.25, "role label"),
    (APPOSITION_BEFORE, 0.25, "apposition to a role"),
)
VERB_AFTER = re.compile(
    r"^(?:'s\b|’s\b|[ \t]+(?:said|says|say|told|tells|asked|asks|wrote|writes|replied|replies|answered|explained"
    r"|confirmed|confirms|agreed|noted|added|mentioned|suggested|proposed|reported|reports|joined|joins|left"
    r"|called|calls|emailed|phoned|texted|shouted|whispered|began|started|was|is|will|would|has|had|and|who"
    r"|thinks|thought|wants|needs|knows|lives|lived|works|worked|met|visited|sent|signed|approved|owns|leads"
    r"|presented|declined|accepted|booked|shared|raised|requested|bestätigte|sagte|schrieb|hat|ist|dijo"
    r"|disse|zei|heeft)\b)",
)
HEADER_NAME_WORDS = re.compile(
    r"^(?:(?:full|first|last|given|family|display|contact|employee|customer|client|user|owner|person|staff"
    r"|account|holder|card ?holder|patient|visitor|driver)[ _]?(?:name)?|name|names|owner|contact|assignee"
    r"|reporter|requester|employee|customer|author|approver|manager|person|vorname|nachname|name|mitarbeiter"
    r"|kunde|ansprechpartner|prénom|nom|titulaire|client|nombre|apellidos?|titular|nome|cognome|cliente"
    r"|naam|voornaam|achternaam|klant|medewerker|contactpersoon)$",
    re.IGNORECASE,
)
# Field labels of forms, signatures and headers: "Fax:", "Mobile:" are never names.
LABEL_WORDS = frozenset(
    (
        "tel tél phone telephone fax mobile mobil cell desk office email e-mail mail web date time subject re fw fwd "
        "host hostname user username login server port path url status version "
        "address adresse addr attn note notes ps nb ref total name names contact owner status priority summary "
        "description comment comments tags category title to from cc bcc sent reply answer question iban bic swift "
        "pnr sales cardholder kontoinhaber titulaire titular intestatario rekeninghouder betreff objet asunto "
        "oggetto onderwerp attendees apologies participants present absent agenda minutes "
        "caller callee beller melder reporter requester assignee approver recipient destinatario destinataria "
        "empfänger destinataire "
        # forms of address that are not names: "Sehr geehrte Damen und Herren", "Messieurs"
        "damen herren messieurs mesdames señores señoras signori signore heren dames"
    ).split()
)
CALENDAR_WORDS = frozenset(
    (
        "january february march april may june july august september october november december monday tuesday "
        "wednesday thursday friday saturday sunday januar februar märz juni juli oktober dezember "
        "montag dienstag mittwoch donnerstag "
        "freitag samstag sonntag janvier février mars avril mai juin juillet août septembre octobre novembre "
        "décembre lundi mardi mercredi jeudi vendredi samedi dimanche enero febrero marzo abril mayo junio julio "
        "agosto septiembre octubre noviembre diciembre lunes martes miércoles jueves viernes sábado domingo "
        "mon tue tues wed thu thur thurs fri"
    ).split()
)
HYPHENATED_WORD = re.compile(r"[^\W\d_]+(?:[-‑'’][^\W\d_]+)*\.?")
NAME_WORD = re.compile(r"^[^\W\d_]+(?:[-'’][^\W\d_]+)*$")
INITIAL = re.compile(r"^[A-ZÀ-Ý]\.?$")
CHAT_SPEAKER = re.compile(
    r"(?m)^[ \t]*(?P<time>[\[(]?(?:\d{4}-\d{2}-\d{2}[ T])?\d{1,2}:\d{2}(?::\d{2})?"
    r"(?:[ \t]?[AaPp][Mm])?[\])]?[ \t\-–]*)?"
    r"(?:<|\*\*)?"
    r"(?P<handle>@?[A-Za-zÀ-ÿ][\w.\-]{1,30}?)(?:>|\*\*)?:(?:[ \t]|(?=[\"“]))"
)
CHAT_BRACKETED = re.compile(
    r"(?m)^[ \t]*(?P<time>[\[(]?(?:\d{4}-\d{2}-\d{2}[ T])?\d{1,2}:\d{2}(?::\d{2})?[\])]?[ \t]*)?"
    r"<(?P<handle>[A-Za-zÀ-ÿ][\w.\-]{1,30})>[ \t]"
)
# "aiyana  2:41 PM  can someone share ...": a chat export with the time after the speaker
CHAT_TIME_AFTER = re.compile(
    r"(?m)^[ \t]*(?P<handle>[A-Za-zÀ-ÿ][\w.\-]{1,30}?)[ \t]+(?P<time>\d{1,2}:\d{2}(?:[ \t]?[AaPp][Mm])?)[ \t]+\S"
)
TIME_AFTER = re.compile(r"^[ \t]+\d{1,2}:\d{2}(?:[ \t]?[AaPp]\.?[Mm]\.?)?[ \t]*$", re.MULTILINE)
MENTION = re.compile(r"(?<![\w.])@(?P<handle>[A-Za-zÀ-ÿ][\w.\-]{1,30}[A-Za-z0-9])")


def _reads_like_a_message(text: str, colon_end: int) -> bool:
    """Is the rest of a "Word: ..." line a chat message rather than a field value? A value is a name,
    a number, a code or an address ("Fax: 296-210-4357", "Melder: Thijs Koopmans", "PNR: K7QX2M");
    a message has ordinary lower-case words ("Gabrjel: What a wife.")."""
    rest = text[colon_end : _line_end(text, colon_end)]
    rest = re.sub(r"\S+@\S+|https?://\S+|\b(?:ext|x)\.?\s*\d+", " ", rest)
    return any(w.islower() and len(w) >= 2 for w in re.findall(r"[^\W\d_]+", rest))


@lru_cache(maxsize=200_000)
def word_commonness(word: str) -> float:
    """Zipf frequency of `word` as an ordinary word: the highest over the languages we read."""
    from wordfreq import zipf_frequency

    lowered = word.casefold()
    return max(zipf_frequency(lowered, language) for language in ZIPF_LANGUAGES)


def _rank_score(rank: int) -> float:
    if rank >= NO_RANK:
        return 0.0
    if rank <= 300:
        return 1.0
    if rank <= 1500:
        return 0.85
    if rank <= 5000:
        return 0.65
    return 0.45


def token_name_evidence(word: str, index: NameIndex) -> float:
    """How much a single word looks like part of a name (-1..1): popular as a name, rare as a word."""
    ranks = index.ranks(word)
    name = _rank_score(ranks.best) if ranks else 0.0
    zipf = word_commonness(word)
    if not ranks and zipf < 2.5:
        name = 0.25  # a rare word that no dictionary knows: names are the most common such words
    penalty = max(0.0, zipf - 3.6) * 0.6
    if ranks and ranks.best <= 100 and zipf < 5.5:
        penalty = min(penalty, 0.3)  # "John", "Wilson": frequent in text because they are frequent names
    return name - penalty


def _is_name_shaped(text: str) -> bool:
    if text.isupper():
        return len(text) >= 4 and NAME_WORD.match(text) is not None  # "DUPONT", never "VP", "HR", "API"
    return len(text) >= 2 and NAME_WORD.match(text) is not None and text[0].isupper()


CAMEL_CASE = re.compile(r"^(?!Mc|Mac|De|Di|Da|Du|Le|La|Van|Von|Fitz|O['’])\w*[a-zà-ÿ][A-ZÀ-Ý]")


def _line_start(text: str, position: int) -> int:
    return text.rfind("\n", 0, position) + 1


def _line_end(text: str, position: int) -> int:
    end = text.find("\n", position)
    return len(text) if end < 0 else end


def _title_case_line(text: str, start: int, end: int) -> bool:
    """A heading or a title ("Encoder Mismatch After Update"): besides the candidate, the line has
    at least three words and nearly all are capitalised."""
    line_start, line_end = _line_start(text, start), _line_end(text, end)
    rest = text[line_start:start] + " " + text[end:line_end]
    words = re.findall(r"[^\W\d_]{2,}", rest)
    if len(words) < 3 or len(words) > 12 or re.search(r"[,;:|\t]", rest):
        return False  # a list of names or a table row is not a heading
    return sum(w[0].isupper() for w in words) / len(words) >= 0.8


def _after_sign_off(text: str, position: int) -> bool:
    """Is this line within two lines after a sign-off line ("Best regards," / "Beste Grüße")?"""
    lines = text[: _line_start(text, position)].rstrip("\n").split("\n")[-2:]
    for line in lines:
        cleaned = re.sub(r"[^\w\s]", "", line).strip().casefold()
        if cleaned in SIGN_OFFS:
            return True
    return False


def _cell_start(text: str, position: int) -> int:
    return max(text.rfind(sep, 0, position) for sep in "\n\t|;,") + 1


def _cell_end(text: str, position: int) -> int:
    ends = [e for e in (text.find(sep, position) for sep in "\n\t|;,") if e >= 0]
    return min(ends) if ends else len(text)


def _column_header(text: str, position: int) -> str | None:
    """The header of the table column holding `position`, for CSV/TSV/semicolon and markdown tables."""
    start = _line_start(text, position)
    line = text[start : _line_end(text, position)]
    for separator in ("|", "\t", ";", ","):
        if line.count(separator) < 1:
            continue
        block_start = start
        while block_start > 0:  # walk up to the first line of the table block
            previous_start = _line_start(text, block_start - 1)
            previous = text[previous_start : block_start - 1]
            if previous.count(separator) != line.count(separator) or not previous.strip():
                break
            block_start = previous_start
        if block_start == start:
            continue
        header = text[block_start : _line_end(text, block_start)]
        column = text[start:position].count(separator)
        cells = header.split(separator)
        if column < len(cells):
            return cells[column].strip().strip("*#\"' ")
    return None


MACHINE_WORDS = frozenset(
    "bot bots svc service alerts alert system admin root noreply notify notifications jenkins github gitlab ci cd "
    "deploy monitor monitoring cron daemon webhook pagerduty opsgenie sentry grafana".split()
)
# First words of names of rooms, places and projects ("Room Aurora", "Lake Louise", "Project Phoenix").
PLACE_HEADS = frozenset(
    "room hotel project team operation camp lake port cape mount fort villa station hall "
    "klantenservice kundenservice kundendienst service support departamento servicio sala".split()
)
UNIT_WORDS = frozenset("apt apartment suite ste unit flat floor room box bldg building".split())
GREETING_WORDS = frozenset(
    "hi hello hey dear hallo liebe lieber bonjour salut cher chère hola ciao caro cara gentile hoi beste "
    "thanks thank welcome morning evening attn attention".split()
)


LEADING_WORDS = frozenset("the a an this that our my your his her their le la les der die das el il lo".split())


def _leading_context(word: str) -> bool:
    """Words that open a name-shaped run without being part of the name: "Mrs", "Hi", "The"."""
    lowered = word.casefold().rstrip(".,")
    return lowered in HONORIFICS or lowered in GREETING_WORDS or lowered in LEADING_WORDS


def _common_opener(word: str, index: NameIndex) -> bool:
    """An ordinary word that happens to be capitalised before a name ("Contact", "Ask", "Thanks")."""
    if word.lower() in PLACE_HEADS:
        return False  # "Room Aurora" stays whole, so it reads as a room
    ranks = index.ranks(word)
    return word_commonness(word) >= 4.5 and (ranks is None or ranks.best > 300)


def _runs(tokens: list[Token], index: NameIndex) -> list[tuple[int, int]]:
    """Token index ranges [i, j) of name-shaped runs on one line: capitalised words, with initials and
    particles inside, hyphenated parts joined ("Anna-Lena")."""
    runs: list[tuple[int, int]] = []
    i, n = 0, len(tokens)
    while i < n:
        if not _is_name_shaped(tokens[i].text) or tokens[i].text in PARTICLES:
            i += 1
            continue
        j, words = i + 1, 1
        while j < n and words < 5:
            previous, token = tokens[j - 1], tokens[j]
            if "\n" in previous.whitespace_:
                break
            if (
                token.text in ("-", "‑")
                and not previous.whitespace_
                and not token.whitespace_
                and j + 1 < n
                and (
                    _is_name_shaped(tokens[j + 1].text)
                    or (
                        tokens[j + 1].text.islower()
                        and 2 <= len(tokens[j + 1].text) <= 4
                        and previous.text[0].isupper()
                    )
                )
            ):
                j += 2  # "Anna-Lena" split by the tokenizer; "Seo-yeon", "Min-jun"
                continue
            if not previous.whitespace_ and not (INITIAL.match(previous.text) and previous.text.endswith(".")):
                break
            if INITIAL.match(token.text):
                j, words = j + 1, words + 1
                continue
            if token.text in PARTICLES:
                k = j
                while k < n and tokens[k].text in PARTICLES and k - j < 3:
                    k += 1  # "van der", "de la"
                if k < n and _is_name_shaped(tokens[k].text):
                    j = k
                    continue
                break
            if _is_name_shaped(token.text) and token.text.casefold() not in UNIT_WORDS:
                j, words = j + 1, words + 1
                continue
            break
        while j - 1 > i and (tokens[j - 1].text in PARTICLES or INITIAL.match(tokens[j - 1].text)):
            j -= 1  # a run ends on a name word, not "van" or "K."
        first = i
        while first < j - 1 and (_leading_context(tokens[first].text) or _common_opener(tokens[first].text, index)):
            first += 1  # "Mrs Adaeze Okonjo", "Hi Siobhan", "Contact Maria": context, not part of the name
        runs.append((first, j))
        i = j
    return runs


def _hyphenated_evidence(word: str, index: NameIndex) -> float:
    """A double name or double-barrelled surname counts by the mean of its parts ("Adeyemi-Hart")."""
    parts = [p for p in re.split(r"[-‑]", word.rstrip(".")) if p]
    return sum(token_name_evidence(p, index) for p in parts) / len(parts) if parts else 0.0


NAMED_AFTER_BEFORE = re.compile(
    r"(?i)\b(?:salle|rue|avenue|boulevard|quai|lycée|collège|école|musée|métro|gare|aéroport|aeroporto|aeropuerto"
    r"|airport|stazione|estación|estadio|stadium|museo|museum|sala|teatro|théâtre|theatre|hospital|hôpital|ospedale"
    r"|piazza|plaza|calle|via|straße|strasse|platz|allee|institut|institute|universität|university|université"
    r"|hotel|hôtel|room|hall|ward|wing|building|bâtiment|campus|school|scuola|escuela|schule|bridge|pont|ponte"
    r"|prix|premio|preis|award|prize|foundation|fondation|stiftung|fondazione|fundación)"
    r"[ \t]+(?:(?:de|du|des|la|le|di|del)[ \t]+)?$"
)
NAMED_AFTER_AFTER = re.compile(
    r"(?i)^[ \t]+(?:airport|lecture|lectures|award|awards|prize|foundation|institute|center|centre|museum"
    r"|stadium|memorial|bridge|embankment|hospital|university|college|school|library|theatre|theater|hall"
    r"|fellowship|scholarship|medal|building|tower|square|park|street|road|avenue)\b"
)


def _compound_noun(word: str, index: NameIndex) -> bool:
    """ "Hotelkontingente", "Standplanung", "Versicherungsnehmer": a long capitalised word that is no listed
    name and ends in an ordinary German or Dutch noun. Names built the same way ("Hoffmann") are listed."""
    if len(word) < 9 or not word[0].isupper() or index.ranks(word) is not None:
        return False
    from wordfreq import zipf_frequency

    lowered = word.casefold()
    return any(
        zipf_frequency(lowered[k:], language) >= 3.5 for k in range(3, len(lowered) - 3) for language in ("de", "nl")
    )


def _only_list_mark(prefix: str) -> bool:
    """Is this start of a line empty or a list mark ("- ", "3. ", "2) ", "• ")?"""
    return re.fullmatch(r"[ \t]*(?:[-*•·–]|\d{1,3}[.)]|[a-z][.)])?[ \t]*", prefix) is not None


def _only_time_stamp(prefix: str) -> bool:
    """Is this start of a line empty or just a time stamp ("[09:14] ")?"""
    return re.fullmatch(r"[\s\[\]()\d:.\-APMapm]*", prefix) is not None


def _score_run(
    tokens: list[Token], i: int, j: int, text: str, index: NameIndex, ner_people: list[tuple[int, int]]
) -> PersonCandidate:
    start, end = tokens[i].idx, tokens[j - 1].idx + len(tokens[j - 1].text)
    # Words of the span, hyphenated parts kept together ("Anna-Lena", "Wi-Fi"), without initials and particles.
    words = [
        w for w in HYPHENATED_WORD.findall(text[start:end]) if w.casefold() not in PARTICLES and not INITIAL.match(w)
    ]
    words = words or [tokens[i].text]
    reasons: list[str] = []
    lowered = [w.lower().rstrip(".") for w in words]
    if any(w in CALENDAR_WORDS for w in lowered) or all(w in SIGN_OFF_WORDS for w in lowered):
        return PersonCandidate(start, end, 0.0, ["calendar word or sign-off"])
    if len(lowered) == 1 and lowered[0] in LABEL_WORDS | HONORIFICS:
        return PersonCandidate(start, end, 0.0, ["field label or title"])
    if any(w in JOB_WORDS for w in lowered):
        return PersonCandidate(start, end, 0.0, ["job title"])
    if any(w in THING_WORDS for w in lowered[1:]) or (len(lowered) > 1 and lowered[-1] in THING_WORDS):
        return PersonCandidate(start, end, 0.0, ["names a place or thing"])

    evidence = [_hyphenated_evidence(w, index) for w in words]
    score = sum(evidence) / len(evidence) * 0.55
    reasons.append(f"name-likeness {score:.2f}")
    if len(words) >= 2 and all(e > 0.2 for e in evidence):
        score += 0.15
        reasons.append("full name")
    if any(start < e and s < end for s, e in ner_people):
        # the small model tags many lone capitalised words ("Split", "Laundry"): weaker for common words
        score += 0.15 if len(words) == 1 and word_commonness(words[0]) >= 3.5 else 0.35
        reasons.append("NER person")
    elif any(t.ent_type_ in ("GPE", "LOC", "FAC") for t in tokens[i:j]):
        score -= 0.15
        reasons.append(f"NER place {tokens[i].ent_type_ or tokens[j - 1].ent_type_}")
    elif any(t.ent_type_ in ("ORG", "PRODUCT", "WORK_OF_ART", "EVENT", "NORP") for t in tokens[i:j]):
        score -= 0.1
        reasons.append(f"NER {tokens[i].ent_type_ or tokens[j - 1].ent_type_}")
    if any(CAMEL_CASE.match(w) for w in words):
        score -= 0.4
        reasons.append("camel case")  # "FleetOS", "TripDesk": product names; "McBryde", "DeShawn" are exempt
    if len(words) == 1 and len(words[0].rstrip(".")) < 3:
        score -= 0.3
        reasons.append("two letters")  # "Hz", "Jo": too short to tell on its own
    if all(w.isupper() for w in words) and len(words) == 1:
        score -= 0.25
        reasons.append("lone capitals")
    line_prefix = text[_line_start(text, start) : start]
    sentence_initial = (
        tokens[i].is_sent_start
        or i == 0
        or "\n" in tokens[i - 1].whitespace_
        or re.fullmatch(r"[\s\-*•|>#()\[\]\d.]*(?:[A-Za-z]{1,2}:)?[\s\-*•|>]*", line_prefix) is not None
        or line_prefix.rstrip()[-1:] in ("|", "\t", '"', "(", "“")
    )  # a list item, a table cell, "A: ..." start with a capital anyway
    title_line = _title_case_line(text, start, end)
    if not sentence_initial and tokens[i].text[0].isupper() and not title_line:
        score += 0.1
        reasons.append("capitalised mid-sentence")
    if title_line:
        score -= 0.25
        reasons.append("title-cased line")

    before = text[max(0, start - 40) : start]
    after = text[end : end + 40]
    honorific = re.search(r"([^\W\d_][\w.]*)\.?[ \t]+$", before)
    if honorific and honorific.group(1).casefold().rstrip(".") in HONORIFICS:
        score += 0.6
        reasons.append("honorific")
    for cue, weight, reason in CUES_BEFORE:
        if cue.search(before):
            score += weight
            reasons.append(reason)
    if VERB_AFTER.match(after):
        # "Refund approved": a common word opening a sentence is no subject name
        lone_opener = sentence_initial and len(words) == 1 and evidence[0] > 0.2 and word_commonness(words[0]) < 3.5
        score += 0.3 if lone_opener else 0.15  # "Bartele is from ...": the subject of a sentence
        reasons.append("verb after")
    line = text[_line_start(text, start) : _line_end(text, end)]
    if len(words) >= 2 and all(e > 0.2 for e in evidence) and line.strip(" \t>|*•-,;") == text[start:end]:
        score += 0.15
        reasons.append("alone on its line")
    if re.match(r"^[ \t]*:", after) and _line_start(text, start) == start - len(before.split("\n")[-1]):
        speakers = len(re.findall(r"(?m)^[ \t\[\]0-9:APMapm]*[^\W\d_][\w.\- ]{0,30}:[ \t]*\S", text))
        timed = before.split("\n")[-1].strip() != ""
        colon = end + after.index(":") + 1
        if (
            _only_time_stamp(before.split("\n")[-1])
            and len(words) <= 3
            and speakers >= 2
            and (timed or _reads_like_a_message(text, colon))
        ):
            score += 0.3
            reasons.append("speaker")
    if re.match(r"^[ \t]+to[ \t]*:", after):
        score -= 0.6
        reasons.append("field label")  # "Bill to:", "Ship to:"
    if len(lowered) > 1 and lowered[0] in PLACE_HEADS:
        score -= 0.6
        reasons.append(f"names a place: {words[0]!r}")
    at_line_start = _only_time_stamp(text[_line_start(text, start) : start])
    if re.match(r"^[ \t]*:", after) and "speaker" not in reasons and len(words) == 1 and at_line_start:
        ranks = index.ranks(words[0])
        given_name = ranks is not None and ranks.first <= 1000
        score = score - 0.4 if given_name else 0.0  # "Leaver:", "Bezorger:", "Versicherungsnehmer:" are labels
        reasons.append("field label")
    if re.search(r"(?:^|\s)(?:in|from|near|to|at|en|à|aus|nach|bei|dans|desde|da|naar|uit)[ \t]+$", before) and (
        "NER place" in " ".join(reasons) or not any((index.ranks(w) or NO_RANK_RANKS).first < 2000 for w in words)
    ):
        score -= 0.2
        reasons.append("after a place preposition")
    if TIME_AFTER.match(after):
        score += 0.3
        reasons.append("speaker before a time")
    if _after_sign_off(text, start) and start - _line_start(text, start) <= 2:
        score += 0.45
        reasons.append("signature")
    caps = [w for w in words if w.isupper() and len(w) >= 2]
    given = [w for w in words if not w.isupper()]
    if (
        caps
        and given
        and words[: len(caps)] == caps
        and len(caps) <= 2
        and all(w[0].isupper() and any(c.islower() for c in w) for w in given)
        and _only_list_mark(text[_line_start(text, start) : start])
    ):
        score += 0.5 if title_line else 0.25  # a register line, not a heading: undo the title-line doubt
        reasons.append("SURNAME Given at the start of a line")  # "ETCHEVERRY Peio — Comptabilité"
    header = _column_header(text, start)
    if header is not None and HEADER_NAME_WORDS.match(header):
        score += 0.5
        reasons.append(f"column {header!r}")
        cell = text[_cell_start(text, start) : _cell_end(text, end)]
        if cell.strip(' \t|;,"') == text[start:end]:
            score = max(score, 0.65)  # "N'DIAYE" alone in a Nom column: the header says what it is
            reasons.append("fills its cell")
    if len(words) == 1 and _compound_noun(words[0], index):
        score -= 0.6
        reasons.append("a compound noun")  # "Standplanung", "Hotelkontingente": German nouns are capitalised
    if NAMED_AFTER_BEFORE.search(before):
        score -= 0.6
        reasons.append("a place named after a person")  # "salle Victor Hugo", "aeroporto Leonardo da Vinci"
    if NAMED_AFTER_AFTER.match(after):
        score -= 0.6
        reasons.append("a thing named after a person")  # "Charles de Gaulle airport", "Alan Turing Lecture"
    if COMPANY_SUFFIX.match(after):
        score -= 0.9
        reasons.append("company suffix")
    next_word = re.match(r"[ ]+([^\W\d_]+)", after)  # not across a tab: that is the next cell
    if next_word and next_word.group(1)[0].isupper() and next_word.group(1).casefold() in THING_WORDS:
        score -= 0.8
        reasons.append(f"followed by {next_word.group(1)!r}")
    return PersonCandidate(start, end, round(max(0.0, min(1.0, score)), 3), reasons)


def _words(tokens: list[Token], i: int, j: int) -> int:
    return sum(1 for t in tokens[i:j] if _is_name_shaped(t.text) and t.text.casefold() not in PARTICLES)


LIST_CONTINUES = re.compile(r",[ ]*[^\W\d_][\w'’\-]*(?:[ ]*,|[ ]+(?:and|or|und|et|y|e|en|og|och)[ ]+)")


def _last_first(tokens: list[Token], runs: list[tuple[int, int]], text: str) -> list[tuple[int, int]]:
    """Join "Müller, Hans" into one run when it fills a cell or a line."""
    joined: list[tuple[int, int]] = []
    k = 0
    while k < len(runs):
        i, j = runs[k]
        if k + 1 < len(runs) and runs[k + 1][0] == j + 1 and tokens[j].text == ",":
            i2, j2 = runs[k + 1]
            start = tokens[i].idx
            end = tokens[j2 - 1].idx + len(tokens[j2 - 1].text)
            before = text[:start].rstrip(" ")
            after = text[end:].lstrip(" ")
            cell_start = (
                not before
                or before[-1] in "\n|;\t:"
                or ROLE_BEFORE.search(text[max(0, start - 40) : start])
                or re.search(r"(?:^|\n)[ \t]*(?:[-*•·–]|\d{1,3}[.)])$", before)  # "2) Bakshi, Ananya"
            )
            cell_end = not after or after[0] in "\n|;\t,(<" or after.startswith("\\n")
            two_full_names = _words(tokens, i, j) >= 2 and _words(tokens, i2, j2) >= 2  # a list of full names
            # "Marie, Melody, Brooke and Anna": a comma list of first names, not "Last, First"
            list_goes_on = LIST_CONTINUES.match(after) is not None
            if cell_start and cell_end and j2 - i2 <= 3 and not two_full_names and not list_goes_on:
                joined.append((i, j2))
                k += 2
                continue
        joined.append((i, j))
        k += 1
    return joined


def handle_candidates(text: str, index: NameIndex) -> list[PersonCandidate]:
    """Chat speakers ("[09:14] anna.k: ...") and @mentions that name a person."""
    found: list[PersonCandidate] = []
    unsure: list[re.Match[str]] = []
    speaker_lines = len(CHAT_SPEAKER.findall(text))
    patterns = (
        (CHAT_SPEAKER, 0.45, "chat speaker"),
        (CHAT_BRACKETED, 0.45, "chat speaker"),
        (CHAT_TIME_AFTER, 0.45, "chat speaker"),
        (MENTION, 0.45, "mention"),
    )
    for pattern, base, reason in patterns:
        for match in pattern.finditer(text):
            handle = match.group("handle").lstrip("@")
            lone_label = pattern is CHAT_SPEAKER and not match.group("time") and "." not in handle
            if lone_label and speaker_lines < 2:
                continue  # "Attendees: ..." is a label; a speaker has a time stamp, a handle's shape or company
            if lone_label and (handle.casefold() in LABEL_WORDS or not _reads_like_a_message(text, match.end())):
                continue  # "Fax: 296-210-4357", "Melder: Thijs Koopmans": a form field, not a speaker
            if ROLE_BEFORE.search(handle + ":") or handle.casefold() in CALENDAR_WORDS:
                continue
            if any(p.lower() in MACHINE_WORDS for p in re.split(r"[._\-]", handle)):
                continue  # "payroll-bot", "svc-alerts": a service account, not a person
            parts = [p for p in re.split(r"[._\-]", handle) if p]
            if not parts or any(p.isdigit() for p in parts) or handle.casefold() in SIGN_OFF_WORDS:
                continue
            if handle.casefold() in ("note", "notes", "re", "fw", "fwd", "subject", "from", "to", "cc", "date"):
                continue
            evidence = max(token_name_evidence(p, index) for p in parts if len(p) >= 2) if len(handle) > 2 else 0.0
            if pattern is CHAT_SPEAKER and not match.group("time") and (evidence < 0.3 or "_" in handle):
                if ("_" not in handle and NAME_WORD.match(handle) and handle[0].isupper()) or (
                    handle.islower() and username_names_a_person(handle, index)
                ):
                    unsure.append(match)  # "Gabrjel: What a wife.": a speaker if the others are people
                continue  # "api_key:", "Hostname:" in a config dump: keys, not people
            score = base + 0.4 * max(0.0, evidence)
            if (len(parts) >= 2 and len(parts[0]) == 1) or len(parts[-1]) == 1:
                score += 0.15  # "m.schroeder", "anna.k": the shape of a personal handle
            start = match.start("handle") + (1 if match.group("handle").startswith("@") else 0)
            found.append(PersonCandidate(start, start + len(handle), round(min(1.0, score), 3), [reason]))
    speakers = sum(1 for c in found if c.reasons == ["chat speaker"])
    for match in unsure if speakers >= 2 else []:
        start = match.start("handle")
        found.append(PersonCandidate(start, match.end("handle"), 0.55, ["speaker in a dialogue between people"]))
    return found


USERNAME_BEFORE = re.compile(
    r"(?i)\b(?:user(?:name)?|account|login|logon|uid|assigned to|assignee|owner|agent|reporter|requester"
    r"|benutzer(?:name)?|utilisateur|usuario|utente|gebruiker)[ \t]*[:=]?[ \t]*$"
)
USERNAME_HEADER = re.compile(r"(?i)^(?:user(?:[ _]?(?:name|id))?|login|uid|account|sam ?account ?name|handle|owner)$")
USERNAME = re.compile(r"(?<![\w.@/\\-])[a-z][a-z0-9]*(?:[._-][a-z0-9]+)?(?![\w@/\\]|\.\w)")


AIRLINE_NAME = re.compile(
    r"(?<![\w/])(?P<name>[A-ZÀ-ÖØ-ÞĀ-Ž][A-ZÀ-ÖØ-ÞĀ-Ž'\-]+/[A-ZÀ-ÖØ-ÞĀ-Ž][A-ZÀ-ÖØ-ÞĀ-Ž'\-]+(?: [A-ZÀ-ÖØ-ÞĀ-Ž]{2,})?)"
    r"(?= +(?:MR|MRS|MS|MISS|MSTR|DR|PROF)\b)"
)


def register_candidates(text: str, index: NameIndex) -> list[PersonCandidate]:
    """Passenger and booking lists write "OKONKWO/CHIDI MR": surname, slash, given name, title."""
    return [
        PersonCandidate(m.start("name"), m.end("name"), 0.7, ["SURNAME/GIVEN with a title"])
        for m in AIRLINE_NAME.finditer(text)
    ]


def username_names_a_person(handle: str, index: NameIndex) -> bool:
    """ "jkowalski", "k.schroeder", "anna.k", "hkoivisto": an initial and a listed surname, or a listed
    first name and an initial, and not an ordinary word ("root", "backup")."""
    parts = [p for p in re.split(r"[._-]", handle) if p]
    if any(p.isdigit() for p in parts) or word_commonness(handle) >= 2.5:
        return False

    def listed(word: str, limit: int = 5000) -> bool:
        ranks = index.ranks(word)
        return ranks is not None and ranks.best <= limit and word_commonness(word) < 3.5

    if len(parts) == 2:
        first, last = parts
        return (
            (len(first) == 1 and listed(last)) or (len(last) <= 2 and listed(first)) or (listed(first) and listed(last))
        )
    word = parts[0]
    return len(word) >= 4 and (listed(word[1:]) or (listed(word[2:]) and len(word) >= 6))


def username_candidates(text: str, index: NameIndex) -> list[PersonCandidate]:
    """Account names that name a person, where the text says they are accounts: "user tbergstrom",
    "Assigned to: jkowalski", a username column."""
    found = []
    for match in USERNAME.finditer(text):
        handle = match.group(0)
        if len(handle) < 4 or not username_names_a_person(handle, index):
            continue
        before = text[max(0, match.start() - 30) : match.start()]
        header = _column_header(text, match.start())
        if USERNAME_BEFORE.search(before) or (header is not None and USERNAME_HEADER.match(header)):
            found.append(PersonCandidate(match.start(), match.end(), 0.6, ["account name of a person"]))
    return found


def lowercase_candidates(tokens: list[Token], text: str, index: NameIndex) -> list[PersonCandidate]:
    """Lower-cased names ("talked to pernille yesterday"): listed names that are not ordinary words."""
    found: list[PersonCandidate] = []
    for token in tokens:
        word = token.text
        if not (word.islower() and len(word) >= 3 and NAME_WORD.match(word)):
            continue
        ranks = index.ranks(word)
        if ranks is None or ranks.best > 3000 or word_commonness(word) >= 2.8:
            continue
        if token.idx and text[token.idx - 1] in "=/:._-@#":
            continue  # "mfa=totp", "path/anna": a value or a path, not a name
        score = 0.35 + 0.3 * _rank_score(ranks.best) + (0.15 if token.pos_ == "PROPN" else 0.0)
        found.append(PersonCandidate(token.idx, token.idx + len(word), round(score, 3), ["lower-case listed name"]))
    return found


GENERATION = re.compile(r",?[ ]+(?:Jr|Sr|Jnr|Snr)\.?(?![\w])|[ ]+(?:II|III|IV)\b")


def _with_generation(candidate: PersonCandidate, text: str) -> PersonCandidate:
    """ "Sven Zimmer Jr.", "John Doe III": the suffix belongs to the name."""
    suffix = GENERATION.match(text, candidate.end)
    if suffix and candidate.score > 0:
        return PersonCandidate(candidate.start, suffix.end(), candidate.score, candidate.reasons)
    return candidate


def person_candidates(
    tokens: list[Token],
    text: str,
    index: NameIndex,
    ner_people: list[tuple[int, int]],
    address_starts: list[int] | None = None,
) -> list[PersonCandidate]:
    """Every name candidate in `text` with its score; the caller keeps those above its threshold.
    `address_starts` are where postal addresses begin: the line above one names its addressee."""
    candidates = [
        _with_generation(_score_run(tokens, i, j, text, index, ner_people), text)
        for i, j in _last_first(tokens, _runs(tokens, index), text)
    ]
    _addressees(candidates, text, address_starts or [])
    covered = [(c.start, c.end) for c in candidates]
    for start, end in ner_people:  # NER people the runs missed (odd capitalisation)
        value = text[start:end]
        if any(s < end and start < e for s, e in covered) or not re.fullmatch(
            r"[^\W\d_][^\W\d_ '’\-]*(?:[ '’\-][^\W\d_]+)*", value
        ):
            continue  # "contact_id", "klantnummer,naam": not the shape of a name
        capitalised = sum(w[0].isupper() for w in value.split())
        score = 0.55 if capitalised else 0.35  # "al fijo de": the English NER reading another language
        candidates.append(PersonCandidate(start, end, score, ["NER person (not name-shaped)"]))
    _lists_of_names(candidates, text)
    _same_person_again(candidates, text, index)
    found = (
        candidates
        + handle_candidates(text, index)
        + lowercase_candidates(tokens, text, index)
        + username_candidates(text, index)
        + register_candidates(text, index)
    )
    return [c for c in found if not part_of_a_code_or_schedule(text, c.start, c.end)]


def _addressees(candidates: list[PersonCandidate], text: str, address_starts: list[int]) -> None:
    """An address block starts with its addressee: "Ella Carlsen / Takamisawa Co. Ltd / 99 Fitzherbert St".
    A name-shaped line one or two lines above an address (a company line may sit between) is lifted."""
    for candidate in candidates:
        if candidate.score <= 0.0 or len(text[candidate.start : candidate.end].split()) < 2:
            continue
        line = text[_line_start(text, candidate.start) : _line_end(text, candidate.end)]
        if line.strip(" \t>|*•-,;") != text[candidate.start : candidate.end]:
            continue  # the name must fill its line
        below = _line_end(text, candidate.end)
        for _ in range(2):
            if below >= len(text):
                break
            next_start = below + 1
            while next_start < len(text) and text[next_start] in " \t\n":
                next_start += 1
            if any(next_start <= a <= _line_end(text, next_start) for a in address_starts):
                candidate.score = round(candidate.score + 0.35, 3)
                candidate.reasons.append("addressee above an address")
                break
            below = _line_end(text, next_start)


def _same_person_again(candidates: list[PersonCandidate], text: str, index: NameIndex, threshold: float = 0.5) -> None:
    """A document that names someone once names them again: "Marek Hemerka ... Hemerka said",
    "Landro ... Landro Panicucci". Words of accepted names lift other candidates made of them."""
    words = {
        w.casefold()
        for c in candidates
        if c.score >= threshold
        for w in re.findall(r"[^\W\d_]{3,}", text[c.start : c.end])
        if word_commonness(w) < 4.5
    }
    for candidate in candidates:
        if candidate.score >= threshold or candidate.score <= 0.0:
            continue
        own = [w.casefold() for w in re.findall(r"[^\W\d_]{3,}", text[candidate.start : candidate.end])]
        if own and any(w in words for w in own):
            candidate.score = round(max(candidate.score, threshold + 0.05), 3)
            candidate.reasons.append("same person named elsewhere in the text")


LIST_GAP = re.compile(
    r"^(?:[ \t]*[,;&/][ \t]*|[ \t]+(?:and|or|und|et|y|e|en|og|och)[ \t]+|[ \t]*,[ \t]*(?:and|und|et|y|e|en)[ \t]+)$"
)


def _lists_of_names(candidates: list[PersonCandidate], text: str, threshold: float = 0.5) -> None:
    """A word listed beside names is likely a name too: "Regina, Isabel and Sean". In a list of three
    or more where at least half are names, every name-shaped item is taken."""
    ordered = sorted((c for c in candidates if c.score > 0.0), key=lambda c: c.start)
    chains: list[list[PersonCandidate]] = []
    for candidate in ordered:
        if chains and LIST_GAP.match(text[chains[-1][-1].end : candidate.start]):
            chains[-1].append(candidate)
        else:
            chains.append([candidate])
    for chain in chains:
        accepted = sum(c.score >= threshold for c in chain)
        for k, candidate in enumerate(chain):
            if candidate.score >= threshold:
                continue
            if len(chain) >= 3 and accepted * 2 >= len(chain) and candidate.score >= 0.2:
                candidate.score = round(threshold + 0.05, 3)
                candidate.reasons.append(f"in a list of names ({accepted} of {len(chain)})")
            elif candidate.score >= 0.25 and any(
                chain[m].score >= threshold for m in (k - 1, k + 1) if 0 <= m < len(chain)
            ):
                candidate.score = round(candidate.score + 0.15, 3)
                candidate.reasons.append("listed with a name")


# A token made of letters, digits and joiners, with at least one digit: "bsl-db-03", "Wave3".
_CODE_AROUND = re.compile(r"[\w.\-]*\d[\w.\-]*")
WEEKDAYS = (
    r"mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|mo|di|mi|do|fr|sa|so|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag"
    r"|lu|ma|me|je|ve|di|lun|mar|mer|jeu|ven|sam|dim|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche"
)
_DAY_RANGE = re.compile(rf"(?i)^(?:{WEEKDAYS})\.?[ ]?[-–][ ]?(?:{WEEKDAYS})\.?$")
_VERSION_AFTER = re.compile(r"^[ ]?v?\d+(?:\.\d+)+\b")


def part_of_a_code_or_schedule(text: str, start: int, end: int) -> bool:
    """Spans that are never a person's name whatever the name lists say: part of a code with digits
    ("bsl-db-03", where "bsl" reads as a lower-case name), a day range ("Mon-Fri", "Mo–Fr"), or a
    product before its version number ("Rocky Linux 9.4"). The words at both edges of the span are
    read with what they are glued to."""
    for token, extended in (_glued_token(text, start, "left"), _glued_token(text, end, "right")):
        if extended and _CODE_AROUND.fullmatch(token) and any(ch.isdigit() for ch in token):
            return True
        if _DAY_RANGE.match(token):
            return True
    return _VERSION_AFTER.match(text[end : end + 12]) is not None


def _glued_token(text: str, position: int, side: str) -> tuple[str, bool]:
    """The whitespace-free token around a span's start (side "left") or end ("right"), and whether it
    reaches past the span on that side."""
    joiners = "-–_."
    left = right = position
    while left > 0 and (text[left - 1].isalnum() or text[left - 1] in joiners):
        left -= 1
    while right < len(text) and (text[right].isalnum() or text[right] in joiners):
        right += 1
    return text[left:right].strip(joiners), (left < position if side == "left" else right > position)
