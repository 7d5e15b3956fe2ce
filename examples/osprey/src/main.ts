import 'reflect-metadata';
import { Logger, LogLevel, ValidationPipe } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

const LEVELS: LogLevel[] = ['error', 'warn', 'log', 'debug', 'verbose'];

function levelsUpTo(level: string): LogLevel[] {
  const idx = LEVELS.indexOf(level as LogLevel);
  return idx === -1 ? LEVELS.slice(0, 3) : LEVELS.slice(0, idx + 1);
}

async function bootstrap(): Promise<void> {
  const app = await NestFactory.create(AppModule, { bufferLogs: true });
  const config = app.get(ConfigService);

  app.useLogger(levelsUpTo(config.getOrThrow<string>('logLevel')));
  app.setGlobalPrefix(config.getOrThrow<string>('globalPrefix'));
  app.useGlobalPipes(
    new ValidationPipe({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
    }),
  );
  app.enableShutdownHooks();

  const port = config.getOrThrow<number>('port');
  await app.listen(port, '0.0.0.0');
  Logger.log(
    `osprey listening on :${port} (NODE_ENV=${process.env.NODE_ENV ?? 'unset'})`,
    'Bootstrap',
  );
}

bootstrap().catch((err: unknown) => {
  // eslint-disable-next-line no-console
  console.error('osprey failed to start', err);
  process.exit(1);
});
