"""Strata Pipeline: document folders to a governed, evaluated Qdrant retrieval index, as Dagster assets.

Stage packages (discovery, classification, redaction, chunking, embedding, indexing, enrichment,
evaluation, retrieval, answering) import no Dagster; the Dagster definitions live in `defs/` and are
loaded by `definitions.py`.
"""
