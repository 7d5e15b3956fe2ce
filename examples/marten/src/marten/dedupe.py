"""Drop webhooks we have already accepted.

Providers retry on their side too, so the same delivery id can arrive more
than once. The first time we see an id we remember it in Redis for the
de-duplication window; later copies inside that window are acknowledged
but not relayed again.
"""

from __future__ import annotations

import time
from typing import Protocol

from redis.asyncio import Redis

_KEY_PREFIX = "marten:seen:"


class Deduper(Protocol):
    async def first_time(self, source: str, delivery_id: str) -> bool: ...
    async def ping(self) -> bool: ...
    async def close(self) -> None: ...


class RedisDeduper:
    def __init__(self, redis: Redis, window_seconds: int) -> None:
        self._redis = redis
        self._window = window_seconds

    @classmethod
    def from_url(cls, url: str, window_seconds: int) -> RedisDeduper:
        return cls(Redis.from_url(url, socket_timeout=2.0), window_seconds)

    async def first_time(self, source: str, delivery_id: str) -> bool:
        # SET NX EX: true only for the caller that created the key.
        created = await self._redis.set(
            f"{_KEY_PREFIX}{source}:{delivery_id}", b"1", nx=True, ex=self._window
        )
        return bool(created)

    async def ping(self) -> bool:
        try:
            return bool(await self._redis.ping())
        except Exception:
            return False

    async def close(self) -> None:
        await self._redis.aclose()


class MemoryDeduper:
    """In-process fallback used by tests and by ``--no-redis`` local runs."""

    def __init__(self, window_seconds: int) -> None:
        self._window = window_seconds
        self._seen: dict[str, float] = {}

    async def first_time(self, source: str, delivery_id: str) -> bool:
        now = time.monotonic()
        self._seen = {k: t for k, t in self._seen.items() if now - t < self._window}
        key = f"{source}:{delivery_id}"
        if key in self._seen:
            return False
        self._seen[key] = now
        return True

    async def ping(self) -> bool:
        return True

    async def close(self) -> None:
        self._seen.clear()
