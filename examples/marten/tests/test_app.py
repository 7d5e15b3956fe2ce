from __future__ import annotations

import json

import httpx
import respx

from conftest import SECRET
from marten.signatures import sign_marten

PAYLOAD = json.dumps({"kind": "deploy.finished", "service": "billing"}).encode()


def _signed(body: bytes = PAYLOAD, **extra: str) -> dict[str, str]:
    return {**sign_marten(SECRET, body), "Content-Type": "application/json", **extra}


async def test_healthz(client: httpx.AsyncClient) -> None:
    resp = await client.get("/healthz")
    assert resp.status_code == 200
    assert resp.json()["status"] == "ok"


async def test_unknown_source_is_404(client: httpx.AsyncClient) -> None:
    resp = await client.post("/hooks/nope", content=PAYLOAD, headers=_signed())
    assert resp.status_code == 404


async def test_bad_signature_is_401(client: httpx.AsyncClient) -> None:
    headers = _signed()
    headers["X-Marten-Signature"] = "v1=" + "0" * 64
    resp = await client.post("/hooks/internal", content=PAYLOAD, headers=headers)
    assert resp.status_code == 401


async def test_oversized_payload_is_413(client: httpx.AsyncClient) -> None:
    big = b"x" * (5 * 1024)
    resp = await client.post("/hooks/internal", content=big, headers=_signed(big))
    assert resp.status_code == 413


@respx.mock(assert_all_called=False)
async def test_fan_out_respects_event_filter(client: httpx.AsyncClient) -> None:
    respx.post("http://sink-a.test/in").mock(return_value=httpx.Response(200))
    b = respx.post("http://sink-b.test/in").mock(return_value=httpx.Response(200))
    resp = await client.post(
        "/hooks/internal", content=PAYLOAD, headers=_signed(**{"X-Marten-Event": "deploy"})
    )
    assert resp.status_code == 202
    assert resp.json() == {"accepted": 1, "duplicate": False}
    assert not b.called


async def test_duplicate_delivery_is_acknowledged_once(client: httpx.AsyncClient) -> None:
    headers = _signed(**{"Idempotency-Key": "evt_7Q2"})
    first = await client.post("/hooks/internal", content=PAYLOAD, headers=headers)
    second = await client.post("/hooks/internal", content=PAYLOAD, headers=headers)
    assert first.json()["duplicate"] is False
    assert second.json() == {"accepted": 0, "duplicate": True}
