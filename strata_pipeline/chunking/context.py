"""A chunk's section context and the text embedded for it.

Plain string functions, apart from the chunker (which needs polars), so that answering and
reranking a query do not import polars.
"""

from __future__ import annotations


def chunk_context(title: str, heading_path: str) -> str:
    """ "Title > Section > Subsection", without repeating a title that is also the first heading."""
    if heading_path.startswith(title):
        return heading_path
    return " > ".join(part for part in (title, heading_path) if part)


def embedded_text(context: str, text: str) -> str:
    """What is embedded for one chunk: its text, led by its section context when it has one, so a
    child cut from the middle of "Lisbon depot > Opening hours" still says where it is from."""
    return f"{context}\n\n{text}" if context else text
