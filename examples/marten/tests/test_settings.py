from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from marten.settings import Settings, load_settings

CONFIG = Path(__file__).resolve().parent.parent / "config"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    for name in list(os.environ):
        if name.startswith("MARTEN_"):
            monkeypatch.delenv(name)


def test_defaults_without_env_file() -> None:
    s = load_settings()
    assert s.port == 8417
    assert s.host == "127.0.0.1"
    assert s.max_payload_bytes == 768 * 1024
    assert s.signature_tolerance_seconds == 270
    assert s.backoff_max_seconds == 240
    assert s.dedupe_window_seconds == 45 * 60
    assert s.log_level == "info"


def test_dev_env_file() -> None:
    s = load_settings(CONFIG / "dev.env")
    assert s.port == 8428
    assert s.require_signatures is False
    assert s.max_attempts == 2
    assert s.redis_url.endswith("/3")


def test_production_env_file() -> None:
    s = load_settings(CONFIG / "production.env")
    assert s.port == 9312
    assert s.log_json is True
    assert s.workers > 9
    assert s.max_payload_kb < 768
    assert s.routes_file == Path("/app/config/routes.toml")


def test_environment_beats_env_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MARTEN_PORT", "7001")
    assert load_settings(CONFIG / "production.env").port == 7001


def test_env_file_var(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MARTEN_ENV_FILE", str(CONFIG / "dev.env"))
    assert load_settings().log_level == "debug"


def test_missing_env_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_settings(tmp_path / "nope.env")


@pytest.mark.parametrize("field", ["max_attempts", "workers", "queue_max_depth"])
def test_counts_must_be_positive(field: str) -> None:
    with pytest.raises(ValidationError):
        Settings(_env_file=None, **{field: 0})  # type: ignore[call-arg]


def test_jitter_is_a_fraction() -> None:
    with pytest.raises(ValidationError):
        Settings(_env_file=None, backoff_jitter=1.5)  # type: ignore[call-arg]
