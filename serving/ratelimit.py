"""A per-client request rate limit: HTTP 429 with Retry-After once a client has spent its allowance.

Counts are kept by the `limits` library (sliding-window counters). With the default `memory://`
storage each worker process counts on its own, so `strata serve --workers N` lets a client make up
to N times the limit when its requests land on different workers.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Mapping

import limits
from limits.storage import storage_from_string
from limits.strategies import SlidingWindowCounterRateLimiter
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from serving.auth import KEY_NAME
from serving.config import RATE_LIMIT_OFF


def client_key(scope: Scope) -> str:
    """Whom a request counts against: its API key's name when it presented one (serving/auth.py), so
    each key gets its own allowance; else its address (behind a proxy, the address uvicorn takes from
    X-Forwarded-For when the proxy is in FORWARDED_ALLOW_IPS)."""
    if scope.get(KEY_NAME):
        return "key:" + scope[KEY_NAME]
    client = scope.get("client")
    return "addr:" + (client[0] if client else "unknown")


def parse_limits(spec: str) -> list[limits.RateLimitItem]:
    """`"120/minute"` or several joined by ";" (`"10/second;600/hour"`); every one of them applies."""
    try:
        items = limits.parse_many(spec)
    except ValueError as exc:
        raise ValueError(
            f"STRATA_RATE_LIMIT={spec!r} is not a rate limit: use e.g. '120/minute' or '10/second;600/hour', or 'off'"
        ) from exc
    if not items:
        raise ValueError(f"STRATA_RATE_LIMIT={spec!r} names no limit")
    return items


class ClientRateLimit:
    """The limits and their counts. Built when the app is created, so a bad STRATA_RATE_LIMIT or storage
    URI stops `strata serve` at start-up rather than failing the first request."""

    def __init__(
        self, rate_limit: str, storage_uri: str = "memory://", per_key: Mapping[str, str] | None = None
    ) -> None:
        """`rate_limit` applies to every client ("off": none); `per_key` maps a key name to its own
        limit (the keys file's `rate_limit`), which replaces the common one for that key."""
        self.items = [] if rate_limit.strip().lower() in RATE_LIMIT_OFF else parse_limits(rate_limit)
        self.per_key = {}
        for name, spec in (per_key or {}).items():
            try:
                self.per_key["key:" + name] = parse_limits(spec)
            except ValueError:
                raise ValueError(f"The API key {name!r} has rate_limit {spec!r}: use e.g. '60/minute'.") from None
        try:
            storage = storage_from_string(storage_uri)
        except Exception as exc:  # limits raises ConfigurationError, or ImportError-like errors for a missing client
            raise ValueError(f"STRATA_RATE_LIMIT_STORAGE={storage_uri!r} cannot be used: {exc}") from exc
        self.limiter = SlidingWindowCounterRateLimiter(storage)

    def refusal(self, who: str) -> JSONResponse | None:
        """None when `who` may make one more request (and it is counted), else the 429 to send."""
        items = self.per_key.get(who, self.items)
        # test every limit before spending any, so a refused request costs nothing
        for item in items:
            if not self.limiter.test(item, who):
                return self._refuse(item, who)
        for item in items:
            if not self.limiter.hit(item, who):  # lost a race with a concurrent request
                return self._refuse(item, who)
        return None

    def _refuse(self, item: limits.RateLimitItem, who: str) -> JSONResponse:
        reset_at = self.limiter.get_window_stats(item, who).reset_time
        retry_after = max(1, math.ceil(reset_at - time.time()))
        return JSONResponse(
            status_code=429,
            content={
                "detail": f"Rate limit exceeded: {item} per {'key' if who.startswith('key:') else 'client'}. "
                f"Retry after {retry_after} s."
            },
            headers={"Retry-After": str(retry_after)},
        )


class RateLimitMiddleware:
    """Counts each HTTP request against its client's limits; paths in `exempt` (probes, the metrics
    scrape) are never counted, so a busy client cannot make the service look dead."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        limit: ClientRateLimit,
        exempt: Iterable[str] = (),
        key: Callable[[Scope], str] = client_key,
    ) -> None:
        self.app = app
        self.limit = limit
        self.exempt = frozenset(exempt)
        self.key = key

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] not in self.exempt:
            refusal = self.limit.refusal(self.key(scope))
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)
