"""Error responses that never echo a request back, and a JSON body parser that fails as a 422.

FastAPI's default 422 repeats each invalid input in full (a 10 MiB query came back whole), and a lone
surrogate in it could not even be encoded, so the reply became a 500 and a dropped connection.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute

from strata_pipeline.validation import PREVIEW_CHARS, preview


def _short(value: object) -> str | int | float | bool | None:
    """A scalar as it is when short; anything else as a short printable preview."""
    if value is None or isinstance(value, bool | int | float):
        return value if not isinstance(value, int) or abs(value) < 10**18 else preview(str(value))
    if isinstance(value, str):
        return preview(value) if len(value) > PREVIEW_CHARS or not value.isprintable() else value
    if isinstance(value, dict):
        return f"an object with {len(value)} field{'s' if len(value) != 1 else ''}"
    if isinstance(value, list | tuple):
        return f"an array of {len(value)}"
    return preview(str(value))


def _clip(text: str, limit: int = 300) -> str:
    """A message, encodable whatever it holds, cut at `limit` characters."""
    cut = text[:limit].encode("utf-8", "backslashreplace").decode("utf-8")
    return cut + ("…" if len(text) > limit else "")


def validation_error_body(exc: RequestValidationError) -> dict[str, list[dict[str, Any]]]:
    """FastAPI's shape ({"detail": [{type, loc, msg, input, ctx}]}), with every input, location part
    and context value cut to a short printable preview."""
    detail = []
    for error in exc.errors():
        item: dict[str, Any] = {
            "type": str(error.get("type", "value_error")),
            "loc": [_short(part) for part in error.get("loc", ())],
            "msg": _clip(str(error.get("msg", ""))),
        }
        if "input" in error and item["type"] != "json_invalid":  # FastAPI puts {} there: nothing was parsed
            item["input"] = _short(error["input"])
        # an exception in ctx (a validator's ValueError) only repeats msg
        ctx = {str(k): v for k, v in (error.get("ctx") or {}).items() if not isinstance(v, BaseException)}
        if ctx:
            item["ctx"] = {k: _clip(v, 200) if isinstance(v, str) else _short(v) for k, v in ctx.items()}
        detail.append(item)
    return {"detail": detail}


async def validation_error_handler(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return JSONResponse(status_code=422, content=validation_error_body(exc))


class _StrictJSONRequest(Request):
    """A request whose JSON body must be UTF-8 (RFC 8259) and parse: anything else raises the
    JSONDecodeError that FastAPI turns into a 422, where it used to answer 400 or 500."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            body = await self.body()
            try:
                text = body.decode("utf-8")  # strict: also refuses UTF-8-encoded surrogates
            except UnicodeDecodeError as exc:
                raise json.JSONDecodeError(f"invalid UTF-8 at byte {exc.start}", "", 0) from exc
            try:
                self._json = json.loads(text)
            except json.JSONDecodeError:  # a ValueError too: pass it on as it is
                raise
            except RecursionError as exc:
                raise json.JSONDecodeError("nesting too deep", "", 0) from exc
            except ValueError as exc:  # an integer literal past Python's digit limit
                raise json.JSONDecodeError(str(exc)[:80], "", 0) from exc
        return self._json


class StrictJSONRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(_StrictJSONRequest(request.scope, request.receive))

        return strict
