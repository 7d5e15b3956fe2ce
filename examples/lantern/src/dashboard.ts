/**
 * The public status page and its JSON API, served with oak.
 *
 *   GET /                          HTML status page (public monitors only)
 *   GET /api/status                current status of every public monitor
 *   GET /api/monitors/:id/history  daily uptime for the dashboard window
 *   GET /healthz                   liveness for Docker / the load balancer
 */
import { Application, Router, Status } from "@oak/oak";
import { escape } from "@std/html/entities";
import type { Config, MonitorConfig } from "./config.ts";
import type { StateTracker } from "./state.ts";
import { dailyUptime, type DayRow, type Sql } from "./store.ts";

export interface MonitorView {
  id: string;
  name: string;
  status: "unknown" | "up" | "down";
  since: string | null;
  latencyMs: number | null;
  uptimePercent: number | null;
}

export function uptimePercent(days: DayRow[]): number | null {
  const checks = days.reduce((n, d) => n + d.checks, 0);
  if (checks === 0) return null;
  const ok = days.reduce((n, d) => n + d.ok, 0);
  return Math.floor((ok / checks) * 10000) / 100;
}

function view(m: MonitorConfig, tracker: StateTracker, days: DayRow[]): MonitorView {
  const s = tracker.get(m.id);
  return {
    id: m.id,
    name: m.name,
    status: s.status,
    since: s.since?.toISOString() ?? null,
    latencyMs: s.lastResult?.latencyMs ?? null,
    uptimePercent: uptimePercent(days),
  };
}

function renderPage(title: string, views: MonitorView[], windowDays: number): string {
  const allUp = views.every((v) => v.status !== "down");
  const rows = views.map((v) => {
    const pct = v.uptimePercent === null ? "—" : `${v.uptimePercent.toFixed(2)}%`;
    return `<li class="monitor ${v.status}">
      <span class="name">${escape(v.name)}</span>
      <span class="status">${v.status}</span>
      <span class="uptime" title="last ${windowDays} days">${pct}</span>
    </li>`;
  }).join("\n");
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escape(title)}</title>
  <style>
    body { font: 15px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; }
    header.ok { border-left: 6px solid #2da44e; } header.degraded { border-left: 6px solid #cf222e; }
    header { padding-left: 1rem; } ul { list-style: none; padding: 0; }
    .monitor { display: flex; gap: 1rem; padding: .5rem 0; border-bottom: 1px solid #eee; }
    .name { flex: 1; } .down .status { color: #cf222e; } .up .status { color: #2da44e; }
  </style>
</head>
<body>
  <header class="${allUp ? "ok" : "degraded"}">
    <h1>${escape(title)}</h1>
    <p>${allUp ? "All systems operational" : "Some systems are experiencing problems"}</p>
  </header>
  <ul class="monitors">
${rows}
  </ul>
  <footer>Uptime over the last ${windowDays} days. Updated ${new Date().toUTCString()}.</footer>
</body>
</html>`;
}

export function createApp(cfg: Config, tracker: StateTracker, sql: Sql): Application {
  const publicMonitors = cfg.monitors.filter((m) => m.public !== false);
  const { windowDays, cacheSeconds } = cfg.dashboard;
  const cacheHeader = `public, max-age=${cacheSeconds}`;

  const collect = async (): Promise<MonitorView[]> =>
    await Promise.all(
      publicMonitors.map(async (m) => view(m, tracker, await dailyUptime(sql, m.id, windowDays))),
    );

  const router = new Router();
  router
    .get("/healthz", (ctx) => {
      ctx.response.body = { ok: true };
    })
    .get("/", async (ctx) => {
      ctx.response.headers.set("cache-control", cacheHeader);
      ctx.response.type = "text/html; charset=utf-8";
      ctx.response.body = renderPage(cfg.server.title, await collect(), windowDays);
    })
    .get("/api/status", async (ctx) => {
      ctx.response.headers.set("cache-control", cacheHeader);
      ctx.response.body = { title: cfg.server.title, windowDays, monitors: await collect() };
    })
    .get("/api/monitors/:id/history", async (ctx) => {
      const m = publicMonitors.find((x) => x.id === ctx.params.id);
      if (!m) ctx.throw(Status.NotFound, `no public monitor "${ctx.params.id}"`);
      ctx.response.headers.set("cache-control", cacheHeader);
      ctx.response.body = { id: m.id, days: await dailyUptime(sql, m.id, windowDays) };
    });

  const app = new Application();
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const status = (err as { status?: number }).status ?? Status.InternalServerError;
      ctx.response.status = status;
      ctx.response.body = { error: (err as Error).message };
    }
  });
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
