"""Group `enrich`: the SQLite sidecar of an index version (document metadata, spreadsheet facts, audit)."""
