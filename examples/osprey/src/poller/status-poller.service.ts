import {
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { SchedulerRegistry } from '@nestjs/schedule';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, LessThan, Or, Repository } from 'typeorm';
import { AerodataClient, FlightStatus } from '../aerodata/aerodata.client';
import { FINAL_PHASES, WatchEntity } from '../flights/watch.entity';
import { WebhookNotifier } from '../notify/webhook-notifier.service';

const INTERVAL_NAME = 'status-poller';

export interface StatusChange {
  watchId: string;
  accountId: string;
  fields: Array<'phase' | 'gate' | 'estimatedDeparture'>;
  previous: { phase: string | null; gate: string | null; estimatedDeparture: string | null };
  current: FlightStatus;
}

/**
 * Re-checks every active watch once per `poller.intervalSeconds`, compares
 * the result with what we last saw and hands real changes to the notifier.
 * A watch is deactivated once its flight reaches a final phase.
 */
@Injectable()
export class StatusPoller implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(StatusPoller.name);
  private readonly intervalSeconds: number;
  private readonly batchSize: number;
  private running = false;

  constructor(
    @InjectRepository(WatchEntity)
    private readonly watches: Repository<WatchEntity>,
    private readonly aerodata: AerodataClient,
    private readonly notifier: WebhookNotifier,
    private readonly scheduler: SchedulerRegistry,
    config: ConfigService,
  ) {
    this.intervalSeconds = config.getOrThrow<number>('poller.intervalSeconds');
    this.batchSize = config.getOrThrow<number>('poller.batchSize');
  }

  onApplicationBootstrap(): void {
    if (process.env.OSPREY_DISABLE_POLLER === '1') {
      this.logger.warn('poller disabled by OSPREY_DISABLE_POLLER');
      return;
    }
    const handle = setInterval(() => void this.tick(), this.intervalSeconds * 1000);
    this.scheduler.addInterval(INTERVAL_NAME, handle);
    this.logger.log(`polling every ${this.intervalSeconds}s`);
  }

  onApplicationShutdown(): void {
    if (this.scheduler.doesExist('interval', INTERVAL_NAME)) {
      this.scheduler.deleteInterval(INTERVAL_NAME);
    }
  }

  /** One pass over all due watches. Overlapping ticks are skipped. */
  async tick(now = new Date()): Promise<number> {
    if (this.running) {
      this.logger.warn('previous poll still running; skipping this tick');
      return 0;
    }
    this.running = true;
    let checked = 0;
    try {
      const dueBefore = new Date(now.getTime() - this.intervalSeconds * 1000);
      for (;;) {
        const batch = await this.watches.find({
          where: { active: true, lastPolledAt: Or(IsNull(), LessThan(dueBefore)) },
          order: { lastPolledAt: { direction: 'ASC', nulls: 'FIRST' } },
          take: this.batchSize,
        });
        if (batch.length === 0) {
          break;
        }
        for (const watch of batch) {
          await this.check(watch, now);
          checked++;
        }
      }
    } finally {
      this.running = false;
    }
    return checked;
  }

  private async check(watch: WatchEntity, now: Date): Promise<void> {
    let status: FlightStatus | null;
    try {
      status = await this.aerodata.getStatus(watch.flightNumber, watch.departureDate);
    } catch (err) {
      this.logger.error(`status for ${watch.flightNumber} failed: ${(err as Error).message}`);
      await this.watches.update({ id: watch.id }, { lastPolledAt: now });
      return;
    }

    if (!status) {
      await this.watches.update({ id: watch.id }, { lastPolledAt: now });
      return;
    }

    const change = diff(watch, status);
    if (change) {
      await this.notifier.notify(watch.callbackUrl, change);
    }

    await this.watches.update(
      { id: watch.id },
      {
        lastPhase: status.phase,
        lastGate: status.gate,
        lastEstimatedDeparture: status.estimatedDeparture
          ? new Date(status.estimatedDeparture)
          : null,
        lastPolledAt: now,
        active: !FINAL_PHASES.has(status.phase),
      },
    );
  }
}

export function diff(watch: WatchEntity, status: FlightStatus): StatusChange | null {
  const prevEstimate = watch.lastEstimatedDeparture?.toISOString() ?? null;
  const fields: StatusChange['fields'] = [];
  if (watch.lastPhase !== status.phase) fields.push('phase');
  if (watch.lastGate !== status.gate) fields.push('gate');
  if (
    prevEstimate !== (status.estimatedDeparture && new Date(status.estimatedDeparture).toISOString())
  ) {
    fields.push('estimatedDeparture');
  }
  // The very first poll only records a baseline.
  if (fields.length === 0 || watch.lastPolledAt === null) {
    return null;
  }
  return {
    watchId: watch.id,
    accountId: watch.accountId,
    fields,
    previous: { phase: watch.lastPhase, gate: watch.lastGate, estimatedDeparture: prevEstimate },
    current: status,
  };
}
