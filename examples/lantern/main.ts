/**
 * lantern — probes HTTP endpoints on an interval, alerts when they stay
 * down, keeps the history in Postgres and serves a public status page.
 *
 *   deno task dev                       # config/dev.json, reloads on change
 *   deno task start --config FILE       # or set LANTERN_CONFIG
 *   deno task prune                     # one retention pass, then exit
 */
import { parseArgs } from "@std/cli/parse-args";
import { load as loadDotenv } from "@std/dotenv";
import { greaterOrEqual, parse as parseSemver } from "@std/semver";
import * as log from "@std/log";
import { fromFileUrl } from "@std/path";
import { ConfigError, loadConfig } from "./src/config.ts";
import { notifierFor } from "./src/alerts.ts";
import { createApp } from "./src/dashboard.ts";
import { prune, sqlPruner, startRetention } from "./src/retention.ts";
import { type ResultSink, Scheduler } from "./src/scheduler.ts";
import {
  closeIncident,
  connect,
  insertResult,
  migrate,
  openIncident,
  syncMonitors,
} from "./src/store.ts";

/** Oldest Deno release lantern runs on (AbortSignal.timeout fixes, `deno install --frozen`). */
export const MIN_DENO_VERSION = "2.1.4";

function checkRuntime(): void {
  const current = parseSemver(Deno.version.deno);
  if (!greaterOrEqual(current, parseSemver(MIN_DENO_VERSION))) {
    console.error(
      `lantern needs Deno ${MIN_DENO_VERSION} or newer, this is ${Deno.version.deno}`,
    );
    Deno.exit(1);
  }
}

function setupLogging(level: string): void {
  log.setup({
    handlers: {
      console: new log.ConsoleHandler(level as log.LevelName, {
        formatter: (r) => `${r.datetime.toISOString()} ${r.levelName} ${r.msg}`,
        useColors: false,
      }),
    },
    loggers: { default: { level: level as log.LevelName, handlers: ["console"] } },
  });
}

async function main(): Promise<void> {
  checkRuntime();
  await loadDotenv({ export: true });

  const args = parseArgs(Deno.args, {
    string: ["config"],
    boolean: ["prune-once", "help"],
    alias: { c: "config", h: "help" },
  });
  if (args.help) {
    console.log("usage: main.ts [--config FILE] [--prune-once]");
    return;
  }
  setupLogging(Deno.env.get("LANTERN_LOG_LEVEL") ?? "INFO");

  const configPath = args.config ?? Deno.env.get("LANTERN_CONFIG");
  let cfg;
  try {
    cfg = await loadConfig(configPath);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      Deno.exit(2);
    }
    throw err;
  }
  log.info(`config: ${configPath ?? "(built-in defaults)"}, ${cfg.monitors.length} monitors`);

  const sql = connect(cfg.database.url, cfg.database.poolSize);
  await migrate(sql, fromFileUrl(new URL("./migrations", import.meta.url)));
  const pruner = sqlPruner(sql);

  if (args["prune-once"]) {
    const r = await prune(pruner, cfg.history.retentionDays);
    log.info(`pruned ${r.results} results, ${r.incidents} incidents`);
    await sql.end();
    return;
  }

  await syncMonitors(sql, cfg.monitors);

  const sink: ResultSink = {
    async record(result, transition) {
      await insertResult(sql, result);
      if (transition.kind === "down") {
        await openIncident(sql, result.monitorId, result.checkedAt, result.detail ?? "down");
      } else if (transition.kind === "recovered") {
        await closeIncident(sql, result.monitorId, result.checkedAt);
      }
    },
  };

  const scheduler = new Scheduler(cfg, sink, notifierFor(cfg.alerts.webhookUrl));
  scheduler.start();
  const stopRetention = startRetention(
    pruner,
    cfg.history.retentionDays,
    cfg.history.pruneEveryMinutes,
  );

  const controller = new AbortController();
  const shutdown = () => {
    log.info("shutting down");
    scheduler.stop();
    stopRetention();
    controller.abort();
  };
  Deno.addSignalListener("SIGINT", shutdown);
  Deno.addSignalListener("SIGTERM", shutdown);

  const app = createApp(cfg, scheduler.tracker, sql);
  log.info(`dashboard on http://${cfg.server.hostname}:${cfg.server.port}/`);
  await app.listen({
    hostname: cfg.server.hostname,
    port: cfg.server.port,
    signal: controller.signal,
  });
  await sql.end({ timeout: 5 });
}

if (import.meta.main) {
  await main();
}
