"""Words a source-set writes as the first word of an organisation's legal name: "Kessler" of "Kessler
Antriebstechnik GmbH".

A company's own documents name it everywhere, often by that word alone ("the Kessler network", "your
Kessler user account"), where the NER reads a surname as a person: masked, the company's name leaves
every answer about it. Read over the whole set before any document is redacted (like places.py), a word
that several documents write before a legal form is kept where it stands alone, unless a title makes
it a person's ("Herr Kessler", name_evidence.titled): PiiPolicy.decide.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from strata_pipeline.redaction.name_evidence import popular_given_name
from strata_pipeline.redaction.name_index import NameIndex
from strata_pipeline.text.legal_forms import LEGAL_FORM

# A cell or line that is a company's name: it ends with its legal form ("Brandner Gusswerk GmbH").
COMPANY_NAME = re.compile(rf"[^\W\d_][\w.&-]*[ \t]+(?:&[ \t]+)?{LEGAL_FORM}[ \t]*$")
# Its first word, then up to three more capitalised words or "&" ("Kessler Antriebstechnik GmbH", "Neumann &
# Söhne GmbH").
_LEGAL_NAME = re.compile(
    rf"(?<![\w-])([A-ZÄÖÜ][^\W\d_]{{2,}})(?:[ \t]+(?:&|[A-ZÄÖÜ][\w.-]*)){{0,3}}[ \t]+{LEGAL_FORM}(?![\w])"
)


def named_organisations(texts: Iterable[str], index: NameIndex, at_least: int = 3) -> frozenset[str]:
    """First words of legal names that at least `at_least` of the texts write; not a popular given name
    ("Thomas Cook Ltd": "Thomas" stays a name) nor a word in capitals (an acronym)."""
    counts = Counter(word for text in texts for word in {m.group(1) for m in _LEGAL_NAME.finditer(text)})
    return frozenset(
        word
        for word, count in counts.items()
        if count >= at_least and not word.isupper() and not popular_given_name(word, index)
    )
