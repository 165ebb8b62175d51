"""The query router: semantic, aggregation, lookup or hybrid (see route.py)."""

from strata_pipeline.routing.route import ROUTES, Routing, route

__all__ = ["ROUTES", "Routing", "route"]
