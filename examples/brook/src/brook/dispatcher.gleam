//// Pushes new items to every subscriber of their feed.
////
//// A single actor owns the rate limiter, so limits hold across all feeds.
//// Every push is a signed JSON POST; failures are rescheduled according to
//// `brook/retry` and, once the retry budget is spent, written to the
//// `dead_deliveries` table.

import brook/config.{type Config}
import brook/feed.{type Item}
import brook/rate_limit.{type Limiter}
import brook/retry
import brook/store
import gleam/bit_array
import gleam/crypto
import gleam/erlang/process.{type Subject}
import gleam/http
import gleam/http/request
import gleam/httpc
import gleam/int
import gleam/json
import gleam/list
import gleam/otp/actor
import gleam/result
import gleam/string
import logging
import sqlight

pub type Message {
  /// A new item appeared in a feed.
  Publish(feed_id: Int, item: Item)
  /// Internal: attempt (or re-attempt) one delivery.
  Attempt(delivery: Delivery)
}

pub type Delivery {
  Delivery(subscriber: store.Subscriber, item: Item, retries: Int)
}

type State {
  State(
    config: Config,
    db: sqlight.Connection,
    limiter: Limiter,
    self: Subject(Message),
  )
}

@external(erlang, "brook_ffi", "monotonic_ms")
fn monotonic_ms() -> Int

@external(erlang, "brook_ffi", "system_seconds")
fn now_seconds() -> Int

pub fn start(
  config: Config,
  db: sqlight.Connection,
) -> Result(Subject(Message), actor.StartError) {
  actor.start_spec(actor.Spec(
    init: fn() {
      let self = process.new_subject()
      let selector = process.new_selector() |> process.selecting(self, fn(m) { m })
      let limiter = rate_limit.new(config.rate_limit)
      actor.Ready(State(config:, db:, limiter:, self:), selector)
    },
    init_timeout: 1000,
    loop: handle,
  ))
}

fn handle(message: Message, state: State) -> actor.Next(Message, State) {
  case message {
    Publish(feed_id:, item:) -> {
      case store.subscribers_of(state.db, feed_id) {
        Ok(subscribers) ->
          list.each(subscribers, fn(subscriber) {
            process.send(state.self, Attempt(Delivery(subscriber, item, 0)))
          })
        Error(error) ->
          logging.log(logging.Error, "cannot load subscribers: " <> error.message)
      }
      actor.continue(state)
    }

    Attempt(delivery) -> {
      let #(decision, limiter) =
        rate_limit.check(state.limiter, delivery.subscriber.id, monotonic_ms())
      let state = State(..state, limiter:)
      case decision {
        rate_limit.Wait(ms) -> {
          process.send_after(state.self, ms, Attempt(delivery))
          actor.continue(state)
        }
        rate_limit.Allow -> {
          deliver(state, delivery)
          actor.continue(state)
        }
      }
    }
  }
}

fn deliver(state: State, delivery: Delivery) -> Nil {
  let body = payload(delivery.subscriber.feed_id, delivery.item)
  case post(state.config, delivery.subscriber.webhook_url, body) {
    Ok(Nil) -> Nil
    Error(failure) ->
      case retry.next(state.config.delivery, delivery.retries, failure) {
        retry.RetryIn(ms) -> {
          let next = Delivery(..delivery, retries: delivery.retries + 1)
          process.send_after(state.self, ms, Attempt(next))
          Nil
        }
        retry.GiveUp(reason) -> {
          logging.log(
            logging.Warning,
            "dropping " <> delivery.item.id <> " for subscriber "
              <> int.to_string(delivery.subscriber.id) <> ": " <> reason,
          )
          let _ =
            store.insert_dead(
              state.db,
              delivery.subscriber.id,
              delivery.item.id,
              body,
              reason,
              delivery.retries,
              now_seconds(),
            )
          Nil
        }
      }
  }
}

/// The JSON body every subscriber receives.
pub fn payload(feed_id: Int, item: Item) -> String {
  json.object([
    #("feed_id", json.int(feed_id)),
    #("id", json.string(item.id)),
    #("title", json.string(item.title)),
    #("link", json.string(item.link)),
    #("published", json.string(item.published)),
  ])
  |> json.to_string
}

/// `sha256=<hex>` HMAC of the body, sent as `x-brook-signature`.
pub fn signature(secret: String, body: String) -> String {
  let mac =
    crypto.hmac(
      bit_array.from_string(body),
      crypto.Sha256,
      bit_array.from_string(secret),
    )
  "sha256=" <> string.lowercase(bit_array.base16_encode(mac))
}

fn post(config: Config, url: String, body: String) -> Result(Nil, retry.Failure) {
  use req <- result.try(
    request.to(url) |> result.replace_error(retry.ConnectionFailed("bad url")),
  )
  let req =
    req
    |> request.set_method(http.Post)
    |> request.set_header("content-type", "application/json")
    |> request.set_header(
      "x-brook-signature",
      signature(config.signing_secret, body),
    )
    |> request.set_body(body)

  case
    httpc.configure()
    |> httpc.timeout(config.delivery.timeout_ms)
    |> httpc.dispatch(req)
  {
    Ok(resp) if resp.status >= 200 && resp.status < 300 -> Ok(Nil)
    Ok(resp) -> Error(retry.HttpStatus(resp.status))
    Error(httpc.ResponseTimeout) -> Error(retry.Timeout)
    Error(_) -> Error(retry.ConnectionFailed(url))
  }
}
