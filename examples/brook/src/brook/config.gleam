//// Runtime configuration.
////
//// brook reads one TOML file at startup. The path comes from `BROOK_CONFIG`;
//// without it brook runs on the built-in defaults below. Every key in the
//// file is optional and falls back to the matching default, so a config file
//// only has to list what differs. `config/dev.toml` is the development
//// profile, `config/prod.toml` is what the container image ships with.
////
//// A handful of settings can also be overridden from the environment, which
//// wins over the file: `BROOK_PORT`, `BROOK_DATABASE_PATH`,
//// `BROOK_LOG_LEVEL` and `BROOK_SIGNING_SECRET`.

import envoy
import gleam/int
import gleam/result
import gleam/string
import simplifile
import tom

// --- Built-in defaults ------------------------------------------------------

/// Interface the HTTP API binds to.
pub const default_host = "127.0.0.1"

/// Port of the HTTP API (`/healthz`, `/feeds`, `/subscribers`).
pub const default_port = 7341

/// How often every feed is fetched, in seconds. A feed can ask for a longer
/// interval through its `<ttl>` element, never a shorter one.
pub const default_poll_interval_seconds = 270

/// How long a single feed fetch may take before it is abandoned, in ms.
pub const default_fetch_timeout_ms = 8500

/// Feeds larger than this are rejected without parsing, in kilobytes.
pub const default_max_feed_kb = 1536

/// How many feeds may be fetched at the same time.
pub const default_poll_concurrency = 11

/// How many times a failed delivery to a subscriber is retried before the
/// item is marked as dead for that subscriber.
pub const default_max_retries = 13

/// Delay before the first retry; doubles on every further attempt.
pub const default_backoff_base_ms = 750

/// Upper bound for the delay between two delivery attempts.
pub const default_max_backoff_seconds = 900

/// How long a subscriber's webhook endpoint gets to answer, in ms.
pub const default_delivery_timeout_ms = 5000

/// Sustained number of pushes one subscriber receives per minute.
pub const default_per_subscriber_per_minute = 48

/// Pushes a subscriber may receive back to back before the limit applies.
pub const default_burst = 9

/// How long an item's fingerprint is remembered for de-duplication.
pub const default_seen_ttl_hours = 168

/// SQLite database holding feeds, subscribers and seen items.
pub const default_database_path = "brook.db"

pub const default_log_level = "info"

// --- Types ------------------------------------------------------------------

pub type Config {
  Config(
    server: Server,
    poller: Poller,
    delivery: Delivery,
    rate_limit: RateLimit,
    dedupe: Dedupe,
    database_path: String,
    log_level: String,
    signing_secret: String,
  )
}

pub type Server {
  Server(host: String, port: Int)
}

pub type Poller {
  Poller(
    interval_seconds: Int,
    fetch_timeout_ms: Int,
    max_feed_kb: Int,
    concurrency: Int,
  )
}

pub type Delivery {
  Delivery(
    max_retries: Int,
    backoff_base_ms: Int,
    max_backoff_seconds: Int,
    timeout_ms: Int,
  )
}

pub type RateLimit {
  RateLimit(per_subscriber_per_minute: Int, burst: Int)
}

pub type Dedupe {
  Dedupe(seen_ttl_hours: Int)
}

pub type ConfigError {
  CouldNotRead(path: String, reason: simplifile.FileError)
  InvalidToml(path: String, reason: tom.ParseError)
  InvalidValue(key: String, message: String)
}

// --- Loading ----------------------------------------------------------------

/// The configuration brook runs with when no file is given.
pub fn defaults() -> Config {
  Config(
    server: Server(host: default_host, port: default_port),
    poller: Poller(
      interval_seconds: default_poll_interval_seconds,
      fetch_timeout_ms: default_fetch_timeout_ms,
      max_feed_kb: default_max_feed_kb,
      concurrency: default_poll_concurrency,
    ),
    delivery: Delivery(
      max_retries: default_max_retries,
      backoff_base_ms: default_backoff_base_ms,
      max_backoff_seconds: default_max_backoff_seconds,
      timeout_ms: default_delivery_timeout_ms,
    ),
    rate_limit: RateLimit(
      per_subscriber_per_minute: default_per_subscriber_per_minute,
      burst: default_burst,
    ),
    dedupe: Dedupe(seen_ttl_hours: default_seen_ttl_hours),
    database_path: default_database_path,
    log_level: default_log_level,
    signing_secret: "",
  )
}

/// Loads the file named by `BROOK_CONFIG` (if any) and applies environment
/// overrides on top.
pub fn load() -> Result(Config, ConfigError) {
  let base = case envoy.get("BROOK_CONFIG") {
    Ok(path) -> from_file(path)
    Error(Nil) -> Ok(defaults())
  }
  use config <- result.try(base)
  apply_env(config)
}

pub fn from_file(path: String) -> Result(Config, ConfigError) {
  use text <- result.try(
    simplifile.read(path) |> result.map_error(CouldNotRead(path, _)),
  )
  use doc <- result.try(tom.parse(text) |> result.map_error(InvalidToml(path, _)))
  from_toml(doc)
}

/// Builds a config from an already parsed TOML document. Split out from
/// `from_file` so the tests can feed it inline TOML.
pub fn from_toml(doc) -> Result(Config, ConfigError) {
  let d = defaults()
  let int = fn(keys, fallback) {
    tom.get_int(doc, keys) |> result.unwrap(fallback)
  }
  let str = fn(keys, fallback) {
    tom.get_string(doc, keys) |> result.unwrap(fallback)
  }

  let config =
    Config(
      server: Server(
        host: str(["server", "host"], d.server.host),
        port: int(["server", "port"], d.server.port),
      ),
      poller: Poller(
        interval_seconds: int(
          ["poller", "interval_seconds"],
          d.poller.interval_seconds,
        ),
        fetch_timeout_ms: int(
          ["poller", "fetch_timeout_ms"],
          d.poller.fetch_timeout_ms,
        ),
        max_feed_kb: int(["poller", "max_feed_kb"], d.poller.max_feed_kb),
        concurrency: int(["poller", "concurrency"], d.poller.concurrency),
      ),
      delivery: Delivery(
        max_retries: int(["delivery", "max_retries"], d.delivery.max_retries),
        backoff_base_ms: int(
          ["delivery", "backoff_base_ms"],
          d.delivery.backoff_base_ms,
        ),
        max_backoff_seconds: int(
          ["delivery", "max_backoff_seconds"],
          d.delivery.max_backoff_seconds,
        ),
        timeout_ms: int(["delivery", "timeout_ms"], d.delivery.timeout_ms),
      ),
      rate_limit: RateLimit(
        per_subscriber_per_minute: int(
          ["rate_limit", "per_subscriber_per_minute"],
          d.rate_limit.per_subscriber_per_minute,
        ),
        burst: int(["rate_limit", "burst"], d.rate_limit.burst),
      ),
      dedupe: Dedupe(seen_ttl_hours: int(
        ["dedupe", "seen_ttl_hours"],
        d.dedupe.seen_ttl_hours,
      )),
      database_path: str(["database", "path"], d.database_path),
      log_level: str(["log", "level"], d.log_level),
      signing_secret: d.signing_secret,
    )
  validate(config)
}

fn apply_env(config: Config) -> Result(Config, ConfigError) {
  let config = case envoy.get("BROOK_PORT") {
    Ok(raw) ->
      case int.parse(string.trim(raw)) {
        Ok(port) -> Ok(Config(..config, server: Server(..config.server, port:)))
        Error(Nil) -> Error(InvalidValue("BROOK_PORT", "not a number: " <> raw))
      }
    Error(Nil) -> Ok(config)
  }
  use config <- result.try(config)
  let config = case envoy.get("BROOK_DATABASE_PATH") {
    Ok(path) -> Config(..config, database_path: path)
    Error(Nil) -> config
  }
  let config = case envoy.get("BROOK_LOG_LEVEL") {
    Ok(level) -> Config(..config, log_level: string.lowercase(level))
    Error(Nil) -> config
  }
  let config = case envoy.get("BROOK_SIGNING_SECRET") {
    Ok(secret) -> Config(..config, signing_secret: secret)
    Error(Nil) -> config
  }
  validate(config)
}

fn validate(config: Config) -> Result(Config, ConfigError) {
  case config {
    Config(server: Server(port:, ..), ..) if port < 1 || port > 65_535 ->
      Error(InvalidValue("server.port", "must be between 1 and 65535"))
    Config(poller: Poller(interval_seconds:, ..), ..) if interval_seconds < 5 ->
      Error(InvalidValue("poller.interval_seconds", "must be at least 5"))
    Config(poller: Poller(concurrency:, ..), ..) if concurrency < 1 ->
      Error(InvalidValue("poller.concurrency", "must be at least 1"))
    Config(delivery: Delivery(max_retries:, ..), ..) if max_retries < 0 ->
      Error(InvalidValue("delivery.max_retries", "must not be negative"))
    Config(rate_limit: RateLimit(per_subscriber_per_minute: n, ..), ..)
      if n < 1
    ->
      Error(InvalidValue(
        "rate_limit.per_subscriber_per_minute",
        "must be at least 1",
      ))
    _ -> Ok(config)
  }
}

pub fn describe_error(error: ConfigError) -> String {
  case error {
    CouldNotRead(path, reason) ->
      "cannot read " <> path <> ": " <> simplifile.describe_error(reason)
    InvalidToml(path, _) -> path <> " is not valid TOML"
    InvalidValue(key, message) -> key <> " " <> message
  }
}
