import 'package:meta/meta.dart';

import 'cache.dart';
import 'rate_limiter.dart';
import 'retry_policy.dart';
import 'version.dart';

/// User-Agent sent when none is configured.
const String defaultUserAgent = 'pebble-dart/$packageVersion';

/// Settings shared by every request a [PebbleClient] makes.
@immutable
class PebbleConfig {
  const PebbleConfig({
    required this.baseUri,
    this.timeout = const Duration(seconds: 45),
    this.userAgent = defaultUserAgent,
    this.defaultHeaders = const {'Accept': 'application/json'},
    this.followRedirects = true,
    this.maxRedirects = 5,
    this.retry = const RetryPolicy(),
    this.cache,
    this.rateLimiter,
  });

  /// Prefix for relative paths passed to the client.
  final Uri baseUri;

  /// Time allowed for a single attempt, not the whole retry sequence.
  final Duration timeout;
  final String userAgent;
  final Map<String, String> defaultHeaders;
  final bool followRedirects;
  final int maxRedirects;
  final RetryPolicy retry;

  /// Caching is off unless a cache is given.
  final ResponseCache? cache;

  /// Rate limiting is off unless a limiter is given.
  final RateLimiter? rateLimiter;

  Uri resolve(String path) => baseUri.resolve(path);
}
