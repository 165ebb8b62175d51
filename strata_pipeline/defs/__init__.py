"""The Dagster definitions, loaded by `dg.load_from_defs_folder` (strata_pipeline/definitions.py).

One folder per asset group, each holding its assets and their checks:

- ingest/: discovered_docs, classified_docs, redacted_docs (+ check), rule_proposals;
- index/: chunks, embeddings, qdrant_collection (+ checks), published_index;
- enrich/: enriched_sidecar;
- evaluate/: eval_report (+ check), redaction_quality (unpartitioned);

then automation/ (jobs, the nightly schedules, the new-source-set sensor), resources.py (every
resource, configured from the environment) and execution.py (the default executor).

Assets are thin: each calls a stage package that imports no Dagster.
"""
