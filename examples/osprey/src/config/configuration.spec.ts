import configuration, {
  DEFAULTS,
  envValidationSchema,
} from './configuration';

describe('configuration', () => {
  it('falls back to the built-in defaults when nothing is set', () => {
    const cfg = configuration({});

    expect(cfg.port).toBe(DEFAULTS.port);
    expect(cfg.poller.intervalSeconds).toBe(DEFAULTS.pollIntervalSeconds);
    expect(cfg.upstream.timeoutMs).toBe(DEFAULTS.upstreamTimeoutMs);
    expect(cfg.limits.maxWatchesPerAccount).toBe(
      DEFAULTS.maxWatchesPerAccount,
    );
    expect(cfg.redis.keyPrefix).toBe('osprey:');
  });

  it('lets environment variables win', () => {
    const cfg = configuration({
      PORT: '5123',
      POLL_INTERVAL_SECONDS: '7',
      UPSTREAM_MAX_RETRIES: '0',
      MAX_WATCHES_PER_ACCOUNT: '3',
    });

    expect(cfg.port).toBe(5123);
    expect(cfg.poller.intervalSeconds).toBe(7);
    expect(cfg.upstream.maxRetries).toBe(0);
    expect(cfg.limits.maxWatchesPerAccount).toBe(3);
  });

  it('treats blank values as unset', () => {
    const cfg = configuration({ CACHE_TTL_SECONDS: '  ' });
    expect(cfg.cache.ttlSeconds).toBe(DEFAULTS.cacheTtlSeconds);
  });

  it('rejects garbage numbers instead of silently using NaN', () => {
    expect(() => configuration({ DB_POOL_SIZE: 'lots' })).toThrow(
      /expected an integer/,
    );
  });

  describe('envValidationSchema', () => {
    it('requires the AeroData key and signing secret in production', () => {
      const { error } = envValidationSchema.validate({
        NODE_ENV: 'production',
      });
      expect(error?.message).toMatch(/AERODATA_API_KEY/);
    });

    it('accepts an empty development environment', () => {
      const { error } = envValidationSchema.validate({
        NODE_ENV: 'development',
      });
      expect(error).toBeUndefined();
    });

    it('caps the poll interval at one hour', () => {
      const { error } = envValidationSchema.validate({
        POLL_INTERVAL_SECONDS: 7200,
      });
      expect(error?.message).toMatch(/POLL_INTERVAL_SECONDS/);
    });
  });
});
