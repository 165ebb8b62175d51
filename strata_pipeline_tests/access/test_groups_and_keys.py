"""Callers and their groups, the keys file, the sidecar filter and the bind rule: plain functions."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

import pytest

from serving.config import ServingConfig, check_bind
from strata_pipeline.access.groups import PUBLIC, Access
from strata_pipeline.access.keys import KEY_PREFIX, add_key, hash_key, load_keys
from strata_pipeline.access.sidecar import groups_by_doc, visible_doc_ids
from strata_pipeline.enrichment.sidecar import connect, write_documents
from strata_pipeline.evaluation.access import PROBE_GROUP, cross_group_leaks, probe_callers


def test_a_member_reads_its_groups_and_public_and_a_star_key_reads_everything() -> None:
    hr = Access.member("hr-app", ["hr"])
    assert hr.groups == frozenset({"hr", PUBLIC}) and hr.restricted
    assert hr.admits(["hr", "finance"]) and hr.admits([PUBLIC]) and not hr.admits(["finance"])
    assert not hr.admits([]) and not hr.admits(None)  # a document without groups reaches only the operator
    assert hr.where() == {"groups": ["hr", PUBLIC]}
    everything = Access.member("ops", ["*"])
    assert not everything.restricted and everything.where() is None and everything.admits(None)


def test_cross_group_leaks_counts_what_the_caller_may_not_read() -> None:
    hr = Access.member("hr", ["hr"])
    assert cross_group_leaks(hr, [["hr"], [PUBLIC], ["finance"], ["finance", "hr"], [], None]) == 3
    assert cross_group_leaks(Access.operator(), [["finance"], None]) == 0
    callers = probe_callers(["hr", "finance", "hr"])
    assert [c.name for c in callers] == ["finance", "hr", PROBE_GROUP]
    assert callers[-1].groups == frozenset({PROBE_GROUP})  # not even public


def test_keys_are_stored_as_hashes_and_the_key_is_returned_once(tmp_path: Path) -> None:
    path = tmp_path / "keys.yaml"
    hr = add_key(path, "hr-app", ["hr", "payroll"], rate_limit="60/minute")
    ops = add_key(path, "ops", ["*"])
    text = path.read_text()
    assert hr.startswith(KEY_PREFIX) and hr not in text and ops not in text and hash_key(hr) in text
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    ring = load_keys(path)
    found = ring.authenticate(hr)
    assert found is not None and (found.name, found.groups, found.rate_limit) == (
        "hr-app",
        ("hr", "payroll"),
        "60/minute",
    )
    assert ring.authenticate(hr + "x") is None and ring.authenticate("") is None
    assert ring.by_name("ops").access.groups is None
    with pytest.raises(LookupError, match="No key named 'ghost'"):
        ring.by_name("ghost")
    with pytest.raises(ValueError, match="already has a key named 'hr-app'"):
        add_key(path, "hr-app", ["hr"])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("keys:\n  not-a-hash: {name: a, groups: [hr]}\n", "must be a sha256 hash"),
        (f"keys:\n  {'a' * 64}: {{name: a, groups: []}}\n", "non-empty list of group names"),
        (f"keys:\n  {'a' * 64}: {{name: a, groups: [hr], role: admin}}\n", "only `name`, `groups` and `rate_limit`"),
        (f"keys:\n  {'a' * 64}: {{name: a, groups: [hr]}}\n  {'b' * 64}: {{name: a, groups: [x]}}\n", "used twice"),
        ("- just a list\n", "expected a mapping `keys:`"),
    ],
)
def test_a_malformed_keys_file_is_refused_with_the_reason(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "keys.yaml"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        load_keys(path)


def test_the_sidecar_filter_keeps_only_the_callers_documents(tmp_path: Path) -> None:
    base = {"source_set": "s", "decision": "include", "status": "ok", "tags": []}
    with connect(tmp_path / "sidecar.sqlite") as db:
        write_documents(
            db,
            [
                base | {"doc_id": "a.md", "groups": ["public"]},
                base | {"doc_id": "hr.md", "groups": ["hr"]},
                base | {"doc_id": "both.md", "groups": ["finance", "hr"]},
            ],
        )
        assert visible_doc_ids(db, None) == {"a.md", "hr.md", "both.md"}
        assert visible_doc_ids(db, frozenset({"public", "finance"})) == {"a.md", "both.md"}
        assert visible_doc_ids(db, frozenset({"public"}), "hr.md") == set()
        assert groups_by_doc(db)["both.md"] == ("finance", "hr")


def test_a_sidecar_written_before_groups_shows_a_restricted_caller_nothing(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE documents (doc_id TEXT PRIMARY KEY, source_set TEXT NOT NULL)")
        db.execute("INSERT INTO documents VALUES ('a.md', 's')")
        assert visible_doc_ids(db, frozenset({"public"})) == set()
        assert visible_doc_ids(db, None) == {"a.md"}
        assert groups_by_doc(db) == {"a.md": ()}
    with connect(path) as db:  # connecting to write adds the column
        assert "groups" in {row[1] for row in db.execute("PRAGMA table_info(documents)")}


def test_without_keys_the_api_may_listen_on_loopback_only(tmp_path: Path) -> None:
    open_api = ServingConfig()
    assert "every caller reads every document group" in check_bind("127.0.0.1", open_api)
    assert check_bind("::1", open_api) and check_bind("localhost", open_api)
    for host in ("0.0.0.0", "192.0.2.10", "::", "api.example.org"):
        with pytest.raises(ValueError, match=f"Refusing to listen on {host} without API keys"):
            check_bind(host, open_api)
    keyed = ServingConfig(keys_file=tmp_path / "keys.yaml")
    with pytest.raises(ValueError, match="does not exist; create it with `strata keys add"):
        check_bind("0.0.0.0", keyed)
    add_key(keyed.keys_file, "hr-app", ["hr"])
    assert "1 API keys from" in check_bind("0.0.0.0", keyed) and "Authorization: Bearer" in check_bind("::", keyed)


def test_strata_keys_add_prints_the_key_once_and_serve_refuses_a_public_host_without_keys(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from strata_pipeline.cli import main

    path = tmp_path / "keys.yaml"
    made = CliRunner().invoke(
        main,
        ["keys", "add", "hr-app", "--group", "hr", "--rate-limit", "30/minute"],
        env={"STRATA_API_KEYS": str(path)},
    )
    assert made.exit_code == 0, made.output
    key = made.stdout.strip()
    assert load_keys(path).authenticate(key).name == "hr-app" and key not in path.read_text()
    bad = CliRunner().invoke(
        main, ["keys", "add", "x", "--group", "hr", "--rate-limit", "lots"], env={"STRATA_API_KEYS": str(path)}
    )
    assert bad.exit_code != 0 and "is not a rate limit" in bad.output
    refused = CliRunner().invoke(main, ["serve", "--host", "0.0.0.0"], env={"STRATA_API_KEYS": ""})
    assert refused.exit_code == 1 and "Refusing to listen on 0.0.0.0 without API keys" in refused.output
