"""Group `ingest`: the files of a source-set read, classified and redacted (and, on demand, Claude's
proposed rule changes). Everything downstream of redacted_docs holds redacted text only."""
