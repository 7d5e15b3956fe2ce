from __future__ import annotations

import hashlib
import hmac

import pytest

from marten.signatures import SignatureError, sign_marten, verify

BODY = b'{"action":"opened","number":42}'
NOW = 1_733_400_000


def _hex(secret: str, payload: bytes) -> str:
    return hmac.new(secret.encode(), payload, hashlib.sha256).hexdigest()


def test_github_ok() -> None:
    headers = {"X-Hub-Signature-256": "sha256=" + _hex("s3cret", BODY)}
    verify("github", "s3cret", headers, BODY, tolerance_seconds=60)


def test_github_wrong_secret() -> None:
    headers = {"X-Hub-Signature-256": "sha256=" + _hex("other", BODY)}
    with pytest.raises(SignatureError, match="mismatch"):
        verify("github", "s3cret", headers, BODY, tolerance_seconds=60)


def test_github_header_is_case_insensitive() -> None:
    headers = {"x-hub-signature-256": "sha256=" + _hex("s3cret", BODY)}
    verify("github", "s3cret", headers, BODY, tolerance_seconds=60)


def test_stripe_accepts_any_v1() -> None:
    good = _hex("whsec", f"{NOW}.".encode() + BODY)
    headers = {"Stripe-Signature": f"t={NOW},v1=deadbeef,v1={good}"}
    verify("stripe", "whsec", headers, BODY, tolerance_seconds=300, now=NOW + 10)


def test_stripe_too_old() -> None:
    sig = _hex("whsec", f"{NOW}.".encode() + BODY)
    headers = {"Stripe-Signature": f"t={NOW},v1={sig}"}
    with pytest.raises(SignatureError, match="tolerance"):
        verify("stripe", "whsec", headers, BODY, tolerance_seconds=300, now=NOW + 301)


def test_marten_roundtrip() -> None:
    headers = sign_marten("k", BODY, timestamp=NOW)
    verify("marten", "k", headers, BODY, tolerance_seconds=30, now=NOW + 29)


def test_marten_future_timestamp_rejected() -> None:
    headers = sign_marten("k", BODY, timestamp=NOW + 120)
    with pytest.raises(SignatureError):
        verify("marten", "k", headers, BODY, tolerance_seconds=30, now=NOW)


def test_marten_tampered_body() -> None:
    headers = sign_marten("k", BODY, timestamp=NOW)
    with pytest.raises(SignatureError, match="mismatch"):
        verify("marten", "k", headers, BODY + b" ", tolerance_seconds=30, now=NOW)


def test_missing_secret() -> None:
    with pytest.raises(SignatureError, match="no signing secret"):
        verify("marten", "", {}, BODY, tolerance_seconds=30)
