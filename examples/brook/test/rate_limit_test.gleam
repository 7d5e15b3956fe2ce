import brook/config
import brook/rate_limit.{Allow, Wait}
import gleeunit/should

// 30 per minute = one token every 2000 ms, burst of 2.
fn limiter() {
  rate_limit.new(config.RateLimit(per_subscriber_per_minute: 30, burst: 2))
}

pub fn burst_then_wait_test() {
  let l = limiter()
  let #(d1, l) = rate_limit.check(l, 1, 0)
  let #(d2, l) = rate_limit.check(l, 1, 0)
  let #(d3, _) = rate_limit.check(l, 1, 0)
  d1 |> should.equal(Allow)
  d2 |> should.equal(Allow)
  d3 |> should.equal(Wait(2000))
}

pub fn refills_over_time_test() {
  let l = limiter()
  let #(_, l) = rate_limit.check(l, 1, 0)
  let #(_, l) = rate_limit.check(l, 1, 0)
  let #(d, _) = rate_limit.check(l, 1, 2000)
  d |> should.equal(Allow)
}

pub fn subscribers_are_independent_test() {
  let l = limiter()
  let #(_, l) = rate_limit.check(l, 1, 0)
  let #(_, l) = rate_limit.check(l, 1, 0)
  let #(d, _) = rate_limit.check(l, 2, 0)
  d |> should.equal(Allow)
}
