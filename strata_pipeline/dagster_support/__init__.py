"""What the Dagster definitions under strata_pipeline/defs/ share, none of it a definition itself:

- catalog.py: the owner and tags every asset carries;
- lineage.py: code versions and the inputs a run was built from;
- metadata.py: compact markdown previews for the UI;
- run_config.py: run config shared by more than one asset (chunking);
- deliberate.py: the Dagster warnings about features used on purpose, silenced.
"""
