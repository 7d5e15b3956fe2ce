import 'dart:math';

import 'package:meta/meta.dart';

/// Status codes that are worth retrying: timeouts, throttling and
/// transient server errors. 501 (Not Implemented) is deliberately absent.
const Set<int> defaultRetryStatuses = {408, 425, 429, 500, 502, 503, 504};

/// Decides whether and when a failed request is tried again.
///
/// Delays grow exponentially: `initialDelay * multiplier^(attempt - 1)`,
/// capped at [maxDelay], with up to [jitter] of random spread so that many
/// clients do not retry in lock step.
@immutable
class RetryPolicy {
  const RetryPolicy({
    this.maxAttempts = 3,
    this.initialDelay = const Duration(milliseconds: 250),
    this.multiplier = 2.0,
    this.maxDelay = const Duration(seconds: 8),
    this.jitter = 0.2,
    this.retryOn = defaultRetryStatuses,
    this.retryOnTimeout = true,
  })  : assert(maxAttempts >= 1),
        assert(multiplier >= 1.0),
        assert(jitter >= 0 && jitter <= 1);

  /// A policy that never retries.
  const RetryPolicy.none() : this(maxAttempts: 1);

  /// Total number of attempts, including the first one.
  final int maxAttempts;
  final Duration initialDelay;
  final double multiplier;
  final Duration maxDelay;
  final double jitter;
  final Set<int> retryOn;
  final bool retryOnTimeout;

  bool shouldRetry({required int attempt, int? statusCode, bool timedOut = false}) {
    if (attempt >= maxAttempts) return false;
    if (timedOut) return retryOnTimeout;
    return statusCode != null && retryOn.contains(statusCode);
  }

  /// Delay before attempt number [attempt] + 1.
  Duration delayFor(int attempt, {Random? random}) {
    final base = initialDelay.inMicroseconds * pow(multiplier, attempt - 1);
    final capped = min(base, maxDelay.inMicroseconds.toDouble());
    if (jitter == 0) return Duration(microseconds: capped.round());
    final r = (random ?? Random()).nextDouble() * 2 - 1; // -1 .. 1
    return Duration(microseconds: (capped * (1 + jitter * r)).round());
  }

  RetryPolicy copyWith({int? maxAttempts, Duration? initialDelay, Duration? maxDelay}) =>
      RetryPolicy(
        maxAttempts: maxAttempts ?? this.maxAttempts,
        initialDelay: initialDelay ?? this.initialDelay,
        multiplier: multiplier,
        maxDelay: maxDelay ?? this.maxDelay,
        jitter: jitter,
        retryOn: retryOn,
        retryOnTimeout: retryOnTimeout,
      );
}
