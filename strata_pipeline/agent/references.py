"""Back-references and the names that stand in for them: what "it", "its", "they" in a follow-up question
mean once a step has found a document or the question names a thing.

- `resolve_back_reference`: "What time does it close?" with "Munich Depot" -> "What time does Munich Depot close?";
- `entity_name`: the name a found document's title gives its subject;
- `subject_name`: the proper name a question is about;
- `named_in`: which found document the answer names.

Pure functions over the question's text.
"""

from __future__ import annotations

import re

# A proper name the first question is about: a run of capitalised words after its first word ("CarePlus")
PROPER_NAME = re.compile(r"(?<=\s)(?:[A-Z][\w-]*[a-z][\w-]*)(?:\s+[A-Z][\w-]*[a-z][\w-]*)*")

# A word that names something: capitalised, then lower-case letters ("Basel", not "IT" or "on-site")
NAME_WORD = re.compile(r"\b[A-ZÄÖÜ][a-zäöüéèàç]{2,}\b")
# The back-references an entity can stand in for ("this", "that", "there" also start other phrases)
REFERRING = re.compile(r"\b(?P<word>it|its|they|them|their)\b", re.IGNORECASE)
QUANTIFIED = re.compile(r"\b(?P<q>many|much)\s+of\s+(?P<p>them|it)\b", re.IGNORECASE)
# Where a document title stops naming its subject: "Munich Depot - Site Information" -> "Munich Depot"
TITLE_TAIL = re.compile(r"\s+[-\u2013\u2014|]\s+.*$|:\s.*$")


def subject_name(question: str) -> str:
    """The proper name a question is about: its first run of capitalised words after the first word ("How
    long does CarePlus extend the warranty?" -> "CarePlus"); "" when it names none. Only English pronouns
    are rewritten with it (resolve_back_reference), so German nouns, capitalised too, replace nothing."""
    m = PROPER_NAME.search(question)
    return m.group() if m else ""


def resolve_back_reference(question: str, entity: str) -> str:
    """`question` with "it", "they", "them" replaced by `entity` and "its", "their" by "<entity>'s":
    "What time does it close?" -> "What time does Munich Depot close?". A question that says neither is
    returned as it is, and so is any question when `entity` is empty."""
    entity = " ".join(entity.split())
    if not entity:
        return question

    # "how many of them" counts the entity itself: "How many days of leave can be carried over?"
    question = QUANTIFIED.sub(r"\g<q> \g<p>", question)

    def name(m: re.Match[str]) -> str:
        return f"{entity}'s" if m["word"].lower() in ("its", "their") else entity

    return REFERRING.sub(name, question)


def entity_name(title: str, doc_id: str = "") -> str:
    """What a found document is about, to stand in for a back-reference: its title up to a dash or colon
    ("Munich Depot - Site Information" -> "Munich Depot"), or after it when only that part names something
    ("IT on-site support — Basel office" -> "Basel office"), else its file name ("sites/lyon-depot.md" ->
    "lyon depot")."""
    title = " ".join(title.split())
    head = TITLE_TAIL.sub("", title).strip()
    tail = title[len(head) :].strip(" -\u2013\u2014|:")
    if head and not NAME_WORD.search(head) and NAME_WORD.search(tail):
        return TITLE_TAIL.sub("", tail).strip()
    if head:
        return head
    stem = doc_id.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return " ".join(re.split(r"[-_\s]+", stem)).strip()


def named_in(found: list[tuple[str, str]], answer: str) -> int:
    """The position among `found` (doc_id, title) of the first document whose title names a thing the answer
    names too ("Which site hosts the DR data center?" answered "Basel is ...": the Basel page, not the WAN
    overview cited before it); 0 when none does."""
    for position, (_, title) in enumerate(found):
        if any(re.search(rf"\b{re.escape(w)}\b", answer) for w in NAME_WORD.findall(title)):
            return position
    return 0
