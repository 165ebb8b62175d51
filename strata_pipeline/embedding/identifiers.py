"""Exact identifiers as their own lexical signal.

Error codes (E-1042), versions (v3.2, 4.2.1), part and ticket numbers (NR-4471-B, INC-20419) and
tokens mixing letters and digits are where embeddings fail: E-1042 and E-1024 look alike to a dense
model, and BM25 tokenisation splits them. Each identifier becomes one sparse dimension, so a query
naming one finds exactly the chunks that contain it.
"""

from __future__ import annotations

import re

import mmh3

IDENTIFIER = re.compile(
    r"(?<![\w.\-/])"
    r"(?:"
    r"(?=[\w.\-/]*\d)[A-Za-z0-9]+(?:[-_./][A-Za-z0-9]+)+"  # parts joined by - _ . / with a digit somewhere
    r"|(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{2,}"  # letters and digits in one token: v3, 4k, x86
    r")"
    r"(?![\w\-/]|\.\w)"
)


def identifiers(text: str) -> list[str]:
    """Identifiers in order of appearance, lower-cased (E-1042 and e-1042 are the same code)."""
    return [m.group().lower() for m in IDENTIFIER.finditer(text)]


def identifier_vector(text: str) -> tuple[list[int], list[float]]:
    """Sparse vector: one dimension per distinct identifier, valued 1 (present). Mentioning a code
    twice does not make a chunk hold it more; rarity is Qdrant's IDF."""
    indices = sorted({mmh3.hash(token, signed=False) for token in identifiers(text)})
    return indices, [1.0] * len(indices)
