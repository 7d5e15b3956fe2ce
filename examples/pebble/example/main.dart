import 'package:pebble/pebble.dart';

Future<void> main() async {
  final client = PebbleClient(
    PebbleConfig(
      baseUri: Uri.parse('https://httpbin.org/'),
      // Short timeout and more attempts for a flaky demo endpoint.
      timeout: const Duration(seconds: 10),
      retry: const RetryPolicy(maxAttempts: 6),
      cache: ResponseCache(maxEntries: 64),
      rateLimiter: RateLimiter(requestsPerSecond: 2),
    ),
  );
  try {
    final res = await client.get('status/200,503');
    print('${res.statusCode} after pebble $packageVersion');
  } on RetriesExhaustedException catch (e) {
    print('gave up: $e');
  } finally {
    client.close();
  }
}
