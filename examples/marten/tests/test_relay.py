from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime

import httpx
import pytest
import respx

from marten.backoff import retry_after_seconds, retry_delay
from marten.relay import Delivery, Relay
from marten.routing import Destination
from marten.settings import Settings

DEST = Destination(name="sink", url="http://sink.test/in")


# --- backoff -----------------------------------------------------------------


def test_delay_doubles_until_cap() -> None:
    delays = [retry_delay(n, base_ms=350, max_seconds=240, jitter=0) for n in range(1, 12)]
    assert delays[:3] == [0.35, 0.7, 1.4]
    assert delays[-1] == 240


def test_jitter_stays_within_band() -> None:
    rng = random.Random(11)
    for _ in range(200):
        d = retry_delay(3, base_ms=1000, max_seconds=600, jitter=0.25, rng=rng)
        assert 3.0 <= d <= 5.0


def test_attempt_is_one_based() -> None:
    with pytest.raises(ValueError):
        retry_delay(0, base_ms=100, max_seconds=1, jitter=0)


def test_retry_after_forms() -> None:
    now = datetime(2024, 12, 5, 12, 0, 0, tzinfo=UTC)
    assert retry_after_seconds("17") == 17.0
    assert retry_after_seconds("Thu, 05 Dec 2024 12:00:30 GMT", now=now) == 30.0
    assert retry_after_seconds("soon") is None
    assert retry_after_seconds(None) is None


# --- relay -------------------------------------------------------------------


async def _run(settings: Settings, *deliveries: Delivery) -> Relay:
    async with httpx.AsyncClient() as client:
        relay = Relay(settings, client)
        await relay.start()
        for d in deliveries:
            relay.enqueue(d)
        await asyncio.sleep(0.2)
        await relay.stop(grace_seconds=1)
    return relay


@respx.mock
async def test_success_first_try(settings: Settings) -> None:
    route = respx.post("http://sink.test/in").mock(return_value=httpx.Response(204))
    relay = await _run(settings, Delivery("internal", DEST, b"{}", "application/json"))
    assert route.call_count == 1
    assert not relay.dead_letters
    sent = route.calls.last.request
    assert sent.headers["X-Marten-Attempt"] == "1"
    assert sent.headers["User-Agent"].startswith("marten/")


@respx.mock
async def test_retries_5xx_then_succeeds(settings: Settings) -> None:
    route = respx.post("http://sink.test/in").mock(
        side_effect=[httpx.Response(503), httpx.Response(502), httpx.Response(200)]
    )
    relay = await _run(settings, Delivery("internal", DEST, b"{}", "application/json"))
    assert route.call_count == 3
    assert not relay.dead_letters


@respx.mock
async def test_gives_up_after_max_attempts(settings: Settings) -> None:
    route = respx.post("http://sink.test/in").mock(return_value=httpx.Response(500))
    relay = await _run(settings, Delivery("internal", DEST, b"{}", "application/json"))
    assert route.call_count == settings.max_attempts
    [dead] = relay.dead_letters
    assert dead.attempts == settings.max_attempts
    assert dead.last_error == "HTTP 500"


@respx.mock
async def test_4xx_is_not_retried(settings: Settings) -> None:
    route = respx.post("http://sink.test/in").mock(return_value=httpx.Response(410))
    relay = await _run(settings, Delivery("internal", DEST, b"{}", "application/json"))
    assert route.call_count == 1
    assert relay.dead_letters[0].last_error == "HTTP 410"


@respx.mock
async def test_timeout_counts_as_failure(settings: Settings) -> None:
    respx.post("http://sink.test/in").mock(side_effect=httpx.ReadTimeout("slow"))
    relay = await _run(settings, Delivery("internal", DEST, b"{}", "application/json"))
    assert relay.dead_letters[0].last_error.startswith("timed out")
