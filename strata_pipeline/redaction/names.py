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

This module gathers every candidate and lets candidates lift each other (an addressee above an
address, a name met again, a list of names); the parts live beside it: the cue words in
`name_cues`, word evidence in `name_evidence`, where a span sits in `name_layout`, the places and
table column around it in `name_neighbours`, the runs and their scores in `name_runs`, handles and
account names in `name_handles`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from strata_pipeline.redaction.name_cues import NAME_WORD, SAINT_BEFORE, SAINTS
from strata_pipeline.redaction.name_evidence import (
    PersonCandidate,
    Token,
    _is_name_shaped,
    _rank_score,
    given_name,
    misspells_common_word,
    popular_given_name,
    word_commonness,
)
from strata_pipeline.redaction.name_handles import handle_candidates, register_candidates, username_candidates
from strata_pipeline.redaction.name_index import NameIndex
from strata_pipeline.redaction.name_layout import _line_end, _line_start, reads_german
from strata_pipeline.redaction.name_runs import _german_noun, _last_first, _runs, _score_run
from strata_pipeline.text.calendar import WEEKDAY_ABBREVIATIONS, WEEKDAYS, alternation, names

# The first letter of a sentence inside a line: after ". ", "! " or "? " that close a word of two
# letters or more or a bracket, quote or emphasis ("1. a sketch" and "e.g. the" start nothing).
_MID_LINE_START = re.compile(r"(?:(?<=[^\W\d_]{2})|(?<=[)\]\"'*`]))[.!?][ \t]+[\"'(\[*]*([^\W\d_])")
# A line that opens a block of its own: a heading, quote or table row, or a list item.
_BLOCK_MARK = re.compile(r"[ \t]*(?:#+|>|\|)[ \t]")
_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+•]|\d+[.)])[ \t]")
# A delimited row (CSV, TSV): two separators with no space after them.
_DELIMITED = re.compile(r"(?:[^,;\t\n]*[,;\t](?! )){2,}")
_LINE_START = re.compile(r"[ \t]*(?:\d+[.)][ \t]+)?[\"'(\[*#>|•+ \t-]*([^\W\d_])")
_SENTENCE_END = re.compile(r"[.!?][\"')\]*_`]*[ \t]*$")
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n.*?\n---[ \t]*\n", re.DOTALL)


def sentence_starts(text: str) -> list[str]:
    """The first letters of `text`'s sentences: of lines that open a paragraph or a block (heading,
    table or delimited row, list item) or follow a line that ends a sentence, and of sentences inside
    a line. Not counted: a line that continues a hard-wrapped sentence ("the\\n   distance to the
    kerb"), a lower-case item of a list led into by a line ending in ":" or "?" ("Attach:\\n1. a
    sketch"), and the keys of YAML front matter."""
    starts: list[str] = []
    previous = last_text = ""
    in_list = lead_in = False
    for line in _FRONT_MATTER.sub("", text, count=1).splitlines():
        item = _LIST_ITEM.match(line) is not None
        if item and not in_list:
            lead_in = last_text.rstrip().endswith((":", "?"))
        if line.strip() and not item and not line[:1].isspace():
            in_list = False
        in_list = in_list or item
        block = item or _BLOCK_MARK.match(line) or _DELIMITED.match(line)
        opens = not previous.strip() or _SENTENCE_END.search(previous) or block
        first = _LINE_START.match(line)
        # a list led into by "...:" may go on in lower case: only its capitals tell
        if opens and first and not (in_list and lead_in and first.group(1).islower()):
            starts.append(first.group(1))
        starts.extend(m.group(1) for m in _MID_LINE_START.finditer(line))
        previous = line
        last_text = line if line.strip() else last_text
    return starts


def writes_in_case(text: str) -> bool:
    """Whether `text` starts its sentences with capitals (four in five, at least three): such a writer
    also capitalises names, so a lower-case word in it ("the kerb", "lidar windows", "New joiner") is
    not one. Chat and notes written all in lower case are not cased."""
    starts = sentence_starts(text)
    return len(starts) >= 3 and sum(c.isupper() for c in starts) >= 0.8 * len(starts)


def lowercase_candidates(tokens: list[Token], text: str, index: NameIndex) -> list[PersonCandidate]:
    """Lower-cased names ("talked to pernille yesterday"): listed names that are not ordinary words,
    in text that is not written in case."""
    found: list[PersonCandidate] = []
    if writes_in_case(text):
        return found
    for token in tokens:
        word = token.text
        if not (word.islower() and len(word) >= 3 and NAME_WORD.match(word)):
            continue
        ranks = index.ranks(word)
        if ranks is None or ranks.best > 3000 or word_commonness(word) >= 2.8:
            continue
        if ranks.best > 1500 and misspells_common_word(word):
            continue  # "whats the same day shiping cutoff": a slip of "shipping", not the rare name Shiping
        if token.idx and text[token.idx - 1] in "=/:._-@#":
            continue  # "mfa=totp", "path/anna": a value or a path, not a name
        score = 0.35 + 0.3 * _rank_score(ranks.best) + (0.15 if token.pos_ == "PROPN" else 0.0)
        found.append(PersonCandidate(token.idx, token.idx + len(word), round(score, 3), ["lower-case listed name"]))
    return found


# A host or system code: lower-case letters and digits joined by hyphens, with a digit ("zrh-uyuni-01",
# "prod-awx-2"); not part of an e-mail address or a handle.
_HOST_CODE = re.compile(r"(?<![\w.@\-])[a-z0-9]+(?:-[a-z0-9]+)+(?![\w@\-])")


def code_words(text: str) -> frozenset[str]:
    """The words of `text`'s host and system codes: "zrh-uyuni-01" gives "zrh" and "uyuni"."""
    return frozenset(
        part
        for code in _HOST_CODE.findall(text)
        if any(ch.isdigit() for ch in code)
        for part in code.split("-")
        if len(part) >= 3 and part.isalpha()
    )


# Code the text quotes: inline spans and the lines of fenced blocks.
_INLINE_CODE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
_FENCED_CODE = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
# The program a command line runs: its first word, past a prompt and sudo ("$ sudo barman recover").
_COMMAND = re.compile(r"\s*(?:[$#>]\s+)?(?:sudo\s+)?([a-z][a-z0-9]{2,})(?=\s|$)")


def _quoted_code(text: str) -> list[tuple[int, int]]:
    """Where `text` quotes code: each inline span's inside, then each fenced block's."""
    return [m.span(1) for m in _INLINE_CODE.finditer(text)] + [m.span(1) for m in _FENCED_CODE.finditer(text)]


def command_words(text: str) -> frozenset[str]:
    """The programs `text`'s quoted commands run: "`barman list-backup kf-erp`" gives "barman"."""
    lines = [line for start, end in _quoted_code(text) for line in text[start:end].splitlines()]
    return frozenset(m.group(1) for line in lines if (m := _COMMAND.match(line)))


def programs_run(texts: Iterable[str]) -> frozenset[str]:
    """The programs any of `texts` runs in a quoted command, read over a whole source-set: the runbook
    that runs `barman recover` tells the incident report that writes "the Barman server" what Barman
    is (PiiPolicy.systems). Host codes are not read here: a laptop may be named after its user."""
    return frozenset(word for text in texts for word in command_words(text))


def _named_in_codes(candidates: list[PersonCandidate], text: str) -> None:
    """A lone word the same text also writes as part of a host code, or runs as a command, is the
    system that code names: "the Uyuni server `zrh-uyuni-01`", "restore with Barman ... `barman
    recover`". People are neither hosts nor programs; a name-like word the small NER calls a person
    there ("Monthly Linux patching with Uyuni") loses that reading."""
    words = code_words(text) | command_words(text)
    if not words:
        return
    for candidate in candidates:
        value = text[candidate.start : candidate.end]
        if candidate.score > 0.0 and value.isalpha() and value.casefold() in words:
            candidate.weaken(0.6, "names a system the text writes in a host code or command")


def _in_quoted_code(candidates: list[PersonCandidate], text: str) -> None:
    """A run inside quoted code (an inline `span` or a fenced block) is most likely a profile, a job or a
    value the code names ("profile `Kestrel-Remote`", `launch "Linux Patch - Prod"`): weaker evidence
    of a person. Only weaker: a full name in code ("--author 'Jonas Weber'") still scores as one."""
    spans = _quoted_code(text)
    for candidate in candidates:
        if candidate.score > 0.0 and any(s <= candidate.start and candidate.end <= e for s, e in spans):
            candidate.weaken(0.3, "in quoted code")


# Quotes that hug a name after a word (Press "Goliath", presse « Marianne », Presse „Herkules“): things are named
# so, people are not. Not a field's quotes: a CSV cell (,"Anna",) or a JSON value ("first_name": "Anna").
_OPENING_QUOTE = re.compile(r"[^\W\d_][ \t]+[\"“„‚'‹«][ \u00a0\u202f]?$")
_CLOSING_QUOTE = re.compile(r"^(?:[ \u00a0\u202f]?[\"”“‘'›»])")
# A lower-case noun for a machine, a place in a plant or a room just before a name: "cell Berta", "station
# Morris", "presse Marianne". Roles ("operator Anna") are not in it.
_THING_BEFORE = re.compile(
    r"(?:^|[\s(])(?:cell|line|station|press|robot|machine|server|host|controller|furnace|crane|vessel|ship|room"
    r"|zelle|roboterzelle|linie|presse|maschine|anlage|raum|schiff|cellule|ligne|salle|navire"
    r"|serveur)[ \t]+$"
)


def _things_named(candidates: list[PersonCandidate], text: str) -> None:
    """A run in quotes that hug it ("Press "Goliath"", « Gaston »), or after a lower-case noun for a machine, a
    cell or a room ("cell Berta"), names a thing: weaker evidence of a person. A full name counts as before."""
    for candidate in candidates:
        if candidate.score <= 0.0 or "full name" in candidate.reasons:
            continue
        before, after = text[max(0, candidate.start - 30) : candidate.start], text[candidate.end : candidate.end + 2]
        if _OPENING_QUOTE.search(before) and _CLOSING_QUOTE.match(after):
            candidate.weaken(0.3, "a name in quotes")
        elif _THING_BEFORE.search(before):
            candidate.weaken(0.3, "after a noun for a thing")


# A place named after a saint, whole ("Saint-Aubin") or its part after the saint's word.
_SAINT_PLACE = re.compile(rf"{SAINTS}-[A-ZÀ-Ý][^\W\d_]+(?:-[^\W\d_]+)*")
_WORD_BEFORE = re.compile(r"([^\W\d_]+)[ \t]+$")


def _saints_places(candidates: list[PersonCandidate], text: str, index: NameIndex) -> None:
    """ "depuis Saint-Aubin", "Quelle Saint-Aubin": one hyphenated word after "Saint-" (or "Sainte-",
    "St-", "Sankt-") names a place, unless a given name comes before it ("Yves Saint-Laurent")."""
    for candidate in candidates:
        value = text[candidate.start : candidate.end]
        if candidate.score <= 0.0 or " " in value.strip():
            continue
        hyphen = value[:1] in "-‑"  # the run may start at the hyphen: "Saint" + "-Aubin"
        before = text[max(0, candidate.start - 40) : candidate.start + hyphen]
        saint = SAINT_BEFORE.search(before)
        whole = _SAINT_PLACE.fullmatch(value)
        if not (saint or whole):
            continue
        lead = saint.group(1) if saint else (word.group(1) if (word := _WORD_BEFORE.search(before)) else None)
        if lead and given_name(lead, index):
            continue
        candidate.weaken(0.5, "a place named after a saint")


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
    _named_in_codes(candidates, text)
    covered = [(c.start, c.end) for c in candidates]
    for start, end in ner_people:  # NER people the runs missed (odd capitalisation)
        value = text[start:end]
        if any(s < end and start < e for s, e in covered) or not re.fullmatch(
            r"[^\W\d_][^\W\d_ '’\-]*(?:[ '’\-][^\W\d_]+)*", value
        ):
            continue  # "contact_id", "klantnummer,naam": not the shape of a name
        # "al fijo de": the English NER reading another language; "von ZRH": a particle and a site code
        score = 0.55 if any(_is_name_shaped(w) for w in value.split()) else 0.35
        if reads_german(text, start) and all(_german_noun(w, index) for w in value.split()):
            score = 0.35  # "Anfang November erhalten Sie": the English model on German nouns
        candidates.append(PersonCandidate(start, end, score, ["NER person (not name-shaped)"]))
    _saints_places(candidates, text, index)
    _lists_of_names(candidates, text)
    _same_person_again(candidates, text, index)
    _in_quoted_code(candidates, text)
    _things_named(candidates, text)
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
    "Landro ... Landro Panicucci". Words of accepted names lift other candidates made of them. A common
    word lifts only in its place: an accepted name's popular given name alone ("Claire Dubois ... Claire
    souhaite"), its surname after a title ("Kerstin Lange ... Frau Lange")."""
    things = _read_as_things(candidates, text)
    for candidate in candidates:
        own = re.findall(r"[^\W\d_]{3,}", text[candidate.start : candidate.end])
        if candidate.score >= threshold and len(own) == 1 and own[0].casefold() in things and _ner_only(candidate):
            candidate.score = round(threshold - 0.05, 3)  # "Pool Rampe SG": one reading of nine calls it a person
            candidate.reasons.append("read as a thing elsewhere in the text")
    accepted = [re.findall(r"[^\W\d_]{3,}", text[c.start : c.end]) for c in candidates if c.score >= threshold]
    words = {w.casefold() for name in accepted for w in name if word_commonness(w) < 4.5}
    given = {name[0].casefold() for name in accepted if len(name) > 1 and popular_given_name(name[0], index)}
    surnames = {name[-1].casefold() for name in accepted if len(name) > 1}
    for candidate in candidates:
        if candidate.score >= threshold or candidate.score <= 0.0:
            continue
        own = [w.casefold() for w in re.findall(r"[^\W\d_]{3,}", text[candidate.start : candidate.end])]
        in_place = len(own) == 1 and (
            (own[0] in given and candidate.score >= 0.3) or (own[0] in surnames and "honorific" in candidate.reasons)
        )
        if own and (in_place or any(w in words for w in own)):
            candidate.score = round(max(candidate.score, threshold + 0.05), 3)
            candidate.reasons.append("same person named elsewhere in the text")


def _read_as_things(candidates: list[PersonCandidate], text: str) -> set[str]:
    """Words the NER reads alone as an organisation, product or place at least twice and more often than as
    a person in this text ("Rampe" of "Pool Rampe SG" in nine rows): one person reading is its error."""
    things: Counter[str] = Counter()
    people: Counter[str] = Counter()
    for candidate in candidates:
        own = re.findall(r"[^\W\d_]{3,}", text[candidate.start : candidate.end])
        if len(own) != 1:
            continue
        if any(r.startswith("NER person") for r in candidate.reasons):
            people[own[0].casefold()] += 1
        elif any(r.startswith("NER ") for r in candidate.reasons):
            things[own[0].casefold()] += 1
    return {word for word, count in things.items() if count >= 2 and count > people[word]}


def _ner_only(candidate: PersonCandidate) -> bool:
    """Whether nothing but the NER and the word's shape makes the candidate a person: no title, column,
    cue or full name."""
    return all(r.startswith(("name-likeness", "NER person", "capitalised")) for r in candidate.reasons)


# Between two listed names: a comma or a conjunction, and maybe the next one's role ("Olu Bakare; Matron Jane
# Whitley", where the role is no part of the run: name_roles.name_after_a_role).
LIST_GAP = re.compile(
    r"^(?:[ \t]*[,;&/][ \t]*|[ \t]+(?:and|or|und|et|y|e|en|og|och)[ \t]+|[ \t]*,[ \t]*(?:and|und|et|y|e|en)[ \t]+)"
    r"(?:[A-ZÄÖÜ][a-zäöüß]+[ \t]+)?$"
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
_DAY_LANGUAGES = ("en", "de", "fr")
_DAY = alternation(names(WEEKDAYS, _DAY_LANGUAGES) + names(WEEKDAY_ABBREVIATIONS, _DAY_LANGUAGES))
_DAY_RANGE = re.compile(rf"(?i)^(?:{_DAY})\.?[ ]?[-–][ ]?(?:{_DAY})\.?$")
# A version number ("Rocky Linux 9.4"), not a date ("Anna Schmidt 12.03.2024").
_VERSION_AFTER = re.compile(r"^[ ]?(?!\d{1,2}\.\d{1,2}\.(?:\d{4}|\d{2})\b)v?\d+(?:\.\d+)+\b")


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
