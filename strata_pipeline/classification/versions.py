"""Outdated versions a corpus marks without an archive folder.

The `superseded-version` ranking rule finds old versions by their folder (`archive/`, `archiv/`).
Many corpora keep them elsewhere and say so in the document itself, or only in the file name:

- the title or a status line says so: "Password Policy 2021 (superseded)", "Lone Working Policy -
  ARCHIVED", "Status: Außer Kraft seit 1. Januar 2026", "Statut : abrogé";
- a banner opens the text: "> **Superseded** on 1 March 2025 by version 3", "**Veraltet.** Ersetzt
  durch die Preisliste 2025", "Diese Übersicht ist außer Kraft";
- two files in one folder differ only in a version or a year: `travel-policy-v2.md` beside
  `travel-policy-v3.md`, `gebuehren-2023.md` beside `gebuehren-2025.md`. The highest is current;
- a file's name adds a word for "old" to a file beside it: `checklist_v2_alt.txt` beside
  `checklist.txt`, `fees-old.md` beside `fees.md`;
- a folder says so in words the `superseded-version` rule does not list as a whole name:
  `_superseded/`, `ausser-kraft/`, `archive-2023/`, `old/`.

Only the head of a text is read (its title and first lines): a current policy may well say in its
body that an old form "was replaced by" a new one. German "ersetzt" is both "replaces" and
"replaced", so it counts only as "ersetzt durch" or at the end of a clause ("wurde ... ersetzt").

Plain functions over paths and text; classification/rules.py applies them to documents no ranking
rule matched.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

# A document found outdated here counts as the `superseded-version` rule's do (rules/corpus-rules.yaml).
WEIGHT = 0.8
IN_TEXT = "superseded-in-text"
IN_FOLDER = "older-version-in-folder"
UNDER_OLD_FOLDER = "outdated-folder"

# Words that say a document is no longer in force, in the languages the corpus rules name. Not
# "retired", "expired" or "revoked": a page about a server or a certificate says that of its subject.
_STATUS = (
    r"superseded|deprecated|obsolete|archived|withdrawn|replaced|outdated|rescinded"
    r"|no longer (?:valid|in force|applies|applicable|current|in use)|out of date"
    r"|veraltet|archiviert|au(?:ß|ss)er kraft|abgelöst|ungültig|zurückgezogen|nicht mehr gültig|überholt"
    r"|aufgehoben|ersetzt durch"
    r"|obsolète|archivée?|remplacée?|abrogée?|périmée?|caduque?|n'est plus en vigueur|plus en vigueur"
)
# In a title: inside its parentheses, last or before a comma or "by" ("(runbook v2, archived)",
# "(superseded by v3)", not "(including archived records)"), or alone after a dash at its end
# ("- ARCHIVED", "– außer Kraft", not "Pensions - retired staff").
_AFTER_IN_PARENS = r"(?=\s*(?:[,;)]|by\b|durch\b|par\b|on\b|seit\b|since\b|depuis\b|am\b|le\b))"
_TITLE_MARK = re.compile(rf"(?i)\([^()]*?\b(?:{_STATUS}){_AFTER_IN_PARENS}[^()]*\)|\s[-–—:]\s*\(?(?:{_STATUS})\)?\s*$")
_STATUS_LINE = re.compile(rf"(?im)^\W*(?:status|stand|statut|état)\s*:\s*(?:{_STATUS})\b")
# A banner: a line that opens with the word, followed by what a notice goes on with ("on 1 March",
# "by version 3", "seit", "durch", "par", punctuation or the end of the line).
_BANNER = re.compile(
    rf"(?im)^[>*_ \t]*(?:(?:hinweis|note|achtung|warning|attention|avis)\s*:\s*)?[*_]*(?:{_STATUS})\b[*_]*"
    r"(?=\s*(?:$|[.:;,!\-–—(*]|on\b|by\b|since\b|as of\b|in\b|seit\b|durch\b|am\b|zum\b|mit\b|par\b|le\b|depuis\b"
    r"|\d))"
)
# "This page has been superseded", "Diese Übersicht ist außer Kraft", "Cette version est obsolète",
# "Diese Satzung wurde durch die Baumschutzsatzung 2025 ersetzt".
_SELF = re.compile(
    r"(?i)\bthis (?:document|page|policy|version|procedure|runbook|guide|schedule|list|edition|notice)"
    r" (?:is|has been|was) (?:now )?(?:superseded|replaced|withdrawn|archived|deprecated|obsolete|no longer valid)"
    r"|\b(?:diese[rs]?|der vorliegende|die vorliegende) \w+ (?:ist|wurde|gilt) (?:seit [^.]{0,30} )?"
    r"(?:außer kraft|ausser kraft|veraltet|archiviert|aufgehoben|nicht mehr (?:gültig|in kraft)|ungültig"
    r"|durch [^.]{1,80} ersetzt)"
    r"|\b(?:cette|ce) \w+ (?:est|a été) (?:obsolète|remplacée?|archivée?|abrogée?|caduque?|plus en vigueur)"
)
_TITLE_LINE = re.compile(r"(?im)^(?:title\s*:|titel\s*:|titre\s*:|#{1,2}\s)\s*(.+)$")
HEAD_LINES = 12  # a notice stands right under the title


def head(text: str) -> str:
    """The title and first lines of a text: its front matter and HEAD_LINES lines after it."""
    lines = text.splitlines()
    end = 0
    if lines and lines[0].strip() == "---":
        end = next((i + 1 for i, line in enumerate(lines[1:], start=1) if line.strip() == "---"), 0)
    return "\n".join(lines[: end + HEAD_LINES])


def outdated_in_text(text: str) -> str | None:
    """The words by which a text's head says it is outdated, or None: a status in its title, a status
    line, a banner that opens with the status, or a sentence saying this document is outdated."""
    top = head(text)
    for title in _TITLE_LINE.findall(top):
        if found := _TITLE_MARK.search(title):
            return found.group(0).strip()
    for pattern in (_STATUS_LINE, _BANNER, _SELF):
        if found := pattern.search(top):
            return found.group(0).strip(" >*_")
    return None


_YEAR = re.compile(r"(?:19|20)\d\d")
# Path separators; a dot only outside a number, so "v3.12" stays one word.
_SPLIT = re.compile(r"[/\\_\-\s]+|(?<!\d)\.|\.(?!\d)")


def _path_words(doc_id: str) -> tuple[str, ...]:
    """The words of a path without its extension: "hr/policy-v2.1.md" -> ("hr", "policy", "v2.1")."""
    stem = re.sub(r"\.[A-Za-z][A-Za-z0-9]{0,4}$", "", doc_id)
    return tuple(w for w in _SPLIT.split(stem.casefold()) if w)


_VERSION = re.compile(r"v(\d+(?:\.\d+)*)")


def _version(word: str) -> tuple[int, ...] | None:
    """A path word read as a version, ordered: "2023" -> (2023,), "v3.12" -> (3, 12); None otherwise."""
    if _YEAR.fullmatch(word):
        return (int(word),)
    if found := _VERSION.fullmatch(word):
        return tuple(int(part) for part in found.group(1).split("."))
    return None


# Files of rows; every other format holds a text.
_TABLE_EXTENSIONS = frozenset({"csv", "tsv", "xlsx", "xlsm", "xls", "ods", "parquet"})


def older_versions(doc_ids: Iterable[str]) -> dict[str, str]:
    """Documents a newer file in the same folder supersedes, each with that file: paths equal but for
    one word that is a version or a year in both ("policy-v2.md" and "policy-v3.md"; "fees-2023.csv"
    and "fees-2025.csv"), of the same kind (years with years) and both tables or both texts: a policy
    rewritten often moves from one text format ("kuehlkette-2022.md") to another ("kuehlkette-2025.docx"),
    while a table beside a text ("fees-2024.csv", "fees-2025.md") holds other things. A version written
    in two formats ("policy-v3.md", "policy-v3.pdf") outdoes neither."""
    families: dict[tuple, list[tuple[tuple[int, ...], str]]] = defaultdict(list)
    for doc_id in doc_ids:
        words = _path_words(doc_id)
        table = doc_id.rsplit(".", 1)[-1].lower() in _TABLE_EXTENSIONS
        for at, word in enumerate(words):
            if (version := _version(word)) is not None:
                kind = "year" if _YEAR.fullmatch(word) else "v"
                family = (words[:at], words[at + 1 :], kind, table)
                families[family].append((version, doc_id))
    older: dict[str, str] = {}
    for members in families.values():
        top, newest = max(members)
        for version, doc_id in members:
            if version < top:  # a version written two ways ("v2", "v02") outdoes neither
                older.setdefault(doc_id, newest)
    return older


# Words by which a file name or a folder name says "old", in the languages the corpus rules name.
_OLD = (
    r"old|older|alt|alte|veraltet|obsolete|obsolète|obsoletes|obsolètes|superseded|outdated|deprecated"
    r"|archived|ancien|ancienne|anciens|anciennes|previous|vorherige"
)
_OLD_WORD = re.compile(rf"(?:{_OLD})")
# A folder for old versions: its name is nothing but such words, the archive words, "no longer in
# force" phrases and years or numbers ("_superseded", "ausser-kraft", "archive-2023", "old versions").
# A topic beside them ("email-archive", "altstadt") makes it a folder about something else.
_FOLDER_OLD = rf"{_OLD}|archive|archiv|archives|archivio|archivo|archief|au(?:ß|ss)er kraft|abgelöst|ungültig"
_OLD_FOLDER = re.compile(rf"(?:(?:{_FOLDER_OLD}|versions?|versionen|fassungen|\d+)(?: |$))+")
_OLD_IN_FOLDER = re.compile(rf"\b(?:{_FOLDER_OLD})\b")


def outdated_folder(doc_id: str) -> str | None:
    """The folder of `doc_id` whose name says its files are old versions, or None: only such words,
    at least one of them not a number or "versions"."""
    for folder in doc_id.split("/")[:-1]:
        words = " ".join(w for w in _SPLIT.split(folder.casefold()) if w)
        if _OLD_FOLDER.fullmatch(words) and _OLD_IN_FOLDER.search(words):
            return folder
    return None


def marked_older(doc_ids: Iterable[str]) -> dict[str, str]:
    """Documents whose file name is another's in the same folder plus a word for "old" (and perhaps a
    version): `checklist_v2_alt.txt` beside `checklist.txt`, each with that other file."""
    by_words: dict[tuple, str] = {}
    marked: list[tuple[tuple, str]] = []
    for doc_id in doc_ids:
        *folder, name = doc_id.split("/")
        extension = name.rsplit(".", 1)[-1].lower() if "." in name else ""
        words = _path_words(name)
        plain = tuple(w for w in words if not _OLD_WORD.fullmatch(w) and _version(w) is None)
        key = (tuple(folder), plain, extension)
        if plain and len(plain) < len(words) and any(_OLD_WORD.fullmatch(w) for w in words):
            marked.append((key, doc_id))
        elif plain == words:
            by_words[key] = doc_id
    return {doc_id: by_words[key] for key, doc_id in marked if key in by_words}
