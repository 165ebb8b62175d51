"""Outdated versions found by their own text or by a newer file beside them."""

from pathlib import Path

import polars as pl
import pytest

from strata_pipeline.classification.rules import RuleSet, classify_docs, detected_version_evidence, load_rules
from strata_pipeline.classification.versions import (
    IN_FOLDER,
    IN_TEXT,
    UNDER_OLD_FOLDER,
    WEIGHT,
    marked_older,
    older_versions,
    outdated_folder,
    outdated_in_text,
)


@pytest.mark.parametrize(
    ("text", "marker"),
    [
        ("---\ntitle: Password Policy 2021 (superseded)\n---\n# Password Policy 2021\n", "(superseded)"),
        ("---\ntitle: Remote access VPN (runbook v2, archived)\n---\n", "(runbook v2, archived)"),
        ("# Lone Working Policy - ARCHIVED\n\nThis copy is kept.", "- ARCHIVED"),
        ("Title: Urlaubsregelung 2022 (außer Kraft)\nOwner: Personalamt\n", "(außer Kraft)"),
        ("Title: Retention schedule\nStatus: ARCHIVED - replaced by the 2025 schedule\n", "Status: ARCHIVED"),
        ("# Visiting patients\n\n> **Superseded** on 1 March 2025 by version 3.", "Superseded"),
        ("# Wahlleistungen\n\n> **Veraltet.** Ersetzt durch die Preisliste 2025.", "Veraltet"),
        ("# Gebühren 2023\n\n> **Hinweis: Diese Übersicht ist außer Kraft.** Sie galt bis 2025.",
         "Diese Übersicht ist außer Kraft"),
        ("# Règlement\n\nCette version est obsolète depuis le 1er mars.", "Cette version est obsolète"),
        ("Statut : abrogé le 1er janvier 2025\n", "Statut : abrogé"),
    ],
)  # fmt: skip
def test_a_head_that_says_the_text_is_outdated_is_found_with_its_words(text: str, marker: str) -> None:
    assert outdated_in_text(text) == marker


@pytest.mark.parametrize(
    "text",
    [
        "# Visitor policy (version 3, replaces version 2)\n\nThis policy replaces the 2023 version.",
        "# Ticket retention\n\nArchived tickets are deleted after 90 days.",
        "# Ersatzteile\n\nDie neue Richtlinie ersetzt die Fassung 2023.",
        "# Returns\n\nReplaced parts must be returned within 30 days.",
        "# Pensions - retired staff\n\nStatus: active",
        "# Records retention (including archived records)\n",
        "# Urlaub\n\nDiese Regelung gilt nicht mehr für Auszubildende, sie haben eine eigene.",
        "# Stand: 01.03.2025\n\nGültig für alle Beschäftigten.",
        "# zrh-db-01\n\nStatus: retired\nRole: ERP database",  # the server is retired, not the page
        # a notice far down the text is about something else, not this document
        "# Printing\n" + "Follow the steps.\n" * 20 + "> **Superseded** printers are collected monthly.",
    ],
)
def test_current_texts_are_not_taken_for_outdated_ones(text: str) -> None:
    assert outdated_in_text(text) is None


def test_the_newest_of_files_that_differ_only_in_a_version_or_year_is_current() -> None:
    older = older_versions(
        [
            "policies/travel-policy-v2.md",
            "policies/travel-policy-v3.md",
            "policies/travel-policy-v10.md",  # numbers compare as numbers, not text
            "firmware/controller-v3.2.md",
            "firmware/controller-v3.12.md",
            "fees/gebuehren-2023.md",
            "fees/gebuehren-2025.md",
            "fees/gebuehren-2024.csv",  # a table beside texts is another family
            "quality/cold-chain-2022.md",  # a text moved to another text format is the same family
            "quality/cold-chain-2025.docx",
            "quality/cold-chain-2025.pdf",  # the same year in two formats: neither is older
            "incidents/INC-2024-0412-db-disk.md",  # differ in more than a version: not versions
            "incidents/INC-2024-0719-vpn-outage.md",
            "other/travel-policy-v1.md",  # another folder
        ]
    )
    assert older == {
        "policies/travel-policy-v2.md": "policies/travel-policy-v10.md",
        "policies/travel-policy-v3.md": "policies/travel-policy-v10.md",
        "firmware/controller-v3.2.md": "firmware/controller-v3.12.md",
        "fees/gebuehren-2023.md": "fees/gebuehren-2025.md",
        "quality/cold-chain-2022.md": "quality/cold-chain-2025.pdf",
    }


def test_a_file_named_like_another_plus_a_word_for_old_is_the_older() -> None:
    older = marked_older(
        [
            "claims/fraud-checklist.txt",
            "claims/fraud-checklist_v2_alt.txt",  # German "alt": old, with its version
            "fees/fees.md",
            "fees/fees-old.md",
            "fees/fees-old.csv",  # another kind of file: no current twin
            "guides/layout-old.md",  # no file without the word beside it
            "other/fraud-checklist-old.txt",  # another folder
        ]
    )
    assert older == {
        "claims/fraud-checklist_v2_alt.txt": "claims/fraud-checklist.txt",
        "fees/fees-old.md": "fees/fees.md",
    }


@pytest.mark.parametrize(
    ("doc_id", "folder"),
    [
        ("claims/_superseded/total-loss-2024.md", "_superseded"),
        ("service/ausser-kraft/mahnverfahren.md", "ausser-kraft"),
        ("policies/archive-2023/travel.md", "archive-2023"),
        ("docs/Old Versions/travel.md", "Old Versions"),
        ("docs/alte-versionen/reise.md", "alte-versionen"),
        ("docs/email-archive/retention.md", None),  # a topic beside the word: about archiving
        ("altstadt/parking.md", None),
        ("releases/versions/v3.md", None),  # versions alone are not old ones
        ("reports/2023/annual.md", None),
        ("old.md", None),  # a file name, not a folder
    ],
)
def test_a_folder_named_only_by_words_for_old_holds_old_versions(doc_id: str, folder: str | None) -> None:
    assert outdated_folder(doc_id) == folder


def _docs(rows: list[tuple[str, str]]) -> pl.DataFrame:
    return pl.DataFrame({"doc_id": [d for d, _ in rows], "text": [t for _, t in rows], "status": ["ok"] * len(rows)})


def test_classify_marks_detected_old_versions_superseded_unless_a_ranking_rule_decided() -> None:
    docs = _docs(
        [
            ("hr/leave-2023.md", "# Leave 2023\n\nDays off."),
            ("hr/leave-2025.md", "# Leave 2025\n\nDays off."),
            ("it/vpn.md", "# VPN (superseded)\n\nUse the new client."),
            ("it/mfa.md", "# MFA\n\nEnrol your phone."),
            ("it/mfa_alt.md", "# MFA\n\nEnrol your token."),
            ("it/_superseded/wifi.md", "# Wi-Fi\n\nConnect."),
        ]
    )
    classified = classify_docs(docs, RuleSet(rules=()), lambda _: "en")
    rows = {d: (w, r, s) for d, w, r, s in classified.select("doc_id", "rank_weight", "rank_rule", "superseded").rows()}
    assert rows == {
        "hr/leave-2023.md": (WEIGHT, IN_FOLDER, True),
        "hr/leave-2025.md": (1.0, "", False),
        "it/vpn.md": (WEIGHT, IN_TEXT, True),
        "it/mfa.md": (1.0, "", False),
        "it/mfa_alt.md": (WEIGHT, IN_FOLDER, True),
        "it/_superseded/wifi.md": (WEIGHT, UNDER_OLD_FOLDER, True),
    }
    assert classified["version_evidence"].to_list() == [
        "newer: hr/leave-2025.md", None, "(superseded)", None, "newer: it/mfa.md", "folder: _superseded",
    ]  # fmt: skip
    assert detected_version_evidence(classified).rows() == [
        ("hr/leave-2023.md", IN_FOLDER, "newer: hr/leave-2025.md"),
        ("it/vpn.md", IN_TEXT, "(superseded)"),
        ("it/mfa_alt.md", IN_FOLDER, "newer: it/mfa.md"),
        ("it/_superseded/wifi.md", UNDER_OLD_FOLDER, "folder: _superseded"),
    ]


def test_the_evidence_is_read_from_classification_not_detected_again(monkeypatch: pytest.MonkeyPatch) -> None:
    docs = _docs([("hr/leave-2023.md", "# Leave 2023"), ("hr/leave-2025.md", "# Leave 2025"), ("it/mfa.md", "# MFA")])
    classified = classify_docs(docs, RuleSet(rules=()), lambda _: "en")

    def detected_again(*_: object) -> None:
        raise AssertionError("version detection ran again")

    for detector in ("newer_beside", "older_versions", "marked_older", "outdated_in_text", "outdated_folder"):
        monkeypatch.setattr(f"strata_pipeline.classification.rules.{detector}", detected_again)
    assert detected_version_evidence(classified).rows() == [("hr/leave-2023.md", IN_FOLDER, "newer: hr/leave-2025.md")]
    assert detected_version_evidence(classified.head(0)).is_empty()


def test_a_source_set_can_turn_detection_off_and_a_malformed_switch_says_what_it_needs(tmp_path: Path) -> None:
    (tmp_path / "corpus-rules.yaml").write_text("detect_versions: true\nrules: []\n")
    (tmp_path / "reports.yaml").write_text("detect_versions: false\n")
    assert load_rules(tmp_path, "reports").detect_versions is False  # the source-set's file decides
    assert load_rules(tmp_path, "other").detect_versions is True
    docs = _docs([("annual/report-2023.md", "# Report 2023"), ("annual/report-2024.md", "# Report 2024")])
    classified = classify_docs(docs, load_rules(tmp_path, "reports"), lambda _: "en")
    assert classified["superseded"].to_list() == [False, False]
    (tmp_path / "bad.yaml").write_text("detect_versions: maybe\n")
    with pytest.raises(ValueError, match="detect_versions must be true or false"):
        load_rules(tmp_path, "bad")
