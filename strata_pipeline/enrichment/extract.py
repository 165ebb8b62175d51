"""Deterministic metadata extraction from headings, front matter and `key: value` lines.

This is the offline path; with an Anthropic key the LLM fills the same fields (see llm.py).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import PurePosixPath

import yaml

from strata_pipeline.injection.defence import sentence_flagged

FRONT_MATTER = re.compile(r"\A---\s*\n(.*?)\n---\s*\n", re.DOTALL)
KEY_VALUE = re.compile(r"^(?P<key>[A-Za-z][A-Za-z _-]{1,30}):[ \t]+(?P<value>\S.{0,200})$", re.MULTILINE)
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$", re.MULTILINE)
WORD = re.compile(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ\-]{3,}")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
STOP = frozenset(
    (
        "this that with from have will your their there which about into when what where must "
        "should would could been were they them than then also only more most such each other these "
        "those after before under over upon within without page section document"
    ).split()
)


@dataclass
class DocMetadata:
    title: str
    category: str
    tags: list[str] = field(default_factory=list)
    summary: str = ""
    language: str = ""
    enriched_by: str = "extractor"

    def as_row(self) -> dict:
        return asdict(self)


def front_matter(text: str) -> dict:
    match = FRONT_MATTER.match(text)
    if not match:
        return {}
    try:
        data = yaml.safe_load(match.group(1))
    except yaml.YAMLError:
        return {}
    return data if isinstance(data, dict) else {}


def key_values(text: str, max_lines: int = 30) -> dict[str, str]:
    """`Key: value` lines near the top of a document, lower-cased keys."""
    head = "\n".join(text.splitlines()[:max_lines])
    return {m.group("key").strip().lower(): m.group("value").strip() for m in KEY_VALUE.finditer(head)}


def guess_title(text: str, doc_id: str) -> str:
    fm = front_matter(text)
    if fm.get("title"):
        return str(fm["title"]).strip()
    kv = key_values(text)
    if kv.get("title"):
        return kv["title"]
    heading = HEADING.search(text)
    if heading:
        return heading.group(1).strip()
    # a hyphen between digits stays: "2025-04-07" is a date; "2025 04 07" reads as a phone number
    stem = re.sub(r"(?<!\d)-|-(?!\d)", " ", PurePosixPath(doc_id).stem)
    return stem.replace("_", " ").strip().capitalize()


def summarise(text: str, max_chars: int = 300) -> str:
    """The first sentences of body text (headings, front matter and key lines skipped). A sentence
    that reads as an instruction to a model (injection scanner) is never copied into a summary."""
    body = FRONT_MATTER.sub("", text)
    lines = [
        ln.strip()
        for ln in body.splitlines()
        if ln.strip() and not ln.lstrip().startswith(("#", "|", "-", "*")) and not KEY_VALUE.match(ln.strip())
    ]
    summary = ""
    sentences = [s for s in SENTENCE_END.split(" ".join(lines)) if not sentence_flagged(s)]
    for sentence in sentences:
        if len(summary) + len(sentence) > max_chars:
            break
        summary = f"{summary} {sentence}".strip()
    return summary or " ".join(sentences)[:max_chars]


def _own_summary(fm: dict) -> str:
    """The document's front-matter summary, unless it is an injected instruction."""
    summary = str(fm.get("summary") or "")
    return "" if sentence_flagged(summary) else summary


def keyword_tags(text: str, limit: int = 5) -> list[str]:
    words = [w.lower() for w in WORD.findall(FRONT_MATTER.sub("", text))]
    counts = Counter(w for w in words if w not in STOP and not w.startswith(("redacted", "person", "email")))
    return [w for w, _ in counts.most_common(limit)]


def extract_metadata(text: str, doc_id: str, project: str, language: str) -> DocMetadata:
    fm = front_matter(text)
    kv = key_values(text)
    tags = fm.get("tags") or kv.get("tags") or []
    if isinstance(tags, str):
        tags = [t.strip() for t in tags.split(",") if t.strip()]
    return DocMetadata(
        title=guess_title(text, doc_id),
        category=str(fm.get("category") or kv.get("category") or project or "uncategorised"),
        tags=[str(t) for t in tags] or keyword_tags(text),
        summary=_own_summary(fm) or summarise(text),
        language=language,
    )
