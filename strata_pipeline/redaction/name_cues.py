"""The words and patterns that mark a person, or a place, a company or a thing, around a name.

The cue words are general language knowledge (how letters, chats and tables mark people), written
for this detector; none is taken from a corpus generator."""

from __future__ import annotations

import re

from strata_pipeline.redaction.premises import PREMISES_WORDS

HONORIFICS = frozenset(
    "mr mrs ms miss mx dr prof sir dame lord lady herr herrn frau fr hr mme mlle m monsieur madame sr sra srta "
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
        "factory store shop branch authority house"
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
# A person's role written before their name ("Team Leader Sinead Walsh", "Bürgermeisterin Claudia Vogt"): the
# job words, and these, which a run may also hold as a name's neighbour rather than make it a job title.
ROLE_WORDS = JOB_WORDS | frozenset(
    (
        "leader chair chairman chairwoman mayor councillor cllr nurse matron sister doctor "
        "bürgermeister bürgermeisterin kollege kollegin fahrer fahrerin disponent disponentin chef chefin "
        "sprecher sprecherin vorsitzender vorsitzende maire adjoint adjointe infirmier infirmière"
    ).split()
)


_LONG_JOB_WORDS = tuple(w for w in JOB_WORDS if len(w) >= 6)  # long enough to end a compound ("-leiter")


def role_word(word: str) -> bool:
    """A role before a name: a job word, or a compound that ends in one ("Teamleiter", "Projektleiterin")."""
    lowered = word.casefold().rstrip(".,")
    return lowered in ROLE_WORDS or lowered.endswith(_LONG_JOB_WORDS)


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
    r"|naam|voornaam|achternaam|klant|medewerker|contactpersoon|kontakt|kontaktperson"
    r"|responsible|technician|engineer|(?:approved|prepared|checked|signed|reviewed|recorded|reported|entered)[ _]by"
    r"|(?:erfasst|erstellt|gepr[üu]ft|freigegeben|genehmigt|gemeldet|bearbeitet|unterschrieben)[ _]von"
    r"|(?:saisi|[ée]tabli|v[ée]rifi[ée]|valid[ée]|approuv[ée]|sign[ée])e?[ _]par|responsable|interlocuteur"
    r"|r[ée]f[ée]rent|gestionnaire|technicien"
    # a German role, alone, as the head of a compound ("Kostenstellenverantwortlich", "Projektleiterin") or
    # after what it is for ("Instandhaltung verantwortlich")
    r"|(?:[a-zäöüß]+[ /-])?[a-zäöüß]*(?:verantwortliche?r?|leiter(?:in)?|ansprechpartner(?:in)?|bearbeiter(?:in)?"
    r"|beauftragte?r?|zuständige?r?|inhaber(?:in)?|betreuer(?:in)?|prüfer(?:in)?))$",
    re.IGNORECASE,
)
# Columns that hold organisations and places: a "Reifen Huber" under "garage" is a business.
HEADER_ORGANISATION_WORDS = re.compile(
    r"^(?:garage|workshop|company|supplier|vendor|provider|manufacturer|make|brand|shop|store|dealer"
    r"|carrier|contractor|organi[sz]ation|firm|bank|insurer|site|depot|campus|location"
    r"|city|town|country|region|branch|office|building|venue|werkstatt|firma|lieferant|anbieter|hersteller"
    r"|standort|ort|stadt|fournisseur|entreprise|société|ville)(?:s|es|e|en|n)?(?:[ _]?name)?$",
    re.IGNORECASE,
)


def holds_organisations(header: str) -> bool:
    """A column of organisations or places: the header, one of its parts ("PLZ / Ort", "Hersteller / Modell")
    or its last word ("Beliefert Depots", "Delivery sites") says so, and no part names people ("Kontakt /
    Firma" may hold a person's name)."""
    parts = [p.strip() for p in re.split(r"\s*/\s*", header) if p.strip()]
    if not parts or any(HEADER_NAME_WORDS.match(p) for p in parts):
        return False
    return any(HEADER_ORGANISATION_WORDS.match(p) or HEADER_ORGANISATION_WORDS.match(p.split()[-1]) for p in parts)


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


TIME_AFTER = re.compile(r"^[ \t]+\d{1,2}:\d{2}(?:[ \t]?[AaPp]\.?[Mm]\.?)?[ \t]*$", re.MULTILINE)


CAMEL_CASE = re.compile(r"^(?!Mc|Mac|De|Di|Da|Du|Le|La|Van|Von|Fitz|O['’])\w*[a-zà-ÿ][A-ZÀ-Ý]")


# First words of names of rooms, places, projects and workshops ("Room Aurora", "Lake Louise", "Project
# Phoenix", "Garage Rhône").
PLACE_HEADS = frozenset(
    "room hotel project team operation camp lake port cape mount fort villa station hall "
    "depot warehouse plant site standort werk lager filiale klinik campus krankenhaus spital garage werkstatt "
    "klantenservice kundenservice kundendienst service support departamento servicio sala "
    # German and French rooms and buildings ("Raum Fugger", "Salle Confluence"), and a spa town ("Bad Hersfeld")
    "raum saal haus gebäude salle bâtiment bad".split()
)
# Lower-case nouns that make the capitalised word before them a place ("Kestwick campus", "Basel office").
PLACE_NOUNS_AFTER = frozenset(
    "campus office site branch depot clinic hospital station airport plant warehouse hub building "
    "headquarters location facility".split()
)
UNIT_WORDS = frozenset("apt apartment suite ste unit flat floor room box bldg building".split())
GREETING_WORDS = frozenset(
    "hi hello hey dear hallo liebe lieber bonjour salut cher chère hola ciao caro cara gentile hoi beste "
    "thanks thank welcome morning evening attn attention".split()
)


# An indefinite, negative or interrogative determiner right before a lone capitalised word makes it a noun
# ("kein Duplex", "a Laptop", "une Tablette", "Welcher Kurs"), never a person's name; definite German
# articles are left out ("die Müller" is how some write a name).
DETERMINER_BEFORE = re.compile(
    r"(?i)(?:^|[\s(\"'“„«])(?:a|an|no|any|another|ein|eine|einen|einem|einer|kein|keine|keinen|keinem|keiner|jede[nmrs]?"
    r"|je|pro|un|une|aucun|aucune|chaque|which|welche[nmrs]?|quel|quelle|quels|quelles"
    # "my" names a thing one has: the portal "Mein Asterra", "My Vodafone". Not "dein", "ton", "your",
    # which sign letters ("Dein Max"), nor "ma" ("but" in Italian: "ma Anna ha detto")
    r"|my|mein|meine|meinen|meinem|meiner|mon|mes|mijn|mi|mio|mia)[ \t]+$"
)
# Currencies whose name is also a given name or an ordinary word ("45.000 Mark", "200 Rand", "5 Real"):
# after an amount the word is the unit. Only such collisions are listed: "Euro" or "Dollar" is no name.
CURRENCY_WORDS = frozenset(
    "mark marks franc francs franken rand real reais peso pesos pound pounds lira lire krone kronen kroner "
    "kronor lev leva dinar dinars".split()
)
# An amount before a word: a number that is not a year ("In 2019 Mark joined" names a person).
AMOUNT_BEFORE = re.compile(r"(?<![\d.,'’])(?!(?:1[89]|20)\d\d[ \t]+$)\d[\d.,'’]*[ \t]+$")
# A definite article or its contraction right before a run: in German text the run is a noun phrase.
# German nouns take an article, or a plural quantifier: "wie viele Tage Urlaub", "mehrere Busse".
GERMAN_ARTICLE_BEFORE = re.compile(
    r"(?:^|[\s(])(?i:der|die|das|den|dem|des|am|im|zum|zur|vom|beim|ins"
    r"|viele|vielen|wenige|wenigen|mehrere|mehreren|einige|einigen|manche|manchen)[ \t]+$"
)
LEADING_WORDS = frozenset("the a an this that our my your his her their le la les der die das el il lo".split())


# After a run: a model or part code on the same line ("Wrist Seal Kit NR-4471-B", "Drill GSR-12"): a product.
CODE_AFTER = re.compile(r"^ (?=[A-Z0-9\-]*\d)[A-Z][A-Z0-9]*-?[A-Z0-9]*\d[A-Z0-9\-]*\b")
# After a run: a version number ("Rocky Linux 9 servers", "Jira 9.12"): the run is a product. Dotted, or
# a whole number before a lower-case word: a number that ends a line or a phrase is a house number
# ("Stradone Antonio Provolo 66"), and no date ("12.03.2025") or figure that goes on ("3,5 t") counts.
VERSION_AFTER = re.compile(r"^ (?:\d{1,2}\.\d{1,3}(?:\.\d{1,3})?(?![\w.,:/\-])|\d{1,2}(?= [a-z]))")
# Before a run: the saint of a place name ("Saint-Aubin", "Sainte-Croix", "St-Imier"); the word before it
# may be a given name ("Yves Saint-Laurent"), which the caller checks.
SAINTS = r"(?:Saint|Sainte|St|Ste|Sint|Sankt)"
SAINT_BEFORE = re.compile(rf"(?:(?<=\s)|^)(?:([^\W\d_]+)[ \t]+)?{SAINTS}-$")
# After a run: "and"/"und"/"et" and a capitalised word ("Park and Ride", "Health and Safety").
COORDINATED_AFTER = re.compile(r"^[ \t]+(?:and|&|und|et)[ \t]+([A-ZÀ-Ý][^\W\d_]+)")
NAMED_AFTER_BEFORE = re.compile(
    r"(?i)\b(?:salle|rue|avenue|boulevard|quai|lycée|collège|école|musée|métro|gare|aéroport|aeroporto|aeropuerto"
    r"|airport|stazione|estación|estadio|stadium|museo|museum|sala|teatro|théâtre|theatre|hospital|hôpital|ospedale"
    r"|piazza|plaza|calle|via|straße|strasse|platz|allee|institut|institute|universität|university|université"
    r"|hotel|hôtel|room|hall|ward|wing|building|bâtiment|campus|school|scuola|escuela|schule|bridge|pont|ponte"
    r"|prix|premio|preis|award|prize|foundation|fondation|stiftung|fondazione|fundación)"
    r"[ \t]+(?:(?:de|du|des|la|le|di|del)[ \t]+)?$"
)
# A premises noun and a Romance "of" before a run: "dépôt de Lausanne", "agence d'Annecy", "sede di Lugano".
PREMISES_OF_BEFORE = re.compile(rf"(?i)\b(?:{PREMISES_WORDS})[ \t]+(?:de|du|des|de la|d'|d’|di|del|della)[ \t]*$")
# Right before an abbreviated unit: a number or range ("1 Pal.", "2–5 Pal.") or a rate word ("je Pal.").
ABBREVIATED_UNIT_BEFORE = re.compile(r"(?:\d|\b(?:je|pro|per|par|à|x))[ \t]+$")
# Before a run: a unit noun that the run names ("Network Squad Rhone", "Team Phoenix", "Équipe Loire").
UNIT_BEFORE = re.compile(r"(?i)\b(?:squad|team|crew|taskforce|unit|division|abteilung|équipe|equipe)[ \t]+$")
# After a run: a kind of software or machine it names ("the Barman server", "Jamf agent").
SYSTEM_AFTER = re.compile(
    r"(?i)^(?:[ \t]+|[ \t]*\n[ \t]*)(?:backup[ \t]+)?(?:servers?|clusters?|clients?|agents?|plugins?|plug-ins?"
    r"|appliances?|daemons?|instances?|repositor(?:y|ies)|databases?|console|dashboard)\b"
)
NAMED_AFTER_AFTER = re.compile(  # also past a generation: "Martin Luther King Jr. Day" is a holiday
    r"(?i)^(?:,?[ \t]+(?:jr|sr)\.?)?[ \t]+(?:(?-i:Day)|airport|lecture|lectures|award|awards|prize|foundation"
    r"|institute|center|centre|museum"
    r"|stadium|memorial|bridge|embankment|hospital|university|college|school|library|theatre|theater|hall"
    r"|fellowship|scholarship|medal|building|tower|square|park|street|road|avenue)\b"
)
