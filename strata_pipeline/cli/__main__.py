"""`python -m strata_pipeline.cli`, as the console script does."""

from strata_pipeline.cli import main

main()
