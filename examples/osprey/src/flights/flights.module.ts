import { HttpModule } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { AerodataClient, REDIS } from '../aerodata/aerodata.client';
import { WebhookNotifier } from '../notify/webhook-notifier.service';
import { StatusPoller } from '../poller/status-poller.service';
import { FlightsController } from './flights.controller';
import { FlightsService } from './flights.service';
import { WatchEntity } from './watch.entity';

@Module({
  imports: [TypeOrmModule.forFeature([WatchEntity]), HttpModule],
  controllers: [FlightsController],
  providers: [
    {
      provide: REDIS,
      inject: [ConfigService],
      useFactory: (config: ConfigService) =>
        new Redis(config.getOrThrow<string>('redis.url'), {
          keyPrefix: config.getOrThrow<string>('redis.keyPrefix'),
          maxRetriesPerRequest: 2,
          lazyConnect: false,
        }),
    },
    AerodataClient,
    FlightsService,
    StatusPoller,
    WebhookNotifier,
  ],
  exports: [REDIS, FlightsService],
})
export class FlightsModule {}
