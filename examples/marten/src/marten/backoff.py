"""Retry delays for failed deliveries.

Attempt ``n`` (1-based, the attempt that just failed) waits roughly
``backoff_base_ms * 2 ** (n - 1)`` before the next try, capped at
``backoff_max_seconds`` and spread by +/- ``backoff_jitter`` so a burst of
failures against one destination does not retry in lock-step.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime


def retry_delay(
    attempt: int,
    *,
    base_ms: int,
    max_seconds: float,
    jitter: float,
    rng: random.Random | None = None,
) -> float:
    """Seconds to wait after ``attempt`` failed."""
    if attempt < 1:
        raise ValueError("attempt is 1-based")
    rng = rng or random
    # Guard the exponent so a long-lived retry loop cannot overflow.
    raw = (base_ms / 1000.0) * (2 ** min(attempt - 1, 30))
    capped = min(raw, float(max_seconds))
    if jitter:
        capped *= 1.0 + rng.uniform(-jitter, jitter)
    return max(0.0, min(capped, float(max_seconds)))


def retry_after_seconds(header: str | None, *, now: datetime | None = None) -> float | None:
    """Parse a ``Retry-After`` header (delta-seconds or HTTP date)."""
    if not header:
        return None
    header = header.strip()
    if header.isdigit():
        return float(header)
    try:
        when = parsedate_to_datetime(header)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    now = now or datetime.now(UTC)
    return max(0.0, (when - now).total_seconds())
