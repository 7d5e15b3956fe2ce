import { Controller, Get, Inject } from '@nestjs/common';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorResult,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { SkipThrottle } from '@nestjs/throttler';
import type Redis from 'ioredis';
import { REDIS } from '../aerodata/aerodata.client';

@Controller('health')
@SkipThrottle()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  /** Liveness: the process answers. Used by the Docker HEALTHCHECK. */
  @Get()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: Postgres and Redis both answer within 1.5 s. */
  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check([
      () => this.db.pingCheck('postgres', { timeout: 1500 }),
      () => this.redisPing(),
    ]);
  }

  private async redisPing(): Promise<HealthIndicatorResult> {
    const pong = await Promise.race([
      this.redis.ping(),
      new Promise<string>((_, reject) =>
        setTimeout(() => reject(new Error('redis ping timed out')), 1500),
      ),
    ]);
    return { redis: { status: pong === 'PONG' ? 'up' : 'down' } };
  }
}
