"""Stage 5 logic: dense and BM25 sparse vectors for chunks, computed once per distinct text."""
