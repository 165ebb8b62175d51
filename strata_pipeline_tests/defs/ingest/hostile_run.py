"""Materialise one partition and print a JSON summary; run as a subprocess by the hostile-corpus test.

It is a separate process so that, when the tests run as root, it can run without the
capabilities that let root read any file: an unreadable file is then really unreadable.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import dagster as dg

from strata_pipeline.definitions import build_definitions
from strata_pipeline.resources import CorpusResource
from strata_pipeline.resources.factory import build_resources
from strata_pipeline.settings import load_settings


def main(home: str, corpus: str, partition: str) -> None:
    settings = dataclasses.replace(load_settings(), home=Path(home), corpus_root=Path(corpus), qdrant_url="")
    base = build_resources(settings)["corpus"]
    # Small limits so that a 300 kB text file and a 1 MB zip package trip them.
    corpus_resource = CorpusResource(**{**base.model_dump(), "max_file_bytes": 200_000, "max_zip_expansion": 100_000})
    job = build_definitions(settings, {"corpus": corpus_resource}).resolve_job_def("index_source_set")
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("source_sets", [partition])
    result = job.execute_in_process(instance=instance, partition_key=partition, raise_on_error=False)
    metadata = {
        e.materialization.asset_key.path[-1]: {k: v.value for k, v in e.materialization.metadata.items()}
        for e in result.get_asset_materialization_events()
    }
    checks = {e.check_name: e.passed for e in result.get_asset_check_evaluations()}
    print(json.dumps({"success": result.success, "metadata": metadata, "checks": checks}, default=str))


if __name__ == "__main__":
    main(*sys.argv[1:4])
