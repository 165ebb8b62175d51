"""Secret detection by shape and by context; only the value is replaced, the label stays."""

from __future__ import annotations

import pytest

from strata_pipeline.redaction.pii import PiiPolicy
from strata_pipeline.redaction.redact import redact_text
from strata_pipeline.redaction.secrets import (
    SECRET_PLACEHOLDER,
    SecretSpan,
    find_secrets,
    merge_spans,
    placeholder_for,
    shannon_entropy,
)


class NoPii:
    """Secrets need no PII detector; this one finds nothing (it is not a stand-in for Presidio)."""

    name = "none"

    def detect(self, text: str) -> list:
        return []


def redact(text: str) -> str:
    return redact_text(text, NoPii(), PiiPolicy()).text


PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "MIIEowIBAAKCAQEAx7Kq9mV3pLz2Rt8Wn5Yb1Hc4Jd6Fs0Ge2Ua7Tk3Mq9Xo5Pv\n"
    "Zc8Ln1Rb4Wm7Yt2Hd6Js0Gf3Ke9Ua5Qx1Vp8Nz4Lc7Rm2Tb6Wk9Yh3Jd0Fs5Ge\n"
    "-----END RSA PRIVATE KEY-----"
)

SHAPES = [
    ("aws_access_key", "AKIA4NWR7QK2ZP9TLX3M"),
    ("aws_access_key", "ASIAY34FZKBOKMUTVV7A"),
    ("github_token", "ghp_7hR2kLp9Qx4Vm1Zc8Tn5Wb3Yd6Fs0Ge2Ja9K"),
    ("github_token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123"),
    ("stripe_key", "sk_live_9fQ2xLm7Vb4Rt8Kp1Zs6Wd3Yh5Nc0Ja2Ge7Tu4Bq"),
    ("stripe_key", "rk_test_51HqLyjWDarjtT1zdp7dc"),
    ("openai_style_key", "sk-proj-Xa9bQ2cD4eF6gH8iJ0kL2mN4oP6qR8sT"),
    ("openai_style_key", "sk-ant-api03-abcDEF123ghiJKL456mnoPQR"),
    ("slack_token", "xoxb-2048-1234567890-AbCdEfGhIjKl"),
    ("google_api_key", "AIzaSyD3x8Qm2Lk7Vb4Rt8Kp1Zs6Wd3Yh5Nc0Ja"),
    (
        "jwt",
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    ),
    ("hex_token", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"),
    ("high_entropy", "Zc8Ln1Rb4Wm7Yt2Hd6Js0Gf3Ke9Ua5"),
    ("gitlab_token", "glpat-Ls-QyakjfoBX60Akchdr"),
    ("npm_token", "npm_85aBASdGgF9L12U3czSiFXFljXGzZ4iG47Ar"),
    ("sendgrid_key", "SG.x7Kp2Lm9Qr4Tv1Wz8Yb3Nd.Hf6Jg0Ue5Sa2Xc7Vb4Nm9Lk1Pq8Rt3Wy6Zd0Fh5Gj1"),
]


@pytest.mark.parametrize(("kind", "secret"), SHAPES, ids=[f"{k}-{i}" for i, (k, _) in enumerate(SHAPES)])
def test_shape_patterns_find_the_whole_token_in_prose(kind: str, secret: str) -> None:
    text = f"The old deploy script used {secret} to talk to the service."
    start = text.index(secret)
    assert find_secrets(text) == [SecretSpan(start, start + len(secret), kind)]
    assert redact(text) == f"The old deploy script used {SECRET_PLACEHOLDER} to talk to the service."


def test_pem_private_key_keeps_the_line_count() -> None:
    text = f"Deploy key below.\n{PEM}\nRotate it yearly.\n"
    start = text.index(PEM)
    assert find_secrets(text) == [SecretSpan(start, start + len(PEM), "pem_private_key")]
    redacted = redact(text)
    assert redacted == f"Deploy key below.\n{SECRET_PLACEHOLDER}\n\n\n\nRotate it yearly.\n"
    assert redacted.count("\n") == text.count("\n")
    assert "MIIEow" not in redacted


def test_placeholder_for_multi_line_value() -> None:
    assert placeholder_for("one line") == "[REDACTED_SECRET]"
    assert placeholder_for("a\nb\nc") == "[REDACTED_SECRET]\n\n"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("api_key: abc123xyz", "api_key: [REDACTED_SECRET]"),
        ("API-KEY = 'Sup3rS3cret'", "API-KEY = '[REDACTED_SECRET]'"),
        ('"password": "Wint3r-Falc0n!2019",', '"password": "[REDACTED_SECRET]",'),
        ("  - db_password=hunter22", "  - db_password=[REDACTED_SECRET]"),
        ("AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI", "AWS_SECRET_ACCESS_KEY=[REDACTED_SECRET]"),
        ("client_secret: 0a1b-2c3d", "client_secret: [REDACTED_SECRET]"),
        ("SIGNING_KEY: letmein!", "SIGNING_KEY: [REDACTED_SECRET]"),
        ("pwd = qwerty", "pwd = [REDACTED_SECRET]"),
    ],
)
def test_key_value_context_replaces_only_the_value(line: str, expected: str) -> None:
    text = f"Legacy settings\n{line}\nend of settings"
    [span] = find_secrets(text)
    assert span.kind in {"key_value", "hex_token", "high_entropy"}
    assert redact(text) == f"Legacy settings\n{expected}\nend of settings"


def test_key_value_kind_for_a_plain_password() -> None:
    text = "password: Wint3r-Falc0n!2019"
    assert find_secrets(text) == [SecretSpan(10, len(text), "key_value")]


def test_key_value_does_not_re_redact_a_placeholder() -> None:
    assert find_secrets("api_key: [REDACTED_SECRET]") == []


def test_connection_string_password() -> None:
    text = "MONGO_URL is mongodb://admin:Passw0rd@mongo.example.com/admin"
    start = text.index("Passw0rd")
    assert find_secrets(text) == [SecretSpan(start, start + len("Passw0rd"), "connection_string")]
    assert redact(text) == "MONGO_URL is mongodb://admin:[REDACTED_SECRET]@mongo.example.com/admin"


def test_connection_string_with_a_port_redacts_only_the_password() -> None:
    # The email_password pattern also matches "s3cr3tPass@db.internal:5432/orders" and takes the
    # port and path for a password.
    text = "DATABASE_URL is postgres://app_user:s3cr3tPass@db.internal:5432/orders"
    start = text.index("s3cr3tPass")
    assert find_secrets(text) == [SecretSpan(start, start + len("s3cr3tPass"), "connection_string")]
    assert redact(text) == "DATABASE_URL is postgres://app_user:[REDACTED_SECRET]@db.internal:5432/orders"


def test_connection_string_without_a_user_name_is_redacted() -> None:
    # redis://:password@host is the documented form of a Redis URL with a password and no user.
    text = "CACHE_URL is redis://:hunter22@cache.internal:6379/0"
    assert redact(text) == "CACHE_URL is redis://:[REDACTED_SECRET]@cache.internal:6379/0"


def test_git_ssh_remote_is_not_a_password() -> None:
    text = "Clone it with git clone git@github.com:northwind/rx-firmware.git and run make."
    assert find_secrets(text) == []
    assert redact(text) == text


def test_shell_export_of_a_secret_is_redacted() -> None:
    # "export NAME=value" is how runbooks set credentials; the key_value pattern only allows list
    # markers before the key, and the entropy check cannot start a token right after "=".
    text = "Before deploying:\nexport AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"
    assert redact(text) == "Before deploying:\nexport AWS_SECRET_ACCESS_KEY=[REDACTED_SECRET]\n"


def test_email_password_pair() -> None:
    text = "Test account ops.bot@northwind.example:Falcon2019! expires soon"
    start = text.index("Falcon2019!")
    assert find_secrets(text) == [SecretSpan(start, start + len("Falcon2019!"), "email_password")]
    assert redact(text) == "Test account ops.bot@northwind.example:[REDACTED_SECRET] expires soon"


def test_several_secrets_in_one_document_are_all_replaced() -> None:
    text = (
        "Legacy deploy notes\n"
        "aws_access_key_id: AKIA4NWR7QK2ZP9TLX3M\n"
        "token: ghp_7hR2kLp9Qx4Vm1Zc8Tn5Wb3Yd6Fs0Ge2Ja9K\n"
        "The service listens on port 8080.\n"
    )
    assert redact(text) == (
        "Legacy deploy notes\n"
        "aws_access_key_id: [REDACTED_SECRET]\n"
        "token: [REDACTED_SECRET]\n"
        "The service listens on port 8080.\n"
    )


CLEAN = [
    "The RX-200 robot arm has a maximum reach of 1,100 mm and a repeatability of 0.03 mm.",
    "Firmware version 2.4.1 was released on 2025-01-15 and replaces version 2.3.9.",
    "See https://docs.northwind-robotics.example/rx-300/installation?section=mounting#bolts for details.",
    "Run `pip install fastembed==0.9.1 qdrant-client==1.20.0` before starting the service.",
    "for item in order.line_items: total += item.unit_price * item.quantity",
    'result = client.query_points(collection_name="handbook", limit=5, with_payload=True)',
    "Password rotation: every employee changes their password every 90 days.",
    "The token bucket algorithm limits each client to 100 requests per minute.",
    "Expense claims above $2,000 need approval from the department head within 30 days.",
    "Call the service desk on extension 4410 between 08:00 and 17:30, Monday to Friday.",
    "Configuration lives in /etc/northwind/robot-controller/settings.yaml on every controller.",
    "The internationalization-and-localization-guidelines document covers translations.",
    "Use the setMaximumTcpSpeedLimit method to cap the speed in collaborative mode.",
    "api_key: see the team vault",
]


@pytest.mark.parametrize("text", CLEAN)
def test_ordinary_text_is_not_flagged(text: str) -> None:
    assert find_secrets(text) == []
    assert redact(text) == text


def test_shannon_entropy_values() -> None:
    assert shannon_entropy("aaaa") == 0.0
    assert shannon_entropy("abab") == 1.0
    assert shannon_entropy("abcdefgh") == 3.0


def test_merge_spans_unions_overlaps_and_keeps_the_first_kind() -> None:
    spans = [SecretSpan(10, 20, "b"), SecretSpan(0, 5, "a"), SecretSpan(10, 30, "c"), SecretSpan(25, 40, "d")]
    assert merge_spans(spans) == [SecretSpan(0, 5, "a"), SecretSpan(10, 40, "c")]
    assert merge_spans([SecretSpan(0, 5, "a"), SecretSpan(5, 9, "b")]) == [
        SecretSpan(0, 5, "a"),
        SecretSpan(5, 9, "b"),
    ]


@pytest.mark.parametrize(
    ("text", "secret", "kind"),
    [
        (
            "[09:40] marco: HEROKU_API_KEY=4e640cd4-c730-47cb-a085-da1fd958b1e6",
            "4e640cd4-c730-47cb-a085-da1fd958b1e6",
            None,
        ),
        (
            "Datadog API key a8a9ea62-63a3-46aa-acfd-49403fcf6d85 (rotate it)",
            "a8a9ea62-63a3-46aa-acfd-49403fcf6d85",
            "uuid_key",
        ),
        (
            "Secret access key: PWtLClz7tx3QZoeTpAjL+Sc/lz+JMlzr8IDMemaS",
            "PWtLClz7tx3QZoeTpAjL+Sc/lz+JMlzr8IDMemaS",
            None,
        ),
        ("[09:26] tom.b:   - encryption_key=Copper_Nebula713", "Copper_Nebula713", "key_value"),
        (
            "Reset link: https://app.example.com/reset?token=Qm9ndXNUb2tlbjEyMzQ1Njc4",
            "Qm9ndXNUb2tlbjEyMzQ1Njc4",
            "url_secret",
        ),
        (
            "Alerts go to https://hooks.slack.com/services/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",
            "T024BE7LD/B01H3K9QX2M/pV7xQmL2sK9dR4tY8wN3zB6c",
            "slack_webhook",
        ),
        ("Server=tcp:nw.database.windows.net;User ID=app;Password=Azur3Sql!Pw;Encrypt=true;", "Azur3Sql!Pw", None),
        (
            "DefaultEndpointsProtocol=https;AccountName=nw;AccountKey=Xk3mP9qL2v+R8sT5wY1zB4==;EndpointSuffix=x",
            "Xk3mP9qL2v+R8sT5wY1zB4==",
            None,
        ),
    ],
)
def test_secrets_found_by_context(text: str, secret: str, kind: str | None) -> None:
    start = text.index(secret)
    spans = find_secrets(text)
    assert [(s.start, s.end) for s in spans] == [(start, start + len(secret))]
    if kind:
        assert spans[0].kind == kind


PUBLISHED = [
    "Release commit: 56f49d64c090cea7a24129199532290b5cd33e9f",
    "commit 9d49aee9f4580d08fb6d0ed62279c6dbedbc3729\nAuthor: Dev <dev@users.noreply.github.com>",
    "Docker image: ghcr.io/northwind/helix@sha256:ec3d7c6afcc831e864ec8b45d48730d21e9e233c90cb4f20047226249de87a13",
    "Checksums (SHA-256):\n"
    "d9133d268f95d09ea9823fa7b3a99b7d87de86440285b86ce53935fd16ccd6b9  helix-4.13.3-linux-amd64.tar.gz",
    "GET /v2/orders request_id=2f0b6c1e-55fa-4e62-a0d3-db35a9e43bd7 trace_id=d69a1b31a888deeeea35374646fa6aef",
    '<script src="chart.js"\n  integrity="sha384-oGsRbj2PhFyEZCVtQl9M+JsXcARSuB1lfnIslx5dCT2QAybfDfC1Sd53rFLoDujk">',
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGegukdfcvw7RC93LijQw3Tyt+ZYws4imLanz2TDjxAw dino@laptop",
    "-----BEGIN CERTIFICATE-----\n"
    "rEaIPKPPGY5VYjue11EDAnGw3m7IobhfTX87krQ4TDW5olmPwnqSW9Cy/OtgFfzd\n"
    "-----END CERTIFICATE-----",
    "var manager = new DefaultOAuth2AuthorizedClientManager(registrations, clients);",
    "Design doc: https://docs.google.com/document/d/1Xk9dQpZ3vL8mN2bR7tY5wJ4hG6fC0sA1eD3uI9oP2qK/edit",
    '<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAoAAAAKCAYAAACNMs+9AAAAFUlEQVR42mNk" alt="logo">',
]

REFERENCES = [
    "auth:\n  token_ttl_seconds: 3600\n  password_min_length: 12\n  secret_name: db-credentials",
    "  existingSecret: db-credentials\n  passwordSecretKey: password",
    "        self.api_key = api_key",
    "    password = getpass.getpass()",
    '    return DatabaseConfig(host="db.internal", user="app", password=password)',
    "  password          = var.db_password",
    "DATABASE_URL=postgres://app_user:${DB_PASSWORD}@localhost:5432/orders",
    "STRIPE_SECRET_KEY=<your-stripe-test-key>\nSESSION_SECRET=changeme\nTOKEN_EXPIRY=3600",
    "spring.datasource.password=${DB_PASSWORD}",
    '    ansible_become_password: "{{ vault_become_password }}"',
    "          DEPLOY_TOKEN: ${{ secrets.DEPLOY_TOKEN }}",
    "max_tokens: 4096",
]


@pytest.mark.parametrize("text", PUBLISHED + REFERENCES)
def test_published_digests_ids_and_references_are_not_secrets(text: str) -> None:
    assert find_secrets(text) == []
