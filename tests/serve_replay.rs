//! `toolmend serve` with tools, against the fake upstream replaying `corpus/serve/` outputs: each
//! answer has the expected `tool_calls`, streaming and non-streaming give the same final message
//! for every output and every chunking, and 50 concurrent requests get their own answers.

#[path = "serve/common.rs"]
mod common;

use std::sync::Arc;

use common::{
    Serve, chat_body, check, client, corpus_cases, final_of_json, final_of_sse, sse_payloads,
    weather_tools,
};
use toolmend::serve::fake::{FakeUpstream, Output, Reply};

/// A fake that answers each request with the case named by its user message.
async fn replaying(cases: &[common::Case], chunk_chars: usize) -> FakeUpstream {
    let by_name: std::collections::HashMap<String, Output> = cases
        .iter()
        .map(|c| {
            let mut o = c.output.clone();
            o.chunk_chars = chunk_chars;
            (c.name.clone(), o)
        })
        .collect();
    FakeUpstream::start(Arc::new(move |req| {
        let name = req["messages"][0]["content"].as_str().unwrap_or("");
        match by_name.get(name) {
            Some(o) => Reply::Output(o.clone()),
            None => Reply::Raw {
                status: 404,
                content_type: "application/json".into(),
                body: br#"{"error":{"message":"no such case"}}"#.to_vec(),
            },
        }
    }))
    .await
    .unwrap()
}

fn body_for(case: &str, stream: bool) -> serde_json::Value {
    let mut b = chat_body(stream, Some(weather_tools()));
    b["messages"][0]["content"] = case.into();
    b
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_replayed_output_gets_the_expected_calls_streaming_or_not() {
    let cases = corpus_cases();
    assert!(cases.len() >= 10);
    let mut failures = Vec::new();
    for chunk_chars in [1, 3, 16, 10_000] {
        let fake = replaying(&cases, chunk_chars).await;
        let serve = Serve::start(&fake.url(), |c| c.report = true).await;
        let c = client();
        for case in &cases {
            let v: serde_json::Value = c
                .post(serve.url("/chat/completions"))
                .json(&body_for(&case.name, false))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            let whole = final_of_json(&v);
            let text = c
                .post(serve.url("/chat/completions"))
                .json(&body_for(&case.name, true))
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap();
            let streamed = final_of_sse(&sse_payloads(&text));
            for bad in check(&case.expect, &whole) {
                failures.push(format!("{} (json): {bad}", case.name));
            }
            if streamed != whole {
                failures.push(format!(
                    "{} (chunks of {chunk_chars}): stream assembles to {streamed:?}, JSON answer is {whole:?}",
                    case.name
                ));
            }
        }
    }
    failures.dedup();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_concurrent_requests_get_their_own_answers() {
    // Each request asks for its own city; the fake answers with a call for exactly that city,
    // half as JSON and half as streams, the envelopes rotating.
    let fake = FakeUpstream::start(Arc::new(|req| {
        let city = req["messages"][0]["content"]
            .as_str()
            .unwrap_or("")
            .to_owned();
        let n: usize = city.trim_start_matches("city").parse().unwrap_or(0);
        let call =
            format!("{{\"name\": \"get_weather\", \"arguments\": {{\"city\": \"{city}\"}}}}");
        let mut o = Output::text(match n % 3 {
            0 => format!("<tool_call>\n{call}\n</tool_call>"),
            1 => format!("```json\n{call}\n```"),
            _ => String::new(),
        });
        if n % 3 == 2 {
            o.content = None;
            o.tool_calls = vec![("get_weather".into(), format!("{{\"city\": \"{city}\""))];
        }
        o.chunk_chars = 2;
        o.delay = std::time::Duration::from_millis(1);
        Reply::Output(o)
    }))
    .await
    .unwrap();
    let serve = Serve::start(&fake.url(), |_| {}).await;
    let c = client();
    let tasks: Vec<_> = (0..50)
        .map(|i| {
            let c = c.clone();
            let url = serve.url("/chat/completions");
            tokio::spawn(async move {
                let city = format!("city{i}");
                let stream = i % 2 == 0;
                let resp = c
                    .post(url)
                    .json(&body_for(&city, stream))
                    .send()
                    .await
                    .unwrap();
                assert_eq!(resp.status(), 200);
                let got = if stream {
                    final_of_sse(&sse_payloads(&resp.text().await.unwrap()))
                } else {
                    final_of_json(&resp.json().await.unwrap())
                };
                (city, got)
            })
        })
        .collect();
    for t in tasks {
        let (city, got) = t.await.unwrap();
        assert_eq!(
            got.calls,
            vec![(
                "get_weather".to_owned(),
                serde_json::json!({ "city": city })
            )],
            "{city}"
        );
        assert_eq!(got.finish_reason.as_deref(), Some("tool_calls"));
    }
    assert_eq!(fake.requests(), 50);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn changed_answers_say_so_in_a_header_and_with_report_in_a_field() {
    let cases = corpus_cases();
    let fake = replaying(&cases, 4).await;
    let c = client();
    for report in [false, true] {
        let serve = Serve::start(&fake.url(), |c| c.report = report).await;
        // A recovered call: header, call count, and (with --report) envelope and fixes per call.
        let resp = c
            .post(serve.url("/chat/completions"))
            .json(&body_for("broken_arguments", false))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.headers()["x-toolmend"], "rewritten");
        assert_eq!(resp.headers()["x-toolmend-calls"], "1");
        let v: serde_json::Value = resp.json().await.unwrap();
        if report {
            let call = &v["toolmend"]["choices"][0]["calls"][0];
            assert_eq!(call["name"], "get_weather");
            assert_eq!(call["envelope"], "hermes");
            assert!(!call["fixes"].as_array().unwrap().is_empty(), "{v}");
            assert_eq!(call["coercions"][0]["path"], "/days", "{v}");
        } else {
            assert!(v.get("toolmend").is_none());
        }
        // Nothing to change: no header, no field, the upstream's bytes.
        let resp = c
            .post(serve.url("/chat/completions"))
            .json(&body_for("no_call", false))
            .send()
            .await
            .unwrap();
        assert!(resp.headers().get("x-toolmend").is_none());
        let v: serde_json::Value = resp.json().await.unwrap();
        assert!(v.get("toolmend").is_none());
        // A stream announces that it may be rewritten, and reports in its finishing chunk.
        let resp = c
            .post(serve.url("/chat/completions"))
            .json(&body_for("broken_arguments", true))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.headers()["x-toolmend"], "stream");
        let payloads = sse_payloads(&resp.text().await.unwrap());
        let reported = payloads
            .iter()
            .filter_map(|p| serde_json::from_str::<serde_json::Value>(p).ok())
            .any(|v| v["toolmend"]["calls"][0]["envelope"] == "hermes");
        assert_eq!(reported, report);
    }
}
