import 'dart:async';
import 'dart:math';

import 'package:clock/clock.dart';

/// Token bucket limiting how fast requests leave the client.
///
/// The bucket starts full with [burst] tokens and refills at
/// [requestsPerSecond]. A request that finds the bucket empty waits.
class RateLimiter {
  RateLimiter({this.requestsPerSecond = 12, this.burst = 24})
      : assert(requestsPerSecond > 0),
        assert(burst >= 1),
        _tokens = burst.toDouble(),
        _last = clock.now();

  /// A limiter that never waits.
  factory RateLimiter.unlimited() => RateLimiter(requestsPerSecond: 1 << 30, burst: 1 << 30);

  final int requestsPerSecond;
  final int burst;

  double _tokens;
  DateTime _last;

  void _refill() {
    final now = clock.now();
    final elapsed = now.difference(_last).inMicroseconds / Duration.microsecondsPerSecond;
    _tokens = min(burst.toDouble(), _tokens + elapsed * requestsPerSecond);
    _last = now;
  }

  Future<void> acquire() async {
    _refill();
    if (_tokens >= 1) {
      _tokens -= 1;
      return;
    }
    final wait = (1 - _tokens) / requestsPerSecond;
    await Future<void>.delayed(Duration(microseconds: (wait * 1e6).ceil()));
    return acquire();
  }
}
