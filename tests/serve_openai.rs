//! The real `openai` Python client calling the `toolmend serve` binary, which fronts the fake
//! upstream replaying `corpus/serve/` (and, when present, the recorded BFCL outputs in
//! `corpus/wild/bfcl/`): `tool_calls` come back, streaming and not; requests without tools get the
//! upstream's answer unchanged; the binary logs one JSON line per request.
//!
//! Needs `python3`; installs `openai` with pip when it is missing and skips (passing, with a note)
//! only when that is impossible.

#[path = "serve/common.rs"]
mod common;

use std::io::Write;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use common::{
    Child, Final, check, corpus_cases, final_of_client, python_with_openai, weather_tools,
};
use toolmend::serve::fake::{FakeUpstream, Output, Reply};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_openai_python_client_gets_tool_calls_from_toolmend_serve() {
    if !python_with_openai() {
        return;
    }
    let cases = corpus_cases();
    let by_name: std::collections::HashMap<String, Output> = cases
        .iter()
        .map(|c| (c.name.clone(), c.output.clone()))
        .collect();
    let fake = FakeUpstream::start(Arc::new(move |req| {
        let name = req["messages"][0]["content"].as_str().unwrap_or("");
        Reply::Output(
            by_name
                .get(name)
                .cloned()
                .unwrap_or_else(|| Output::text("?")),
        )
    }))
    .await
    .unwrap();
    let (child, url) = Child::start(&fake.url());

    let mut requests = tempfile::NamedTempFile::new().unwrap();
    let mut n = 0;
    for c in &cases {
        for stream in [false, true] {
            for tools in [true, false] {
                let tools = tools.then(weather_tools);
                let line = serde_json::json!({"name": c.name, "content": c.name, "tools": tools, "stream": stream});
                writeln!(requests, "{line}").unwrap();
                n += 1;
            }
        }
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/serve/client.py");
    let path = requests.path().to_owned();
    let out = tokio::task::spawn_blocking(move || {
        Command::new("python3")
            .arg(script)
            .arg(&url)
            .arg(&path)
            .output()
    })
    .await
    .unwrap()
    .expect("run client.py");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(results.len(), n);

    let mut failures = Vec::new();
    let mut i = 0;
    for c in &cases {
        for stream in [false, true] {
            for tools in [true, false] {
                let r = &results[i];
                i += 1;
                assert!(r.get("error").is_none(), "{}: {}", c.name, r["error"]);
                let got = final_of_client(r);
                let mode = if stream { "stream" } else { "json" };
                if tools {
                    for bad in check(&c.expect, &got) {
                        failures.push(format!("{} ({mode}): {bad}", c.name));
                    }
                    for call in r["tool_calls"].as_array().unwrap() {
                        assert!(call["id"].as_str().is_some_and(|id| !id.is_empty()));
                        assert_eq!(call["type"], "function");
                    }
                } else {
                    // Without tools the client sees exactly what the upstream said.
                    let want = Final {
                        content: c.output.content.clone().filter(|s| !s.is_empty()),
                        reasoning: c.output.reasoning.clone(),
                        calls: c
                            .output
                            .tool_calls
                            .iter()
                            .map(|(n, a)| {
                                let v = serde_json::from_str(a)
                                    .unwrap_or(serde_json::Value::String(a.clone()));
                                (n.clone(), v)
                            })
                            .collect(),
                        finish_reason: Some(c.output.finish_reason.clone()),
                    };
                    if got != want {
                        failures.push(format!(
                            "{} ({mode}, no tools): got {got:?}, upstream said {want:?}",
                            c.name
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // One JSON log line per request, with the fields the issue names.
    drop(fake);
    let mut logs = Vec::new();
    while logs.len() < n {
        let line = child
            .lines
            .recv_timeout(Duration::from_secs(10))
            .expect("a log line per request");
        logs.push(serde_json::from_str::<serde_json::Value>(&line).expect("log line is JSON"));
    }
    for l in &logs {
        assert_eq!(l["method"], "POST");
        assert_eq!(l["status"], 200);
        assert!(l["upstream_ms"].is_number() && l["toolmend_ms"].is_number());
        assert!(l["calls_recovered"].is_number());
    }
    assert!(logs.iter().any(|l| l["calls_recovered"].as_u64() > Some(0)));
}
