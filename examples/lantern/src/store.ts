/**
 * Postgres access for monitors and check results.
 *
 * Uses the `postgres` npm client; one pool is shared by the scheduler, the
 * dashboard and the retention job. Deleting old rows is the retention job's
 * business and lives in retention.ts, not here.
 */
import postgres from "postgres";
import { join } from "@std/path";
import * as log from "@std/log";
import type { MonitorConfig } from "./config.ts";
import type { Outcome, ProbeResult } from "./probe.ts";

export type Sql = postgres.Sql;

export function connect(url: string, poolSize: number): Sql {
  return postgres(url, {
    max: poolSize,
    idle_timeout: 30,
    connect_timeout: 10,
    onnotice: () => {},
    transform: postgres.camel,
  });
}

/**
 * Applies migrations/NNN_*.sql files that have not run yet, in name order,
 * each in its own transaction.
 */
export async function migrate(sql: Sql, dir: string): Promise<string[]> {
  await sql`
    create table if not exists schema_migrations (
      name text primary key,
      applied_at timestamptz not null default now()
    )`;
  const done = new Set(
    (await sql<{ name: string }[]>`select name from schema_migrations`).map((r) => r.name),
  );
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && /^\d{3}_.*\.sql$/.test(entry.name)) files.push(entry.name);
  }
  files.sort();
  const applied: string[] = [];
  for (const name of files) {
    if (done.has(name)) continue;
    const text = await Deno.readTextFile(join(dir, name));
    await sql.begin(async (tx) => {
      await tx.unsafe(text);
      await tx`insert into schema_migrations (name) values (${name})`;
    });
    log.info(`applied migration ${name}`);
    applied.push(name);
  }
  return applied;
}

/** Makes the monitors table match the config: upserts listed ones, retires the rest. */
export async function syncMonitors(sql: Sql, monitors: MonitorConfig[]): Promise<void> {
  await sql.begin(async (tx) => {
    for (const m of monitors) {
      await tx`
        insert into monitors (id, name, url, is_public, retired_at)
        values (${m.id}, ${m.name}, ${m.url}, ${m.public ?? true}, null)
        on conflict (id) do update
          set name = excluded.name, url = excluded.url,
              is_public = excluded.is_public, retired_at = null`;
    }
    const ids = monitors.map((m) => m.id);
    await tx`
      update monitors set retired_at = now()
      where retired_at is null and not (id = any(${ids}))`;
  });
}

export async function insertResult(sql: Sql, r: ProbeResult): Promise<void> {
  await sql`
    insert into check_results (monitor_id, checked_at, outcome, status, latency_ms, detail)
    values (${r.monitorId}, ${r.checkedAt}, ${r.outcome}, ${r.status}, ${r.latencyMs},
            ${r.detail ?? null})`;
}

export interface LatestRow {
  monitorId: string;
  checkedAt: Date;
  outcome: Outcome;
  status: number | null;
  latencyMs: number;
}

export async function latestResults(sql: Sql): Promise<LatestRow[]> {
  return await sql<LatestRow[]>`
    select distinct on (monitor_id) monitor_id, checked_at, outcome, status, latency_ms
    from check_results
    order by monitor_id, checked_at desc`;
}

export interface DayRow {
  day: string;
  checks: number;
  ok: number;
  p95LatencyMs: number | null;
}

/** One row per UTC day with results, newest last, for the last `days` days. */
export async function dailyUptime(sql: Sql, monitorId: string, days: number): Promise<DayRow[]> {
  return await sql<DayRow[]>`
    select to_char(date_trunc('day', checked_at at time zone 'utc'), 'YYYY-MM-DD') as day,
           count(*)::int as checks,
           count(*) filter (where outcome = 'up')::int as ok,
           percentile_cont(0.95) within group (order by latency_ms)::int as p95_latency_ms
    from check_results
    where monitor_id = ${monitorId}
      and checked_at >= now() - make_interval(days => ${days})
    group by 1
    order by 1`;
}

export async function recentResults(
  sql: Sql,
  monitorId: string,
  limit: number,
): Promise<ProbeResult[]> {
  return await sql<ProbeResult[]>`
    select monitor_id, checked_at, outcome, status, latency_ms, detail
    from check_results
    where monitor_id = ${monitorId}
    order by checked_at desc
    limit ${limit}`;
}

export async function openIncident(sql: Sql, monitorId: string, at: Date, cause: string) {
  await sql`
    insert into incidents (monitor_id, started_at, cause)
    values (${monitorId}, ${at}, ${cause})`;
}

export async function closeIncident(sql: Sql, monitorId: string, at: Date) {
  await sql`
    update incidents set resolved_at = ${at}
    where monitor_id = ${monitorId} and resolved_at is null`;
}
