"""Stage 7 logic: structured per-document metadata and spreadsheet facts in a SQLite sidecar."""
