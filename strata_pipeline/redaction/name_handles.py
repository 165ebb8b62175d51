"""Names written as handles and accounts: chat speakers ("[09:14] anna.k: ..."), @mentions, account
names ("Assigned to: jkowalski") and SURNAME/GIVEN lines of booking registers."""

from __future__ import annotations

import re

from strata_pipeline.redaction.name_cues import CALENDAR_WORDS, LABEL_WORDS, NAME_WORD, ROLE_BEFORE, SIGN_OFF_WORDS
from strata_pipeline.redaction.name_evidence import PersonCandidate, token_name_evidence, word_commonness
from strata_pipeline.redaction.name_index import NameIndex
from strata_pipeline.redaction.name_layout import _column_header, _reads_like_a_message

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


# An acronym written as part of a compound ("TK" of "TK-Ware", "IT" of "IT-Support").
_ACRONYM = re.compile(r"[A-ZÄÖÜ]{2,4}")

MENTION = re.compile(r"(?<![\w.])@(?P<handle>[A-Za-zÀ-ÿ][\w.\-]{1,30}[A-Za-z0-9])")


MACHINE_WORDS = frozenset(
    "bot bots svc service alerts alert system admin root noreply notify notifications jenkins github gitlab ci cd "
    "deploy monitor monitoring cron daemon webhook pagerduty opsgenie sentry grafana".split()
)


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
            if "-" in handle and any(_ACRONYM.fullmatch(p) for p in parts):
                continue  # "TK-Ware:", "IT-Support:": a compound with an acronym heads a paragraph, no speaker
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
