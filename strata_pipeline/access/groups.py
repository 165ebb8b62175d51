"""Document groups: which groups a document belongs to, and which a caller may read.

Classification gives every document its groups (an `access:` rule, else its adapter, else
`public`); the groups travel on every chunk payload and sidecar row. A caller is an `Access`: the
query engine turns it into one payload filter and one sidecar filter (query_engine.py), so no
surface can forget it. Plain Python, so the CLI and the API pay nothing to import it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from strata_pipeline.indexing.engine import Where

PUBLIC = "public"  # the default group, readable by every caller
EVERY_GROUP = "*"  # in a key's groups: an operator key that reads every group
GROUPS_FIELD = "groups"  # the payload field and sidecar column that hold a document's groups
GROUP_PATTERN = "^[a-z0-9][a-z0-9_.-]{0,63}$"
_GROUP = re.compile(GROUP_PATTERN)


def check_group(name: object, where: str = "group") -> str:
    """`name` if it is a group name (a lowercase slug, at most 64 characters), else ValueError."""
    if not isinstance(name, str) or not _GROUP.match(name):
        raise ValueError(f"{where}: {name!r} is not a group name (lowercase letters, digits, '.', '_', '-').")
    return name


def check_groups(names: object, where: str) -> tuple[str, ...]:
    """A non-empty list of group names, sorted and without repeats."""
    if not isinstance(names, list | tuple) or not names:
        raise ValueError(f"{where}: `groups` must be a non-empty list of group names.")
    return tuple(sorted({check_group(n, where) for n in names}))


@dataclass(frozen=True)
class Access:
    """Who is asking and which groups they read. `groups` None means every group: the local operator
    (the CLI without --as, the API without a keys file, a key holding "*", the eval)."""

    name: str
    groups: frozenset[str] | None

    @classmethod
    def operator(cls, name: str = "operator") -> Access:
        return cls(name, None)

    @classmethod
    def member(cls, name: str, groups: Iterable[str]) -> Access:
        """A caller in `groups`; every caller also reads `public`. "*" among them reads everything."""
        wanted = frozenset(groups)
        return cls(name, None if EVERY_GROUP in wanted else wanted | {PUBLIC})

    @property
    def restricted(self) -> bool:
        return self.groups is not None

    def admits(self, document_groups: Iterable[str] | None) -> bool:
        """Whether a document in `document_groups` may reach this caller. A document without groups
        (an index built before groups existed) reaches only the operator: fail closed."""
        return self.groups is None or bool(self.groups.intersection(document_groups or ()))

    def where(self) -> Where | None:
        """The index payload filter (indexing.engine.Where): any of the caller's groups."""
        return None if self.groups is None else {GROUPS_FIELD: sorted(self.groups)}
