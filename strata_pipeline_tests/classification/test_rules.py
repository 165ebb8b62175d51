"""Ordered include/exclude rules: the first match decides and is recorded."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

from strata_pipeline.classification.rules import (
    CONDITION_KEYS,
    DEFAULT_RULE,
    Rule,
    RuleSet,
    classify_docs,
    load_rules,
    parse_access,
    parse_rules,
    reason_counts,
)
from strata_pipeline.settings import PROJECT_ROOT

REAL_RULES_DIR = PROJECT_ROOT / "rules"
LONG_TEXT = "Employees receive twenty-five days of paid vacation every calendar year."


def doc(doc_id: str, **overrides) -> dict:
    row = {
        "doc_id": doc_id,
        "extension": Path(doc_id).suffix.lower(),
        "status": "ok",
        "kind": "text",
        "text": LONG_TEXT,
    }
    row.update(overrides)
    return row


def rule_set(*raw: dict) -> RuleSet:
    return RuleSet(rules=tuple(parse_rules({"rules": list(raw)}, "test.yaml")))


def test_first_matching_rule_wins_and_is_recorded() -> None:
    rules = rule_set(
        {"name": "first", "extensions": [".md"], "action": "metadata_only"},
        {"name": "second", "extensions": [".md"], "action": "exclude"},
        {"name": "third", "extensions_not_in": [".pdf"], "action": "exclude"},
    )
    assert rules.decide(doc("a.md")) == ("metadata_only", "first")
    assert rules.decide(doc("a.txt")) == ("exclude", "third")


def test_no_match_is_default_include() -> None:
    rules = rule_set({"name": "only-pdf", "extensions": [".pdf"], "action": "exclude"})
    assert rules.decide(doc("a.md")) == ("include", DEFAULT_RULE)
    assert RuleSet(rules=()).decide(doc("a.md")) == ("include", "default-include")


# --- every condition key -------------------------------------------------------------------


def test_condition_keys_are_the_documented_ones() -> None:
    assert CONDITION_KEYS == (
        "status",
        "dirs",
        "filenames",
        "globs",
        "extensions",
        "extensions_not_in",
        "kinds",
        "doc_types",
        "text_shorter_than",
        "text_longer_than",
    )


def test_status_condition() -> None:
    rule = Rule(name="r", action="exclude", status="error")
    assert rule.matches(doc("a.md", status="error"))
    assert not rule.matches(doc("a.md", status="ok"))


def test_dirs_condition_matches_any_folder_but_not_the_filename() -> None:
    rule = Rule(name="r", action="exclude", dirs=("build", ".git"))
    assert rule.matches(doc("project/.git/config.md"))
    assert rule.matches(doc("build/out.md"))
    assert rule.matches(doc("a/b/build/c/out.md"))
    assert not rule.matches(doc("project/build"))  # a file called "build" is not a folder
    assert not rule.matches(doc("builds/out.md"))


def test_filenames_condition_matches_the_last_part_only() -> None:
    rule = Rule(name="r", action="exclude", filenames=(".DS_Store",))
    assert rule.matches(doc("hr/.DS_Store"))
    assert rule.matches(doc(".DS_Store"))
    assert not rule.matches(doc(".DS_Store/readme.md"))


def test_globs_condition_uses_case_sensitive_fnmatch_over_the_doc_id() -> None:
    rule = Rule(name="r", action="exclude", globs=("*.bak", "*/~$*"))
    assert rule.matches(doc("hr/policy.md.bak"))
    assert rule.matches(doc("hr/~$lock.docx"))
    assert not rule.matches(doc("hr/policy.md.BAK"))
    assert not rule.matches(doc("~$lock.docx"))  # "*/~$*" needs a folder


def test_extensions_condition_lower_cases_the_document_extension() -> None:
    rule = Rule(name="r", action="exclude", extensions=(".pdf",))
    assert rule.matches(doc("a.pdf"))
    assert rule.matches(doc("a.PDF", extension=".PDF"))
    assert not rule.matches(doc("a.md"))


def test_extensions_not_in_condition() -> None:
    rule = Rule(name="r", action="exclude", extensions_not_in=(".md", ".txt"))
    assert rule.matches(doc("data.json"))
    assert rule.matches(doc("Makefile", extension=""))
    assert not rule.matches(doc("a.md"))
    assert not rule.matches(doc("a.TXT", extension=".TXT"))


def test_kinds_condition() -> None:
    rule = Rule(name="r", action="metadata_only", kinds=("table",))
    assert rule.matches(doc("a.csv", kind="table"))
    assert not rule.matches(doc("a.md", kind="text"))


def test_text_longer_than_counts_stripped_characters() -> None:
    rule = Rule(name="r", action="metadata_only", text_longer_than=5)
    assert rule.matches(doc("a.csv", text="  123456  "))
    assert not rule.matches(doc("a.csv", text="  12345  "))


def test_text_shorter_than_counts_stripped_characters() -> None:
    rule = Rule(name="r", action="exclude", text_shorter_than=10)
    assert rule.matches(doc("a.md", text="  123456789  \n"))  # 9 characters once stripped
    assert not rule.matches(doc("a.md", text="1234567890"))
    assert rule.matches(doc("a.md", text=None))


def test_all_conditions_of_a_rule_must_hold() -> None:
    rules = rule_set({"name": "short-md", "extensions": [".md"], "text_shorter_than": 10, "action": "exclude"})
    assert rules.decide(doc("a.md", text="tiny")) == ("exclude", "short-md")
    assert rules.decide(doc("a.txt", text="tiny")) == ("include", DEFAULT_RULE)
    assert rules.decide(doc("a.md")) == ("include", DEFAULT_RULE)


def test_parse_rules_reads_every_key() -> None:
    [rule] = parse_rules(
        {
            "rules": [
                {
                    "name": "everything",
                    "action": "metadata_only",
                    "status": "ok",
                    "dirs": ["a"],
                    "filenames": ["b.md"],
                    "globs": ["a/*"],
                    "extensions": [".md"],
                    "extensions_not_in": [".pdf"],
                    "kinds": ["text"],
                    "text_shorter_than": 5,
                }
            ]
        },
        "x.yaml",
    )
    assert rule == Rule(
        name="everything",
        action="metadata_only",
        status="ok",
        dirs=("a",),
        filenames=("b.md",),
        globs=("a/*",),
        extensions=(".md",),
        extensions_not_in=(".pdf",),
        kinds=("text",),
        text_shorter_than=5,
    )
    assert rule.matches(doc("a/b.md", text="tiny"))


def test_parse_rules_of_empty_data() -> None:
    assert parse_rules({}, "x.yaml") == []
    assert parse_rules(None, "x.yaml") == []  # an empty YAML file


# --- invalid rules -------------------------------------------------------------------------


def test_rule_without_action_is_rejected_with_its_position() -> None:
    with pytest.raises(ValueError, match=r"^handbook.yaml rule #2: every rule needs a 'name' and an 'action'\.$"):
        parse_rules(
            {"rules": [{"name": "ok", "kinds": ["text"], "action": "include"}, {"name": "no-action"}]}, "handbook.yaml"
        )


def test_rule_without_name_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"rule #1: every rule needs a 'name' and an 'action'"):
        parse_rules({"rules": [{"action": "exclude"}]}, "x.yaml")


def test_rule_that_is_not_a_mapping_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"x.yaml rule #1"):
        parse_rules({"rules": ["exclude everything"]}, "x.yaml")


def test_bad_action_names_the_rule() -> None:
    with pytest.raises(ValueError) as info:
        parse_rules({"rules": [{"name": "drop-logs", "action": "delete", "extensions": [".log"]}]}, "x.yaml")
    assert str(info.value) == "x.yaml rule #1 (drop-logs): action must be one of include, exclude, metadata_only."


def test_unknown_key_names_the_rule_and_the_key() -> None:
    with pytest.raises(ValueError) as info:
        parse_rules({"rules": [{"name": "typo", "action": "exclude", "extension": [".log"]}]}, "x.yaml")
    message = str(info.value)
    assert message.startswith("x.yaml rule #1 (typo): unknown keys ['extension']; allowed: ")
    assert "extensions_not_in" in message


# --- loading -------------------------------------------------------------------------------


def test_per_source_set_rules_come_before_corpus_rules(tmp_path: Path) -> None:
    (tmp_path / "corpus-rules.yaml").write_text(
        "rules:\n  - name: no-pdf\n    extensions: [.pdf]\n    action: exclude\n", encoding="utf-8"
    )
    (tmp_path / "products.yaml").write_text(
        "rules:\n  - name: keep-manuals\n    dirs: [manuals]\n    action: include\n", encoding="utf-8"
    )
    products = load_rules(tmp_path, "products")
    assert [r.name for r in products.rules] == ["keep-manuals", "no-pdf"]
    assert products.sources == ("products.yaml", "corpus-rules.yaml")
    assert products.decide(doc("manuals/rx.pdf")) == ("include", "keep-manuals")
    assert products.decide(doc("other/rx.pdf")) == ("exclude", "no-pdf")
    handbook = load_rules(tmp_path, "handbook")  # no handbook.yaml
    assert handbook.sources == ("corpus-rules.yaml",)
    assert handbook.decide(doc("manuals/rx.pdf")) == ("exclude", "no-pdf")
    assert len(products.digest) == 16
    assert products.digest != handbook.digest


def test_digest_changes_when_a_rule_file_changes(tmp_path: Path) -> None:
    path = tmp_path / "corpus-rules.yaml"
    path.write_text("rules: []\n", encoding="utf-8")
    before = load_rules(tmp_path, "s").digest
    assert load_rules(tmp_path, "s").digest == before
    path.write_text("rules:\n  - {name: x, kinds: [text], action: exclude}\n", encoding="utf-8")
    assert load_rules(tmp_path, "s").digest != before


def test_no_rule_files_includes_everything(tmp_path: Path) -> None:
    rules = load_rules(tmp_path, "s")
    assert rules.rules == ()
    assert rules.sources == ()
    assert rules.decide(doc("a.json")) == ("include", DEFAULT_RULE)


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        (doc("hr/broken.pdf", status="error", kind="", text=""), ("exclude", "extraction-failed")),
        (doc("repo/.git/notes.md"), ("exclude", "excluded-dir")),
        (doc("web/node_modules/readme.md"), ("exclude", "excluded-dir")),
        (doc("hr/.DS_Store", extension=""), ("exclude", "excluded-filename")),
        (doc("hr/policy.md.bak", extension=".bak"), ("exclude", "excluded-glob")),
        (doc("hr/~$onboarding.docx"), ("exclude", "excluded-glob")),
        (doc("sales/inventory.xlsx", kind="table"), ("include", "default-include")),
        (doc("sales/prices.csv", kind="table", text="a | b"), ("metadata_only", "tiny-tables-are-facts")),
        (doc("sales/ledger.csv", kind="table", text="1 | 2\n" * 5000), ("metadata_only", "large-tables-are-facts")),
        (doc("notes/ledger.md", text="1 | 2\n" * 5000), ("include", "default-include")),  # only tables
        (doc("api/schema.json"), ("exclude", "extension-not-allowed")),
        (doc("hr/stub.md", text="TODO: write this."), ("exclude", "too-short")),
        (doc("hr/leave-policy.md"), ("include", "default-include")),
        (doc("hr/onboarding.docx"), ("include", "default-include")),
    ],
)
def test_real_corpus_rules(row: dict, expected: tuple[str, str]) -> None:
    rules = load_rules(REAL_RULES_DIR, "no-such-source-set")
    assert rules.sources == ("corpus-rules.yaml",)
    assert rules.decide(row) == expected


def test_classify_docs_and_reason_counts() -> None:
    rules = load_rules(REAL_RULES_DIR, "no-such-source-set")
    frame = pl.DataFrame(
        [
            doc("a.md"),
            doc("b.md"),
            doc("c.json"),
            doc("d.pdf", status="error", kind="", text=""),
            doc("e.md", text="short"),
        ]
    )
    classified = classify_docs(frame, rules)
    assert classified.columns == [
        *frame.columns,
        "decision",
        "rule",
        "rank_weight",
        "rank_rule",
        "superseded",
        "version_evidence",
        "language",
        "groups",
        "access_rule",
    ]
    assert classified.select("doc_id", "decision", "rule").rows() == [
        ("a.md", "include", "default-include"),
        ("b.md", "include", "default-include"),
        ("c.json", "exclude", "extension-not-allowed"),
        ("d.pdf", "exclude", "extraction-failed"),
        ("e.md", "exclude", "too-short"),
    ]
    assert reason_counts(classified).rows() == [
        ("include", "default-include", 2),
        ("exclude", "extension-not-allowed", 1),
        ("exclude", "extraction-failed", 1),
        ("exclude", "too-short", 1),
    ]


def test_a_rule_without_conditions_is_rejected_because_it_would_match_everything() -> None:
    with pytest.raises(ValueError, match=r"x.yaml rule #1 \(catch-all\): a rule needs at least one condition"):
        parse_rules({"rules": [{"name": "catch-all", "action": "exclude"}]}, "x.yaml")


def test_doc_types_condition_matches_the_adapters_type() -> None:
    rule = Rule(name="r", action="exclude", doc_types=("config_dump",))
    assert rule.matches(doc("docs/env.txt", doc_type="config_dump"))
    assert not rule.matches(doc("promo/copy.txt", doc_type="product_copy"))


def test_rules_file_names_the_adapter_and_intent(tmp_path: Path) -> None:
    (tmp_path / "shop.yaml").write_text("adapter: shop-layout\nintent: index product copy\nrules: []\n")
    rules = load_rules(tmp_path, "shop")
    assert (rules.adapter, rules.intent) == ("shop-layout", "index product copy")
    assert load_rules(tmp_path, "other").adapter is None


def test_ranking_rules_set_a_recorded_prior_first_match_wins(tmp_path: Path) -> None:
    (tmp_path / "corpus-rules.yaml").write_text(
        "rules: []\n"
        "ranking:\n"
        "  - name: superseded\n    dirs: [archive]\n    weight: 0.8\n    superseded: true\n"
        "  - name: faq\n    dirs: [faq]\n    weight: 0.95\n"
    )
    (tmp_path / "ops.yaml").write_text(
        "ranking:\n  - name: archived-faq\n    globs: ['faq/archive/*']\n    weight: 0.5\n"
    )
    rules = load_rules(tmp_path, "ops")
    frame = pl.DataFrame([doc("policies/archive/v1.md"), doc("faq/a.md"), doc("faq/archive/old.md"), doc("p.md")])
    priors = classify_docs(frame, rules).select("doc_id", "rank_weight", "rank_rule", "superseded").rows()
    assert priors == [
        ("policies/archive/v1.md", 0.8, "superseded", True),
        ("faq/a.md", 0.95, "faq", False),
        ("faq/archive/old.md", 0.5, "archived-faq", False),  # the source-set's own rule is evaluated first
        ("p.md", 1.0, "", False),
    ]


def test_access_rules_give_groups_first_match_wins_then_the_adapter_then_public(tmp_path: Path) -> None:
    (tmp_path / "corpus-rules.yaml").write_text(
        "access:\n  - name: hr-folders\n    dirs: [hr]\n    groups: [hr]\n"
        "  - name: payroll-too\n    globs: ['hr/payroll*']\n    groups: [payroll]\n"
    )
    (tmp_path / "ops.yaml").write_text(
        "access:\n  - name: payroll\n    globs: ['hr/payroll*']\n    groups: [payroll, hr, hr]\n"
    )
    rules = load_rules(tmp_path, "ops")
    frame = pl.DataFrame(
        [
            doc("hr/payroll-2026.md") | {"adapter_groups": []},
            doc("hr/leave.md") | {"adapter_groups": ["finance"]},  # a matching rule beats the adapter
            doc("ops/runbook.md") | {"adapter_groups": ["ops", "oncall"]},
            doc("guide.md") | {"adapter_groups": []},
        ]
    )
    groups = classify_docs(frame, rules).select("doc_id", "groups", "access_rule").rows()
    assert groups == [
        ("hr/payroll-2026.md", ["hr", "payroll"], "payroll"),  # the source-set's own rule is evaluated first
        ("hr/leave.md", ["hr"], "hr-folders"),
        ("ops/runbook.md", ["oncall", "ops"], "adapter"),
        ("guide.md", ["public"], "default-public"),
    ]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"name": "x", "dirs": ["hr"]}, "every rule needs a 'name' and a 'groups'"),
        ({"name": "x", "dirs": ["hr"], "groups": []}, "non-empty list of group names"),
        ({"name": "x", "dirs": ["hr"], "groups": ["HR Team"]}, "'HR Team' is not a group name"),
        ({"name": "x", "groups": ["hr"]}, "needs at least one condition"),
    ],
)
def test_malformed_access_rules_are_refused_with_the_reason(raw: dict, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_access({"access": [raw]}, "x.yaml")


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("- name: x\n  dirs: [a]\n", r"ranking rule #1: every rule needs a 'name' and a 'weight'"),
        ("- name: x\n  dirs: [a]\n  weight: 0\n", r"\(x\): weight must be a number above 0"),
        ("- name: x\n  weight: 0.5\n", r"\(x\): a rule needs at least one condition"),
        ("- name: x\n  dirs: [a]\n  weight: 0.5\n  action: exclude\n", r"unknown keys \['action'\]"),
    ],
)
def test_malformed_ranking_rules_are_rejected(tmp_path: Path, entry: str, message: str) -> None:
    (tmp_path / "corpus-rules.yaml").write_text("ranking:\n" + "\n".join("  " + line for line in entry.splitlines()))
    with pytest.raises(ValueError, match=message):
        load_rules(tmp_path, "x")


def test_default_rules_demote_archived_versions() -> None:
    rules = load_rules(REAL_RULES_DIR, "no-such-source-set")
    assert rules.prior(doc("policies/archive/travel-v1.md")).superseded
    assert rules.prior(doc("policies/archive/travel-v1.md")).weight < 1
    assert rules.prior(doc("policies/travel.md")).weight == 1.0


def test_default_rules_leave_out_machine_logs_but_a_source_set_rule_can_include_them(tmp_path: Path) -> None:
    rules = load_rules(REAL_RULES_DIR, "no-such-source-set")
    assert rules.decide(doc("ops/service.log")) == ("exclude", "machine-logs")
    assert rules.decide(doc("ops/notes.txt"))[0] == "include"
    (tmp_path / "corpus-rules.yaml").write_text((REAL_RULES_DIR / "corpus-rules.yaml").read_text())
    (tmp_path / "ops.yaml").write_text("rules:\n  - name: keep-logs\n    extensions: [.log]\n    action: include\n")
    assert load_rules(tmp_path, "ops").decide(doc("ops/service.log")) == ("include", "keep-logs")
