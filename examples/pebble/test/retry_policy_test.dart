import 'dart:math';

import 'package:pebble/pebble.dart';
import 'package:test/test.dart';

void main() {
  group('RetryPolicy', () {
    // Fast policy so the tests don't sleep.
    const fast = RetryPolicy(
      maxAttempts: 5,
      initialDelay: Duration(milliseconds: 10),
      maxDelay: Duration(milliseconds: 100),
      jitter: 0,
    );

    test('retries throttling and server errors', () {
      expect(fast.shouldRetry(attempt: 1, statusCode: 429), isTrue);
      expect(fast.shouldRetry(attempt: 1, statusCode: 503), isTrue);
      expect(fast.shouldRetry(attempt: 1, statusCode: 404), isFalse);
      expect(fast.shouldRetry(attempt: 1, statusCode: 501), isFalse);
    });

    test('stops after maxAttempts', () {
      expect(fast.shouldRetry(attempt: 4, statusCode: 503), isTrue);
      expect(fast.shouldRetry(attempt: 5, statusCode: 503), isFalse);
    });

    test('backs off exponentially up to maxDelay', () {
      expect(fast.delayFor(1), const Duration(milliseconds: 10));
      expect(fast.delayFor(2), const Duration(milliseconds: 20));
      expect(fast.delayFor(3), const Duration(milliseconds: 40));
      expect(fast.delayFor(6), const Duration(milliseconds: 100));
    });

    test('jitter stays within bounds', () {
      const p = RetryPolicy(jitter: 0.5, initialDelay: Duration(milliseconds: 100));
      final rnd = Random(42);
      for (var i = 0; i < 100; i++) {
        final d = p.delayFor(1, random: rnd).inMilliseconds;
        expect(d, inInclusiveRange(50, 150));
      }
    });

    test('none() never retries', () {
      expect(const RetryPolicy.none().shouldRetry(attempt: 1, statusCode: 503), isFalse);
    });
  });
}
