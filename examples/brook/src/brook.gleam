//// Entry point: load config, open the database, start the dispatcher, one
//// poller per feed, and the HTTP API.

import brook/config
import brook/dispatcher
import brook/poller
import brook/store
import brook/web/router
import gleam/erlang
import gleam/erlang/process
import gleam/int
import gleam/io
import gleam/list
import logging
import mist
import wisp
import wisp/wisp_mist

pub fn main() {
  let cfg = case config.load() {
    Ok(cfg) -> cfg
    Error(error) -> {
      io.println_error("brook: " <> config.describe_error(error))
      halt(2)
    }
  }
  wisp.configure_logger()
  logging.set_level(log_level(cfg.log_level))

  let assert Ok(priv) = erlang.priv_directory("brook")
  let assert Ok(db) = store.open(cfg.database_path)
  let assert Ok(Nil) = store.migrate(db, priv)

  let assert Ok(dispatch) = dispatcher.start(cfg, db)
  let assert Ok(feeds) = store.list_feeds(db)
  list.each(feeds, fn(feed) {
    let assert Ok(_) =
      poller.start(feed, cfg.poller, cfg.dedupe.seen_ttl_hours, db, dispatch)
  })

  let ctx = router.Context(db:, now: fn() { erlang.system_time(erlang.Second) })
  let assert Ok(_) =
    router.handle_request(_, ctx)
    |> wisp_mist.handler(wisp.random_string(64))
    |> mist.new
    |> mist.bind(cfg.server.host)
    |> mist.port(cfg.server.port)
    |> mist.start_http

  logging.log(
    logging.Info,
    "brook listening on "
      <> cfg.server.host
      <> ":"
      <> int.to_string(cfg.server.port)
      <> ", polling "
      <> int.to_string(list.length(feeds))
      <> " feeds every "
      <> int.to_string(cfg.poller.interval_seconds)
      <> "s",
  )
  process.sleep_forever()
}

fn log_level(name: String) -> logging.LogLevel {
  case name {
    "debug" -> logging.Debug
    "warning" | "warn" -> logging.Warning
    "error" -> logging.Error
    _ -> logging.Info
  }
}

@external(erlang, "erlang", "halt")
fn halt(status: Int) -> a
