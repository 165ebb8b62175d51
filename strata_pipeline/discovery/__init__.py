"""Stage 1 logic: find the files of a source-set and extract their text (no dagster here)."""
