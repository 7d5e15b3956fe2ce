import 'package:clock/clock.dart';
import 'package:fake_async/fake_async.dart';
import 'package:pebble/pebble.dart';
import 'package:test/test.dart';

void main() {
  CachedResponse ok(String body) => CachedResponse(200, body, const {});

  test('evicts the least recently used entry', () {
    final cache = ResponseCache(maxEntries: 2);
    cache.put('a', ok('A'));
    cache.put('b', ok('B'));
    cache.get('a');
    cache.put('c', ok('C'));
    expect(cache.get('b'), isNull);
    expect(cache.get('a')?.body, 'A');
    expect(cache.length, 2);
  });

  test('expires entries after the ttl', () {
    fakeAsync((async) {
      final cache = ResponseCache(ttl: const Duration(seconds: 30));
      cache.put('k', CachedResponse(200, 'v', const {}, storedAt: clock.now()));
      async.elapse(const Duration(seconds: 29));
      expect(cache.get('k'), isNotNull);
      async.elapse(const Duration(seconds: 2));
      expect(cache.get('k'), isNull);
    });
  });
}
