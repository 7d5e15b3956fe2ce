//! Properties of the streaming pieces of `toolmend serve` on arbitrary input: the SSE parser gives
//! the same events for any chunking and keeps every byte; the stream rewriter never panics on any
//! event data, and on any chunking of a model's output assembles the same calls, finish reason and
//! content (up to whitespace at its ends, see below) as the JSON path.

use std::sync::Arc;

use proptest::prelude::*;
use toolmend::serve::fake::{Output, completion, events};
use toolmend::serve::pipeline::Pipeline;
use toolmend::serve::recover::Tools;
use toolmend::serve::rewrite::rewrite_json;
use toolmend::serve::sse::SseParser;
use toolmend::serve::stream::StreamRewriter;

fn tools() -> Arc<Tools> {
    Arc::new(Tools::from_request(&[serde_json::json!({
        "type": "function",
        "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}
    })]))
}

fn parse(chunks: &[&[u8]]) -> Vec<toolmend::serve::sse::SseEvent> {
    let mut p = SseParser::new(1 << 20);
    let mut out = Vec::new();
    for c in chunks {
        out.extend(p.push(c).unwrap_or_default());
    }
    out.extend(p.finish().ok().flatten());
    out
}

/// Text made of the pieces model outputs are made of, so markers actually occur.
fn model_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("<tool_call>".to_owned()),
        Just("</tool_call>".to_owned()),
        Just("```json\n".to_owned()),
        Just("```".to_owned()),
        Just("<think>".to_owned()),
        Just("</think>".to_owned()),
        Just("{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}".to_owned()),
        Just("{\"name\": \"nope\", \"arguments\": {}}".to_owned()),
        Just("{'city': 'Oslo',".to_owned()),
        Just("\n".to_owned()),
        Just(" ".to_owned()),
        "[a-zé ]{0,12}",
    ];
    proptest::collection::vec(piece, 0..12).prop_map(|v| v.concat())
}

proptest! {
    #[test]
    fn sse_events_do_not_depend_on_chunking(bytes in proptest::collection::vec(any::<u8>(), 0..300), cut in 0usize..300) {
        let whole = parse(&[&bytes]);
        let cut = cut.min(bytes.len());
        let (a, b) = bytes.split_at(cut);
        prop_assert_eq!(parse(&[a, b]), whole.clone());
        let total: usize = whole.iter().map(|e| e.raw.len()).sum();
        prop_assert!(total <= bytes.len());
    }

    #[test]
    fn the_stream_rewriter_never_panics(data in "\\PC{0,200}") {
        let mut rw = StreamRewriter::new(tools(), Arc::new(Pipeline::default()), true);
        let raw = format!("data: {data}\n\n");
        for ev in parse(&[raw.as_bytes()]) {
            let mut out = Vec::new();
            let _ = rw.event(&ev, &mut out);
        }
        let mut out = Vec::new();
        rw.flush(&mut out);
    }

    #[test]
    fn streamed_and_whole_answers_agree(text in model_text(), n in 1usize..8) {
        let mut o = Output::text(text);
        o.chunk_chars = n;
        let body = serde_json::to_vec(&completion(&o, "m")).unwrap();
        let whole = match rewrite_json(&body, &tools(), &Pipeline::default(), false).unwrap().body {
            Some(b) => serde_json::from_slice::<serde_json::Value>(&b).unwrap(),
            None => serde_json::from_slice(&body).unwrap(),
        };
        let msg = &whole["choices"][0]["message"];
        let mut rw = StreamRewriter::new(tools(), Arc::new(Pipeline::default()), false);
        let mut out = Vec::new();
        for piece in events(&o, "m") {
            for ev in parse(&[&piece]) {
                rw.event(&ev, &mut out).unwrap();
            }
        }
        let (mut content, mut calls, mut finish) = (String::new(), Vec::new(), None);
        for b in &out {
            for ev in parse(&[b]) {
                let Some(d) = ev.data else { continue };
                let Ok(v) = serde_json::from_str::<serde_json::Value>(&d) else { continue };
                let c = &v["choices"][0];
                content.push_str(c["delta"]["content"].as_str().unwrap_or(""));
                for tc in c["delta"]["tool_calls"].as_array().into_iter().flatten() {
                    calls.push((tc["function"]["name"].clone(), tc["function"]["arguments"].clone()));
                }
                if let Some(f) = c["finish_reason"].as_str() { finish = Some(f.to_owned()); }
            }
        }
        let want_calls: Vec<_> = msg["tool_calls"].as_array().into_iter().flatten()
            .map(|tc| (tc["function"]["name"].clone(), tc["function"]["arguments"].clone())).collect();
        prop_assert_eq!(calls, want_calls);
        // Whitespace before an unterminated envelope or think block at the very end can differ:
        // the extractor's final content is trimmed and does not say where it was.
        let want = msg["content"].as_str().unwrap_or("").trim().to_owned();
        prop_assert_eq!(content.trim(), want);
        prop_assert_eq!(finish.as_deref(), whole["choices"][0]["finish_reason"].as_str());
    }
}

/// A bare call to a tool the request did not offer comes back as content exactly once (the
/// extractor keeps a complete bare value as content; serve must not add it again), and no call.
#[test]
fn a_bare_call_to_an_unknown_tool_is_content_once() {
    let text = "Here: {\"name\": \"nope\", \"arguments\": {}} done";
    let o = Output::text(text);
    let body = serde_json::to_vec(&completion(&o, "m")).unwrap();
    let whole = match rewrite_json(&body, &tools(), &Pipeline::default(), false)
        .unwrap()
        .body
    {
        Some(b) => serde_json::from_slice::<serde_json::Value>(&b).unwrap(),
        None => serde_json::from_slice(&body).unwrap(),
    };
    let msg = &whole["choices"][0]["message"];
    assert_eq!(msg["content"].as_str(), Some(text), "{msg}");
    assert!(
        msg["tool_calls"].as_array().is_none_or(Vec::is_empty),
        "{msg}"
    );
}
