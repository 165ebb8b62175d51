"""The Dagster UI as a data engineer uses it: a real browser (the system Chromium, driven by Playwright)
against dagster-webserver on 127.0.0.1 over a two-file source-set.

It opens the asset graph, launches one partition of index_source_set from the job's graph, waits for
the run to succeed and opens the eval_report asset page. The run goes through the instance's run
launcher into its own run worker process, with the project's executor (in-process).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import pytest

from strata_pipeline.settings import PROJECT_ROOT
from strata_pipeline_tests.plant import PUMPS, VALVE_QUESTION, VALVES, write_plant
from strata_pipeline_tests.services import free_port, unavailable

pytestmark = pytest.mark.ui

DOCS = {"guides/valves.md": VALVES, "guides/pumps.md": PUMPS}
# No daemon runs here, so runs are launched at once instead of queued (and the sensor stays quiet).
INSTANCE_YAML = """telemetry:
  enabled: false
nux:
  enabled: false
run_coordinator:
  module: dagster.core.run_coordinator
  class: DefaultRunCoordinator
"""
WORKSPACE = PROJECT_ROOT / "workspace.yaml"
RUN_TIMEOUT_MS = 300_000
CHROMIUM_ARGS = [
    "--no-sandbox",  # CI runs as root
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def chromium() -> str:
    """The system browser (Playwright's own download needs a network this machine lacks); checked
    before the webserver starts, so a machine without one skips at once."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        unavailable("playwright is not installed (make install)", "STRATA_REQUIRE_BROWSER")
    for candidate in (os.environ.get("STRATA_CHROMIUM", ""), "chromium", "chromium-browser", "google-chrome"):
        found = candidate and shutil.which(candidate)
        if found:
            return found
    unavailable("no Chromium (apt-get install chromium, or set STRATA_CHROMIUM)", "STRATA_REQUIRE_BROWSER")
    raise AssertionError  # unreachable: unavailable() skips or fails


def wait_until_serving(url: str, server: subprocess.Popen, log: Path, timeout_s: float = 180) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"dagster-webserver exited with {server.returncode}:\n{log.read_text()[-4000:]}")
        try:
            with urllib.request.urlopen(f"{url}/server_info", timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(1)
    raise AssertionError(f"dagster-webserver did not answer within {timeout_s}s:\n{log.read_text()[-4000:]}")


@pytest.fixture
def webserver(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """dagster-webserver over a temp DAGSTER_HOME and corpus, in its own process group."""
    corpus, golden = write_plant(tmp_path, DOCS, VALVE_QUESTION)
    dagster_home = tmp_path / "dagster_home"
    dagster_home.mkdir()
    (dagster_home / "dagster.yaml").write_text(INSTANCE_YAML)
    # the partition the sensor would add for a new folder; no daemon runs here
    with dg.DagsterInstance.from_config(str(dagster_home)) as instance:
        instance.add_dynamic_partitions("source_sets", ["plant"])

    env = os.environ | {
        "DAGSTER_HOME": str(dagster_home),
        "STRATA_HOME": str(tmp_path / "home"),
        "STRATA_CORPUS_ROOT": str(corpus),
        "STRATA_GOLDEN_DIR": str(golden),
        "QDRANT_URL": "",
        "ANTHROPIC_API_KEY": "",
    }
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = tmp_path / "webserver.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "dagster_webserver", "-h", "127.0.0.1", "-p", str(port), "-w", str(WORKSPACE)],
            cwd=dagster_home,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: the code server and run worker go with it
        )
    try:
        wait_until_serving(url, server, log)
        yield url, dagster_home
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)
        else:
            with contextlib.suppress(ProcessLookupError):  # a run worker that outlived the webserver
                os.killpg(server.pid, signal.SIGKILL)


def test_launch_a_partition_from_the_asset_graph_and_read_its_eval_report(
    chromium: str, webserver: tuple[str, Path], tmp_path: Path
) -> None:
    from playwright.sync_api import expect, sync_playwright

    url, dagster_home = webserver
    shots = tmp_path / "screenshots"
    shots.mkdir()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(60_000)  # the first page load also loads the code location
        expect.set_options(timeout=60_000)
        try:
            # the asset graph: every group of the pipeline
            page.goto(f"{url}/asset-groups")
            expect(page.get_by_text("Global asset lineage").first).to_be_visible()
            for group in ("ingest", "index", "enrich", "evaluate"):
                expect(page.get_by_text(group, exact=True).first).to_be_visible()
            page.screenshot(path=shots / "1-asset-graph.png")

            # the job's asset graph: materialise partition `plant`
            page.get_by_role("link", name="Jobs").first.click()
            page.get_by_role("link", name="index_source_set").first.click()
            page.get_by_role("button", name="Materialize all").click()
            # the launch dialog by its title: the partition menu is a dialog too, and may linger closed in the DOM
            dialog = page.get_by_role("dialog").filter(has_text="Launch runs to materialize")
            dialog.get_by_text("Select a partition or create one").click()
            page.get_by_role("menuitem", name="plant").click()
            page.keyboard.press("Escape")  # closes the partition menu, not the dialog
            page.screenshot(path=shots / "2-launch-dialog.png")
            page.get_by_role("button", name="Launch 1 run").click()
            expect(dialog).to_be_hidden()  # closed once the run is submitted

            # the run, until it has succeeded
            page.goto(f"{url}/runs")
            run_link = page.locator("a[href^='/runs/']").filter(has_text=re.compile(r"^[0-9a-f]{8}$")).first
            expect(run_link).to_be_visible()
            run_link.click()
            expect(page.get_by_text("partition: plant")).to_be_visible()
            finished = page.get_by_text("Success", exact=True).or_(page.get_by_text("Failure", exact=True)).first
            expect(finished).to_be_visible(timeout=RUN_TIMEOUT_MS)
            page.screenshot(path=shots / "3-run.png")
            assert finished.inner_text() == "Success", f"the run failed; see {shots}"

            # the eval report of that partition, with its headline figure
            page.goto(f"{url}/assets/eval_report?partition=plant")
            expect(page.get_by_text("eval_report").first).to_be_visible()
            page.get_by_placeholder("Filter metadata keys").fill("plant/recall_at_3")
            row = page.get_by_role("row").filter(has=page.get_by_text("plant/recall_at_3", exact=True))
            expect(row.get_by_role("cell").last).to_have_text("1")  # the one golden question was found
            page.screenshot(path=shots / "4-eval-report.png")

            # the headline comes first, and each plot belongs to one source-set
            page.get_by_placeholder("Filter metadata keys").fill("")
            first = page.get_by_role("row").nth(1).get_by_role("cell").first
            expect(first).to_have_text("summary")
            page.screenshot(path=shots / "5-eval-headline.png", full_page=True)
            page.get_by_role("button", name="Plots").click()
            expect(page.get_by_text("plant/mrr", exact=True).first).to_be_visible()
            page.screenshot(path=shots / "6-eval-plots.png", full_page=True)
        except BaseException:
            page.screenshot(path=shots / "failure.png")
            print(f"screenshots in {shots}; webserver log:\n{(tmp_path / 'webserver.log').read_text()[-4000:]}")
            raise
        finally:
            browser.close()

    # what the UI showed is what the instance recorded
    with dg.DagsterInstance.from_config(str(dagster_home)) as instance:
        runs = instance.get_runs()
        assert [(r.status, r.tags.get("dagster/partition")) for r in runs] == [(dg.DagsterRunStatus.SUCCESS, "plant")]
        record = instance.fetch_materializations(
            dg.AssetRecordsFilter(asset_key=dg.AssetKey("eval_report"), asset_partitions=["plant"]), limit=1
        ).records[0]
        assert record.run_id == runs[0].run_id
