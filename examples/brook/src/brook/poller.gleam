//// The poll loop.
////
//// One actor per feed. On every tick it fetches the feed (conditional GET
//// with the stored ETag), parses it, filters out items it has seen before
//// and hands the rest to the dispatcher, then schedules its next tick. A
//// failing feed is retried on its normal interval; its failure count is kept
//// in the database for `/feeds`.

import brook/config.{type Poller}
import brook/dedupe
import brook/dispatcher
import brook/feed.{type Feed}
import brook/store
import gleam/bit_array
import gleam/erlang/process.{type Subject}
import gleam/http
import gleam/http/request
import gleam/http/response.{type Response}
import gleam/httpc
import gleam/int
import gleam/list
import gleam/option.{None, Some}
import gleam/otp/actor
import gleam/result
import logging
import sqlight

pub type Message {
  Tick
  Stop
}

type State {
  State(
    feed: Feed,
    settings: Poller,
    seen_ttl_hours: Int,
    db: sqlight.Connection,
    dispatcher: Subject(dispatcher.Message),
    self: Subject(Message),
  )
}

pub type FetchError {
  NotModified
  TooLarge(kb: Int)
  BadStatus(Int)
  Transport(String)
}

@external(erlang, "brook_ffi", "system_seconds")
fn now_seconds() -> Int

/// Starts the poller for one feed. The first fetch happens after a random
/// delay of up to one interval so a restart does not hit every feed at once.
pub fn start(
  feed: Feed,
  settings: Poller,
  seen_ttl_hours: Int,
  db: sqlight.Connection,
  dispatcher: Subject(dispatcher.Message),
) -> Result(Subject(Message), actor.StartError) {
  actor.start_spec(actor.Spec(
    init: fn() {
      let self = process.new_subject()
      let first = int.random(settings.interval_seconds * 1000)
      process.send_after(self, first, Tick)
      let selector = process.new_selector() |> process.selecting(self, fn(m) { m })
      actor.Ready(
        State(feed:, settings:, seen_ttl_hours:, db:, dispatcher:, self:),
        selector,
      )
    },
    init_timeout: 1000,
    loop: handle,
  ))
}

fn handle(message: Message, state: State) -> actor.Next(Message, State) {
  case message {
    Stop -> actor.Stop(process.Normal)
    Tick -> {
      let delay_seconds = poll_once(state)
      process.send_after(state.self, delay_seconds * 1000, Tick)
      actor.continue(state)
    }
  }
}

/// Runs one poll and returns how many seconds to wait until the next one.
fn poll_once(state: State) -> Int {
  let State(feed:, settings:, db:, ..) = state
  case fetch(feed, settings) {
    Error(NotModified) -> settings.interval_seconds
    Error(error) -> {
      logging.log(
        logging.Warning,
        "poll failed for " <> feed.url <> ": " <> describe(error),
      )
      let _ = store.record_feed_failure(db, feed.id)
      settings.interval_seconds
    }
    Ok(#(body, etag)) -> {
      case feed.parse(body) {
        Error(_) -> {
          logging.log(logging.Warning, feed.url <> " is not RSS or Atom")
          let _ = store.record_feed_failure(db, feed.id)
          settings.interval_seconds
        }
        Ok(#(title, items)) -> {
          let now = now_seconds()
          let _ = publish_new(state, items, now)
          let _ = store.update_feed_after_poll(db, feed.id, title, etag, now)
          let _ = dedupe.prune(db, state.seen_ttl_hours, now)
          feed.next_poll_in(settings.interval_seconds, feed.ttl_minutes(body))
        }
      }
    }
  }
}

fn publish_new(
  state: State,
  items: List(feed.Item),
  now: Int,
) -> Result(Nil, sqlight.Error) {
  use fresh <- result.try(dedupe.unseen(state.db, state.feed.id, items))
  list.each(fresh, fn(pair) {
    process.send(
      state.dispatcher,
      dispatcher.Publish(feed_id: state.feed.id, item: pair.1),
    )
  })
  dedupe.remember(state.db, state.feed.id, list.map(fresh, fn(p) { p.0 }), now)
}

/// Conditional GET of the feed. Returns the body and the new ETag.
pub fn fetch(
  feed: Feed,
  settings: Poller,
) -> Result(#(String, option.Option(String)), FetchError) {
  use req <- result.try(
    request.to(feed.url) |> result.replace_error(Transport("invalid url")),
  )
  let req =
    req
    |> request.set_method(http.Get)
    |> request.set_header("user-agent", "brook/0.9 (+https://github.com/tidewater-dev/brook)")
    |> request.set_header("accept", "application/rss+xml, application/atom+xml, text/xml;q=0.9")
  let req = case feed.etag {
    Some(etag) -> request.set_header(req, "if-none-match", etag)
    None -> req
  }
  let req = request.map(req, fn(_) { <<>> })

  use resp <- result.try(
    httpc.configure()
    |> httpc.timeout(settings.fetch_timeout_ms)
    |> httpc.dispatch_bits(req)
    |> result.map_error(fn(e) { Transport(string_of(e)) }),
  )
  check_response(resp, settings.max_feed_kb)
}

fn check_response(
  resp: Response(BitArray),
  max_feed_kb: Int,
) -> Result(#(String, option.Option(String)), FetchError) {
  let size_kb = bit_array.byte_size(resp.body) / 1024
  case resp.status {
    304 -> Error(NotModified)
    status if status >= 200 && status < 300 ->
      case size_kb > max_feed_kb {
        True -> Error(TooLarge(size_kb))
        False ->
          case bit_array.to_string(resp.body) {
            Ok(body) ->
              Ok(#(body, response.get_header(resp, "etag") |> option.from_result))
            Error(Nil) -> Error(Transport("body is not UTF-8"))
          }
      }
    status -> Error(BadStatus(status))
  }
}

fn describe(error: FetchError) -> String {
  case error {
    NotModified -> "not modified"
    TooLarge(kb) -> "feed is " <> int.to_string(kb) <> " KB, over the limit"
    BadStatus(status) -> "HTTP " <> int.to_string(status)
    Transport(reason) -> reason
  }
}

fn string_of(error: httpc.HttpError) -> String {
  case error {
    httpc.ResponseTimeout -> "timed out"
    httpc.InvalidUtf8Response -> "invalid UTF-8 in response"
    httpc.FailedToConnect(..) -> "could not connect"
  }
}
