/// A small HTTP client with retries, caching and rate limiting.
///
/// ```dart
/// final client = PebbleClient(PebbleConfig(baseUri: Uri.parse('https://api.example.com')));
/// final res = await client.get('/v1/items');
/// ```
library pebble;

export 'src/cache.dart' show ResponseCache, CachedResponse;
export 'src/client.dart' show PebbleClient;
export 'src/config.dart' show PebbleConfig;
export 'src/exceptions.dart';
export 'src/rate_limiter.dart' show RateLimiter;
export 'src/retry_policy.dart' show RetryPolicy;
export 'src/version.dart' show packageVersion;
