import { HttpService } from '@nestjs/axios';
import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AxiosError } from 'axios';
import { createHmac, randomUUID } from 'node:crypto';
import { firstValueFrom } from 'rxjs';
import type { StatusChange } from '../poller/status-poller.service';

export const SIGNATURE_HEADER = 'X-Osprey-Signature';
export const DELIVERY_HEADER = 'X-Osprey-Delivery';

/**
 * Delivers status changes to the account's callback URL.
 *
 * Each body is signed as `t=<unix seconds>,v1=<hex HMAC-SHA256>` over
 * `"<t>.<raw body>"` with WEBHOOK_SIGNING_SECRET, so receivers can reject
 * replays older than a few minutes. Failed deliveries are retried up to
 * `webhook.maxAttempts` times with a fixed 2 s pause; 4xx answers other than
 * 408/429 are not retried.
 */
@Injectable()
export class WebhookNotifier {
  private readonly logger = new Logger(WebhookNotifier.name);
  private readonly secret: string;
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;

  constructor(
    private readonly http: HttpService,
    config: ConfigService,
  ) {
    this.secret = config.getOrThrow<string>('webhook.signingSecret');
    this.timeoutMs = config.getOrThrow<number>('webhook.timeoutMs');
    this.maxAttempts = config.getOrThrow<number>('webhook.maxAttempts');
  }

  sign(body: string, timestamp = Math.floor(Date.now() / 1000)): string {
    const mac = createHmac('sha256', this.secret)
      .update(`${timestamp}.${body}`)
      .digest('hex');
    return `t=${timestamp},v1=${mac}`;
  }

  async notify(callbackUrl: string, change: StatusChange): Promise<boolean> {
    const body = JSON.stringify({ type: 'flight.status_changed', data: change });
    const deliveryId = randomUUID();

    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      try {
        await firstValueFrom(
          this.http.post(callbackUrl, body, {
            timeout: this.timeoutMs,
            headers: {
              'Content-Type': 'application/json',
              'User-Agent': 'osprey-webhooks/1',
              [SIGNATURE_HEADER]: this.sign(body),
              [DELIVERY_HEADER]: deliveryId,
            },
            maxRedirects: 0,
          }),
        );
        return true;
      } catch (err) {
        const status = (err as AxiosError).response?.status;
        const permanent =
          status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
        this.logger.warn(
          `webhook ${deliveryId} to ${new URL(callbackUrl).host} failed (attempt ${attempt}/${this.maxAttempts}, ${status ?? (err as Error).message})`,
        );
        if (permanent || attempt === this.maxAttempts) {
          break;
        }
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
    this.logger.error(`giving up on webhook ${deliveryId} for watch ${change.watchId}`);
    return false;
  }
}
