"""Stage 2 logic: decide per document whether it is indexed, and record why."""
