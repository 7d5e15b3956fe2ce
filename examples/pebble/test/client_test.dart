import 'package:http/http.dart' as http;
import 'package:http/testing.dart';
import 'package:pebble/pebble.dart';
import 'package:test/test.dart';

void main() {
  final base = Uri.parse('https://api.test/');

  test('uses the documented defaults', () {
    final config = PebbleConfig(baseUri: base);
    expect(config.timeout, const Duration(seconds: 45));
    expect(config.userAgent, startsWith('pebble-dart/'));
    expect(config.retry.maxAttempts, 3);
    expect(config.cache, isNull);
  });

  test('retries a 503 and returns the eventual 200', () async {
    var calls = 0;
    final mock = MockClient((req) async {
      calls++;
      return calls < 3 ? http.Response('busy', 503) : http.Response('{"ok":true}', 200);
    });
    final client = PebbleClient(
      PebbleConfig(
        baseUri: base,
        retry: const RetryPolicy(initialDelay: Duration(milliseconds: 1), jitter: 0),
      ),
      inner: mock,
    );
    final res = await client.get('items');
    expect(res.statusCode, 200);
    expect(calls, 3);
  });

  test('serves repeated GETs from the cache', () async {
    var calls = 0;
    final mock = MockClient((req) async {
      calls++;
      return http.Response('cached', 200);
    });
    final client = PebbleClient(
      PebbleConfig(baseUri: base, cache: ResponseCache()),
      inner: mock,
    );
    await client.get('items/1');
    await client.get('items/1');
    expect(calls, 1);
  });

  test('sends the User-Agent header', () async {
    String? agent;
    final mock = MockClient((req) async {
      agent = req.headers['User-Agent'];
      return http.Response('', 204);
    });
    final client = PebbleClient(PebbleConfig(baseUri: base, userAgent: 'my-app/2.0'), inner: mock);
    await client.get('ping');
    expect(agent, 'my-app/2.0');
  });
}
