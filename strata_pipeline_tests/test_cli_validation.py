"""The CLI refuses what the API refuses: k out of bounds, empty or control-only queries, and any
--source-set that is not a partition slug, before anything is read or written."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from strata_pipeline.cli import main
from strata_pipeline.validation import K_MAX, K_MIN
from strata_pipeline_tests.conftest import SAMPLE_CORPUS, Stack


def _env(home: Path, corpus: Path) -> dict[str, str]:
    return {"STRATA_HOME": str(home), "STRATA_CORPUS_ROOT": str(corpus), "QDRANT_URL": "", "STRATA_API_URL": ""}


@pytest.mark.parametrize("command", ["search", "ask"])
@pytest.mark.parametrize("k", ["-1", "0", str(K_MAX + 1), "1000000", "five"])
def test_k_outside_the_api_bounds_is_a_usage_error(tmp_path: Path, command: str, k: str) -> None:
    result = CliRunner().invoke(main, [command, "parental leave", "--k", k], env=_env(tmp_path, tmp_path))
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--k'" in result.output
    if k.lstrip("-").isdigit():
        assert f"{K_MIN}<=x<={K_MAX}" in result.output


@pytest.mark.parametrize("command", ["search", "ask"])
@pytest.mark.parametrize(
    ("query", "says"),
    [
        ("", "empty or only whitespace"),
        ("   ", "empty or only whitespace"),
        ("\x01\x02", "control character U+0001"),
        ("leave\x1b[2J", "control character U+001B"),
        ("\udcff", "lone surrogate"),  # what an undecodable byte in argv becomes
        ("q" * 2001, "at most 2000"),
    ],
)
def test_empty_control_and_overlong_queries_are_usage_errors(tmp_path: Path, command: str, query, says) -> None:
    result = CliRunner().invoke(main, [command, query], env=_env(tmp_path, tmp_path))
    assert result.exit_code == 2 and says in result.output, result.output


def test_k_at_the_bounds_is_served(stack: Stack) -> None:
    env = _env(stack.settings.home, stack.settings.corpus_root)
    for k in (K_MIN, K_MAX):
        result = CliRunner().invoke(main, ["search", "parental leave", "--k", str(k), "--json"], env=env)
        assert result.exit_code == 0, result.output


BAD_SOURCE_SETS = ["../../../../tmp/x", "..", "/etc", "handbook/../products", "Handbook", "-rf", "a b", "x\n"]


@pytest.mark.parametrize("name", BAD_SOURCE_SETS)
@pytest.mark.parametrize(
    "command",
    [
        ["plan", "--source-set"],
        ["materialize", "--source-set"],
        ["search", "leave", "--source-set"],
        ["ask", "leave", "--source-set"],
        ["remove", "--"],  # remove SOURCE_SET DOC_ID ("--": "-rf" is an argument here, not options)
    ],
)
def test_every_source_set_argument_must_be_a_slug(tmp_path: Path, command: list[str], name: str) -> None:
    args = [*command, name] + (["hr/leave-policy.md"] if command[0] == "remove" else [])
    result = CliRunner().invoke(main, args, env=_env(tmp_path / "home", tmp_path / "corpus"))
    assert result.exit_code == 2, result.output
    assert "is not a source-set name" in result.output and "lowercase slugs" in result.output
    assert not (tmp_path / "home").exists()  # refused before any state was touched


def test_plan_never_reads_or_writes_outside_the_corpus_root(tmp_path: Path) -> None:
    """Measured before: `strata plan --source-set ../../../../tmp/x` planned a folder outside the corpus
    and wrote its CSVs there. Now neither a path nor a symlinked source-set gets through."""
    corpus, home, outside = tmp_path / "corpus", tmp_path / "home", tmp_path / "outside"
    (corpus / "notes").mkdir(parents=True)
    (corpus / "notes" / "a.md").write_text("# A\n\nSome text.\n")
    (outside / "secret").mkdir(parents=True)
    (outside / "secret" / "b.md").write_text("# B\n\nPrivate text.\n")
    (corpus / "linked").symlink_to(outside / "secret")
    before = sorted(p.relative_to(outside) for p in outside.rglob("*"))
    env = _env(home, corpus)
    escape = "/".join([".."] * (len(home.parts) + 2)) + str(outside / "secret")
    for name in (escape, "../outside/secret"):
        result = CliRunner().invoke(main, ["plan", "--source-set", name], env=env)
        assert result.exit_code == 2 and "is not a source-set name" in result.output
    linked = CliRunner().invoke(main, ["plan", "--source-set", "linked"], env=env)
    assert linked.exit_code == 2 and "No source-set folder linked" in linked.output
    assert sorted(p.relative_to(outside) for p in outside.rglob("*")) == before  # nothing written there
    assert not (home / "reports").exists() or not any((home / "reports").rglob("*.csv"))


def test_plan_of_a_real_source_set_still_works(tmp_path: Path) -> None:
    import shutil

    corpus = tmp_path / "corpus"
    shutil.copytree(SAMPLE_CORPUS / "handbook", corpus / "handbook")
    result = CliRunner().invoke(main, ["plan", "--source-set", "handbook", "--json"], env=_env(tmp_path / "h", corpus))
    assert result.exit_code == 0, result.output
    assert list((tmp_path / "h" / "reports" / "handbook").glob("plan-*.csv"))


def test_a_failed_warning_check_reads_as_a_warning_and_an_error_check_as_failed() -> None:
    import dagster as dg

    from strata_pipeline.cli.runs import check_outcome

    assert check_outcome(True, dg.AssetCheckSeverity.ERROR) == "passed"
    assert check_outcome(False, dg.AssetCheckSeverity.WARN) == "warning"
    assert check_outcome(False, dg.AssetCheckSeverity.ERROR) == "FAILED"


def test_a_failed_check_prints_its_description_figures_and_the_first_rows_of_its_preview() -> None:
    import dagster as dg

    from strata_pipeline.cli.runs import failed_check_lines

    table = "| chunk_id | kind |\n|---|---|\n" + "\n".join(f"| c{i} | ADDRESS |" for i in range(12))
    metadata = {
        "leaks": dg.MetadataValue.int(12),
        "planted_values_checked": dg.MetadataValue.int(40),
        "leak_preview": dg.MetadataValue.md(table),
    }
    lines = failed_check_lines("Chunks still hold personal data.", metadata, preview_rows=3)
    assert lines[:2] == ["Chunks still hold personal data.", "leaks: 12, planted_values_checked: 40"]
    assert lines[2:7] == ["leak_preview:", "| chunk_id | kind |", "|---|---|", "| c0 | ADDRESS |", "| c1 | ADDRESS |"]
    assert lines[8] == "… 9 more rows in the Dagster UI (`make ui`)"
    assert failed_check_lines(None, {"leak_preview": dg.MetadataValue.md("_none_")}) == []
