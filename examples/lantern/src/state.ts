/**
 * Per-monitor up/down state.
 *
 * A single failed probe is not an outage: a monitor only goes down after
 * `failureThreshold` failures in a row, and only comes back up after
 * `recoveryThreshold` successes in a row. While it stays down, a reminder
 * alert is raised at most once per `cooldownMinutes`.
 */
import type { ProbeResult } from "./probe.ts";

export type Status = "unknown" | "up" | "down";

export interface MonitorState {
  status: Status;
  consecutiveFailures: number;
  consecutiveSuccesses: number;
  /** When the current status began; null while unknown. */
  since: Date | null;
  lastAlertAt: Date | null;
  lastResult: ProbeResult | null;
}

export type Transition =
  | { kind: "none" }
  | { kind: "down"; state: MonitorState; cause: ProbeResult }
  | { kind: "reminder"; state: MonitorState; cause: ProbeResult }
  | { kind: "recovered"; state: MonitorState; downtimeMs: number };

export interface Thresholds {
  failureThreshold: number;
  recoveryThreshold: number;
  cooldownMinutes: number;
}

export function initialState(): MonitorState {
  return {
    status: "unknown",
    consecutiveFailures: 0,
    consecutiveSuccesses: 0,
    since: null,
    lastAlertAt: null,
    lastResult: null,
  };
}

export class StateTracker {
  readonly #states = new Map<string, MonitorState>();

  constructor(private readonly thresholds: Thresholds) {}

  get(monitorId: string): MonitorState {
    let s = this.#states.get(monitorId);
    if (!s) {
      s = initialState();
      this.#states.set(monitorId, s);
    }
    return s;
  }

  /** Restores a state loaded from the database after a restart. */
  restore(monitorId: string, state: MonitorState): void {
    this.#states.set(monitorId, state);
  }

  all(): Map<string, MonitorState> {
    return this.#states;
  }

  /** Folds one probe result into the monitor's state and reports what changed. */
  record(result: ProbeResult): Transition {
    const s = this.get(result.monitorId);
    const now = result.checkedAt;
    s.lastResult = result;

    if (result.outcome === "up") {
      s.consecutiveSuccesses += 1;
      s.consecutiveFailures = 0;
      if (s.status === "unknown") {
        s.status = "up";
        s.since = now;
        return { kind: "none" };
      }
      if (s.status === "down" && s.consecutiveSuccesses >= this.thresholds.recoveryThreshold) {
        const downtimeMs = s.since ? now.getTime() - s.since.getTime() : 0;
        s.status = "up";
        s.since = now;
        s.lastAlertAt = null;
        return { kind: "recovered", state: s, downtimeMs };
      }
      return { kind: "none" };
    }

    s.consecutiveFailures += 1;
    s.consecutiveSuccesses = 0;
    if (s.status !== "down") {
      if (s.consecutiveFailures < this.thresholds.failureThreshold) return { kind: "none" };
      s.status = "down";
      s.since = now;
      s.lastAlertAt = now;
      return { kind: "down", state: s, cause: result };
    }

    const cooldownMs = this.thresholds.cooldownMinutes * 60_000;
    if (s.lastAlertAt && now.getTime() - s.lastAlertAt.getTime() >= cooldownMs) {
      s.lastAlertAt = now;
      return { kind: "reminder", state: s, cause: result };
    }
    return { kind: "none" };
  }
}
