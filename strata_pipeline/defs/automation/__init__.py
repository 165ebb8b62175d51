"""Jobs, the new-source-set sensor and the nightly re-index schedule: what launches the assets."""
