"""``python -m marten`` / the ``marten`` console script."""

from __future__ import annotations

import logging
import sys

import structlog
import uvicorn

from marten.app import create_app
from marten.settings import Settings, get_settings


def configure_logging(settings: Settings) -> None:
    level = getattr(logging, settings.log_level.upper())
    logging.basicConfig(stream=sys.stdout, level=level, format="%(message)s")
    renderer: structlog.types.Processor = (
        structlog.processors.JSONRenderer()
        if settings.log_json
        else structlog.dev.ConsoleRenderer(colors=sys.stdout.isatty())
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        cache_logger_on_first_use=True,
    )


def main() -> None:
    settings = get_settings()
    configure_logging(settings)
    structlog.get_logger("marten").info(
        "marten.starting", host=settings.host, port=settings.port, routes=str(settings.routes_file)
    )
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_config=None,
        proxy_headers=True,
        forwarded_allow_ips="*",
        timeout_graceful_shutdown=settings.shutdown_grace_seconds,
    )


if __name__ == "__main__":
    main()
