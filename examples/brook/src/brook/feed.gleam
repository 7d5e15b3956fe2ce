//// Feed documents and the items inside them.
////
//// Parsing itself is done by xmerl through `brook_ffi`; this module turns the
//// raw tuples into typed items and normalises the fields the rest of brook
//// relies on (an item always has an id, and links are trimmed).

import gleam/list
import gleam/option.{type Option, None, Some}
import gleam/string

pub type Feed {
  Feed(id: Int, url: String, title: String, etag: Option(String))
}

pub type Item {
  Item(
    /// `<guid>` for RSS, `<id>` for Atom; falls back to the link when a feed
    /// publishes neither.
    id: String,
    link: String,
    title: String,
    /// Raw `pubDate` / `updated` text. Only used for display; ordering is by
    /// position in the document.
    published: String,
  )
}

pub type ParseError {
  NotXml(String)
  UnknownFormat
  Empty
}

@external(erlang, "brook_ffi", "parse_feed")
fn parse_feed_ffi(
  body: String,
) -> Result(#(String, List(#(String, String, String, String))), String)

/// Parses an RSS 2.0 or Atom 1.0 document. Returns the feed's own title and
/// its items in document order (newest first for almost every publisher).
pub fn parse(body: String) -> Result(#(String, List(Item)), ParseError) {
  case parse_feed_ffi(body) {
    Error("unknown_format") -> Error(UnknownFormat)
    Error(reason) -> Error(NotXml(reason))
    Ok(#(_, [])) -> Error(Empty)
    Ok(#(title, raw)) -> {
      let items =
        raw
        |> list.filter_map(fn(t) {
          let #(id, link, title, published) = t
          to_item(id, link, title, published)
        })
      Ok(#(string.trim(title), items))
    }
  }
}

fn to_item(
  id: String,
  link: String,
  title: String,
  published: String,
) -> Result(Item, Nil) {
  let link = string.trim(link)
  let id = case string.trim(id) {
    "" -> link
    id -> id
  }
  case id {
    "" -> Error(Nil)
    _ ->
      Ok(Item(
        id: id,
        link: link,
        title: string.trim(title),
        published: string.trim(published),
      ))
  }
}

/// Reads the RSS `<ttl>` hint (minutes) if the publisher set one.
@external(erlang, "brook_ffi", "feed_ttl_minutes")
pub fn ttl_minutes(body: String) -> Option(Int)

/// Seconds to wait before the next fetch: the configured interval, stretched
/// to the feed's own `<ttl>` when that is longer.
pub fn next_poll_in(configured_seconds: Int, ttl: Option(Int)) -> Int {
  case ttl {
    Some(minutes) if minutes * 60 > configured_seconds -> minutes * 60
    Some(_) | None -> configured_seconds
  }
}
