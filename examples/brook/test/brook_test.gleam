import brook/dedupe
import brook/dispatcher
import brook/feed.{Item}
import gleam/option.{None, Some}
import gleam/string
import gleeunit
import gleeunit/should

pub fn main() {
  gleeunit.main()
}

const rss = "<?xml version=\"1.0\"?>
<rss version=\"2.0\">
  <channel>
    <title>Tidewater engineering</title>
    <ttl>30</ttl>
    <item>
      <title>Second post</title>
      <link>https://blog.example.org/2/</link>
      <guid>https://blog.example.org/2/</guid>
      <pubDate>Tue, 04 Mar 2025 09:12:00 GMT</pubDate>
    </item>
    <item>
      <title> First post </title>
      <link>https://blog.example.org/1</link>
    </item>
  </channel>
</rss>"

pub fn parse_rss_test() {
  let assert Ok(#(title, items)) = feed.parse(rss)
  title |> should.equal("Tidewater engineering")
  items
  |> should.equal([
    Item(
      id: "https://blog.example.org/2/",
      link: "https://blog.example.org/2/",
      title: "Second post",
      published: "Tue, 04 Mar 2025 09:12:00 GMT",
    ),
    // No <guid>: the link doubles as the id.
    Item(
      id: "https://blog.example.org/1",
      link: "https://blog.example.org/1",
      title: "First post",
      published: "",
    ),
  ])
}

pub fn parse_rejects_html_test() {
  feed.parse("<html><body>nope</body></html>")
  |> should.equal(Error(feed.UnknownFormat))
}

pub fn ttl_stretches_interval_test() {
  feed.ttl_minutes(rss) |> should.equal(Some(30))
  // <ttl>30</ttl> is longer than a 135 s interval, so it wins.
  feed.next_poll_in(135, Some(30)) |> should.equal(1800)
  // ...but never shortens a longer configured interval.
  feed.next_poll_in(3600, Some(30)) |> should.equal(3600)
  feed.next_poll_in(135, None) |> should.equal(135)
}

pub fn normalise_id_strips_tracking_test() {
  dedupe.normalise_id(
    "HTTPS://Blog.Example.org/posts/launch/?utm_source=rss&id=4#comments",
  )
  |> should.equal("https://blog.example.org/posts/launch?id=4")
}

pub fn normalise_id_keeps_opaque_ids_test() {
  dedupe.normalise_id("  tag:example.org,2025:post-88 ")
  |> should.equal("tag:example.org,2025:post-88")
}

pub fn fingerprint_is_per_feed_test() {
  let item = Item(id: "https://a.example/x", link: "", title: "", published: "")
  let same = Item(..item, id: "https://A.example/x/?utm_medium=feed")
  dedupe.fingerprint(1, item) |> should.equal(dedupe.fingerprint(1, same))
  dedupe.fingerprint(1, item)
  |> should.not_equal(dedupe.fingerprint(2, item))
}

pub fn signature_format_test() {
  let sig = dispatcher.signature("s3cret", "{\"id\":\"1\"}")
  string.starts_with(sig, "sha256=") |> should.be_true
  string.length(sig) |> should.equal(7 + 64)
}
