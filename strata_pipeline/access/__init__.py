"""Document groups and the callers who may read them (groups.py), and API keys (keys.py)."""
