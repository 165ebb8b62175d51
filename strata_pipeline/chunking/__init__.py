"""Stage 4 logic: split redacted documents into overlapping chunks with full provenance."""
