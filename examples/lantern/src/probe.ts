/**
 * A single HTTP check against one monitor.
 *
 * The probe never throws: network errors, timeouts and unexpected statuses
 * all come back as a {@linkcode ProbeResult} with the matching outcome, so
 * the scheduler can record every attempt.
 */
import { isSuccessfulStatus, STATUS_TEXT, type StatusCode } from "@std/http/status";
import type { MonitorConfig } from "./config.ts";

export type Outcome = "up" | "down" | "timeout" | "error";

export interface ProbeResult {
  monitorId: string;
  checkedAt: Date;
  outcome: Outcome;
  /** HTTP status, or null when no response arrived. */
  status: number | null;
  /** Time until response headers (or failure), rounded to whole milliseconds. */
  latencyMs: number;
  /** Human-readable reason for anything but "up". */
  detail?: string;
}

export interface ProbeOptions {
  timeoutMs: number;
  userAgent: string;
  maxBodyKb: number;
}

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export function statusAccepted(monitor: MonitorConfig, status: number): boolean {
  if (monitor.expectStatus && monitor.expectStatus.length > 0) {
    return monitor.expectStatus.includes(status);
  }
  return isSuccessfulStatus(status);
}

function describe(status: number): string {
  const text = STATUS_TEXT[status as StatusCode];
  return text ? `${status} ${text}` : String(status);
}

/**
 * Reads at most maxBytes of the body as UTF-8 and cancels the rest, so a
 * monitor pointed at a large download cannot exhaust memory.
 */
export async function readCapped(res: Response, maxBytes: number): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const buf = new Uint8Array(Math.min(size, maxBytes));
  let offset = 0;
  for (const chunk of chunks) {
    const take = Math.min(chunk.byteLength, buf.byteLength - offset);
    buf.set(chunk.subarray(0, take), offset);
    offset += take;
    if (offset >= buf.byteLength) break;
  }
  return new TextDecoder().decode(buf);
}

export async function probe(
  monitor: MonitorConfig,
  opts: ProbeOptions,
  fetchImpl: FetchLike = fetch,
): Promise<ProbeResult> {
  const checkedAt = new Date();
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const base = { monitorId: monitor.id, checkedAt };

  let res: Response;
  try {
    res = await fetchImpl(monitor.url, {
      method: monitor.method ?? "GET",
      redirect: "follow",
      headers: { "user-agent": opts.userAgent, "cache-control": "no-cache" },
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
  } catch (err) {
    const latencyMs = elapsed();
    if (err instanceof DOMException && err.name === "TimeoutError") {
      return {
        ...base,
        outcome: "timeout",
        status: null,
        latencyMs,
        detail: `no response after ${opts.timeoutMs} ms`,
      };
    }
    return {
      ...base,
      outcome: "error",
      status: null,
      latencyMs,
      detail: err instanceof Error ? err.message : String(err),
    };
  }

  const latencyMs = elapsed();
  if (!statusAccepted(monitor, res.status)) {
    await res.body?.cancel();
    return { ...base, outcome: "down", status: res.status, latencyMs, detail: describe(res.status) };
  }

  if (monitor.keyword && monitor.method !== "HEAD") {
    const body = await readCapped(res, opts.maxBodyKb * 1024);
    if (!body.includes(monitor.keyword)) {
      return {
        ...base,
        outcome: "down",
        status: res.status,
        latencyMs,
        detail: `keyword "${monitor.keyword}" not found in first ${opts.maxBodyKb} KB`,
      };
    }
  } else {
    await res.body?.cancel();
  }
  return { ...base, outcome: "up", status: res.status, latencyMs };
}
