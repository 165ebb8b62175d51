"""GET /reports/{source_set}: the latest full eval report, which the eval_report asset links to."""

from __future__ import annotations

import pytest
import yaml
from fastapi.testclient import TestClient

from serving.app import create_app
from strata_pipeline.indexing.versions import current_version_name
from strata_pipeline_tests.conftest import Stack


@pytest.fixture(scope="module")
def client(stack: Stack):
    with TestClient(create_app(stack.settings)) as test_client:
        yield test_client


def test_the_asset_links_to_the_report_the_api_serves(client: TestClient, stack: Stack) -> None:
    for partition in ("handbook", "products"):
        meta = stack.materialization(stack.results[partition], "eval_report")
        assert meta["report"] == f"/reports/{partition}"  # a URL path, not a file on the run's machine
        response = client.get(meta["report"])
        assert response.status_code == 200, response.text
        body = response.json()
        # the latest report: other tests of this session may re-index a partition after the stack's run,
        # so the served version is the published one, which is not always the stack's
        published = current_version_name(stack.settings.index_dir, partition)
        assert (body["source_set"], body["version"]) == (partition, published)
        golden = yaml.safe_load((stack.settings.golden_dir / f"{partition}.yaml").read_text())
        assert [q["id"] for q in body["report"]["questions"]] == [str(q["id"]) for q in golden["questions"]]
        summary = body["report"]["summary"]
        if published == meta["index_version"]:
            assert summary["recall_at_5"] == meta[f"{partition}/recall_at_5"]
        assert 0.0 <= summary["recall_at_5"] <= 1.0
        assert "pii_recall" in summary and "hybrid_recall_at_5_dev" in summary  # every figure, not only trends
        # the markdown: the headline, then every question with its text and verdict
        assert body["markdown"].startswith("Test part (")
        for question in golden["questions"]:
            assert f"| {question['id']} | {question.get('part', 'test')} |" in body["markdown"]


def test_no_report_is_a_404_and_a_name_that_is_not_a_slug_is_refused(client: TestClient) -> None:
    missing = client.get("/reports/nowhere")
    assert missing.status_code == 404 and "nowhere" in missing.json()["detail"]
    for bad in ("Hand-Book", "..", "-x", "a" * 256):
        assert client.get(f"/reports/{bad}").status_code in (404, 422), bad
    assert client.get("/reports/Hand-Book").status_code == 422
    assert client.get("/reports/%2E%2E%2Fetc").status_code in (404, 422)
