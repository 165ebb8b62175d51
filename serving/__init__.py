"""The Strata query API (FastAPI) over the published index versions and their sidecars."""
