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


def ends_in_a_full_name(tokens: list[Token], first: int, j: int, index: NameIndex) -> bool:
    """Whether a run ends in a popular given name and a listed surname, each a word of its own, after a role
    and words none of which is a given name ("Anna Maria Schmidt" stays whole, and so does "Klantenservice
    Albert Heijn": a business named after a person)."""
    given, surname = tokens[j - 2], tokens[j - 1]
    return (
        bool(tokens[j - 3].whitespace_)
        and role_word(tokens[j - 3].text)
        and popular_given_name(given.text, index)
        and index.ranks(surname.text) is not None
        and not any(given_name(t.text, index) for t in tokens[first : j - 2])
    )
