import 'dart:collection';

import 'package:clock/clock.dart';

/// A response body kept in the cache with the time it was stored.
class CachedResponse {
  CachedResponse(this.statusCode, this.body, this.headers, {DateTime? storedAt})
      : storedAt = storedAt ?? clock.now();

  final int statusCode;
  final String body;
  final Map<String, String> headers;
  final DateTime storedAt;
}

/// In-memory LRU cache for successful GET responses.
///
/// Entries older than [ttl] are treated as missing. When more than
/// [maxEntries] responses are stored the least recently used one is evicted.
class ResponseCache {
  ResponseCache({
    this.maxEntries = 256,
    this.ttl = const Duration(seconds: 300),
  }) : assert(maxEntries > 0);

  final int maxEntries;
  final Duration ttl;

  final LinkedHashMap<String, CachedResponse> _entries = LinkedHashMap();

  int get length => _entries.length;

  CachedResponse? get(String key) {
    final entry = _entries.remove(key);
    if (entry == null) return null;
    if (clock.now().difference(entry.storedAt) > ttl) return null;
    _entries[key] = entry; // mark as most recently used
    return entry;
  }

  void put(String key, CachedResponse response) {
    _entries.remove(key);
    _entries[key] = response;
    while (_entries.length > maxEntries) {
      _entries.remove(_entries.keys.first);
    }
  }

  void clear() => _entries.clear();
}
