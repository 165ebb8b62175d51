"""What a query request may contain: one set of rules for the API, the CLI and the partitions.

Plain functions over `re` and nothing else, so `strata search` pays nothing to import them. Each
check raises `ValueError` with a message that names the problem, never the whole input.
"""

from __future__ import annotations

import re

# How many hits a search or an answer may ask for. The upper bound keeps one request's cost (fusion,
# rerank, the answerer's sentence embeddings) bounded; asking for more is a request to page, not to search.
K_MIN = 1
K_MAX = 50
K_DEFAULT = 5

QUERY_MAX_CHARS = 2000
# A chat turn holds at most 4,000 characters and a history 20 turns: an over-long turn (the API answers
# 422) still fits in the 64 KiB body limit, even escaped as \uXXXX pairs, rather than being cut off (413).
TURN_MAX_CHARS = 2 * QUERY_MAX_CHARS
HISTORY_MAX_MESSAGES = 20
# A source-set is a folder name (the partition key); no file system takes a longer name.
SOURCE_SET_MAX_CHARS = 255
# A doc_id is a path relative to its source-set.
DOC_ID_MAX_CHARS = 1024

# Partition keys: lowercase slugs. They name folders under the corpus root and the reports folder, so
# nothing that is not a slug may reach a path (no "/", no "..", no leading dot or dash).
SOURCE_SET_PATTERN = "^[a-z0-9][a-z0-9_-]*$"
_SOURCE_SET = re.compile(r"[a-z0-9][a-z0-9_-]*")

# Characters a query may never hold: C0 controls but tab, newline and carriage return; DEL; C1
# controls. Lone surrogates are refused too (they are not Unicode text and cannot be encoded to UTF-8),
# by their own check: a schema's regex engine works on Unicode scalar values and cannot name them.
_FORBIDDEN = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
# Characters that show nothing: whitespace and the invisible format characters (soft hyphen,
# zero-width space and joiners, direction marks and isolates, word joiner, byte-order mark).
_INVISIBLE = r"\t\n\r \x85\xa0\xad\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u2066-\u206f\u3000\ufeff"
# The query rule as one pattern, for the OpenAPI schema (clients and schemathesis generate from it):
# only allowed characters, and at least one that shows. `check_query` applies the same classes (and
# refuses lone surrogates, which no JSON Schema validator can meet).
QUERY_PATTERN = f"^[^{_FORBIDDEN}]*[^{_FORBIDDEN}{_INVISIBLE}][^{_FORBIDDEN}]*$"
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_CONTROL = re.compile(f"[{_FORBIDDEN}]")
_VISIBLE = re.compile(f"[^{_FORBIDDEN}{_INVISIBLE}]")

PREVIEW_CHARS = 40


def preview(text: str, limit: int = PREVIEW_CHARS) -> str:
    """A short, printable prefix of untrusted text for an error message: never the whole input, and
    encodable whatever it holds (a lone surrogate becomes its escape)."""
    # repr escapes what cannot be printed, lone surrogates and control characters included
    return repr(text[:limit]) + (f"… ({len(text)} characters)" if len(text) > limit else "")


def check_query(text: str) -> str:
    """The query, if it is one: at most QUERY_MAX_CHARS characters, valid Unicode, no control
    characters but tab and newline, and at least one character that shows."""
    if len(text) > QUERY_MAX_CHARS:
        raise ValueError(f"the query has {len(text)} characters; at most {QUERY_MAX_CHARS} are allowed")
    if (found := _SURROGATE.search(text)) is not None:
        raise ValueError(
            f"the query holds a lone surrogate (U+{ord(found.group()):04X}) at {found.start()}: not Unicode"
        )
    if (found := _CONTROL.search(text)) is not None:
        raise ValueError(
            f"the query holds control character U+{ord(found.group()):04X} at {found.start()}; "
            "only tab, newline and carriage return are allowed"
        )
    if _VISIBLE.search(text) is None:
        raise ValueError("the query is empty or only whitespace and invisible characters")
    return text


def is_source_set_name(name: str) -> bool:
    """The partition rule: a lowercase slug (a-z, 0-9, -, _), starting with a letter or digit."""
    return len(name) <= SOURCE_SET_MAX_CHARS and _SOURCE_SET.fullmatch(name) is not None


def check_source_set(name: str) -> str:
    if not is_source_set_name(name):
        raise ValueError(
            f"{preview(name)} is not a source-set name: source-sets are lowercase slugs "
            f"(a-z, 0-9, -, _; at most {SOURCE_SET_MAX_CHARS} characters), one folder of the corpus root"
        )
    return name


def check_doc_id(doc_id: str) -> str:
    if len(doc_id) > DOC_ID_MAX_CHARS:
        raise ValueError(f"the doc_id has {len(doc_id)} characters; at most {DOC_ID_MAX_CHARS} are allowed")
    if (found := _SURROGATE.search(doc_id)) is not None:
        raise ValueError(f"the doc_id holds a lone surrogate at {found.start()}: not Unicode")
    return doc_id
