"""Group `evaluate`: the golden-set eval of a new index version, whose blocking check guards publishing,
and the redaction benchmark, the same for every source-set."""
