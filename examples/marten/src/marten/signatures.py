"""HMAC signature checks for inbound webhooks.

Three schemes are supported, picked per source in the routes file:

``github``  ``X-Hub-Signature-256: sha256=<hex>`` over the raw body.
``stripe``  ``Stripe-Signature: t=<unix>,v1=<hex>[,v1=<hex>]`` over ``"<t>.<body>"``.
``marten``  ``X-Marten-Timestamp: <unix>`` and ``X-Marten-Signature: v1=<hex>``
            over ``"<timestamp>.<body>"`` — what our own producers send.

Timestamped schemes reject requests whose timestamp is further than the
configured tolerance from the local clock, which stops replays of captured
requests.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Mapping
from typing import Literal

Scheme = Literal["github", "stripe", "marten"]


class SignatureError(Exception):
    """The request is unsigned, badly signed, or too old."""


def _digest(secret: str, payload: bytes) -> str:
    return hmac.new(secret.encode(), payload, hashlib.sha256).hexdigest()


def _header(headers: Mapping[str, str], name: str) -> str:
    # Starlette's Headers are already case-insensitive; plain dicts in tests are not.
    for key, value in headers.items():
        if key.lower() == name.lower():
            return value
    raise SignatureError(f"missing {name} header")


def _check_age(timestamp: str, tolerance_seconds: int, now: float | None) -> int:
    try:
        ts = int(timestamp)
    except ValueError as exc:
        raise SignatureError("timestamp is not an integer") from exc
    now = time.time() if now is None else now
    if abs(now - ts) > tolerance_seconds:
        raise SignatureError(f"timestamp outside the {tolerance_seconds}s tolerance")
    return ts


def verify(
    scheme: Scheme,
    secret: str,
    headers: Mapping[str, str],
    body: bytes,
    *,
    tolerance_seconds: int,
    now: float | None = None,
) -> None:
    """Raise :class:`SignatureError` unless ``body`` carries a valid signature."""
    if not secret:
        raise SignatureError("no signing secret configured for this source")

    if scheme == "github":
        given = _header(headers, "X-Hub-Signature-256")
        algo, _, hexsig = given.partition("=")
        if algo != "sha256" or not hexsig:
            raise SignatureError("malformed X-Hub-Signature-256")
        if not hmac.compare_digest(_digest(secret, body), hexsig):
            raise SignatureError("signature mismatch")
        return

    if scheme == "stripe":
        parts: dict[str, list[str]] = {}
        for item in _header(headers, "Stripe-Signature").split(","):
            key, _, value = item.strip().partition("=")
            parts.setdefault(key, []).append(value)
        if "t" not in parts or "v1" not in parts:
            raise SignatureError("malformed Stripe-Signature")
        ts = _check_age(parts["t"][0], tolerance_seconds, now)
        expected = _digest(secret, f"{ts}.".encode() + body)
        if not any(hmac.compare_digest(expected, sig) for sig in parts["v1"]):
            raise SignatureError("signature mismatch")
        return

    if scheme == "marten":
        ts = _check_age(_header(headers, "X-Marten-Timestamp"), tolerance_seconds, now)
        version, _, hexsig = _header(headers, "X-Marten-Signature").partition("=")
        if version != "v1":
            raise SignatureError(f"unsupported signature version {version!r}")
        expected = _digest(secret, f"{ts}.".encode() + body)
        if not hmac.compare_digest(expected, hexsig):
            raise SignatureError("signature mismatch")
        return

    raise SignatureError(f"unknown signature scheme {scheme!r}")


def sign_marten(secret: str, body: bytes, *, timestamp: int | None = None) -> dict[str, str]:
    """Headers a producer (or a test) attaches to sign ``body`` with the marten scheme."""
    ts = int(time.time()) if timestamp is None else timestamp
    return {
        "X-Marten-Timestamp": str(ts),
        "X-Marten-Signature": "v1=" + _digest(secret, f"{ts}.".encode() + body),
    }
