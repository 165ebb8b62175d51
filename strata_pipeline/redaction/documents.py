"""Redact the documents of a source-set one by one, reusing what was redacted before.

The per-document work of the `redacted_docs` asset, without Dagster: the asset passes its cache, the
detector factory and a progress callback (strata_pipeline/progress.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

from strata_pipeline.incremental.cache import DocumentCache, cache_key
from strata_pipeline.incremental.digests import text_sha256
from strata_pipeline.progress import Progress
from strata_pipeline.redaction.mailboxes import mailbox_words
from strata_pipeline.redaction.name_index import name_index
from strata_pipeline.redaction.names import programs_run
from strata_pipeline.redaction.organisations import named_organisations
from strata_pipeline.redaction.pii import PiiPolicy
from strata_pipeline.redaction.places import named_places
from strata_pipeline.redaction.redact import PiiDetector, redact_document

SKIPPED: dict[str, Any] = {"text": "", "tables_json": None, "audit": []}  # excluded or unreadable: nothing travels


def policy_for_set(texts: list[str], policy: PiiPolicy) -> PiiPolicy:
    """`policy` with what a source-set's documents (`texts`, all of them) say of their words: the places they
    name, the organisations' legal names, the programs they run and the parts of their mailboxes
    (redaction/places.py, redaction/organisations.py, names.programs_run, redaction/mailboxes.py)."""
    return dataclasses.replace(
        policy,
        places=named_places(texts, name_index()) | policy.places,
        organisations=named_organisations(texts, name_index()) | policy.organisations,
        systems=programs_run(texts) | policy.systems,
        mailbox_words=mailbox_words(texts),
    )


def redact_documents(
    docs: Iterable[dict],
    total: int,
    detector: Callable[[], PiiDetector],
    policy: PiiPolicy,
    digest: str,
    cache: DocumentCache,
    progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """One `{"text", "tables_json", "audit"}` per row of `docs` (classified documents), in order.

    A document whose text and tables were redacted before by the same detectors, policy and code
    (`digest`) reuses that result; `detector()` is called only when one must be redacted now, so an
    unchanged source-set never loads the NER model. `progress(done, total)` after every document.

    Words the set's documents name as places ("Kestwick campus", redaction/places.py) are read first,
    so that a document that only says "at Kestwick" keeps its campus, and what they say of the parts of
    their mailboxes ("the SIU": siu@ is a function's, redaction/mailboxes.py) and the programs they run
    in quoted commands (`barman recover`: "Barman" is a program, names.programs_run); a document's key
    holds those of them its text has.
    """
    rows = list(docs)
    indexed = [doc for doc in rows if doc["decision"] != "exclude" and doc["status"] == "ok"]
    policy = policy_for_set([doc["text"] for doc in indexed], policy)
    places, systems = policy.places, policy.systems
    loaded: PiiDetector | None = None
    out: list[dict[str, Any]] = []
    for number, doc in enumerate(rows, start=1):
        if doc["decision"] == "exclude" or doc["status"] != "ok":
            out.append(dict(SKIPPED))
        else:
            content = text_sha256(doc["text"])
            raw_tables = doc["tables_json"]
            lowered = doc["text"].casefold()
            held = sorted(p for p in places if p in doc["text"]) + policy.mailbox_words.held_by(doc["text"])
            held += sorted(f"organisation:{w}" for w in policy.organisations if w in doc["text"])
            held += sorted(f"program:{w}" for w in systems if w in lowered)
            key = cache_key(
                "redaction", content, None if raw_tables is None else text_sha256(raw_tables), digest, *held
            )
            redacted = cache.get(key)
            if redacted is None:
                loaded = loaded or detector()
                result, redacted_tables = redact_document(doc["text"], raw_tables, loaded, policy)
                redacted = {
                    "text": result.text,
                    "tables_json": redacted_tables,
                    "audit": [entry.__dict__ for entry in result.audit],
                }
                cache.put(key, content, redacted)
            out.append(redacted)
        if progress is not None:
            progress(number, total)
    return out
