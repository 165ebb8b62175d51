"""Incremental runs: what a source-set's index was built from, and per-document caches.

- `fingerprint`: a digest of everything that shapes a source-set's index (its files, rules, golden
  set, index settings and the pipeline's code), recorded in each index version's manifest so an
  unchanged source-set is skipped before any work starts;
- `cache`: per-document results (extraction, redaction, ...) in SQLite, keyed by a digest of the
  content and of the code and settings that computed them, so a run recomputes only what changed;
- `digests`: the code and library digests those keys are made of.

No Dagster here: the assets, the CLI and the schedule call these functions.
"""
