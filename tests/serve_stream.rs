//! Streaming hold-back, checked by counting upstream events rather than timing: the fake releases
//! one event at a time and the test waits until the client has what it must have by then. After
//! each event the client has all the content the extractor has released (text that can no longer
//! be the start of a call marker), less only whitespace at the very end, which waits for text to
//! follow; text before a call marker goes out before the marker completes; a call goes out as soon
//! as its envelope closes, before the upstream sends its finish reason.

#[path = "serve/common.rs"]
mod common;

use std::sync::Arc;
use std::time::Duration;

use common::{Serve, chat_body, client, weather_tools};
use futures::StreamExt;
use toolmend::extract::{Event, Options, StreamExtractor, ToolInfo};
use toolmend::serve::fake::{FakeUpstream, Output, Reply, events};
use toolmend::serve::sse::SseParser;

/// Bounds every wait: a chunk held back forever fails the test instead of hanging it.
const GUARD: Duration = Duration::from_secs(10);

/// What the client has assembled so far from the stream.
#[derive(Debug, Default)]
struct Seen {
    content: String,
    calls: Vec<String>,
    finish: Option<String>,
    done: bool,
}

struct Reader {
    body: std::pin::Pin<Box<dyn futures::Stream<Item = reqwest::Result<bytes::Bytes>> + Send>>,
    parser: SseParser,
    seen: Seen,
}

impl Reader {
    /// Reads until `pred` holds; panics (with what was seen) when it does not within the guard.
    async fn until(&mut self, what: &str, pred: impl Fn(&Seen) -> bool) {
        let res = tokio::time::timeout(GUARD, async {
            while !pred(&self.seen) {
                let Some(chunk) = self.body.next().await else {
                    return false;
                };
                for ev in self.parser.push(&chunk.unwrap()).unwrap() {
                    let Some(data) = ev.data else { continue };
                    if data == "[DONE]" {
                        self.seen.done = true;
                        continue;
                    }
                    let v: serde_json::Value = serde_json::from_str(&data).unwrap();
                    let c = &v["choices"][0];
                    if let Some(s) = c["delta"]["content"].as_str() {
                        self.seen.content.push_str(s);
                    }
                    for tc in c["delta"]["tool_calls"].as_array().into_iter().flatten() {
                        self.seen
                            .calls
                            .push(tc["function"]["name"].as_str().unwrap().into());
                    }
                    if let Some(f) = c["finish_reason"].as_str() {
                        self.seen.finish = Some(f.into());
                    }
                }
            }
            true
        })
        .await;
        assert!(res == Ok(true), "never saw {what}; seen {:?}", self.seen);
    }
}

/// Starts a gated stream of `content` (3 characters per event) through toolmend with tools.
async fn gated(
    content: &str,
) -> (
    FakeUpstream,
    Serve,
    Reader,
    Arc<tokio::sync::Semaphore>,
    Vec<String>,
) {
    let mut out = Output::text(content);
    out.chunk_chars = 3;
    let pieces = events(&out, "m");
    // The content each event carries, in order (empty for role, finish and [DONE]).
    let deltas: Vec<String> = pieces
        .iter()
        .map(|p| {
            let s = std::str::from_utf8(p).unwrap();
            let data = s.trim().strip_prefix("data: ").unwrap();
            serde_json::from_str::<serde_json::Value>(data)
                .ok()
                .and_then(|v| {
                    v["choices"][0]["delta"]["content"]
                        .as_str()
                        .map(str::to_owned)
                })
                .unwrap_or_default()
        })
        .collect();
    let gate = Arc::new(tokio::sync::Semaphore::new(0));
    let fake = FakeUpstream::always(Reply::Gated {
        pieces,
        gate: Arc::clone(&gate),
    })
    .await
    .unwrap();
    let serve = Serve::start(&fake.url(), |_| {}).await;
    let resp = client()
        .post(serve.url("/chat/completions"))
        .json(&chat_body(true, Some(weather_tools())))
        .send();
    // The response head only comes once the upstream's head has: release nothing yet.
    let resp = tokio::time::timeout(GUARD, resp).await.unwrap().unwrap();
    let reader = Reader {
        body: Box::pin(resp.bytes_stream()),
        parser: SseParser::new(1 << 20),
        seen: Seen::default(),
    };
    (fake, serve, reader, gate, deltas)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prose_is_forwarded_event_by_event() {
    let text = "The weather in Paris is mild today, with sun expected all afternoon.";
    let (_fake, _serve, mut r, gate, deltas) = gated(text).await;
    // The extractor on its own, fed the same deltas: what it releases is what must be out.
    let tools = vec![ToolInfo::new(
        "get_weather",
        weather_tools()[0]["function"]["parameters"].clone(),
    )];
    let mut reference = StreamExtractor::new(&Options::new().with_tools(tools));
    let mut released = String::new();
    let mut upstream = String::new();
    for d in &deltas {
        gate.add_permits(1);
        upstream.push_str(d);
        for e in reference.push(d) {
            if let Event::Content(c) = e {
                released.push_str(&c);
            }
        }
        let want = released.trim().to_owned();
        // In prose, never more than a possible marker start behind the upstream.
        let held = upstream.trim().len() - want.len();
        assert!(held <= 16, "{held} bytes held after {upstream:?}");
        r.until(&format!("content {want:?}"), |s| s.content == want)
            .await;
    }
    r.until("[DONE]", |s| s.done).await;
    assert_eq!(r.seen.content, text);
    assert_eq!(r.seen.finish.as_deref(), Some("stop"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_before_a_marker_and_a_complete_call_are_not_held() {
    let text = "Checking now. <tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>";
    let (_fake, _serve, mut r, gate, deltas) = gated(text).await;
    let close = text.len();
    let mut upstream = String::new();
    for d in &deltas {
        gate.add_permits(1);
        upstream.push_str(d);
        if upstream.contains('<') {
            // The prose before the marker is out as soon as the marker has started.
            r.until("the text before the marker", |s| {
                s.content == "Checking now."
            })
            .await;
        }
        if upstream.len() == close {
            // The envelope just closed: the call is out before the finish reason is released.
            r.until("the call", |s| s.calls == ["get_weather"]).await;
            assert!(r.seen.finish.is_none());
        }
    }
    r.until("[DONE]", |s| s.done).await;
    assert_eq!(r.seen.content, "Checking now.");
    assert_eq!(r.seen.finish.as_deref(), Some("tool_calls"));
}
