import * as Joi from 'joi';

/**
 * Built-in defaults. Every value here can be overridden by an environment
 * variable (see `configuration()` below for the names). `.env.development`
 * and `.env.production` hold the values we actually run with; anything they
 * leave out falls back to these.
 */
export const DEFAULTS = {
  port: 3417,
  globalPrefix: 'api',
  logLevel: 'log',

  databaseUrl: 'postgres://osprey:osprey@localhost:5432/osprey',
  dbPoolSize: 7,
  redisUrl: 'redis://localhost:6379/0',
  redisKeyPrefix: 'osprey:',

  /** How long a fetched flight status is served from Redis. */
  cacheTtlSeconds: 75,
  /** How often the poller re-checks every active watch. */
  pollIntervalSeconds: 95,
  /** How many watches the poller loads per database round-trip. */
  pollBatchSize: 120,

  upstreamBaseUrl: 'https://api.aerodata.example/v2',
  upstreamTimeoutMs: 4200,
  upstreamMaxRetries: 4,
  upstreamRetryBaseDelayMs: 350,

  webhookTimeoutMs: 3300,
  webhookMaxAttempts: 5,

  maxWatchesPerAccount: 36,

  throttleTtlMs: 60000,
  throttleLimit: 90,
} as const;

export interface OspreyConfig {
  port: number;
  globalPrefix: string;
  logLevel: string;
  database: { url: string; poolSize: number };
  redis: { url: string; keyPrefix: string };
  cache: { ttlSeconds: number };
  poller: { intervalSeconds: number; batchSize: number };
  upstream: {
    baseUrl: string;
    apiKey: string;
    timeoutMs: number;
    maxRetries: number;
    retryBaseDelayMs: number;
  };
  webhook: { signingSecret: string; timeoutMs: number; maxAttempts: number };
  limits: { maxWatchesPerAccount: number };
  throttle: { ttlMs: number; limit: number };
}

function int(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === '') {
    return fallback;
  }
  const n = Number.parseInt(raw, 10);
  if (Number.isNaN(n)) {
    throw new Error(`expected an integer, got "${raw}"`);
  }
  return n;
}

function str(raw: string | undefined, fallback: string): string {
  return raw === undefined || raw.trim() === '' ? fallback : raw.trim();
}

/**
 * Shape check for the environment. Ranges only: defaults live in DEFAULTS so
 * there is exactly one place to look them up.
 */
export const envValidationSchema = Joi.object({
  NODE_ENV: Joi.string().valid('development', 'production', 'test'),
  PORT: Joi.number().port(),
  LOG_LEVEL: Joi.string().valid('error', 'warn', 'log', 'debug', 'verbose'),
  DATABASE_URL: Joi.string().uri({ scheme: ['postgres', 'postgresql'] }),
  DB_POOL_SIZE: Joi.number().integer().min(1).max(100),
  REDIS_URL: Joi.string().uri({ scheme: ['redis', 'rediss'] }),
  CACHE_TTL_SECONDS: Joi.number().integer().min(1),
  POLL_INTERVAL_SECONDS: Joi.number().integer().min(1).max(3600),
  POLL_BATCH_SIZE: Joi.number().integer().min(1).max(1000),
  UPSTREAM_BASE_URL: Joi.string().uri(),
  AERODATA_API_KEY: Joi.string().when('NODE_ENV', {
    is: 'production',
    then: Joi.required(),
  }),
  UPSTREAM_TIMEOUT_MS: Joi.number().integer().min(100),
  UPSTREAM_MAX_RETRIES: Joi.number().integer().min(0).max(10),
  UPSTREAM_RETRY_BASE_DELAY_MS: Joi.number().integer().min(0),
  WEBHOOK_SIGNING_SECRET: Joi.string().min(32).when('NODE_ENV', {
    is: 'production',
    then: Joi.required(),
  }),
  WEBHOOK_TIMEOUT_MS: Joi.number().integer().min(100),
  WEBHOOK_MAX_ATTEMPTS: Joi.number().integer().min(1).max(20),
  MAX_WATCHES_PER_ACCOUNT: Joi.number().integer().min(1),
  THROTTLE_TTL_MS: Joi.number().integer().min(1000),
  THROTTLE_LIMIT: Joi.number().integer().min(1),
}).unknown(true);

export default function configuration(
  env: NodeJS.ProcessEnv = process.env,
): OspreyConfig {
  return {
    port: int(env.PORT, DEFAULTS.port),
    globalPrefix: str(env.GLOBAL_PREFIX, DEFAULTS.globalPrefix),
    logLevel: str(env.LOG_LEVEL, DEFAULTS.logLevel),
    database: {
      url: str(env.DATABASE_URL, DEFAULTS.databaseUrl),
      poolSize: int(env.DB_POOL_SIZE, DEFAULTS.dbPoolSize),
    },
    redis: {
      url: str(env.REDIS_URL, DEFAULTS.redisUrl),
      keyPrefix: str(env.REDIS_KEY_PREFIX, DEFAULTS.redisKeyPrefix),
    },
    cache: {
      ttlSeconds: int(env.CACHE_TTL_SECONDS, DEFAULTS.cacheTtlSeconds),
    },
    poller: {
      intervalSeconds: int(
        env.POLL_INTERVAL_SECONDS,
        DEFAULTS.pollIntervalSeconds,
      ),
      batchSize: int(env.POLL_BATCH_SIZE, DEFAULTS.pollBatchSize),
    },
    upstream: {
      baseUrl: str(env.UPSTREAM_BASE_URL, DEFAULTS.upstreamBaseUrl),
      apiKey: str(env.AERODATA_API_KEY, ''),
      timeoutMs: int(env.UPSTREAM_TIMEOUT_MS, DEFAULTS.upstreamTimeoutMs),
      maxRetries: int(env.UPSTREAM_MAX_RETRIES, DEFAULTS.upstreamMaxRetries),
      retryBaseDelayMs: int(
        env.UPSTREAM_RETRY_BASE_DELAY_MS,
        DEFAULTS.upstreamRetryBaseDelayMs,
      ),
    },
    webhook: {
      signingSecret: str(env.WEBHOOK_SIGNING_SECRET, 'dev-only-not-a-secret'),
      timeoutMs: int(env.WEBHOOK_TIMEOUT_MS, DEFAULTS.webhookTimeoutMs),
      maxAttempts: int(env.WEBHOOK_MAX_ATTEMPTS, DEFAULTS.webhookMaxAttempts),
    },
    limits: {
      maxWatchesPerAccount: int(
        env.MAX_WATCHES_PER_ACCOUNT,
        DEFAULTS.maxWatchesPerAccount,
      ),
    },
    throttle: {
      ttlMs: int(env.THROTTLE_TTL_MS, DEFAULTS.throttleTtlMs),
      limit: int(env.THROTTLE_LIMIT, DEFAULTS.throttleLimit),
    },
  };
}
