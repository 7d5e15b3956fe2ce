import { assertEquals } from "@std/assert";
import type { Outcome, ProbeResult } from "./probe.ts";
import { StateTracker } from "./state.ts";

const T0 = Date.parse("2025-02-03T10:00:00Z");

function result(outcome: Outcome, minute: number): ProbeResult {
  return {
    monitorId: "api",
    checkedAt: new Date(T0 + minute * 60_000),
    outcome,
    status: outcome === "up" ? 200 : outcome === "down" ? 502 : null,
    latencyMs: 42,
  };
}

function kinds(tracker: StateTracker, seq: [Outcome, number][]): string[] {
  return seq.map(([o, m]) => tracker.record(result(o, m)).kind);
}

Deno.test("a monitor goes down only after failureThreshold failures in a row", () => {
  const t = new StateTracker({ failureThreshold: 3, recoveryThreshold: 2, cooldownMinutes: 20 });
  assertEquals(
    kinds(t, [["up", 0], ["down", 1], ["timeout", 2], ["up", 3], ["down", 4], ["down", 5]]),
    ["none", "none", "none", "none", "none", "none"],
  );
  assertEquals(t.get("api").status, "up");
  assertEquals(kinds(t, [["error", 6]]), ["down"]);
  assertEquals(t.get("api").status, "down");
  assertEquals(t.get("api").consecutiveFailures, 3);
});

Deno.test("recovery needs recoveryThreshold successes in a row", () => {
  const t = new StateTracker({ failureThreshold: 1, recoveryThreshold: 2, cooldownMinutes: 20 });
  assertEquals(kinds(t, [["down", 0], ["up", 1], ["down", 2], ["up", 3]]), [
    "down",
    "none",
    "none",
    "none",
  ]);
  const last = t.record(result("up", 4));
  assertEquals(last.kind, "recovered");
  if (last.kind === "recovered") assertEquals(last.downtimeMs, 4 * 60_000);
});

Deno.test("reminders respect the cooldown", () => {
  const t = new StateTracker({ failureThreshold: 2, recoveryThreshold: 1, cooldownMinutes: 20 });
  const seq: [Outcome, number][] = [];
  for (let m = 0; m <= 45; m += 5) seq.push(["down", m]);
  // down at minute 5, reminders at 25 and 45.
  assertEquals(kinds(t, seq), [
    "none",
    "down",
    "none",
    "none",
    "none",
    "reminder",
    "none",
    "none",
    "none",
    "reminder",
  ]);
});

Deno.test("the first success of an unknown monitor is not an alert", () => {
  const t = new StateTracker({ failureThreshold: 3, recoveryThreshold: 2, cooldownMinutes: 20 });
  assertEquals(t.record(result("up", 0)).kind, "none");
  assertEquals(t.get("api").status, "up");
});
