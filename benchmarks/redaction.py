"""Redaction cost per 1,000 characters for each PII backend, and the redaction stage's share of a
full materialisation. Run with `make bench` (or `python -m benchmarks.redaction`).

All figures are measured in the same run on the same machine, so the ratios compare like with like.
"""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path

import dagster as dg

from benchmarks.timing import ms_per_kchar
from strata_pipeline.cli.runs import QUIET_LOGS
from strata_pipeline.definitions import build_definitions
from strata_pipeline.discovery.adapters import FolderAdapter
from strata_pipeline.discovery.discover import discover_source_set
from strata_pipeline.partitions import source_sets
from strata_pipeline.redaction.pii import PiiPolicy, PresidioDetector
from strata_pipeline.redaction.redact import redact_text
from strata_pipeline.redaction.secrets import find_secrets
from strata_pipeline.settings import PROJECT_ROOT, load_settings

CORPUS = PROJECT_ROOT / "golden" / "corpus"
REPEATS = 3


def sample_texts() -> list[str]:
    texts = []
    for source_set in ("handbook", "products"):
        docs = discover_source_set(CORPUS / source_set, source_set, FolderAdapter())
        texts += [t for t in docs["text"].to_list() if t]
    return texts


def stage_shares(partition: str = "products") -> dict[str, float]:
    """Seconds per step of one full materialisation on a fresh state folder: cold vector cache, and
    each resource loads its model inside the run, as in a fresh run process."""
    with tempfile.TemporaryDirectory() as home:
        settings = dataclasses.replace(load_settings(), home=Path(home), corpus_root=CORPUS, qdrant_url="")
        instance = dg.DagsterInstance.ephemeral()
        instance.add_dynamic_partitions(source_sets.name, [partition])
        job = build_definitions(settings).resolve_job_def("index_source_set")
        result = job.execute_in_process(instance=instance, partition_key=partition, run_config=QUIET_LOGS)
        assert result.success
        starts: dict[str, float] = {}
        seconds: dict[str, float] = {}
        for record in instance.all_logs(result.run_id):
            event = record.dagster_event
            if event is None or event.step_key is None:
                continue
            if event.event_type == dg.DagsterEventType.STEP_START:
                starts[event.step_key] = record.timestamp
            elif event.event_type == dg.DagsterEventType.STEP_SUCCESS:
                seconds[event.step_key] = record.timestamp - starts[event.step_key]
        return seconds


def main() -> None:
    texts = sample_texts()
    chars = sum(len(t) for t in texts)
    policy = PiiPolicy()
    ner, regex = PresidioDetector(use_ner=True), PresidioDetector(use_ner=False)
    for detector in (ner, regex):  # warm up: first calls load lazily
        redact_text(texts[0], detector, policy)
    costs = {
        "secrets only": ms_per_kchar(find_secrets, texts, REPEATS),
        "presidio-regex + secrets": ms_per_kchar(lambda t: redact_text(t, regex, policy), texts, REPEATS),
        "presidio-ner + secrets": ms_per_kchar(lambda t: redact_text(t, ner, policy), texts, REPEATS),
    }
    print(f"Redaction cost on the sample corpus ({len(texts)} documents, {chars:,} characters, median of {REPEATS})")
    print(f"{'backend':<28}{'ms / 1,000 chars':>18}{'x secrets only':>16}")
    for name, cost in costs.items():
        print(f"{name:<28}{cost:>18.2f}{cost / costs['secrets only']:>16.1f}")

    seconds = stage_shares()
    total = sum(seconds.values())
    print(f"\nOne full materialisation of 'products' (fresh state, cold vector cache): {total:.1f} s of steps")
    print(f"{'step':<52}{'seconds':>9}{'share':>8}")
    for step, took in sorted(seconds.items(), key=lambda kv: -kv[1]):
        print(f"{step:<52}{took:>9.2f}{took / total:>8.1%}")
    print(f"\nredacted_docs share of the materialisation: {seconds.get('redacted_docs', 0.0) / total:.1%}")


if __name__ == "__main__":
    main()
