"""Words a source-set writes as the name of a place: "Kestwick campus", "the Brandholm site".

A document may name a campus or an office without saying what it is ("the prayer room at Kestwick",
"campuses (Kestwick and Brandholm)"), where the NER reads the unknown word as a person. Another document
of the same set says it ("Office: Kestwick campus"). Read over the whole set before any document is
redacted, that evidence keeps the word from being taken for a name in every document (PiiPolicy.places).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from strata_pipeline.redaction.name_cues import PLACE_NOUNS_AFTER
from strata_pipeline.redaction.name_evidence import word_commonness
from strata_pipeline.redaction.name_index import NameIndex

# A capitalised word right before a lower-case place noun; not a possessive ("Weber's office").
_BEFORE_PLACE_NOUN = re.compile(
    rf"(?<![\w'’.\-])([A-ZÀ-Ý][^\W\d_]{{2,}})[ ](?:{'|'.join(sorted(PLACE_NOUNS_AFTER))})\b"
)


def named_places(texts: Iterable[str], index: NameIndex, at_least: int = 2) -> frozenset[str]:
    """Words the texts write before a place noun at least `at_least` times ("Kestwick campus"), that no
    name list holds and that are no common word (those are judged well without it). A listed name
    ("Rowan ward", "Weber office") is never taken: the word may name a person elsewhere."""
    counts = Counter(m.group(1) for text in texts for m in _BEFORE_PLACE_NOUN.finditer(text))
    return frozenset(
        word
        for word, count in counts.items()
        if count >= at_least and not word.isupper() and index.ranks(word) is None and word_commonness(word) < 3.0
    )
