/// Base class for errors thrown by pebble.
class PebbleException implements Exception {
  const PebbleException(this.message, {this.uri});

  final String message;
  final Uri? uri;

  @override
  String toString() =>
      uri == null ? 'PebbleException: $message' : 'PebbleException: $message ($uri)';
}

/// Thrown when every attempt allowed by the [RetryPolicy] has failed.
class RetriesExhaustedException extends PebbleException {
  const RetriesExhaustedException(super.message,
      {super.uri, required this.attempts, this.lastStatusCode});

  final int attempts;
  final int? lastStatusCode;
}

/// Thrown when a request does not complete within [PebbleConfig.timeout].
class PebbleTimeoutException extends PebbleException {
  const PebbleTimeoutException(super.message, {super.uri, required this.timeout});

  final Duration timeout;
}
