/**
 * Drives the probes.
 *
 * Every monitor has its own next-due time. A one-second tick collects the
 * monitors that are due and probes them through a bounded pool
 * (`probes.maxConcurrent`), records each result, feeds it to the state
 * tracker and sends alerts for transitions.
 */
import { pooledMap } from "@std/async/pool";
import * as log from "@std/log";
import { type Config, intervalMs, type MonitorConfig } from "./config.ts";
import { probe, type ProbeOptions, type ProbeResult } from "./probe.ts";
import { StateTracker, type Transition } from "./state.ts";
import { buildPayload, type Notifier } from "./alerts.ts";

const TICK_MS = 1000;

export interface ResultSink {
  record(result: ProbeResult, transition: Transition): Promise<void>;
}

export class Scheduler {
  readonly tracker: StateTracker;
  readonly #nextDue = new Map<string, number>();
  readonly #inFlight = new Set<string>();
  readonly #probeOptions: ProbeOptions;
  #timer: number | undefined;
  #ticking = false;

  constructor(
    private readonly cfg: Config,
    private readonly sink: ResultSink,
    private readonly notifier: Notifier,
    private readonly probeFn: typeof probe = probe,
  ) {
    this.tracker = new StateTracker({
      failureThreshold: cfg.probes.failureThreshold,
      recoveryThreshold: cfg.probes.recoveryThreshold,
      cooldownMinutes: cfg.alerts.cooldownMinutes,
    });
    this.#probeOptions = {
      timeoutMs: cfg.probes.timeoutMs,
      userAgent: cfg.probes.userAgent,
      maxBodyKb: cfg.probes.maxBodyKb,
    };
    // Spread the first round over one interval so a restart with many
    // monitors does not fire them all in the same second.
    const now = Date.now();
    for (const m of cfg.monitors) {
      this.#nextDue.set(m.id, now + Math.floor(Math.random() * intervalMs(cfg, m)));
    }
  }

  start(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => void this.tick(), TICK_MS);
    log.info(`scheduler: ${this.cfg.monitors.length} monitors, tick ${TICK_MS} ms`);
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Monitors whose next probe is due at `now` and that are not already running. */
  due(now: number): MonitorConfig[] {
    return this.cfg.monitors.filter((m) =>
      !this.#inFlight.has(m.id) && (this.#nextDue.get(m.id) ?? 0) <= now
    );
  }

  async tick(now: number = Date.now()): Promise<void> {
    if (this.#ticking) return;
    this.#ticking = true;
    try {
      const batch = this.due(now);
      for (const m of batch) {
        this.#inFlight.add(m.id);
        this.#nextDue.set(m.id, now + intervalMs(this.cfg, m));
      }
      const results = pooledMap(this.cfg.probes.maxConcurrent, batch, (m) => this.runOne(m));
      for await (const _ of results) {
        // runOne does the work; draining the iterator waits for the batch.
      }
    } finally {
      this.#ticking = false;
    }
  }

  async runOne(monitor: MonitorConfig): Promise<void> {
    try {
      const result = await this.probeFn(monitor, this.#probeOptions);
      const transition = this.tracker.record(result);
      await this.sink.record(result, transition);
      if (transition.kind !== "none") {
        log.warn(`${monitor.id}: ${transition.kind}`);
        await this.notifier.send(buildPayload(monitor, transition));
      }
    } catch (err) {
      log.error(`${monitor.id}: probe bookkeeping failed: ${err}`);
    } finally {
      this.#inFlight.delete(monitor.id);
    }
  }
}
