"""Who is calling: `Authorization: Bearer <key>` against the keys file (STRATA_API_KEYS).

The middleware puts the caller (an `Access`) and its key's name in the request scope; the routes hand
the caller to the query engine, which enforces its groups (QueryEngine.scoped), and the rate limit
counts per key name. Without a keys file every caller is the local operator (every group), which is
why `strata serve` then listens on loopback only (serving/config.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from strata_pipeline.access.groups import Access
from strata_pipeline.access.keys import KeyRing

CALLER = "strata.caller"  # scope key: the Access of the request
KEY_NAME = "strata.key"  # scope key: the name of the key it presented, when it did


def caller_of(scope: Scope) -> Access:
    """The request's caller; a request the middleware did not see reads nothing but `public`."""
    return scope.get(CALLER) or Access.member("anonymous", ())


def bearer(scope: Scope) -> str | None:
    for name, value in scope.get("headers") or ():
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            if scheme.lower() != "bearer":
                return None
            return token.strip() or None
    return None


class AuthMiddleware:
    """With a key ring, every path outside `open_paths` needs a valid key (401 otherwise); on open paths
    (probes, metrics, the docs pages) a valid key is still recognised. Without one, every request is
    the local operator's."""

    def __init__(self, app: ASGIApp, *, keys: KeyRing | None, open_paths: Iterable[str] = ()) -> None:
        self.app = app
        self.keys = keys
        self.open_paths = tuple(open_paths)

    def _open(self, path: str) -> bool:
        return any(path == p or path.startswith(p.rstrip("/") + "/") for p in self.open_paths)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.keys is None:
            scope[CALLER] = Access.operator("local")
        else:
            token = bearer(scope)
            key = self.keys.authenticate(token) if token else None
            if key is None and not self._open(scope["path"]):
                said = "a missing" if token is None else "an unknown"
                refusal = JSONResponse(
                    status_code=401,
                    content={"detail": f"This API needs a key: send `Authorization: Bearer <key>` ({said} key)."},
                    headers={"WWW-Authenticate": "Bearer"},
                )
                await refusal(scope, receive, send)
                return
            scope[CALLER] = key.access if key else Access.member("anonymous", ())
            if key is not None:
                scope[KEY_NAME] = key.name
        await self.app(scope, receive, send)


def document_bearer(app: Any, open_paths: Iterable[str]) -> None:
    """Declare the bearer key in the OpenAPI schema, on every operation outside `open_paths`, so /docs
    offers an Authorize button and clients generated from the schema send the header."""
    plain = app.openapi
    opened = tuple(open_paths)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = plain()
            schema.setdefault("components", {}).setdefault("securitySchemes", {})["apiKey"] = {
                "type": "http",
                "scheme": "bearer",
                "description": "A key from `strata keys add`; the keys file is STRATA_API_KEYS.",
            }
            for path, operations in schema.get("paths", {}).items():
                if not any(path == p or path.startswith(p.rstrip("/") + "/") for p in opened):
                    for operation in operations.values():
                        operation["security"] = [{"apiKey": []}]
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi
