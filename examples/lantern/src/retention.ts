/**
 * History retention: deletes check results older than
 * `history.retentionDays` and resolved incidents older than twice that.
 *
 * Deletes run in batches so a first prune after raising the volume (or
 * after a long outage of the job) does not hold a lock on check_results for
 * minutes while probes keep inserting.
 */
import * as log from "@std/log";
import { delay } from "@std/async/delay";
import type { Sql } from "./store.ts";

/** Rows removed per DELETE statement. */
export const PRUNE_BATCH_SIZE = 5000;
/** Breathing room between two batches. */
const BATCH_PAUSE_MS = 250;

const DAY_MS = 86_400_000;

/** Start of the oldest day still kept: midnight UTC, `days` days before now. */
export function cutoffFor(now: Date, days: number): Date {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(midnight - days * DAY_MS);
}

/** The two deletes the job needs; the SQL implementation is {@linkcode sqlPruner}. */
export interface Pruner {
  /** Deletes up to `limit` check results older than `cutoff`; returns how many. */
  deleteResultsBefore(cutoff: Date, limit: number): Promise<number>;
  /** Deletes resolved incidents that ended before `cutoff`; returns how many. */
  deleteIncidentsBefore(cutoff: Date): Promise<number>;
}

export function sqlPruner(sql: Sql): Pruner {
  return {
    async deleteResultsBefore(cutoff, limit) {
      const res = await sql`
        delete from check_results
        where ctid in (
          select ctid from check_results
          where checked_at < ${cutoff}
          limit ${limit}
        )`;
      return res.count;
    },
    async deleteIncidentsBefore(cutoff) {
      const res = await sql`
        delete from incidents
        where resolved_at is not null and resolved_at < ${cutoff}`;
      return res.count;
    },
  };
}

export interface PruneReport {
  cutoff: Date;
  results: number;
  incidents: number;
  batches: number;
}

export async function prune(
  pruner: Pruner,
  retentionDays: number,
  now: Date = new Date(),
  pauseMs: number = BATCH_PAUSE_MS,
): Promise<PruneReport> {
  const cutoff = cutoffFor(now, retentionDays);
  let results = 0;
  let batches = 0;
  for (;;) {
    const n = await pruner.deleteResultsBefore(cutoff, PRUNE_BATCH_SIZE);
    batches += 1;
    results += n;
    if (n < PRUNE_BATCH_SIZE) break;
    if (pauseMs > 0) await delay(pauseMs);
  }
  // Incidents are small and useful for postmortems; keep them twice as long.
  const incidents = await pruner.deleteIncidentsBefore(cutoffFor(now, retentionDays * 2));
  return { cutoff, results, incidents, batches };
}

/**
 * Runs {@linkcode prune} now and then every `everyMinutes`. Returns a
 * function that stops the loop.
 */
export function startRetention(
  pruner: Pruner,
  retentionDays: number,
  everyMinutes: number,
): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const r = await prune(pruner, retentionDays);
      log.info(
        `retention: removed ${r.results} results and ${r.incidents} incidents ` +
          `before ${r.cutoff.toISOString()} (${r.batches} batches)`,
      );
    } catch (err) {
      log.error(`retention: prune failed: ${err}`);
    } finally {
      running = false;
    }
  };
  run();
  const id = setInterval(run, everyMinutes * 60_000);
  return () => clearInterval(id);
}
