"""What the parser read from a question: the intent, and the evidence the router weighs."""

from __future__ import annotations

from dataclasses import dataclass, field

from strata_pipeline.facts.intent import Intent


@dataclass(frozen=True)
class Parsed:
    intent: Intent | None
    score: float  # table evidence: label words 3, the counted noun 2.5, values 2, columns 1 each
    operation: str  # the operation the intent words named ("" when none did)
    evidence: list[str] = field(default_factory=list)  # what matched, for the routing reason
    names_table: bool = False  # the table's own name ("servers") or its key column ("sku") is named
    why: str = ""  # why no intent was read although a table was (for the refusal message)
    unplaced: str = ""  # a quality the question asks of the rows that no column or value holds ("duplex")


def refused(score: float, operation: str, evidence: list[str], why: str, names_table: bool) -> Parsed:
    """No intent, with the reason the router and the refusal message give."""
    return Parsed(None, score, operation, [*evidence, why], names_table, why)
