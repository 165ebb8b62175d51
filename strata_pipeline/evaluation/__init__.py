"""Stage 8 logic: score retrieval against labelled golden questions."""
