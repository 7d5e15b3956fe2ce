"""FastAPI application: the inbound webhook endpoint plus health and metrics."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import structlog
from fastapi import FastAPI, HTTPException, Request, Response, status
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST, Counter, generate_latest

from marten import __version__
from marten.dedupe import Deduper, RedisDeduper
from marten.relay import Delivery, QueueFull, Relay
from marten.routing import Route, load_routes
from marten.settings import Settings, get_settings
from marten.signatures import SignatureError, verify

log = structlog.get_logger(__name__)

INBOUND = Counter("marten_inbound_total", "Inbound webhooks by outcome", ["source", "outcome"])

# Headers providers use to identify one delivery, checked in this order.
_DELIVERY_ID_HEADERS = ("X-GitHub-Delivery", "X-Marten-Delivery", "Idempotency-Key")


def create_app(
    settings: Settings | None = None,
    *,
    deduper: Deduper | None = None,
    routes: dict[str, Route] | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> FastAPI:
    settings = settings or get_settings()
    routes = routes if routes is not None else load_routes(settings.routes_file)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        client = httpx.AsyncClient(
            transport=transport,
            timeout=settings.delivery_timeout_seconds,
            limits=httpx.Limits(max_connections=settings.workers * 2),
            follow_redirects=False,
        )
        relay = Relay(settings, client)
        dd = deduper or RedisDeduper.from_url(settings.redis_url, settings.dedupe_window_seconds)
        app.state.relay = relay
        app.state.deduper = dd
        await relay.start()
        try:
            yield
        finally:
            await relay.stop(grace_seconds=settings.shutdown_grace_seconds)
            await client.aclose()
            await dd.close()

    app = FastAPI(
        title="marten",
        version=__version__,
        root_path=settings.root_path,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )

    @app.post("/hooks/{source}", status_code=status.HTTP_202_ACCEPTED)
    async def receive(source: str, request: Request) -> dict[str, Any]:
        route = routes.get(source)
        if route is None:
            INBOUND.labels("unknown", "no_route").inc()
            raise HTTPException(status.HTTP_404_NOT_FOUND, f"no route for source {source!r}")

        declared = request.headers.get("content-length")
        if declared is not None and int(declared) > settings.max_payload_bytes:
            INBOUND.labels(source, "too_large").inc()
            raise HTTPException(status.HTTP_413_REQUEST_ENTITY_TOO_LARGE, "payload too large")
        body = await request.body()
        if len(body) > settings.max_payload_bytes:
            INBOUND.labels(source, "too_large").inc()
            raise HTTPException(status.HTTP_413_REQUEST_ENTITY_TOO_LARGE, "payload too large")

        if settings.require_signatures:
            try:
                verify(
                    route.scheme,
                    route.secret,
                    request.headers,
                    body,
                    tolerance_seconds=settings.signature_tolerance_seconds,
                )
            except SignatureError as exc:
                INBOUND.labels(source, "bad_signature").inc()
                log.info("inbound.rejected", source=source, reason=str(exc))
                raise HTTPException(status.HTTP_401_UNAUTHORIZED, "invalid signature") from exc

        delivery_id = next(
            (request.headers[h] for h in _DELIVERY_ID_HEADERS if h in request.headers), None
        )
        deduper: Deduper = request.app.state.deduper
        if delivery_id and not await deduper.first_time(source, delivery_id):
            INBOUND.labels(source, "duplicate").inc()
            return {"accepted": 0, "duplicate": True}

        event = request.headers.get(route.event_header)
        relay: Relay = request.app.state.relay
        content_type = request.headers.get("content-type", "application/json")
        targets = route.targets(event)
        try:
            for dest in targets:
                relay.enqueue(
                    Delivery(
                        source=source,
                        destination=dest,
                        body=body,
                        content_type=content_type,
                        event=event,
                    )
                )
        except QueueFull as exc:
            INBOUND.labels(source, "queue_full").inc()
            raise HTTPException(
                status.HTTP_503_SERVICE_UNAVAILABLE, "relay queue is full", {"Retry-After": "30"}
            ) from exc
        INBOUND.labels(source, "accepted").inc()
        return {"accepted": len(targets), "duplicate": False}

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok", "version": __version__}

    @app.get("/readyz")
    async def readyz(request: Request) -> JSONResponse:
        relay: Relay = request.app.state.relay
        redis_ok = await request.app.state.deduper.ping()
        ready = redis_ok and relay.depth < settings.queue_max_depth
        return JSONResponse(
            {"ready": ready, "redis": redis_ok, "queue_depth": relay.depth},
            status_code=200 if ready else 503,
        )

    @app.get("/metrics")
    async def metrics() -> Response:
        return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)

    return app
