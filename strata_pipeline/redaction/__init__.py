"""Stage 3 logic: remove secret values and personal data before anything is chunked."""
