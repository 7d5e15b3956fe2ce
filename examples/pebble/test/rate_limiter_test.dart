import 'package:fake_async/fake_async.dart';
import 'package:pebble/pebble.dart';
import 'package:test/test.dart';

void main() {
  test('lets a burst through, then waits for tokens', () {
    fakeAsync((async) {
      final limiter = RateLimiter(requestsPerSecond: 4, burst: 2);
      var done = 0;
      for (var i = 0; i < 3; i++) {
        limiter.acquire().then((_) => done++);
      }
      async.flushMicrotasks();
      expect(done, 2);
      async.elapse(const Duration(milliseconds: 250));
      expect(done, 3);
    });
  });
}
