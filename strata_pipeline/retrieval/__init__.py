"""Hybrid retrieval shared by the serving API and the eval report, so both measure the same thing."""
