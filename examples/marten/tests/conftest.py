from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from marten.app import create_app
from marten.dedupe import MemoryDeduper
from marten.routing import Destination, Route
from marten.settings import Settings

SECRET = "test-secret-6f1c"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    # Small, fast values: tests should never sleep for real backoff delays.
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        workers=2,
        queue_max_depth=20,
        max_attempts=3,
        delivery_timeout_seconds=0.5,
        backoff_base_ms=1,
        backoff_max_seconds=1,
        backoff_jitter=0.0,
        max_payload_kb=4,
        signature_tolerance_seconds=60,
        shutdown_grace_seconds=1,
        routes_file=tmp_path / "unused.toml",
    )


@pytest.fixture
def routes() -> dict[str, Route]:
    return {
        "internal": Route(
            source="internal",
            scheme="marten",
            secret_env="MARTEN_SECRET_TEST",
            destinations=(
                Destination(name="sink-a", url="http://sink-a.test/in"),
                Destination(name="sink-b", url="http://sink-b.test/in", events=frozenset({"ping"})),
            ),
        )
    }


@pytest.fixture(autouse=True)
def _secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MARTEN_SECRET_TEST", SECRET)


@pytest.fixture
async def client(settings: Settings, routes: dict[str, Route]) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(settings, deduper=MemoryDeduper(60), routes=routes)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://marten.test") as c:
            yield c
