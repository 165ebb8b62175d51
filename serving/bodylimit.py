"""A request body limit: HTTP 413, as JSON like every other error, before the body is parsed.

A declared length over the limit is refused before a byte is read. A body that streams without a
declared length (chunked) is counted as it arrives and stopped once past the limit. (FastAPI's own
`max_body_size` does the same, but answers a declared one in plain text from outside the app.)
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyTooLarge(HTTPException):
    """Raised from the body read; FastAPI passes HTTPExceptions on to the app's JSON error handler."""

    def __init__(self, limit: int) -> None:
        super().__init__(status_code=413, detail=f"Request body over {limit} bytes.")


class BodyLimitMiddleware:
    def __init__(self, app: ASGIApp, *, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_body_bytes:
            detail = f"Request body of {int(declared)} bytes; at most {self.max_body_bytes} are allowed."
            await JSONResponse(status_code=413, content={"detail": detail})(scope, receive, send)
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body_bytes:
                    raise BodyTooLarge(self.max_body_bytes)
            return message

        await self.app(scope, counted, send)
