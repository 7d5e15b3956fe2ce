import { HttpService } from '@nestjs/axios';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AxiosError } from 'axios';
import type Redis from 'ioredis';
import { firstValueFrom } from 'rxjs';
import { FlightPhase } from '../flights/watch.entity';

export const REDIS = Symbol('REDIS');

export interface FlightStatus {
  flightNumber: string;
  departureDate: string;
  phase: FlightPhase;
  gate: string | null;
  scheduledDeparture: string;
  estimatedDeparture: string | null;
  fetchedAt: string;
}

interface AerodataFlight {
  ident: string;
  date: string;
  status: string;
  departure: { gate?: string; scheduled: string; estimated?: string };
}

const PHASES: Record<string, FlightPhase> = {
  SCH: 'scheduled',
  DLY: 'delayed',
  BRD: 'boarding',
  DEP: 'departed',
  ARR: 'landed',
  CNX: 'cancelled',
  DIV: 'diverted',
};

/** Status codes worth another attempt; everything else is final. */
const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);

/**
 * Thin client for the AeroData flight status API. Responses are cached in
 * Redis for `cache.ttlSeconds`; failed calls are retried with exponential
 * backoff (`retryBaseDelayMs * 2^attempt`, plus up to 20% jitter).
 */
@Injectable()
export class AerodataClient {
  private readonly logger = new Logger(AerodataClient.name);
  private readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly retryBaseDelayMs: number;
  private readonly ttlSeconds: number;

  constructor(
    private readonly http: HttpService,
    @Inject(REDIS) private readonly redis: Redis,
    config: ConfigService,
  ) {
    this.baseUrl = config.getOrThrow<string>('upstream.baseUrl');
    this.apiKey = config.getOrThrow<string>('upstream.apiKey');
    this.timeoutMs = config.getOrThrow<number>('upstream.timeoutMs');
    this.maxRetries = config.getOrThrow<number>('upstream.maxRetries');
    this.retryBaseDelayMs = config.getOrThrow<number>('upstream.retryBaseDelayMs');
    this.ttlSeconds = config.getOrThrow<number>('cache.ttlSeconds');
  }

  async getStatus(
    flightNumber: string,
    departureDate: string,
  ): Promise<FlightStatus | null> {
    const key = `status:${flightNumber}:${departureDate}`;
    const cached = await this.redis.get(key);
    if (cached) {
      return JSON.parse(cached) as FlightStatus;
    }

    const flight = await this.fetchWithRetry(flightNumber, departureDate);
    if (!flight) {
      return null;
    }
    const status = toStatus(flight);
    await this.redis.set(key, JSON.stringify(status), 'EX', this.ttlSeconds);
    return status;
  }

  private async fetchWithRetry(
    flightNumber: string,
    departureDate: string,
  ): Promise<AerodataFlight | null> {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await firstValueFrom(
          this.http.get<AerodataFlight>(
            `${this.baseUrl}/flights/${encodeURIComponent(flightNumber)}`,
            {
              params: { date: departureDate },
              headers: { 'X-Api-Key': this.apiKey },
              timeout: this.timeoutMs,
            },
          ),
        );
        return res.data;
      } catch (err) {
        const status = (err as AxiosError).response?.status;
        if (status === 404) {
          return null;
        }
        const retryable =
          status === undefined || RETRYABLE.has(status);
        if (!retryable || attempt >= this.maxRetries) {
          throw err;
        }
        const delay = this.backoff(attempt);
        this.logger.warn(
          `AeroData ${flightNumber}/${departureDate} failed (${status ?? (err as Error).message}); retry ${attempt + 1}/${this.maxRetries} in ${delay}ms`,
        );
        await sleep(delay);
      }
    }
  }

  private backoff(attempt: number): number {
    const base = this.retryBaseDelayMs * 2 ** attempt;
    return Math.round(base + base * 0.2 * Math.random());
  }
}

function toStatus(f: AerodataFlight): FlightStatus {
  return {
    flightNumber: f.ident,
    departureDate: f.date,
    phase: PHASES[f.status] ?? 'scheduled',
    gate: f.departure.gate ?? null,
    scheduledDeparture: f.departure.scheduled,
    estimatedDeparture: f.departure.estimated ?? null,
    fetchedAt: new Date().toISOString(),
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
