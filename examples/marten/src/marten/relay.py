"""Delivery queue and workers.

Accepted webhooks become one :class:`Delivery` per destination. A fixed pool
of workers takes deliveries off a bounded queue and POSTs them; a delivery
that fails with a network error, a timeout, 429 or a 5xx response is tried
again after a backoff delay until ``max_attempts`` is used up, then it is
parked in the in-memory dead-letter ring and logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections import deque
from dataclasses import dataclass, field

import httpx
import structlog
from prometheus_client import Counter, Gauge, Histogram

from marten import __version__
from marten.backoff import retry_after_seconds, retry_delay
from marten.routing import Destination
from marten.settings import Settings

log = structlog.get_logger(__name__)

DELIVERIES = Counter(
    "marten_deliveries_total", "Delivery attempts by outcome", ["destination", "outcome"]
)
DEAD_LETTERS = Counter("marten_dead_letters_total", "Deliveries given up on", ["destination"])
QUEUE_DEPTH = Gauge("marten_queue_depth", "Deliveries waiting for a worker")
LATENCY = Histogram(
    "marten_delivery_seconds",
    "Time from first enqueue to successful delivery",
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 900),
)

_RETRYABLE = frozenset({408, 425, 429, 500, 502, 503, 504})


class QueueFull(Exception):
    """The delivery queue is at ``queue_max_depth``; the caller should answer 503."""


@dataclass(slots=True)
class Delivery:
    source: str
    destination: Destination
    body: bytes
    content_type: str
    event: str | None = None
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    attempts: int = 0
    enqueued_at: float = field(default_factory=time.monotonic)
    last_error: str | None = None


class Relay:
    def __init__(self, settings: Settings, client: httpx.AsyncClient) -> None:
        self._settings = settings
        self._client = client
        self._queue: asyncio.Queue[Delivery] = asyncio.Queue(maxsize=settings.queue_max_depth)
        self._workers: list[asyncio.Task[None]] = []
        self._retry_timers: set[asyncio.Task[None]] = set()
        self.dead_letters: deque[Delivery] = deque(maxlen=settings.dead_letter_keep)

    # -- lifecycle ----------------------------------------------------------

    async def start(self) -> None:
        for n in range(self._settings.workers):
            self._workers.append(asyncio.create_task(self._work(), name=f"marten-worker-{n}"))
        log.info("relay.started", workers=self._settings.workers)

    async def stop(self, grace_seconds: float) -> None:
        """Let queued deliveries drain for up to ``grace_seconds``, then cancel."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._queue.join(), timeout=grace_seconds)
        for task in [*self._workers, *self._retry_timers]:
            task.cancel()
        await asyncio.gather(*self._workers, *self._retry_timers, return_exceptions=True)
        self._workers.clear()
        self._retry_timers.clear()
        log.info("relay.stopped", left_in_queue=self._queue.qsize())

    # -- intake -------------------------------------------------------------

    def enqueue(self, delivery: Delivery) -> None:
        try:
            self._queue.put_nowait(delivery)
        except asyncio.QueueFull as exc:
            raise QueueFull from exc
        QUEUE_DEPTH.set(self._queue.qsize())

    @property
    def depth(self) -> int:
        return self._queue.qsize()

    # -- workers ------------------------------------------------------------

    async def _work(self) -> None:
        while True:
            delivery = await self._queue.get()
            QUEUE_DEPTH.set(self._queue.qsize())
            try:
                await self._attempt(delivery)
            except Exception:  # never let one bad delivery kill a worker
                log.exception("relay.worker_error", delivery=delivery.id)
            finally:
                self._queue.task_done()

    async def _attempt(self, d: Delivery) -> None:
        d.attempts += 1
        dest = d.destination.name
        retry_hint: float | None = None
        try:
            resp = await self._client.post(
                d.destination.url,
                content=d.body,
                headers={
                    "Content-Type": d.content_type,
                    "User-Agent": f"marten/{__version__}",
                    "X-Marten-Delivery": d.id,
                    "X-Marten-Source": d.source,
                    "X-Marten-Attempt": str(d.attempts),
                    **d.destination.headers,
                },
                timeout=self._settings.delivery_timeout_seconds,
            )
        except httpx.TimeoutException:
            d.last_error = f"timed out after {self._settings.delivery_timeout_seconds}s"
            DELIVERIES.labels(dest, "timeout").inc()
        except httpx.TransportError as exc:
            d.last_error = f"transport error: {exc!r}"
            DELIVERIES.labels(dest, "network").inc()
        else:
            if resp.is_success:
                DELIVERIES.labels(dest, "ok").inc()
                LATENCY.observe(time.monotonic() - d.enqueued_at)
                log.debug("relay.delivered", delivery=d.id, destination=dest, attempts=d.attempts)
                return
            d.last_error = f"HTTP {resp.status_code}"
            if resp.status_code not in _RETRYABLE:
                DELIVERIES.labels(dest, "rejected").inc()
                self._dead_letter(d)
                return
            DELIVERIES.labels(dest, "retryable").inc()
            retry_hint = retry_after_seconds(resp.headers.get("Retry-After"))

        if d.attempts >= self._settings.max_attempts:
            self._dead_letter(d)
            return

        delay = retry_delay(
            d.attempts,
            base_ms=self._settings.backoff_base_ms,
            max_seconds=self._settings.backoff_max_seconds,
            jitter=self._settings.backoff_jitter,
        )
        if retry_hint is not None:
            delay = min(max(delay, retry_hint), float(self._settings.backoff_max_seconds))
        log.info(
            "relay.retry_scheduled",
            delivery=d.id,
            destination=dest,
            attempt=d.attempts,
            delay=round(delay, 3),
            error=d.last_error,
        )
        timer = asyncio.create_task(self._requeue_later(d, delay))
        self._retry_timers.add(timer)
        timer.add_done_callback(self._retry_timers.discard)

    async def _requeue_later(self, d: Delivery, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            self.enqueue(d)
        except QueueFull:
            d.last_error = "queue full on retry"
            self._dead_letter(d)

    def _dead_letter(self, d: Delivery) -> None:
        DEAD_LETTERS.labels(d.destination.name).inc()
        self.dead_letters.append(d)
        log.warning(
            "relay.dead_letter",
            delivery=d.id,
            source=d.source,
            destination=d.destination.name,
            attempts=d.attempts,
            error=d.last_error,
        )
