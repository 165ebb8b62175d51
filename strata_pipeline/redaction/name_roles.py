"""Where a name-shaped run's name begins: a role before it ("Team Leader Sinead Walsh") is no part of it, an
initial before it ("K. O'Neill") is. Used by name_runs while it cuts runs; text only, no model."""

from __future__ import annotations

from strata_pipeline.redaction.name_cues import HONORIFICS, INITIAL, role_word
from strata_pipeline.redaction.name_evidence import Token, given_name, popular_given_name
from strata_pipeline.redaction.name_index import NameIndex


def initial_before(tokens: list[Token], i: int, runs: list[tuple[int, int]]) -> bool:
    """Whether the token before a run is an initial with its dot, a word of its own, in no earlier run."""
    if i == 0 or (runs and runs[-1][1] >= i):
        return False
    initial = tokens[i - 1]
    return (
        INITIAL.match(initial.text) is not None
        and initial.text.endswith(".")
        and initial.text.casefold().rstrip(".") not in HONORIFICS  # "M. Dubois": Monsieur
        and bool(initial.whitespace_)
        and (i == 1 or bool(tokens[i - 2].whitespace_) or tokens[i - 2].text in ("(", ",", ";", ":"))
    )


def name_after_a_role(tokens: list[Token], first: int, j: int, index: NameIndex) -> int | None:
    """Where the name of a run [first, j) begins when the run is a role and then a popular given name, alone or
    before a listed surname, each a word of its own ("Team Leader Sinead Walsh", "Kollegin Jana"), with no
    given name before the role ("Anna Maria Schmidt" stays whole, and so does "Klantenservice Albert Heijn",
    a business named after a person); None when it is not."""
    for k in (j - 2, j - 1):
        if k <= first or not popular_given_name(tokens[k].text, index) or not tokens[k - 1].whitespace_:
            continue
        if k == j - 2 and index.ranks(tokens[j - 1].text) is None:
            continue
        if role_word(tokens[k - 1].text) and not any(given_name(t.text, index) for t in tokens[first : k - 1]):
            return k
    return None
