"""The API's own limits, read from the environment (settings.py) when the app is created.

They shape only how requests are admitted, not the index: Settings carries them as written and
they are validated here, so a bad value stops `strata serve` and nothing else.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path

from strata_pipeline.access.keys import KEYS_ENV, load_keys
from strata_pipeline.settings import Settings, load_settings

DEFAULT_MAX_BODY_BYTES = 64 * 1024  # a 2,000-character query escaped as \uXXXX pairs still fits
DEFAULT_RATE_LIMIT = "120/minute"
RATE_LIMIT_OFF = ("off", "none", "0")


@dataclass(frozen=True)
class ServingConfig:
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    # `limits` notation, several separated by ";" ("20/second;600/minute"); "off" disables the limit
    rate_limit: str = DEFAULT_RATE_LIMIT
    # where the counts live: memory:// is per worker process
    rate_limit_storage: str = "memory://"
    # the API keys file (STRATA_API_KEYS); None: no keys, every caller is the local operator
    keys_file: Path | None = None

    @property
    def rate_limited(self) -> bool:
        return self.rate_limit.strip().lower() not in RATE_LIMIT_OFF

    @classmethod
    def from_env(cls) -> ServingConfig:
        return cls.from_settings(load_settings())

    @classmethod
    def from_settings(cls, settings: Settings) -> ServingConfig:
        body = settings.max_body_bytes
        try:
            max_body = int(body) if body else DEFAULT_MAX_BODY_BYTES
        except ValueError:
            raise ValueError(f"STRATA_MAX_BODY_BYTES={body!r} is not a whole number of bytes.") from None
        if max_body < 1:
            raise ValueError(f"STRATA_MAX_BODY_BYTES={body!r} must be at least 1.")
        return cls(
            max_body_bytes=max_body,
            rate_limit=settings.rate_limit or DEFAULT_RATE_LIMIT,
            rate_limit_storage=settings.rate_limit_storage or "memory://",
            keys_file=settings.api_keys_file,
        )


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_bind(host: str, config: ServingConfig) -> str:
    """What `strata serve` says at start-up about who may call it; ValueError when it must not start:
    without keys every caller reads every document group, so only this machine may reach it."""
    if config.keys_file is not None:
        ring = load_keys(config.keys_file)  # a bad file stops here, before any worker starts
        return (
            f"{len(ring.keys)} API keys from {config.keys_file}: every query needs `Authorization: Bearer <key>` "
            "and reads only its key's document groups."
        )
    if not is_loopback(host):
        raise ValueError(
            f"Refusing to listen on {host} without API keys: every caller would read every document group. "
            f"Create keys (`strata keys add NAME --group G`) and set {KEYS_ENV}, or listen on 127.0.0.1."
        )
    return (
        f"No {KEYS_ENV}: no authentication, every caller reads every document group; "
        f"listening on {host} (this machine) only."
    )
