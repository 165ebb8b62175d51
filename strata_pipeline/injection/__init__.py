"""Prompt-injection defence: scan text for instructions aimed at a model, with obfuscation undone.

Dagster-free; ingestion (chunks), answering (query_engine, answering/answer.py), enrichment and the
eval call it.
"""
