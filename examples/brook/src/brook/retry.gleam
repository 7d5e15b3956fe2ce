//// Retry policy for webhook deliveries.
////
//// A failed push is attempted again after `backoff_base_ms * 2^(n-1)`
//// milliseconds (n = the retry number, starting at 1), capped at
//// `max_backoff_seconds`, with up to 20% random jitter subtracted so that
//// many subscribers failing together do not retry in lock-step. After
//// `max_retries` retries the delivery is given up.

import brook/config.{type Delivery}
import gleam/float
import gleam/int

pub type Outcome {
  /// Try again after this many milliseconds.
  RetryIn(ms: Int)
  /// Stop: the retry budget is used up, or the failure is permanent.
  GiveUp(reason: String)
}

/// What the subscriber's endpoint answered.
pub type Failure {
  HttpStatus(Int)
  Timeout
  ConnectionFailed(String)
}

/// Decides what happens after retry number `retries_so_far` failed.
pub fn next(policy: Delivery, retries_so_far: Int, failure: Failure) -> Outcome {
  case is_permanent(failure), retries_so_far >= policy.max_retries {
    True, _ -> GiveUp(describe(failure) <> " is not retryable")
    False, True ->
      GiveUp(
        "gave up after " <> int.to_string(policy.max_retries) <> " retries",
      )
    False, False -> RetryIn(delay_ms(policy, retries_so_far + 1, float.random()))
  }
}

/// Delay before retry `n` (1-based). `jitter` is a number in [0, 1).
pub fn delay_ms(policy: Delivery, n: Int, jitter: Float) -> Int {
  let cap = policy.max_backoff_seconds * 1000
  let exponential = policy.backoff_base_ms * pow2(n - 1)
  let capped = int.min(exponential, cap)
  let spread = int.to_float(capped) *. 0.2 *. jitter
  capped - float.round(spread)
}

fn pow2(n: Int) -> Int {
  case n <= 0 {
    True -> 1
    // Beyond 2^30 every realistic policy is capped anyway.
    False -> int.bitwise_shift_left(1, int.min(n, 30))
  }
}

/// 4xx answers mean the subscriber rejected the payload; retrying will not
/// help. 408 (timeout) and 429 (rate limited) are the exceptions.
pub fn is_permanent(failure: Failure) -> Bool {
  case failure {
    HttpStatus(408) | HttpStatus(429) -> False
    HttpStatus(status) -> status >= 400 && status < 500
    Timeout | ConnectionFailed(_) -> False
  }
}

pub fn describe(failure: Failure) -> String {
  case failure {
    HttpStatus(status) -> "HTTP " <> int.to_string(status)
    Timeout -> "timeout"
    ConnectionFailed(reason) -> "connection failed (" <> reason <> ")"
  }
}
