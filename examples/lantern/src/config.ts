/**
 * Configuration for lantern.
 *
 * The config file is optional. Every key it leaves out falls back to the
 * built-in defaults below, and a few environment variables win over both
 * (see {@linkcode applyEnv}). The file is picked with `--config PATH` or
 * `LANTERN_CONFIG`; config/dev.json and config/prod.json are the two
 * profiles we ship.
 */

/** Dashboard / API listener port when nothing else sets one. */
export const DEFAULT_PORT = 8164;
export const DEFAULT_HOSTNAME = "0.0.0.0";
export const DEFAULT_TITLE = "Service status";

/** How often each monitor is probed, unless the monitor overrides it. */
export const DEFAULT_INTERVAL_SECONDS = 45;
/** A probe that has not received response headers after this long counts as a timeout. */
export const DEFAULT_TIMEOUT_MS = 7500;
/** Consecutive failed probes before a monitor is marked down and an alert goes out. */
export const DEFAULT_FAILURE_THRESHOLD = 3;
/** Consecutive successful probes before a down monitor is marked up again. */
export const DEFAULT_RECOVERY_THRESHOLD = 2;
/** Upper bound on probes in flight at the same time. */
export const DEFAULT_MAX_CONCURRENT = 8;
/** Bodies are only read for keyword checks, and never past this size (KB). */
export const DEFAULT_MAX_BODY_KB = 256;
export const DEFAULT_USER_AGENT = "lantern-probe (+https://status.kestrel.dev/about)";

/** Check results older than this are deleted by the retention job. */
export const DEFAULT_RETENTION_DAYS = 30;
export const DEFAULT_PRUNE_EVERY_MINUTES = 60;

/** Minimum gap between two alerts for a monitor that stays down. */
export const DEFAULT_ALERT_COOLDOWN_MINUTES = 20;

/** Number of daily bars shown per monitor on the public page. */
export const DEFAULT_DASHBOARD_WINDOW_DAYS = 90;
/** Seconds the public page and /api/status may be cached by browsers and CDNs. */
export const DEFAULT_DASHBOARD_CACHE_SECONDS = 15;

export const DEFAULT_DATABASE_URL = "postgres://lantern@localhost:5432/lantern";
export const DEFAULT_DB_POOL_SIZE = 6;

export type HttpMethod = "GET" | "HEAD";

export interface MonitorConfig {
  /** Stable identifier, used in URLs and as the primary key. */
  id: string;
  name: string;
  url: string;
  method?: HttpMethod;
  /** Accepted status codes. Any 2xx when omitted. */
  expectStatus?: number[];
  /** Text that must appear in the response body. */
  keyword?: string;
  /** Per-monitor override of probes.intervalSeconds. */
  intervalSeconds?: number;
  /** Hidden monitors are probed and alerted on but left off the public page. */
  public?: boolean;
}

export interface Config {
  server: { port: number; hostname: string; title: string };
  probes: {
    intervalSeconds: number;
    timeoutMs: number;
    failureThreshold: number;
    recoveryThreshold: number;
    maxConcurrent: number;
    maxBodyKb: number;
    userAgent: string;
  };
  history: { retentionDays: number; pruneEveryMinutes: number };
  alerts: { webhookUrl: string | null; cooldownMinutes: number };
  dashboard: { windowDays: number; cacheSeconds: number };
  database: { url: string; poolSize: number };
  monitors: MonitorConfig[];
}

/** The configuration used when no file is given at all. */
export function defaults(): Config {
  return {
    server: { port: DEFAULT_PORT, hostname: DEFAULT_HOSTNAME, title: DEFAULT_TITLE },
    probes: {
      intervalSeconds: DEFAULT_INTERVAL_SECONDS,
      timeoutMs: DEFAULT_TIMEOUT_MS,
      failureThreshold: DEFAULT_FAILURE_THRESHOLD,
      recoveryThreshold: DEFAULT_RECOVERY_THRESHOLD,
      maxConcurrent: DEFAULT_MAX_CONCURRENT,
      maxBodyKb: DEFAULT_MAX_BODY_KB,
      userAgent: DEFAULT_USER_AGENT,
    },
    history: {
      retentionDays: DEFAULT_RETENTION_DAYS,
      pruneEveryMinutes: DEFAULT_PRUNE_EVERY_MINUTES,
    },
    alerts: { webhookUrl: null, cooldownMinutes: DEFAULT_ALERT_COOLDOWN_MINUTES },
    dashboard: {
      windowDays: DEFAULT_DASHBOARD_WINDOW_DAYS,
      cacheSeconds: DEFAULT_DASHBOARD_CACHE_SECONDS,
    },
    database: { url: DEFAULT_DATABASE_URL, poolSize: DEFAULT_DB_POOL_SIZE },
    monitors: [],
  };
}

type Section = Exclude<keyof Config, "monitors">;
const SECTIONS: Section[] = ["server", "probes", "history", "alerts", "dashboard", "database"];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join("\n  - ")}`);
    this.name = "ConfigError";
  }
}

/**
 * Lays a parsed config file over the defaults, one section at a time.
 * Unknown sections and keys are rejected so typos don't silently fall back.
 */
export function merge(base: Config, file: Record<string, unknown>): Config {
  const out = structuredClone(base);
  const problems: string[] = [];
  for (const [key, value] of Object.entries(file)) {
    if (key === "$schema" || key === "_comment") continue;
    if (key === "monitors") {
      if (!Array.isArray(value)) problems.push("monitors must be an array");
      else out.monitors = value as MonitorConfig[];
      continue;
    }
    if (!SECTIONS.includes(key as Section)) {
      problems.push(`unknown section "${key}"`);
      continue;
    }
    const section = out[key as Section] as Record<string, unknown>;
    for (const [field, v] of Object.entries(value as Record<string, unknown>)) {
      if (!(field in section)) problems.push(`unknown key "${key}.${field}"`);
      else section[field] = v;
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return out;
}

/** Environment variables that override the file; mostly secrets and addresses. */
export function applyEnv(cfg: Config, env: Record<string, string | undefined>): Config {
  const port = env.LANTERN_PORT;
  if (port) cfg.server.port = Number(port);
  if (env.LANTERN_DATABASE_URL) cfg.database.url = env.LANTERN_DATABASE_URL;
  if (env.LANTERN_ALERT_WEBHOOK) cfg.alerts.webhookUrl = env.LANTERN_ALERT_WEBHOOK;
  const retention = env.LANTERN_RETENTION_DAYS;
  if (retention) cfg.history.retentionDays = Number(retention);
  return cfg;
}

/** Every problem with cfg, or an empty list. */
export function validate(cfg: Config): string[] {
  const problems: string[] = [];
  const { server, probes, history, alerts, dashboard, database } = cfg;
  if (!Number.isInteger(server.port) || server.port < 1 || server.port > 65535) {
    problems.push(`server.port out of range: ${server.port}`);
  }
  if (probes.intervalSeconds < 5) {
    problems.push(`probes.intervalSeconds must be >= 5, got ${probes.intervalSeconds}`);
  }
  if (probes.timeoutMs < 100) {
    problems.push(`probes.timeoutMs must be >= 100, got ${probes.timeoutMs}`);
  }
  if (probes.timeoutMs >= probes.intervalSeconds * 1000) {
    problems.push("probes.timeoutMs must be shorter than probes.intervalSeconds");
  }
  if (probes.failureThreshold < 1) problems.push("probes.failureThreshold must be >= 1");
  if (probes.recoveryThreshold < 1) problems.push("probes.recoveryThreshold must be >= 1");
  if (probes.maxConcurrent < 1) problems.push("probes.maxConcurrent must be >= 1");
  if (history.retentionDays < 1) {
    problems.push(`history.retentionDays must be >= 1, got ${history.retentionDays}`);
  }
  // A dashboard window longer than the retention is allowed: the page simply
  // shows empty bars for the days we no longer have.
  if (dashboard.windowDays < 1 || dashboard.windowDays > 365) {
    problems.push(`dashboard.windowDays must be between 1 and 365, got ${dashboard.windowDays}`);
  }
  if (alerts.webhookUrl !== null && !/^https?:\/\//.test(alerts.webhookUrl)) {
    problems.push("alerts.webhookUrl must be an http(s) URL");
  }
  if (!database.url.startsWith("postgres://") && !database.url.startsWith("postgresql://")) {
    problems.push("database.url must be a postgres:// URL");
  }
  const seen = new Set<string>();
  for (const [i, m] of cfg.monitors.entries()) {
    if (!m.id || !/^[a-z0-9][a-z0-9-]*$/.test(m.id)) {
      problems.push(`monitors[${i}].id must be lowercase letters, digits and dashes`);
    } else if (seen.has(m.id)) {
      problems.push(`duplicate monitor id "${m.id}"`);
    }
    seen.add(m.id);
    try {
      new URL(m.url);
    } catch {
      problems.push(`monitors[${i}].url is not a valid URL: ${m.url}`);
    }
    if (m.intervalSeconds !== undefined && m.intervalSeconds < 5) {
      problems.push(`monitors[${i}].intervalSeconds must be >= 5`);
    }
  }
  return problems;
}

/**
 * Loads the config file at path (or only the defaults when path is
 * undefined), applies the environment and validates the result.
 */
export async function loadConfig(
  path: string | undefined,
  env: Record<string, string | undefined> = Deno.env.toObject(),
): Promise<Config> {
  let cfg = defaults();
  if (path) {
    const text = await Deno.readTextFile(path);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new ConfigError([`${path}: ${(err as Error).message}`]);
    }
    cfg = merge(cfg, parsed as Record<string, unknown>);
  }
  cfg = applyEnv(cfg, env);
  const problems = validate(cfg);
  if (problems.length > 0) throw new ConfigError(problems);
  return cfg;
}

/** Effective probe interval of one monitor, in milliseconds. */
export function intervalMs(cfg: Config, monitor: MonitorConfig): number {
  return (monitor.intervalSeconds ?? cfg.probes.intervalSeconds) * 1000;
}
