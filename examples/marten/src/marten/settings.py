"""Runtime settings.

Every field can be set through a ``MARTEN_*`` environment variable. An env
file can be layered underneath by pointing ``MARTEN_ENV_FILE`` at it:
``config/dev.env`` for local work (``make run``, docker compose) and
``config/production.env``, which the container image bakes in. Real
environment variables always win over the env file, and anything set in
neither place falls back to the defaults written below.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

LogLevel = Literal["debug", "info", "warning", "error"]

ENV_FILE_VAR = "MARTEN_ENV_FILE"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="MARTEN_",
        env_file_encoding="utf-8",
        case_sensitive=False,
        extra="ignore",
    )

    # --- HTTP server ---------------------------------------------------------
    host: str = "127.0.0.1"
    port: int = 8417
    # Set when running behind a path-rewriting proxy, e.g. "/relay".
    root_path: str = ""
    # Request bodies larger than this are refused with 413 before we read them.
    max_payload_kb: int = 768

    # --- Signature verification ----------------------------------------------
    require_signatures: bool = True
    # How far a signed timestamp may drift from our clock before the request
    # is treated as a replay.
    signature_tolerance_seconds: int = 270

    # --- Delivery --------------------------------------------------------------
    workers: int = 9
    queue_max_depth: int = 1800
    max_attempts: int = 6
    delivery_timeout_seconds: float = 17.0
    backoff_base_ms: int = 350
    backoff_max_seconds: int = 240
    backoff_jitter: float = 0.25
    dead_letter_keep: int = 500

    # --- De-duplication --------------------------------------------------------
    redis_url: str = "redis://localhost:6379/0"
    dedupe_window_minutes: int = 45

    # --- Misc ------------------------------------------------------------------
    routes_file: Path = Path("config/routes.toml")
    shutdown_grace_seconds: int = 22
    log_level: LogLevel = "info"
    log_json: bool = False

    @field_validator("max_attempts", "workers", "queue_max_depth")
    @classmethod
    def _at_least_one(cls, value: int) -> int:
        if value < 1:
            raise ValueError("must be at least 1")
        return value

    @field_validator("backoff_jitter")
    @classmethod
    def _jitter_fraction(cls, value: float) -> float:
        if not 0.0 <= value < 1.0:
            raise ValueError("backoff_jitter is a fraction in [0, 1)")
        return value

    @property
    def max_payload_bytes(self) -> int:
        return self.max_payload_kb * 1024

    @property
    def dedupe_window_seconds(self) -> int:
        return self.dedupe_window_minutes * 60


def load_settings(env_file: str | os.PathLike[str] | None = None) -> Settings:
    """Build settings, optionally layering an env file under the environment."""
    if env_file is None:
        env_file = os.environ.get(ENV_FILE_VAR) or None
    if env_file is not None and not Path(env_file).is_file():
        raise FileNotFoundError(f"{ENV_FILE_VAR} points at a missing file: {env_file}")
    return Settings(_env_file=env_file)  # type: ignore[call-arg]


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return load_settings()
