//// SQLite persistence for feeds, subscribers, seen item fingerprints and
//// dead deliveries. All SQL lives in this module.

import brook/feed.{type Feed, Feed}
import gleam/dynamic/decode
import gleam/list
import gleam/option.{type Option}
import gleam/result
import gleam/string
import simplifile
import sqlight

pub type Subscriber {
  Subscriber(id: Int, feed_id: Int, webhook_url: String)
}

pub fn open(path: String) -> Result(sqlight.Connection, sqlight.Error) {
  sqlight.open("file:" <> path)
}

/// Runs every `priv/migrations/*.sql` file in name order.
pub fn migrate(db: sqlight.Connection, priv_dir: String) -> Result(Nil, String) {
  let dir = priv_dir <> "/migrations"
  use names <- result.try(
    simplifile.read_directory(dir)
    |> result.map_error(fn(e) { dir <> ": " <> simplifile.describe_error(e) }),
  )
  names
  |> list.filter(string.ends_with(_, ".sql"))
  |> list.sort(string.compare)
  |> list.try_each(fn(name) {
    use sql <- result.try(
      simplifile.read(dir <> "/" <> name)
      |> result.map_error(fn(e) { name <> ": " <> simplifile.describe_error(e) }),
    )
    sqlight.exec(sql, db)
    |> result.map_error(fn(e) { name <> ": " <> e.message })
  })
}

// --- feeds ------------------------------------------------------------------

pub fn add_feed(
  db: sqlight.Connection,
  url: String,
  now: Int,
) -> Result(Int, sqlight.Error) {
  let sql =
    "insert into feeds (url, created_at) values (?, ?)
     on conflict (url) do update set url = excluded.url
     returning id"
  sqlight.query(
    sql,
    on: db,
    with: [sqlight.text(url), sqlight.int(now)],
    expecting: decode.at([0], decode.int),
  )
  |> result.map(first_or_zero)
}

pub fn list_feeds(db: sqlight.Connection) -> Result(List(Feed), sqlight.Error) {
  sqlight.query(
    "select id, url, title, etag from feeds order by id",
    on: db,
    with: [],
    expecting: feed_decoder(),
  )
}

pub fn update_feed_after_poll(
  db: sqlight.Connection,
  feed_id: Int,
  title: String,
  etag: Option(String),
  now: Int,
) -> Result(Nil, sqlight.Error) {
  sqlight.query(
    "update feeds set title = ?, etag = ?, last_polled = ?, failures = 0
     where id = ?",
    on: db,
    with: [
      sqlight.text(title),
      sqlight.nullable(sqlight.text, etag),
      sqlight.int(now),
      sqlight.int(feed_id),
    ],
    expecting: decode.success(Nil),
  )
  |> result.replace(Nil)
}

pub fn record_feed_failure(
  db: sqlight.Connection,
  feed_id: Int,
) -> Result(Nil, sqlight.Error) {
  sqlight.query(
    "update feeds set failures = failures + 1 where id = ?",
    on: db,
    with: [sqlight.int(feed_id)],
    expecting: decode.success(Nil),
  )
  |> result.replace(Nil)
}

fn feed_decoder() -> decode.Decoder(Feed) {
  use id <- decode.field(0, decode.int)
  use url <- decode.field(1, decode.string)
  use title <- decode.field(2, decode.string)
  use etag <- decode.field(3, decode.optional(decode.string))
  decode.success(Feed(id:, url:, title:, etag:))
}

// --- subscribers ------------------------------------------------------------

pub fn add_subscriber(
  db: sqlight.Connection,
  feed_id: Int,
  webhook_url: String,
  now: Int,
) -> Result(Int, sqlight.Error) {
  sqlight.query(
    "insert into subscribers (feed_id, webhook_url, created_at)
     values (?, ?, ?) returning id",
    on: db,
    with: [sqlight.int(feed_id), sqlight.text(webhook_url), sqlight.int(now)],
    expecting: decode.at([0], decode.int),
  )
  |> result.map(first_or_zero)
}

pub fn subscribers_of(
  db: sqlight.Connection,
  feed_id: Int,
) -> Result(List(Subscriber), sqlight.Error) {
  sqlight.query(
    "select id, feed_id, webhook_url from subscribers
     where feed_id = ? and active = 1 order by id",
    on: db,
    with: [sqlight.int(feed_id)],
    expecting: {
      use id <- decode.field(0, decode.int)
      use feed_id <- decode.field(1, decode.int)
      use webhook_url <- decode.field(2, decode.string)
      decode.success(Subscriber(id:, feed_id:, webhook_url:))
    },
  )
}

pub fn remove_subscriber(
  db: sqlight.Connection,
  id: Int,
) -> Result(Nil, sqlight.Error) {
  sqlight.query(
    "delete from subscribers where id = ?",
    on: db,
    with: [sqlight.int(id)],
    expecting: decode.success(Nil),
  )
  |> result.replace(Nil)
}

// --- seen items -------------------------------------------------------------

pub fn seen_fingerprints(
  db: sqlight.Connection,
  feed_id: Int,
  fingerprints: List(String),
) -> Result(List(String), sqlight.Error) {
  case fingerprints {
    [] -> Ok([])
    _ -> {
      let placeholders =
        list.map(fingerprints, fn(_) { "?" }) |> string.join(", ")
      sqlight.query(
        "select fingerprint from seen_items where feed_id = ? and fingerprint in ("
          <> placeholders
          <> ")",
        on: db,
        with: [sqlight.int(feed_id), ..list.map(fingerprints, sqlight.text)],
        expecting: decode.at([0], decode.string),
      )
    }
  }
}

pub fn insert_seen(
  db: sqlight.Connection,
  feed_id: Int,
  fingerprints: List(String),
  now: Int,
) -> Result(Nil, sqlight.Error) {
  list.try_each(fingerprints, fn(fp) {
    sqlight.query(
      "insert or ignore into seen_items (feed_id, fingerprint, seen_at)
       values (?, ?, ?)",
      on: db,
      with: [sqlight.int(feed_id), sqlight.text(fp), sqlight.int(now)],
      expecting: decode.success(Nil),
    )
  })
}

pub fn delete_seen_before(
  db: sqlight.Connection,
  cutoff: Int,
) -> Result(Int, sqlight.Error) {
  sqlight.query(
    "delete from seen_items where seen_at < ? returning 1",
    on: db,
    with: [sqlight.int(cutoff)],
    expecting: decode.at([0], decode.int),
  )
  |> result.map(list.length)
}

// --- dead deliveries --------------------------------------------------------

pub fn insert_dead(
  db: sqlight.Connection,
  subscriber_id: Int,
  item_id: String,
  payload: String,
  last_error: String,
  retries: Int,
  now: Int,
) -> Result(Nil, sqlight.Error) {
  sqlight.query(
    "insert into dead_deliveries
       (subscriber_id, item_id, payload, last_error, retries, failed_at)
     values (?, ?, ?, ?, ?, ?)",
    on: db,
    with: [
      sqlight.int(subscriber_id),
      sqlight.text(item_id),
      sqlight.text(payload),
      sqlight.text(last_error),
      sqlight.int(retries),
      sqlight.int(now),
    ],
    expecting: decode.success(Nil),
  )
  |> result.replace(Nil)
}

fn first_or_zero(rows: List(Int)) -> Int {
  case rows {
    [id, ..] -> id
    [] -> 0
  }
}
