"""Group `index`: redacted documents chunked, embedded and written to a new Qdrant index version,
which published_index serves once its checks and eval have passed."""
