import { Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { APP_GUARD } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { TerminusModule } from '@nestjs/terminus';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import { TypeOrmModule } from '@nestjs/typeorm';
import configuration, { envValidationSchema } from './config/configuration';
import { FlightsModule } from './flights/flights.module';
import { WatchEntity } from './flights/watch.entity';
import { HealthController } from './health/health.controller';

const nodeEnv = process.env.NODE_ENV ?? 'development';

@Module({
  imports: [
    ConfigModule.forRoot({
      isGlobal: true,
      cache: true,
      // Real environment variables always win over these files.
      envFilePath: [`.env.${nodeEnv}.local`, `.env.${nodeEnv}`],
      load: [() => configuration()],
      validationSchema: envValidationSchema,
      validationOptions: { abortEarly: false },
    }),
    TypeOrmModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService) => ({
        type: 'postgres' as const,
        url: config.getOrThrow<string>('database.url'),
        entities: [WatchEntity],
        // Schema is small and owned by this service; migrations arrive in 0.8.
        synchronize: nodeEnv !== 'production',
        extra: { max: config.getOrThrow<number>('database.poolSize') },
      }),
    }),
    ThrottlerModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService) => [
        {
          ttl: config.getOrThrow<number>('throttle.ttlMs'),
          limit: config.getOrThrow<number>('throttle.limit'),
        },
      ],
    }),
    ScheduleModule.forRoot(),
    TerminusModule,
    FlightsModule,
  ],
  controllers: [HealthController],
  providers: [{ provide: APP_GUARD, useClass: ThrottlerGuard }],
})
export class AppModule {}
