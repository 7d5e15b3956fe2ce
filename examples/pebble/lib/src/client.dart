import 'dart:async';

import 'package:http/http.dart' as http;

import 'cache.dart';
import 'config.dart';
import 'exceptions.dart';

/// HTTP client applying a [PebbleConfig] to every request.
class PebbleClient {
  PebbleClient(this.config, {http.Client? inner}) : _inner = inner ?? http.Client();

  final PebbleConfig config;
  final http.Client _inner;

  Future<http.Response> get(String path, {Map<String, String>? headers}) async {
    final uri = config.resolve(path);
    final cache = config.cache;
    final key = uri.toString();
    final hit = cache?.get(key);
    if (hit != null) {
      return http.Response(hit.body, hit.statusCode, headers: hit.headers, request: http.Request('GET', uri));
    }
    final res = await send('GET', path, headers: headers);
    if (cache != null && res.statusCode == 200) {
      cache.put(key, CachedResponse(res.statusCode, res.body, res.headers));
    }
    return res;
  }

  Future<http.Response> post(String path, {Object? body, Map<String, String>? headers}) =>
      send('POST', path, body: body, headers: headers);

  Future<http.Response> send(String method, String path,
      {Object? body, Map<String, String>? headers}) async {
    final uri = config.resolve(path);
    final policy = config.retry;
    var attempt = 0;
    while (true) {
      attempt++;
      await config.rateLimiter?.acquire();
      final request = http.Request(method, uri)
        ..followRedirects = config.followRedirects
        ..maxRedirects = config.maxRedirects
        ..headers.addAll({
          'User-Agent': config.userAgent,
          ...config.defaultHeaders,
          ...?headers,
        });
      if (body is String) request.body = body;

      http.Response response;
      try {
        final streamed = await _inner.send(request).timeout(config.timeout);
        response = await http.Response.fromStream(streamed);
      } on TimeoutException {
        if (policy.shouldRetry(attempt: attempt, timedOut: true)) {
          await Future<void>.delayed(policy.delayFor(attempt));
          continue;
        }
        throw PebbleTimeoutException('Request timed out', uri: uri, timeout: config.timeout);
      }

      if (response.statusCode < 400) return response;
      if (policy.shouldRetry(attempt: attempt, statusCode: response.statusCode)) {
        await Future<void>.delayed(policy.delayFor(attempt));
        continue;
      }
      if (attempt > 1) {
        throw RetriesExhaustedException('Gave up after $attempt attempts',
            uri: uri, attempts: attempt, lastStatusCode: response.statusCode);
      }
      return response;
    }
  }

  void close() => _inner.close();
}
