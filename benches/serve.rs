//! Added latency of `toolmend serve` over the fake upstream, measured in the same run as the fake
//! reached directly: non-streaming per request (no tools: pass-through; tools: a call recovered
//! from content), and a 200-event stream (the per-chunk cost is the difference divided by 200).
//!
//! Each benchmark first checks its answer (a call is recovered, the stream is complete) before it
//! is timed. Run: `cargo bench --no-default-features --bench serve`.

use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use toolmend::serve::fake::{FakeUpstream, Output, Reply};
use toolmend::serve::log::LogFormat;
use toolmend::serve::pipeline::Pipeline;
use toolmend::serve::{Config, Server};

const CALL: &str = "Let me check.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"unit\": \"celsius\"}}\n</tool_call>";

fn body(stream: bool, tools: bool) -> serde_json::Value {
    let mut b = serde_json::json!({
        "model": "fake-model",
        "messages": [{"role": "user", "content": "weather in Paris?"}],
        "stream": stream,
    });
    if tools {
        b["tools"] = serde_json::json!([{"type": "function", "function": {
            "name": "get_weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "unit": {"type": "string"}}, "required": ["city"]}
        }}]);
    }
    b
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let (fake, serve_url, _stop) = rt.block_on(async {
        let fake = FakeUpstream::start(Arc::new(|req| {
            let mut o = Output::text(CALL);
            if req["messages"][0]["content"] == "long" {
                o = Output::text("word ".repeat(200));
                o.chunk_chars = 5;
            }
            Reply::Output(o)
        }))
        .await
        .unwrap();
        let mut config = Config::new(fake.url(), Arc::new(Pipeline::default()));
        config.log = LogFormat::Off;
        let server = Server::bind(config, "127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/v1", server.local_addr().unwrap());
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(server.run(async move {
            let _ = rx.await;
        }));
        (fake, url, tx)
    });
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let post = |base: &str, b: serde_json::Value| {
        let client = client.clone();
        let url = format!("{base}/chat/completions");
        async move {
            client
                .post(url)
                .json(&b)
                .send()
                .await
                .unwrap()
                .bytes()
                .await
                .unwrap()
        }
    };

    // Check before timing.
    let direct = fake.url();
    let answer = rt.block_on(post(&serve_url, body(false, true)));
    let v: serde_json::Value = serde_json::from_slice(&answer).unwrap();
    assert_eq!(v["choices"][0]["finish_reason"], "tool_calls", "{v}");
    let plain = rt.block_on(post(&serve_url, body(false, false)));
    assert_eq!(plain, rt.block_on(post(&direct, body(false, false))));

    let mut g = c.benchmark_group("nonstream");
    g.measurement_time(Duration::from_secs(4)).sample_size(50);
    g.bench_function("direct", |b| {
        b.iter(|| rt.block_on(post(&direct, body(false, true))))
    });
    g.bench_function("toolmend_no_tools", |b| {
        b.iter(|| rt.block_on(post(&serve_url, body(false, false))))
    });
    g.bench_function("toolmend_call_recovered", |b| {
        b.iter(|| rt.block_on(post(&serve_url, body(false, true))))
    });
    g.finish();

    let mut long = body(true, true);
    long["messages"][0]["content"] = "long".into();
    let streamed = rt.block_on(post(&serve_url, long.clone()));
    assert!(streamed.ends_with(b"data: [DONE]\n\n"));
    let mut g = c.benchmark_group("stream_200_chunks");
    g.measurement_time(Duration::from_secs(4)).sample_size(30);
    g.bench_function("direct", |b| {
        b.iter(|| rt.block_on(post(&direct, long.clone())))
    });
    g.bench_function("toolmend_tools", |b| {
        b.iter(|| rt.block_on(post(&serve_url, long.clone())))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
