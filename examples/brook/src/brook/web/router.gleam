//// HTTP API.
////
////   GET    /healthz                 liveness; also checks the database
////   GET    /feeds                   every feed with its title and ETag
////   POST   /feeds                   {"url": "..."} -> {"id": 7}
////   POST   /feeds/:id/subscribers   {"webhook_url": "..."}
////   DELETE /subscribers/:id

import brook/store
import gleam/dynamic/decode
import gleam/http.{Delete, Get, Post}
import gleam/int
import gleam/json
import gleam/result
import gleam/string
import sqlight
import wisp.{type Request, type Response}

pub type Context {
  Context(db: sqlight.Connection, now: fn() -> Int)
}

pub fn handle_request(req: Request, ctx: Context) -> Response {
  use req <- middleware(req)
  case wisp.path_segments(req) {
    ["healthz"] -> health(ctx)
    ["feeds"] ->
      case req.method {
        Get -> list_feeds(ctx)
        Post -> create_feed(req, ctx)
        _ -> wisp.method_not_allowed([Get, Post])
      }
    ["feeds", id, "subscribers"] -> {
      use <- wisp.require_method(req, Post)
      with_id(id, fn(feed_id) { create_subscriber(req, ctx, feed_id) })
    }
    ["subscribers", id] -> {
      use <- wisp.require_method(req, Delete)
      with_id(id, fn(sub_id) {
        case store.remove_subscriber(ctx.db, sub_id) {
          Ok(Nil) -> wisp.no_content()
          Error(_) -> wisp.internal_server_error()
        }
      })
    }
    _ -> wisp.not_found()
  }
}

fn middleware(req: Request, next: fn(Request) -> Response) -> Response {
  let req = wisp.method_override(req)
  use <- wisp.log_request(req)
  use <- wisp.rescue_crashes
  use req <- wisp.handle_head(req)
  next(req)
}

fn health(ctx: Context) -> Response {
  case sqlight.exec("select 1", ctx.db) {
    Ok(Nil) -> wisp.ok() |> wisp.string_body("ok")
    Error(_) -> wisp.response(503) |> wisp.string_body("database unavailable")
  }
}

fn list_feeds(ctx: Context) -> Response {
  case store.list_feeds(ctx.db) {
    Error(_) -> wisp.internal_server_error()
    Ok(feeds) ->
      json.array(feeds, fn(f) {
        json.object([
          #("id", json.int(f.id)),
          #("url", json.string(f.url)),
          #("title", json.string(f.title)),
          #("etag", json.nullable(f.etag, json.string)),
        ])
      })
      |> json.to_string_tree
      |> wisp.json_response(200)
  }
}

fn create_feed(req: Request, ctx: Context) -> Response {
  use body <- wisp.require_json(req)
  case decode.run(body, decode.at(["url"], decode.string)) {
    Error(_) -> wisp.unprocessable_entity()
    Ok(url) ->
      case string.starts_with(url, "http://") || string.starts_with(url, "https://") {
        False -> wisp.unprocessable_entity()
        True ->
          case store.add_feed(ctx.db, url, ctx.now()) {
            Ok(id) -> created(id)
            Error(_) -> wisp.internal_server_error()
          }
      }
  }
}

fn create_subscriber(req: Request, ctx: Context, feed_id: Int) -> Response {
  use body <- wisp.require_json(req)
  case decode.run(body, decode.at(["webhook_url"], decode.string)) {
    Error(_) -> wisp.unprocessable_entity()
    Ok(url) ->
      store.add_subscriber(ctx.db, feed_id, url, ctx.now())
      |> result.map(created)
      |> result.unwrap(wisp.bad_request())
  }
}

fn created(id: Int) -> Response {
  json.object([#("id", json.int(id))])
  |> json.to_string_tree
  |> wisp.json_response(201)
}

fn with_id(raw: String, next: fn(Int) -> Response) -> Response {
  case int.parse(raw) {
    Ok(id) if id > 0 -> next(id)
    _ -> wisp.not_found()
  }
}
