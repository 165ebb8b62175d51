"""Every resource the assets, checks, schedule and sensor ask for, configured from the environment
(settings.py), secrets as dg.EnvVar. `build_definitions` in definitions.py binds the same keys to other settings."""

import dagster as dg

from strata_pipeline.resources.factory import dagster_resources
from strata_pipeline.settings import load_settings


@dg.definitions
def resources() -> dg.Definitions:
    return dg.Definitions(resources=dagster_resources(load_settings()))
