"""Which destinations receive a webhook from which source.

The routes file is TOML (read with the standard library's ``tomllib``)::

    [sources.github]
    scheme = "github"
    secret_env = "MARTEN_SECRET_GITHUB"

    [[sources.github.destinations]]
    name = "ci-bridge"
    url = "http://ci-bridge.internal:7100/github"
    events = ["push", "pull_request"]

``events`` is optional; when given, only payloads whose event header matches
one of the names are forwarded to that destination.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from marten.signatures import Scheme

_EVENT_HEADERS = {
    "github": "X-GitHub-Event",
    "stripe": "Stripe-Event-Type",
    "marten": "X-Marten-Event",
}


@dataclass(frozen=True, slots=True)
class Destination:
    name: str
    url: str
    events: frozenset[str] = frozenset()
    headers: dict[str, str] = field(default_factory=dict)

    def wants(self, event: str | None) -> bool:
        return not self.events or (event is not None and event in self.events)


@dataclass(frozen=True, slots=True)
class Route:
    source: str
    scheme: Scheme
    secret_env: str
    destinations: tuple[Destination, ...]

    @property
    def secret(self) -> str:
        return os.environ.get(self.secret_env, "")

    @property
    def event_header(self) -> str:
        return _EVENT_HEADERS[self.scheme]

    def targets(self, event: str | None) -> list[Destination]:
        return [d for d in self.destinations if d.wants(event)]


class RoutesError(ValueError):
    pass


def parse_routes(data: dict[str, object]) -> dict[str, Route]:
    sources = data.get("sources")
    if not isinstance(sources, dict) or not sources:
        raise RoutesError("routes file has no [sources.*] tables")
    routes: dict[str, Route] = {}
    for source, table in sources.items():
        scheme = table.get("scheme", "marten")
        if scheme not in _EVENT_HEADERS:
            raise RoutesError(f"{source}: unknown scheme {scheme!r}")
        dests = tuple(
            Destination(
                name=d["name"],
                url=d["url"],
                events=frozenset(d.get("events", ())),
                headers=dict(d.get("headers", {})),
            )
            for d in table.get("destinations", [])
        )
        if not dests:
            raise RoutesError(f"{source}: no destinations")
        routes[source] = Route(
            source=source,
            scheme=scheme,
            secret_env=table.get("secret_env", f"MARTEN_SECRET_{source.upper()}"),
            destinations=dests,
        )
    return routes


def load_routes(path: Path) -> dict[str, Route]:
    with path.open("rb") as fh:
        return parse_routes(tomllib.load(fh))
