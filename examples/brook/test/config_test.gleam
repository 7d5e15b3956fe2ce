import brook/config
import gleeunit/should
import tom

pub fn empty_file_gives_defaults_test() {
  let assert Ok(doc) = tom.parse("")
  config.from_toml(doc) |> should.equal(Ok(config.defaults()))
}

pub fn partial_file_keeps_other_defaults_test() {
  let assert Ok(doc) =
    tom.parse(
      "
[poller]
interval_seconds = 60

[delivery]
max_retries = 4
",
    )
  let assert Ok(cfg) = config.from_toml(doc)
  cfg.poller.interval_seconds |> should.equal(60)
  cfg.delivery.max_retries |> should.equal(4)
  // Untouched sections keep their built-in values.
  cfg.server.port |> should.equal(config.default_port)
  cfg.delivery.backoff_base_ms |> should.equal(config.default_backoff_base_ms)
  cfg.rate_limit.burst |> should.equal(config.default_burst)
}

pub fn rejects_tiny_interval_test() {
  let assert Ok(doc) = tom.parse("[poller]\ninterval_seconds = 2\n")
  config.from_toml(doc)
  |> should.equal(Error(config.InvalidValue(
    "poller.interval_seconds",
    "must be at least 5",
  )))
}

pub fn rejects_bad_port_test() {
  let assert Ok(doc) = tom.parse("[server]\nport = 70000\n")
  config.from_toml(doc) |> should.be_error
}
