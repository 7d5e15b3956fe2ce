//! `toolmend serve` without tools and under faults: byte-for-byte pass-through, `/v1/models`,
//! health, and every fault of the issue answered with an OpenAI-style error (502/504/413/401),
//! never a hang; a client disconnect cancels the upstream request.

#[path = "serve/common.rs"]
mod common;

use std::time::Duration;

use common::{Serve, chat_body, client, sse_payloads, weather_tools};
use futures::StreamExt;
use toolmend::serve::fake::{FakeUpstream, Output, Reply};

/// Every wait in these tests is bounded by this: a hang fails the test instead of blocking it.
const GUARD: Duration = Duration::from_secs(20);

fn raw(status: u16, content_type: &str, body: &[u8]) -> Reply {
    Reply::Raw {
        status,
        content_type: content_type.into(),
        body: body.to_vec(),
    }
}

async fn error_of(resp: reqwest::Response) -> (u16, serde_json::Value) {
    let status = resp.status().as_u16();
    let v: serde_json::Value = resp.json().await.expect("error body is JSON");
    assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "{v}"
    );
    assert!(v["error"]["type"].is_string(), "{v}");
    (status, v)
}

#[tokio::test]
async fn requests_without_tools_pass_through_byte_for_byte() {
    // Odd spacing, key order, escapes: anything re-serialised would differ.
    let body = b"{ \"id\":\"x\",  \"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"```json\\n{\\\"name\\\": \\\"get_weather\\\"}\\n```\\u00e9\"},\"finish_reason\":\"stop\"}],\"object\":\"chat.completion\"}\n";
    let fake = FakeUpstream::always(raw(200, "application/json", body))
        .await
        .unwrap();
    let serve = Serve::start(&fake.url(), |_| {}).await;
    let resp = serve.chat(false, None).await;
    assert_eq!(resp.status(), 200);
    assert!(resp.headers().get("x-toolmend").is_none());
    assert_eq!(resp.bytes().await.unwrap().as_ref(), body);
}

#[tokio::test]
async fn streams_without_tools_pass_through_byte_for_byte() {
    let events = toolmend::serve::fake::events(
        &Output::text("<tool_call>\n{\"name\": \"get_weather\"}\n</tool_call>"),
        "m",
    );
    let whole: Vec<u8> = events.concat();
    // Re-cut the stream at awkward places: mid-line, mid-"data:", between \n\n.
    let pieces: Vec<Vec<u8>> = whole.chunks(7).map(<[u8]>::to_vec).collect();
    let fake = FakeUpstream::always(Reply::Stream {
        pieces,
        delay: Duration::ZERO,
        stall: false,
    })
    .await
    .unwrap();
    let serve = Serve::start(&fake.url(), |_| {}).await;
    let resp = serve.chat(true, None).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.bytes().await.unwrap().as_ref(), whole.as_slice());
}

#[tokio::test]
async fn models_and_health() {
    let fake = FakeUpstream::always(Reply::Stall).await.unwrap();
    let serve = Serve::start(&fake.url(), |_| {}).await;
    let c = client();
    let direct = c
        .get(format!("{}/models", fake.url()))
        .send()
        .await
        .unwrap();
    let direct = direct.bytes().await.unwrap();
    let via = c.get(serve.url("/models")).send().await.unwrap();
    assert_eq!(via.status(), 200);
    assert_eq!(via.bytes().await.unwrap(), direct);
    let h = c
        .get(format!("http://{}/health", serve.addr))
        .send()
        .await
        .unwrap();
    assert_eq!(h.status(), 200);
}

#[tokio::test]
async fn unreachable_upstream_is_a_502() {
    // A port that was free a moment ago and has nothing listening now.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let serve = Serve::start(&format!("http://127.0.0.1:{port}/v1"), |_| {}).await;
    for stream in [false, true] {
        let resp = tokio::time::timeout(
            GUARD,
            client()
                .post(serve.url("/chat/completions"))
                .json(&chat_body(stream, Some(weather_tools())))
                .send(),
        )
        .await
        .unwrap()
        .unwrap();
        let (status, v) = error_of(resp).await;
        assert_eq!(status, 502);
        assert_eq!(v["error"]["code"], "upstream_unreachable");
    }
    let models = client().get(serve.url("/models")).send().await.unwrap();
    assert_eq!(error_of(models).await.0, 502);
}

#[tokio::test]
async fn stalled_upstream_is_a_504_and_the_upstream_request_is_dropped() {
    let fake = FakeUpstream::always(Reply::Stall).await.unwrap();
    let serve = Serve::start(&fake.url(), |c| c.timeout = Duration::from_millis(200)).await;
    let resp = tokio::time::timeout(
        GUARD,
        client()
            .post(serve.url("/chat/completions"))
            .json(&chat_body(false, None))
            .send(),
    )
    .await
    .unwrap()
    .unwrap();
    let (status, v) = error_of(resp).await;
    assert_eq!(status, 504);
    assert_eq!(v["error"]["code"], "upstream_timeout");
    tokio::time::timeout(GUARD, async {
        while fake.abandoned() == 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the stalled upstream request was not dropped");
}

#[tokio::test]
async fn upstream_error_statuses() {
    let c = client();
    // A 5xx, or anything that is not an OpenAI error object: 502 quoting the upstream.
    for (status, ct, body) in [
        (500, "text/plain", &b"CUDA out of memory"[..]),
        (404, "text/html", &b"<html>not here</html>"[..]),
        (
            503,
            "application/json",
            &b"{\"error\": {\"message\": \"loading model\"}}"[..],
        ),
    ] {
        let fake = FakeUpstream::always(raw(status, ct, body)).await.unwrap();
        let serve = Serve::start(&fake.url(), |_| {}).await;
        for stream in [false, true] {
            let resp = c
                .post(serve.url("/chat/completions"))
                .json(&chat_body(stream, Some(weather_tools())))
                .send()
                .await
                .unwrap();
            let (got, v) = error_of(resp).await;
            assert_eq!(got, 502, "{status}");
            assert_eq!(v["error"]["code"], "upstream_error_status");
            let msg = v["error"]["message"].as_str().unwrap();
            assert!(msg.contains(&status.to_string()), "{msg}");
        }
    }
    // The upstream's own OpenAI-style 4xx (the client's mistake) is passed on as is: a 5xx would
    // make SDKs retry a request that can never succeed.
    let body = b"{\"error\":{\"message\":\"model 'x' not found\",\"type\":\"invalid_request_error\",\"code\":null}}";
    let fake = FakeUpstream::always(raw(404, "application/json", body))
        .await
        .unwrap();
    let serve = Serve::start(&fake.url(), |_| {}).await;
    let resp = c
        .post(serve.url("/chat/completions"))
        .json(&chat_body(false, None))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 404);
    assert_eq!(resp.bytes().await.unwrap().as_ref(), body);
}

#[tokio::test]
async fn malformed_json_answers_are_a_502() {
    let fake = FakeUpstream::always(raw(200, "application/json", b"{\"choices\": [tru"))
        .await
        .unwrap();
    let serve = Serve::start(&fake.url(), |_| {}).await;
    for tools in [None, Some(weather_tools())] {
        let resp = serve.chat(false, tools).await;
        let (status, v) = error_of(resp).await;
        assert_eq!(status, 502);
        assert_eq!(v["error"]["code"], "upstream_malformed");
    }
}

/// Streams a reply through toolmend and returns the status and the `data:` payloads.
async fn stream_through(reply: Reply, tools: bool, timeout: Duration) -> (u16, Vec<String>) {
    let fake = FakeUpstream::always(reply).await.unwrap();
    let serve = Serve::start(&fake.url(), |c| c.timeout = timeout).await;
    let resp = tokio::time::timeout(
        GUARD,
        client()
            .post(serve.url("/chat/completions"))
            .json(&chat_body(true, tools.then(weather_tools)))
            .send(),
    )
    .await
    .unwrap()
    .unwrap();
    let status = resp.status().as_u16();
    let body = tokio::time::timeout(GUARD, resp.text())
        .await
        .unwrap()
        .unwrap();
    (status, sse_payloads(&body))
}

fn stream_of(pieces: &[&str], stall: bool) -> Reply {
    Reply::Stream {
        pieces: pieces.iter().map(|p| p.as_bytes().to_vec()).collect(),
        delay: Duration::ZERO,
        stall,
    }
}

#[tokio::test]
async fn malformed_and_cut_off_streams_end_with_an_error_event() {
    let good = r#"data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}

"#;
    let cases = [
        (
            vec![good, "data: {\"choices\": [\n\n"],
            "upstream_malformed",
        ),
        (vec![good], "upstream_malformed"),
    ];
    for (pieces, code) in cases {
        for tools in [false, true] {
            let (status, data) =
                stream_through(stream_of(&pieces, false), tools, Duration::from_secs(10)).await;
            assert_eq!(status, 200);
            let last: serde_json::Value = serde_json::from_str(data.last().unwrap()).unwrap();
            assert_eq!(last["error"]["code"], code, "{data:?}");
            // What arrived before the fault is not lost.
            let first: serde_json::Value = serde_json::from_str(&data[0]).unwrap();
            assert_eq!(first["choices"][0]["delta"]["content"], "Hi");
        }
    }
}

#[tokio::test]
async fn a_stream_that_stalls_mid_answer_ends_with_a_timeout_event() {
    let good = r#"data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}

"#;
    for tools in [false, true] {
        let (status, data) =
            stream_through(stream_of(&[good], true), tools, Duration::from_millis(300)).await;
        assert_eq!(status, 200);
        let last: serde_json::Value = serde_json::from_str(data.last().unwrap()).unwrap();
        assert_eq!(last["error"]["code"], "upstream_timeout", "{data:?}");
    }
}

#[tokio::test]
async fn a_stream_answered_with_json_is_a_502() {
    let body =
        serde_json::to_vec(&toolmend::serve::fake::completion(&Output::text("hi"), "m")).unwrap();
    let fake = FakeUpstream::always(raw(200, "application/json", &body))
        .await
        .unwrap();
    let serve = Serve::start(&fake.url(), |_| {}).await;
    let resp = serve.chat(true, None).await;
    let (status, v) = error_of(resp).await;
    assert_eq!(status, 502);
    assert_eq!(v["error"]["code"], "upstream_malformed");
}

#[tokio::test]
async fn client_disconnect_mid_stream_cancels_the_upstream_request() {
    for tools in [false, true] {
        let mut out = Output::text("word ".repeat(400));
        out.delay = Duration::from_millis(20);
        let fake = FakeUpstream::always(Reply::Output(out)).await.unwrap();
        let serve = Serve::start(&fake.url(), |_| {}).await;
        let resp = serve.chat(true, tools.then(weather_tools)).await;
        let mut body = resp.bytes_stream();
        let first = tokio::time::timeout(GUARD, body.next()).await.unwrap();
        assert!(first.is_some_and(|c| c.is_ok()));
        drop(body);
        // The upstream notices on its next write; wait for it, bounded.
        tokio::time::timeout(GUARD, async {
            while fake.abandoned() == 0 {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await
        .expect("the upstream stream was not cancelled");
        assert_eq!(fake.abandoned(), 1);
    }
}

#[tokio::test]
async fn bodies_over_the_limit_are_refused_with_413_before_reaching_the_upstream() {
    let fake = FakeUpstream::always(Reply::Output(Output::text("hi")))
        .await
        .unwrap();
    let serve = Serve::start(&fake.url(), |c| c.max_body = 1024).await;
    let mut big = chat_body(false, None);
    big["messages"][0]["content"] = "x".repeat(4096).into();
    let c = client();
    // With a Content-Length…
    let resp = c
        .post(serve.url("/chat/completions"))
        .json(&big)
        .send()
        .await
        .unwrap();
    let (status, v) = error_of(resp).await;
    assert_eq!(status, 413);
    assert_eq!(v["error"]["code"], "request_too_large");
    // …and chunked, without one.
    let bytes = serde_json::to_vec(&big).unwrap();
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
        bytes.chunks(100).map(|c| Ok(c.to_vec())).collect();
    let resp = c
        .post(serve.url("/chat/completions"))
        .header("content-type", "application/json")
        .body(reqwest::Body::wrap_stream(futures::stream::iter(chunks)))
        .send()
        .await
        .unwrap();
    assert_eq!(error_of(resp).await.0, 413);
    assert_eq!(fake.requests(), 0);
    // Under the limit it goes through.
    let resp = c
        .post(serve.url("/chat/completions"))
        .json(&chat_body(false, None))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
}

#[tokio::test]
async fn api_key_is_required_when_set_and_only_the_upstream_key_is_forwarded() {
    let fake = FakeUpstream::always(Reply::Output(Output::text("hi")))
        .await
        .unwrap();
    let serve = Serve::start(&fake.url(), |c| c.api_key = Some("s3cret".into())).await;
    let c = client();
    let url = serve.url("/chat/completions");
    let body = chat_body(false, None);
    for auth in [
        None,
        Some("Bearer wrong"),
        Some("s3cret"),
        Some("Bearer s3cre"),
    ] {
        let mut req = c.post(&url).json(&body);
        if let Some(a) = auth {
            req = req.header("authorization", a);
        }
        let (status, v) = error_of(req.send().await.unwrap()).await;
        assert_eq!(status, 401, "{auth:?}");
        assert_eq!(v["error"]["code"], "invalid_api_key");
    }
    let models = c.get(serve.url("/models")).send().await.unwrap();
    assert_eq!(models.status(), 401);
    let ok = c
        .post(&url)
        .bearer_auth("s3cret")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);
    // The scheme is case-insensitive (RFC 7235 §2.1), the key is not.
    for auth in ["bearer s3cret", "BEARER s3cret", "Bearer  s3cret"] {
        let resp = c
            .post(&url)
            .header("authorization", auth)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 200, "{auth:?}");
    }
    let resp = c
        .post(&url)
        .header("authorization", "bearer S3CRET")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 401);
    // The client's key is toolmend's, not the upstream's: it is not forwarded.
    assert_eq!(fake.last_authorization(), None);
    let health = c
        .get(format!("http://{}/health", serve.addr))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status(), 200);

    let serve = Serve::start(&fake.url(), |c| c.upstream_api_key = Some("up-key".into())).await;
    let ok = c
        .post(serve.url("/chat/completions"))
        .bearer_auth("client-key")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);
    assert_eq!(fake.last_authorization().as_deref(), Some("Bearer up-key"));
}

#[tokio::test]
async fn unknown_routes_and_wrong_methods_answer_an_error_object() {
    let fake = FakeUpstream::always(Reply::Output(Output::text("hi")))
        .await
        .unwrap();
    let serve = Serve::start(&fake.url(), |_| {}).await;
    let c = client();
    let (status, v) = error_of(
        c.post(serve.url("/completions"))
            .json(&chat_body(false, None))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 404);
    assert_eq!(v["error"]["code"], "unknown_route");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("/v1/chat/completions"),
        "{v}"
    );
    let (status, v) = error_of(c.get(serve.url("/chat/completions")).send().await.unwrap()).await;
    assert_eq!(status, 405);
    assert_eq!(v["error"]["code"], "method_not_allowed");
    let resp = c.delete(serve.url("/models")).send().await.unwrap();
    assert!(resp.headers().get("allow").is_some(), "{resp:?}");
    let (status, _) = error_of(resp).await;
    assert_eq!(status, 405);
    assert_eq!(fake.requests(), 0);
}
