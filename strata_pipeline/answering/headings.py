"""The heading an answer needs: "Which campus has the emergency department?" is answered by a list item
under "## Kestwick campus (Mill Lane)" that says only "Emergency department (open 24 hours), entrance A".
The item is the evidence; the campus it belongs to is its section's heading. When the question asks which
thing of a kind ("which campus", "welcher Standort", "quel site") and a quoted sentence's heading names a
thing of that kind that the sentence does not, the answer shows the heading before the quote. The quote
itself stays exactly as written in the source (evidence packets check it there).

Pure functions over the question and the passage's heading path (en, de, fr).
"""

from __future__ import annotations

import re

# "which campus", "in which office", "welches Depot", "an welchem Standort", "quel site", "dans quelle salle"
WHICH_NOUN = re.compile(
    r"^\W*(?:(?:in|at|on|from|for|to|an|auf|bei|von|dans|sur|à|au|pour)\s+)?"
    r"(?:which|what|welche[rsmn]?|quel(?:le)?s?)\s+(?P<noun>[^\W\d_]{3,})\b",
    re.IGNORECASE,
)


# "what does", "what are", "quelles sont": a verb after the question word asks for no kind of thing
VERBS = frozenset(
    "is are was were does do did can could should must will would has have "
    "ist sind war waren hat haben kann muss wird est sont était a ont peut doit".split()
)


def asked_noun(question: str) -> str:
    """The kind of thing a "which <noun>" question asks for ("campus"), casefolded; "" when it asks none."""
    m = WHICH_NOUN.match(question)
    noun = m["noun"].casefold() if m else ""
    return "" if noun in VERBS else noun


def deepest_heading(heading_path: str) -> str:
    """The last heading of a chunk's heading path ("Campus directory > Kestwick campus" -> "Kestwick campus")."""
    return heading_path.split(" > ")[-1].strip(" #")


def answer_heading(question: str, quote: str, heading_path: str) -> str:
    """The deepest heading of `heading_path` to show before `quote`, when the question asks which thing of a
    kind, that heading names the kind ("Kestwick campus (Mill Lane)" for "which campus") and the quote does
    not name the thing; "" otherwise."""
    noun = asked_noun(question)
    heading = deepest_heading(heading_path)
    if not noun or not heading:
        return ""
    words = re.findall(r"[^\W\d_]+", heading.casefold())
    if not any(w == noun or w.rstrip("s") == noun.rstrip("s") for w in words):
        return ""
    named = [w for w in re.findall(r"[^\W\d_]+", heading) if w[0].isupper() and w.casefold() != noun]
    if not named or any(w.casefold() in quote.casefold() for w in named):
        return ""
    return heading
