"""find_leaks and planted_values: the proof that redaction worked."""

from __future__ import annotations

from pathlib import Path

from strata_pipeline.redaction.pii import Finding
from strata_pipeline.redaction.verify import Leak, find_leaks, only_placeholders, planted_values
from strata_pipeline.settings import PROJECT_ROOT

PLANTED = [("PERSON", "Jonas Weber"), ("IBAN", "DE89370400440532013000")]


def test_planted_values_are_leaks() -> None:
    texts = [
        ("hr/payroll.txt", "Pay Jonas Weber to DE89370400440532013000 monthly."),
        ("hr/clean.txt", "Pay [PERSON_1] to [IBAN_1] monthly."),
    ]
    assert find_leaks(texts, PLANTED) == [
        Leak("hr/payroll.txt", "planted:PERSON"),
        Leak("hr/payroll.txt", "planted:IBAN"),
    ]


def test_secret_shapes_are_leaks_even_if_not_planted() -> None:
    texts = [
        ("it/deploy.txt", "Use AKIA4NWR7QK2ZP9TLX3M and\npassword: Wint3r-Falc0n!2019\n"),
        ("it/ok.txt", "password: [REDACTED_SECRET]\napi_key: [REDACTED_SECRET]\n"),
    ]
    assert find_leaks(texts, []) == [Leak("it/deploy.txt", "aws_access_key"), Leak("it/deploy.txt", "key_value")]


def test_planted_matching_is_verbatim() -> None:
    assert find_leaks([("a", "jonas weber and DE89 3704 0044 0532 0130 00")], PLANTED) == []


def test_no_texts_no_leaks() -> None:
    assert find_leaks([], PLANTED) == []


def test_planted_values_of_the_sample_corpus() -> None:
    products = planted_values(PROJECT_ROOT / "golden", "products")
    assert ("PERSON", "Daniel Okafor") in products
    assert ("CREDIT_CARD", "4111 1111 1111 1111") in products
    assert ("api_key", "sk_live_Rv3Nq8Tz1Lx6Wp4Yb9Kc2Md7Hs5Gf0Ja3Ue8Qo2V") in products
    handbook = planted_values(PROJECT_ROOT / "golden", "handbook")
    assert ("PERSON", "Jonas Weber") in handbook
    assert not set(products) & set(handbook)
    pem = [value for kind, value in handbook if kind == "pem"]
    assert len(pem) == 1
    assert pem[0].startswith("-----BEGIN RSA PRIVATE KEY-----\n")


def test_planted_values_filters_by_source_set_and_skips_empty_values(tmp_path: Path) -> None:
    (tmp_path / "planted.yaml").write_text(
        "planted:\n"
        "  - {source_set: a, type: PERSON, value: Jonas Weber}\n"
        "  - {source_set: b, type: PERSON, value: Lena Hoffmann}\n"
        "  - {source_set: a, type: EMAIL, value: ''}\n"
        "  - {source_set: a, value: 12345}\n"
        "kept:\n"
        "  - {source_set: a, value: support@x.example}\n",
        encoding="utf-8",
    )
    assert planted_values(tmp_path, "a") == [("PERSON", "Jonas Weber"), ("", "12345")]
    assert planted_values(tmp_path, "c") == []


def test_missing_or_empty_planted_file(tmp_path: Path) -> None:
    assert planted_values(tmp_path, "a") == []
    (tmp_path / "planted.yaml").write_text("", encoding="utf-8")
    assert planted_values(tmp_path, "a") == []


class _SpanDetector:
    """Flags fixed spans, as a context-dependent detector may flag a placeholder it is shown."""

    def __init__(self, *spans: str) -> None:
        self.spans = spans

    def detect(self, text: str) -> list[Finding]:
        return [Finding("ADDRESS", text.index(s), text.index(s) + len(s), 0.9, "test") for s in self.spans]


class _RedactAll:
    def decide(self, finding: Finding, text: str, others: object = ()) -> str:
        return "redact"


def test_a_detection_made_only_of_placeholders_is_the_redaction_not_a_leak() -> None:
    text = "PDX | [PERSON_1] | [ADDRESS_1] | US\nRNO | 12 Harbour Road | US"
    detector = _SpanDetector("[ADDRESS_1] | ", "[PERSON_1] | [ADDRESS_1]", "12 Harbour Road")
    leaks = find_leaks([("sales/inventory.xlsx", text)], [], detector, _RedactAll())
    assert leaks == [Leak("sales/inventory.xlsx", "pii:ADDRESS")]  # only the real address


def test_only_placeholders() -> None:
    assert only_placeholders("[ADDRESS_1] | [PERSON_2]") and only_placeholders("[REDACTED_SECRET]")
    assert not only_placeholders("[ADDRESS_1] Portland") and not only_placeholders(" | ")


class _EntityDetector:
    def __init__(self, *spans: tuple[str, str]) -> None:
        self.spans = spans

    def detect(self, text: str) -> list[Finding]:
        return [Finding(kind, text.index(s), text.index(s) + len(s), 0.9, "test") for kind, s in self.spans]


def test_an_address_grown_around_an_address_placeholder_is_the_redactions_own_boundary() -> None:
    text = "Adresse du bureau : [ADDRESS_1], Valrive – accueil du lundi au vendredi.\nSiège : 12 rue des Vignes"
    detector = _EntityDetector(("ADDRESS", "[ADDRESS_1], Valrive – accueil"), ("ADDRESS", "12 rue des Vignes"))
    assert find_leaks([("a.md", text)], [], detector, _RedactAll()) == [Leak("a.md", "pii:ADDRESS")]
    # a surname left beside a person's placeholder is still a leak
    person = _EntityDetector(("PERSON", "[PERSON_1] Gruber"))
    assert find_leaks([("b.md", "Fahrer [PERSON_1] Gruber")], [], person, _RedactAll()) == [Leak("b.md", "pii:PERSON")]
