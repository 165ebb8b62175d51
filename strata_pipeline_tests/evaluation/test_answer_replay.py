"""The replay benchmark's diff: which questions moved between two runs, and the per-part summary."""

from pathlib import Path

from benchmarks.answer_replay import changes, question_files, summary


def _outcome(
    right: bool, abstained: bool = False, text: str = "x", part: str = "dev", kind: str = "answerable"
) -> dict:
    return {
        "right": right,
        "abstained": abstained,
        "text": text,
        "part": part,
        "kind": kind,
        "set": "s",
        "question": "q",
    }


def test_changes_names_fixed_broken_and_reworded_questions_only() -> None:
    before = {
        "a": _outcome(False),
        "b": _outcome(True),
        "c": _outcome(True, text="old"),
        "d": _outcome(True),
        "e": _outcome(True),
    }
    after = {
        "a": _outcome(True),
        "b": _outcome(False, abstained=True),
        "c": _outcome(True, text="new"),
        "d": _outcome(True),
    }
    assert changes(before, after) == [("a", "fixed"), ("b", "broken"), ("c", "same outcome, other answer")]


def test_summary_counts_each_kind_per_part() -> None:
    outcomes = {
        "a": _outcome(True),
        "b": _outcome(False, abstained=True),
        "u": _outcome(True, abstained=True, kind="unanswerable"),
        "c": _outcome(False, kind="compound"),
        "t": _outcome(True, part="test"),
    }
    outcomes["a"]["found"], outcomes["b"]["found"] = True, False
    lines = summary(outcomes).splitlines()
    assert lines[1].split() == ["test", "1/1", "0/1", "0/0", "0/0", "0/0"]
    assert lines[2].split() == ["dev", "1/2", "1/2", "1/2", "1/1", "0/1"]


def test_question_files_reads_only_files_that_name_a_source_set(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("source_set: itops\nquestions: []\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("- just a list\n", encoding="utf-8")
    (tmp_path / "c.txt").write_text("source_set: nope\n", encoding="utf-8")
    assert [d["source_set"] for d in question_files(tmp_path)] == ["itops"]
