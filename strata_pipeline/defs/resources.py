"""Every resource the assets, checks, schedule and sensor ask for, configured from the environment
(settings.py). `build_definitions` in definitions.py binds the same keys to other settings."""

import dagster as dg

from strata_pipeline.resources.factory import build_resources
from strata_pipeline.settings import load_settings


@dg.definitions
def resources() -> dg.Definitions:
    return dg.Definitions(resources=build_resources(load_settings()))
