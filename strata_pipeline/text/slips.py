"""Typing slips: a word with one letter dropped, added or changed, or two neighbours swapped.

A typed question is full of them ("settlment", "hardhsip", "yaer"). Redaction reads a rare listed name
spelt like a slip of a common word as the slip (redaction/name_evidence.py); the answerer reads a
question's word that no passage holds, but that is one slip from a word a passage holds, as that word
(answering/names.py, siblings.py). Plain functions; no model.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

LETTERS = "abcdefghijklmnopqrstuvwxyzäöüßéèàç"
# A word as common as this (Zipf) is a word of its own, not a slip: "lease" is no slip of "least".
MAX_SLIP_ZIPF = 3.0


def one_slip_edits(word: str) -> set[str]:
    """Every case-folded string one slip from `word` (Norvig's edits1 with letters of en, de and fr)."""
    lowered = word.casefold()
    splits = [(lowered[:i], lowered[i:]) for i in range(len(lowered) + 1)]
    edits = {a + b[1:] for a, b in splits if b}
    edits |= {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    edits |= {a + c + b[1:] for a, b in splits if b for c in LETTERS}
    edits |= {a + c + b for a, b in splits for c in LETTERS}
    edits.discard(lowered)
    return edits


def slip_of(word: str, known: Collection[str], zipf: Callable[[str], float]) -> str | None:
    """The word of `known` (case-folded words) that `word` is a typing slip of, or None. Only a word of
    letters that is rare in itself (`zipf` under MAX_SLIP_ZIPF) is read as a slip, of a word that starts
    with its letter: of five letters or more by any slip, of four by two neighbours swapped only ("yaer").
    A word with digits never is: a code one character off is another code."""
    lowered = word.casefold()
    if len(lowered) < 4 or not lowered.isalpha() or zipf(lowered) >= MAX_SLIP_ZIPF:
        return None
    matches = [edit for edit in one_slip_edits(lowered) if edit in known and edit[:1] == lowered[:1]
               and (len(lowered) >= 5 or sorted(edit) == sorted(lowered))]  # fmt: skip
    return min(matches, default=None)  # the same word whichever order the edits come in
