import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import type { MonitorConfig } from "./config.ts";
import { type FetchLike, probe, readCapped, statusAccepted } from "./probe.ts";

const opts = { timeoutMs: 150, userAgent: "lantern-test", maxBodyKb: 4 };
const monitor: MonitorConfig = { id: "web", name: "Website", url: "https://www.example.test/" };

function respond(status: number, body = ""): FetchLike {
  return () => Promise.resolve(new Response(body, { status }));
}

Deno.test("a 2xx response is up", async () => {
  const r = await probe(monitor, opts, respond(204));
  assertEquals(r.outcome, "up");
  assertEquals(r.status, 204);
  assertEquals(r.monitorId, "web");
  assert(r.latencyMs >= 0);
});

Deno.test("a 503 is down and says why", async () => {
  const r = await probe(monitor, opts, respond(503, "maintenance"));
  assertEquals(r.outcome, "down");
  assertEquals(r.status, 503);
  assertEquals(r.detail, "503 Service Unavailable");
});

Deno.test("expectStatus replaces the 2xx rule", () => {
  const m = { ...monitor, expectStatus: [200, 401] };
  assert(statusAccepted(m, 401));
  assert(!statusAccepted(m, 204));
  assert(statusAccepted(monitor, 204));
  assert(!statusAccepted(monitor, 301));
});

Deno.test("the keyword must be in the body", async () => {
  const m = { ...monitor, keyword: "All systems go" };
  const ok = await probe(m, opts, respond(200, "<p>All systems go</p>"));
  assertEquals(ok.outcome, "up");
  const bad = await probe(m, opts, respond(200, "<p>Oops</p>"));
  assertEquals(bad.outcome, "down");
  assertStringIncludes(bad.detail ?? "", "not found in first 4 KB");
});

Deno.test("a slow endpoint times out", async () => {
  const slow: FetchLike = (_url, init) =>
    new Promise((_resolve, reject) => {
      init.signal?.addEventListener("abort", () => reject(init.signal?.reason));
    });
  const r = await probe(monitor, opts, slow);
  assertEquals(r.outcome, "timeout");
  assertEquals(r.status, null);
  assertEquals(r.detail, "no response after 150 ms");
});

Deno.test("a connection error is an error, not a timeout", async () => {
  const refused: FetchLike = () => Promise.reject(new TypeError("error sending request: refused"));
  const r = await probe(monitor, opts, refused);
  assertEquals(r.outcome, "error");
  assertStringIncludes(r.detail ?? "", "refused");
});

Deno.test("readCapped stops at the limit", async () => {
  const big = new Response("x".repeat(10_000));
  const text = await readCapped(big, 1024);
  assertEquals(text.length, 1024);
});

Deno.test("the user agent is sent", async () => {
  let seen = "";
  const spy: FetchLike = (_url, init) => {
    seen = new Headers(init.headers).get("user-agent") ?? "";
    return Promise.resolve(new Response(null, { status: 200 }));
  };
  await probe(monitor, opts, spy);
  assertEquals(seen, "lantern-test");
});
