import brook/config
import brook/retry
import gleeunit/should

fn policy() -> config.Delivery {
  config.Delivery(
    max_retries: 3,
    backoff_base_ms: 500,
    max_backoff_seconds: 4,
    timeout_ms: 1000,
  )
}

pub fn delay_doubles_test() {
  retry.delay_ms(policy(), 1, 0.0) |> should.equal(500)
  retry.delay_ms(policy(), 2, 0.0) |> should.equal(1000)
  retry.delay_ms(policy(), 3, 0.0) |> should.equal(2000)
}

pub fn delay_is_capped_test() {
  // 500 * 2^5 = 16000 ms, capped at max_backoff_seconds = 4 s.
  retry.delay_ms(policy(), 6, 0.0) |> should.equal(4000)
}

pub fn jitter_only_shortens_test() {
  // Full jitter takes 20% off.
  retry.delay_ms(policy(), 2, 1.0) |> should.equal(800)
}

pub fn gives_up_after_budget_test() {
  case retry.next(policy(), 3, retry.Timeout) {
    retry.GiveUp(reason) -> reason |> should.equal("gave up after 3 retries")
    retry.RetryIn(_) -> should.fail()
  }
}

pub fn client_errors_are_permanent_test() {
  retry.is_permanent(retry.HttpStatus(404)) |> should.be_true
  retry.is_permanent(retry.HttpStatus(410)) |> should.be_true
  retry.is_permanent(retry.HttpStatus(429)) |> should.be_false
  retry.is_permanent(retry.HttpStatus(408)) |> should.be_false
  retry.is_permanent(retry.HttpStatus(503)) |> should.be_false
}
