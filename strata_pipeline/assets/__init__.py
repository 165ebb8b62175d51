"""The asset graph, one module per asset in pipeline order:

discovered_docs -> classified_docs -> redacted_docs -> chunks -> embeddings -> qdrant_collection
-> enriched_sidecar -> eval_report -> published_index
"""
