import { assertEquals, assertRejects, assertThrows } from "@std/assert";
import {
  applyEnv,
  ConfigError,
  DEFAULT_FAILURE_THRESHOLD,
  DEFAULT_INTERVAL_SECONDS,
  DEFAULT_PORT,
  DEFAULT_RETENTION_DAYS,
  defaults,
  intervalMs,
  loadConfig,
  merge,
  validate,
} from "./config.ts";

Deno.test("no config file yields the built-in defaults", async () => {
  const cfg = await loadConfig(undefined, {});
  assertEquals(cfg.server.port, DEFAULT_PORT);
  assertEquals(cfg.probes.intervalSeconds, DEFAULT_INTERVAL_SECONDS);
  assertEquals(cfg.probes.failureThreshold, DEFAULT_FAILURE_THRESHOLD);
  assertEquals(cfg.history.retentionDays, DEFAULT_RETENTION_DAYS);
  assertEquals(cfg.alerts.webhookUrl, null);
  assertEquals(cfg.monitors, []);
});

Deno.test("a file only overrides the keys it lists", () => {
  const cfg = merge(defaults(), {
    probes: { timeoutMs: 1800, failureThreshold: 5 },
    history: { retentionDays: 14 },
  });
  assertEquals(cfg.probes.timeoutMs, 1800);
  assertEquals(cfg.probes.failureThreshold, 5);
  assertEquals(cfg.probes.intervalSeconds, DEFAULT_INTERVAL_SECONDS);
  assertEquals(cfg.history.retentionDays, 14);
  assertEquals(cfg.history.pruneEveryMinutes, defaults().history.pruneEveryMinutes);
});

Deno.test("unknown sections and keys are rejected", () => {
  const err = assertThrows(
    () => merge(defaults(), { probe: {}, history: { retention: 3 } }),
    ConfigError,
  );
  assertEquals(err.problems, ['unknown section "probe"', 'unknown key "history.retention"']);
});

Deno.test("environment wins over the file", () => {
  const cfg = merge(defaults(), { server: { port: 8700 }, history: { retentionDays: 14 } });
  applyEnv(cfg, {
    LANTERN_PORT: "8701",
    LANTERN_RETENTION_DAYS: "21",
    LANTERN_ALERT_WEBHOOK: "https://hooks.example.test/T000/B000",
  });
  assertEquals(cfg.server.port, 8701);
  assertEquals(cfg.history.retentionDays, 21);
  assertEquals(cfg.alerts.webhookUrl, "https://hooks.example.test/T000/B000");
});

Deno.test("validate reports every problem at once", () => {
  const cfg = merge(defaults(), {
    server: { port: 70000 },
    probes: { intervalSeconds: 2, timeoutMs: 50 },
    monitors: [
      { id: "api", name: "API", url: "https://api.example.test/health" },
      { id: "api", name: "API again", url: "not a url" },
    ],
  });
  assertEquals(validate(cfg), [
    "server.port out of range: 70000",
    "probes.intervalSeconds must be >= 5, got 2",
    "probes.timeoutMs must be >= 100, got 50",
    'duplicate monitor id "api"',
    "monitors[1].url is not a valid URL: not a url",
  ]);
});

Deno.test("timeout must be shorter than the interval", () => {
  const cfg = merge(defaults(), { probes: { intervalSeconds: 5, timeoutMs: 5000 } });
  assertEquals(validate(cfg), ["probes.timeoutMs must be shorter than probes.intervalSeconds"]);
});

Deno.test("a monitor may override the interval", () => {
  const cfg = merge(defaults(), { probes: { intervalSeconds: 20 } });
  assertEquals(intervalMs(cfg, { id: "a", name: "A", url: "https://a.test" }), 20_000);
  assertEquals(
    intervalMs(cfg, { id: "b", name: "B", url: "https://b.test", intervalSeconds: 300 }),
    300_000,
  );
});

Deno.test("the shipped profiles are valid", async () => {
  for (const file of ["config/dev.json", "config/prod.json"]) {
    const path = new URL(`../${file}`, import.meta.url).pathname;
    const cfg = await loadConfig(path, {});
    assertEquals(validate(cfg), [], file);
  }
});

Deno.test("a broken file names itself", async () => {
  const path = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await Deno.writeTextFile(path, "{ probes: }");
    await assertRejects(() => loadConfig(path, {}), ConfigError, path);
  } finally {
    await Deno.remove(path);
  }
});
