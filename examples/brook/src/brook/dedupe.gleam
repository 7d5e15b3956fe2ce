//// De-duplication of feed items.
////
//// Publishers are sloppy: the same entry shows up again with a new
//// `pubDate`, a tracking parameter appended to its link, or different
//// whitespace in the title. An item is identified by a fingerprint of its
//// feed and its normalised id; only items whose fingerprint is not yet in the
//// `seen_items` table are handed to the dispatcher.

import brook/feed.{type Item}
import brook/store
import gleam/bit_array
import gleam/crypto
import gleam/int
import gleam/list
import gleam/option
import gleam/result
import gleam/string
import gleam/uri
import sqlight

/// Query parameters that never make two links different.
const tracking_params = [
  "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "fbclid",
  "gclid", "ref",
]

/// Stable identifier for an item within one feed.
pub fn fingerprint(feed_id: Int, item: Item) -> String {
  let key = int.to_string(feed_id) <> "\n" <> normalise_id(item.id)
  crypto.hash(crypto.Sha256, bit_array.from_string(key))
  |> bit_array.base16_encode
  |> string.lowercase
}

/// Lower-cases the scheme and host, drops the fragment, tracking query
/// parameters and a trailing slash. Non-URL ids (tag: URIs, UUIDs) are only
/// trimmed.
pub fn normalise_id(id: String) -> String {
  let id = string.trim(id)
  case uri.parse(id) {
    Ok(uri.Uri(scheme: option_scheme, host: option_host, ..) as parsed) ->
      case option_scheme, option_host {
        option.Some(scheme), option.Some(host)
          if scheme == "http" || scheme == "https"
        ->
          uri.Uri(
            ..parsed,
            scheme: option.Some(string.lowercase(scheme)),
            host: option.Some(string.lowercase(host)),
            fragment: option.None,
            query: clean_query(parsed.query),
            path: strip_trailing_slash(parsed.path),
          )
          |> uri.to_string
        _, _ -> id
      }
    Error(Nil) -> id
  }
}

fn clean_query(query: option.Option(String)) -> option.Option(String) {
  case query {
    option.None -> option.None
    option.Some(q) ->
      case uri.parse_query(q) {
        Error(Nil) -> option.Some(q)
        Ok(pairs) ->
          case list.filter(pairs, fn(p) { !list.contains(tracking_params, p.0) }) {
            [] -> option.None
            kept -> option.Some(uri.query_to_string(kept))
          }
      }
  }
}

fn strip_trailing_slash(path: String) -> String {
  case path != "/" && string.ends_with(path, "/") {
    True -> string.drop_end(path, 1)
    False -> path
  }
}

/// Items from `items` that have not been seen for this feed, in their
/// original order. Duplicates inside the same batch are dropped as well.
pub fn unseen(
  db: sqlight.Connection,
  feed_id: Int,
  items: List(Item),
) -> Result(List(#(String, Item)), sqlight.Error) {
  let with_prints =
    items
    |> list.map(fn(item) { #(fingerprint(feed_id, item), item) })
    |> list.unique_by(fn(pair) { pair.0 })
  use known <- result.try(
    store.seen_fingerprints(db, feed_id, list.map(with_prints, fn(p) { p.0 })),
  )
  Ok(list.filter(with_prints, fn(pair) { !list.contains(known, pair.0) }))
}

/// Records fingerprints as seen so the next poll skips them.
pub fn remember(
  db: sqlight.Connection,
  feed_id: Int,
  fingerprints: List(String),
  now_seconds: Int,
) -> Result(Nil, sqlight.Error) {
  store.insert_seen(db, feed_id, fingerprints, now_seconds)
}

/// Forgets fingerprints older than `ttl_hours`. Called once per poll cycle.
pub fn prune(
  db: sqlight.Connection,
  ttl_hours: Int,
  now_seconds: Int,
) -> Result(Int, sqlight.Error) {
  store.delete_seen_before(db, now_seconds - ttl_hours * 3600)
}
