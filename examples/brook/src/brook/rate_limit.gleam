//// Per-subscriber rate limiting (token bucket).
////
//// Each subscriber owns a bucket holding up to `burst` tokens that refills
//// at `per_subscriber_per_minute` tokens per minute. A push takes one token;
//// when the bucket is empty the dispatcher holds the push back until the
//// next token is due instead of dropping it.
////
//// The state is a plain value so it can be kept inside the dispatcher actor
//// and tested without processes or clocks.

import brook/config.{type RateLimit}
import gleam/dict.{type Dict}
import gleam/float
import gleam/int
import gleam/result

pub type Bucket {
  Bucket(tokens: Float, updated_ms: Int)
}

pub type Limiter {
  Limiter(
    capacity: Float,
    refill_per_ms: Float,
    buckets: Dict(Int, Bucket),
  )
}

pub type Decision {
  Allow
  /// Try again after this many milliseconds.
  Wait(ms: Int)
}

pub fn new(settings: RateLimit) -> Limiter {
  Limiter(
    capacity: int.to_float(settings.burst),
    refill_per_ms: int.to_float(settings.per_subscriber_per_minute) /. 60_000.0,
    buckets: dict.new(),
  )
}

/// Takes a token for `subscriber_id` at time `now_ms` if one is available.
pub fn check(
  limiter: Limiter,
  subscriber_id: Int,
  now_ms: Int,
) -> #(Decision, Limiter) {
  let bucket =
    dict.get(limiter.buckets, subscriber_id)
    |> result.unwrap(Bucket(tokens: limiter.capacity, updated_ms: now_ms))
  let elapsed = int.to_float(int.max(now_ms - bucket.updated_ms, 0))
  let tokens =
    float.min(limiter.capacity, bucket.tokens +. elapsed *. limiter.refill_per_ms)

  case tokens >=. 1.0 {
    True -> {
      let bucket = Bucket(tokens: tokens -. 1.0, updated_ms: now_ms)
      #(Allow, store(limiter, subscriber_id, bucket))
    }
    False -> {
      let missing = 1.0 -. tokens
      let wait = float.ceiling(missing /. limiter.refill_per_ms) |> float.round
      let bucket = Bucket(tokens: tokens, updated_ms: now_ms)
      #(Wait(wait), store(limiter, subscriber_id, bucket))
    }
  }
}

/// Drops the bucket of a subscriber that was deleted.
pub fn forget(limiter: Limiter, subscriber_id: Int) -> Limiter {
  Limiter(..limiter, buckets: dict.delete(limiter.buckets, subscriber_id))
}

fn store(limiter: Limiter, id: Int, bucket: Bucket) -> Limiter {
  Limiter(..limiter, buckets: dict.insert(limiter.buckets, id, bucket))
}
