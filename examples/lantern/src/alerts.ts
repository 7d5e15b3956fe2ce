/**
 * Alert delivery.
 *
 * Alerts are POSTed as JSON to a single webhook. The payload carries a
 * Slack-compatible `text` field, so the URL can be a Slack or Mattermost
 * incoming webhook as well as our own incident bot.
 */
import { format as formatDuration } from "@std/fmt/duration";
import { delay } from "@std/async/delay";
import * as log from "@std/log";
import type { MonitorConfig } from "./config.ts";
import type { Transition } from "./state.ts";

export interface AlertPayload {
  event: "monitor.down" | "monitor.still_down" | "monitor.recovered";
  monitor: { id: string; name: string; url: string };
  at: string;
  detail: string | null;
  text: string;
}

/** Attempts per alert; the webhook gets two retries with a short pause. */
const DELIVERY_ATTEMPTS = 3;
const RETRY_PAUSE_MS = 1200;
/** Slow webhooks must not stall the scheduler. */
const WEBHOOK_TIMEOUT_MS = 5000;

export function buildPayload(
  monitor: MonitorConfig,
  transition: Exclude<Transition, { kind: "none" }>,
): AlertPayload {
  const ref = { id: monitor.id, name: monitor.name, url: monitor.url };
  switch (transition.kind) {
    case "down": {
      const detail = transition.cause.detail ?? transition.cause.outcome;
      return {
        event: "monitor.down",
        monitor: ref,
        at: transition.cause.checkedAt.toISOString(),
        detail,
        text: `:red_circle: *${monitor.name}* is DOWN (${detail}) — ${monitor.url}`,
      };
    }
    case "reminder": {
      const since = transition.state.since;
      const forHow = since
        ? formatDuration(transition.cause.checkedAt.getTime() - since.getTime(), {
          ignoreZero: true,
        })
        : "a while";
      const detail = transition.cause.detail ?? transition.cause.outcome;
      return {
        event: "monitor.still_down",
        monitor: ref,
        at: transition.cause.checkedAt.toISOString(),
        detail,
        text: `:red_circle: *${monitor.name}* is still down after ${forHow} (${detail})`,
      };
    }
    case "recovered": {
      const took = formatDuration(transition.downtimeMs, { ignoreZero: true });
      return {
        event: "monitor.recovered",
        monitor: ref,
        at: (transition.state.since ?? new Date()).toISOString(),
        detail: null,
        text: `:large_green_circle: *${monitor.name}* is back up after ${took}`,
      };
    }
  }
}

export interface Notifier {
  send(payload: AlertPayload): Promise<void>;
}

/** Used when no webhook is configured: alerts only go to the log. */
export class LogNotifier implements Notifier {
  send(payload: AlertPayload): Promise<void> {
    log.warn(`alert ${payload.event} ${payload.monitor.id}: ${payload.text}`);
    return Promise.resolve();
  }
}

export class WebhookNotifier implements Notifier {
  constructor(
    private readonly url: string,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async send(payload: AlertPayload): Promise<void> {
    let lastError = "";
    for (let attempt = 1; attempt <= DELIVERY_ATTEMPTS; attempt++) {
      try {
        const res = await this.fetchImpl(this.url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(payload),
          signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
        });
        await res.body?.cancel();
        if (res.ok) return;
        lastError = `HTTP ${res.status}`;
        // A 4xx means the payload or URL is wrong; retrying will not help.
        if (res.status >= 400 && res.status < 500 && res.status !== 429) break;
      } catch (err) {
        lastError = err instanceof Error ? err.message : String(err);
      }
      if (attempt < DELIVERY_ATTEMPTS) await delay(RETRY_PAUSE_MS * attempt);
    }
    log.error(`alert ${payload.event} for ${payload.monitor.id} not delivered: ${lastError}`);
  }
}

export function notifierFor(webhookUrl: string | null): Notifier {
  return webhookUrl ? new WebhookNotifier(webhookUrl) : new LogNotifier();
}
