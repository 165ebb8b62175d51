"""API keys: a YAML file that maps the sha256 of each key to its holder's name, groups and rate limit.

    keys:
      3b1f…(64 hex digits): {name: hr-portal, groups: [hr], rate_limit: 60/minute}

Only hashes are stored, so the file can be read by whoever runs the service without revealing a key;
`strata keys add` creates an entry and prints the key once. The API reads the file named by
STRATA_API_KEYS (serving/app.py); `strata search/ask --as NAME` reads the same file for NAME's groups.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

import yaml

from strata_pipeline.access.groups import EVERY_GROUP, Access, check_groups
from strata_pipeline.settings import API_KEYS_ENV, load_settings

KEYS_ENV = API_KEYS_ENV
KEY_PREFIX = "strata_"  # makes a leaked key easy to recognise (and to scan for)
_DIGEST = re.compile(r"^[0-9a-f]{64}$")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$")


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class ApiKey:
    digest: str
    name: str
    groups: tuple[str, ...]
    rate_limit: str | None = None  # `limits` notation; None: the service's STRATA_RATE_LIMIT

    @property
    def access(self) -> Access:
        return Access.member(self.name, self.groups)


@dataclass(frozen=True)
class KeyRing:
    keys: tuple[ApiKey, ...]
    path: Path | None = None

    def authenticate(self, key: str) -> ApiKey | None:
        """The entry of a presented key, or None. Looked up by hash: the plain key is never compared."""
        digest = hash_key(key)
        return next((k for k in self.keys if secrets.compare_digest(k.digest, digest)), None)

    def by_name(self, name: str) -> ApiKey:
        found = next((k for k in self.keys if k.name == name), None)
        if found is None:
            where = self.path or KEYS_ENV
            raise LookupError(f"No key named {name!r} in {where}; known: {', '.join(k.name for k in self.keys)}.")
        return found


def keys_path() -> Path | None:
    """The keys file STRATA_API_KEYS names, or None when it is unset."""
    return load_settings().api_keys_file


def load_keys(path: Path) -> KeyRing:
    """Read and validate the keys file; every mistake names its entry (never a key or a hash)."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except FileNotFoundError:
        raise ValueError(
            f"{KEYS_ENV}={path} does not exist; create it with `strata keys add NAME --group G`."
        ) from None
    entries = data.get("keys") if isinstance(data, dict) else None
    if not isinstance(entries, dict):
        raise ValueError(f"{path}: expected a mapping `keys:` of sha256 hash -> {{name, groups, rate_limit}}.")
    keys, names = [], set()
    for position, (digest, entry) in enumerate(entries.items(), start=1):
        where = f"{path} key #{position}"
        if not isinstance(digest, str) or not _DIGEST.match(digest):
            raise ValueError(f"{where}: the key must be a sha256 hash (64 lowercase hex digits), never the key itself.")
        if not isinstance(entry, dict) or set(entry) - {"name", "groups", "rate_limit"}:
            raise ValueError(f"{where}: an entry holds only `name`, `groups` and `rate_limit`.")
        name = entry.get("name")
        if not isinstance(name, str) or not _NAME.match(name):
            raise ValueError(f"{where}: `name` must be a short name (letters, digits, '.', '_', '@', '-').")
        if name in names:
            raise ValueError(f"{where}: the name {name!r} is used twice; names pick a key for `--as`.")
        names.add(name)
        groups = entry.get("groups")
        groups = (EVERY_GROUP,) if groups == [EVERY_GROUP] else check_groups(groups, f"{where} ({name})")
        rate = entry.get("rate_limit")
        if rate is not None and not isinstance(rate, str):
            raise ValueError(f"{where} ({name}): `rate_limit` is text such as '60/minute'.")
        keys.append(ApiKey(digest, name, groups, rate))
    return KeyRing(tuple(keys), path)


def add_key(path: Path, name: str, groups: list[str], rate_limit: str | None = None) -> str:
    """Add an entry for a new random key to `path` (created, readable by its owner only) and return the
    key: the only time it exists in clear. The file is rewritten, so comments in it are not kept."""
    if not _NAME.match(name):
        raise ValueError(f"{name!r} is not a key name (letters, digits, '.', '_', '@', '-').")
    wanted = [EVERY_GROUP] if list(groups) == [EVERY_GROUP] else list(check_groups(list(groups), "--group"))
    entries = load_keys(path).keys if path.exists() else ()
    if any(k.name == name for k in entries):
        raise ValueError(f"{path} already has a key named {name!r}.")
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    data = {
        k.digest: {"name": k.name, "groups": list(k.groups), **({"rate_limit": k.rate_limit} if k.rate_limit else {})}
        for k in entries
    }
    data[hash_key(key)] = {"name": name, "groups": wanted, **({"rate_limit": rate_limit} if rate_limit else {})}
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = path.with_name(path.name + ".tmp")
    fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write("# API keys: sha256 of the key -> holder. Written by `strata keys add`.\n")
        yaml.safe_dump({"keys": data}, out, sort_keys=False)
    os.replace(fresh, path)
    return key
