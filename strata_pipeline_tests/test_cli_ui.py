"""`strata ui` (and so `make ui`) starts `dagster dev` without relying on PATH or the working folder."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from strata_pipeline import cli
from strata_pipeline.cli import servers as cli_serve
from strata_pipeline.settings import PROJECT_ROOT


class Execd(Exception):
    """Raised by the stand-in for os.execv, so the command stops where the real one would be replaced."""


def test_ui_runs_dagster_dev_with_this_interpreter_from_dagster_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: dict[str, object] = {}

    def fake_execv(path: str, argv: list[str]) -> None:
        calls["execv"] = (path, argv)
        calls["environ"] = dict(os.environ)
        raise Execd

    monkeypatch.chdir(tmp_path)  # before os.chdir is replaced below
    monkeypatch.setattr(cli_serve.os, "execv", fake_execv)
    monkeypatch.setattr(cli_serve.os, "chdir", lambda folder: calls.setdefault("chdir", Path(folder)))
    monkeypatch.setattr(cli_serve.signal, "signal", lambda sig, handler: calls.setdefault("signal", (sig, handler)))
    env = {"STRATA_HOME": "state", "STRATA_CORPUS_ROOT": "docs", "DAGSTER_HOME": "", "PATH": "/usr/bin:/bin"}

    result = CliRunner().invoke(cli.main, ["ui", "--port", "3123"], env=env)

    assert isinstance(result.exception, Execd), result.output
    path, argv = calls["execv"]
    # no `dagster` looked up on PATH: the interpreter running strata starts dagster's own CLI
    assert path == sys.executable and argv[0] == sys.executable
    assert argv[argv.index("-m") + 1 :] == [
        "dagster",
        "dev",
        "-w",
        str(PROJECT_ROOT / "workspace.yaml"),
        "-h",
        "127.0.0.1",
        "-p",
        "3123",
    ]
    assert argv[argv.index("-W") + 1].startswith("ignore:Function `dev_command` is superseded")
    dagster_home = tmp_path / "state" / "dagster_home"
    # it runs from DAGSTER_HOME, whose dagster.yaml is the checked-in one, so dagster dev has nothing to warn about
    assert calls["chdir"] == dagster_home
    assert (dagster_home / "dagster.yaml").resolve() == (PROJECT_ROOT / "dagster.yaml").resolve()
    environ = calls["environ"]
    assert environ["DAGSTER_HOME"] == str(dagster_home)
    # relative paths were made absolute before the folder changed, so they still name the same folders
    assert environ["STRATA_HOME"] == str(tmp_path / "state")
    assert environ["STRATA_CORPUS_ROOT"] == str(tmp_path / "docs")
    assert calls["signal"] == (signal.SIGINT, signal.SIG_DFL)
