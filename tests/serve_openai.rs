//! The real `openai` Python client calling the `toolmend serve` binary, which fronts the fake
//! upstream replaying `corpus/serve/` (and, when present, the recorded BFCL outputs in
//! `corpus/wild/bfcl/`): `tool_calls` come back, streaming and not; requests without tools get the
//! upstream's answer unchanged; the binary logs one JSON line per request.
//!
//! Needs `python3`; installs `openai` with pip when it is missing and skips (passing, with a note)
//! only when that is impossible.

#[path = "serve/common.rs"]
mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use common::{Final, check, corpus_cases, weather_tools};
use toolmend::serve::fake::{FakeUpstream, Output, Reply};

/// Makes sure `python3` can `import openai`; returns false (after saying why) when it cannot.
fn python_with_openai() -> bool {
    let has = || {
        Command::new("python3")
            .args(["-c", "import openai"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("SKIP: python3 is not installed");
        return false;
    }
    if has() {
        return true;
    }
    let pip = Command::new("python3")
        .args(["-m", "pip", "install", "--quiet", "openai"])
        .status();
    if pip.is_ok_and(|s| s.success()) && has() {
        return true;
    }
    eprintln!("SKIP: the openai package is missing and `pip install openai` failed (no network?)");
    false
}

/// The `toolmend serve` child process; killed and reaped when dropped.
struct Child {
    child: std::process::Child,
    lines: mpsc::Receiver<String>,
}

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Child {
    fn start(upstream: &str) -> (Self, String) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_toolmend"))
            .args([
                "serve",
                "--upstream",
                upstream,
                "--listen",
                "127.0.0.1:0",
                "--json",
                "--report",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn toolmend serve");
        let stderr = child.stderr.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let child = Self { child, lines };
        let first = child
            .lines
            .recv_timeout(Duration::from_secs(30))
            .expect("toolmend serve printed its address");
        let v: serde_json::Value = serde_json::from_str(&first).expect("first line is JSON");
        let url = v["listening"].as_str().expect("listening URL").to_owned();
        (child, url)
    }
}

fn final_of(v: &serde_json::Value) -> Final {
    Final {
        content: v["content"].as_str().map(str::to_owned),
        reasoning: v["reasoning"].as_str().map(str::to_owned),
        calls: v["tool_calls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let a = c["arguments"].as_str().unwrap_or("");
                (
                    c["name"].as_str().unwrap().to_owned(),
                    serde_json::from_str(a).unwrap_or(serde_json::Value::String(a.into())),
                )
            })
            .collect(),
        finish_reason: v["finish_reason"].as_str().map(str::to_owned),
    }
}

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
                let got = final_of(r);
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
