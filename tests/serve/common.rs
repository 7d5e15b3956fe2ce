//! Helpers shared by the `serve_*` tests: an in-process `toolmend serve` on a free loopback port
//! that stops when dropped, and a plain HTTP client.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use toolmend::serve::log::LogFormat;
use toolmend::serve::pipeline::Pipeline;
use toolmend::serve::{Config, Server};

/// A running in-process `toolmend serve`; stops when dropped.
pub struct Serve {
    pub addr: SocketAddr,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl Serve {
    /// Starts a server in front of `upstream`, after letting `tweak` adjust the configuration.
    pub async fn start(upstream: &str, tweak: impl FnOnce(&mut Config)) -> Self {
        let mut config = Config::new(upstream, Arc::new(Pipeline::default()));
        config.log = LogFormat::Off;
        tweak(&mut config);
        let server = Server::bind(config, "127.0.0.1:0")
            .await
            .expect("bind loopback");
        let addr = server.local_addr().expect("local addr");
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(server.run(async move {
            let _ = rx.await;
        }));
        Self { addr, _stop: tx }
    }

    /// `http://ADDR/v1` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}/v1{path}", self.addr)
    }

    /// Posts [`chat_body`]`(stream, tools)` to `/chat/completions` and returns the response.
    pub async fn chat(&self, stream: bool, tools: Option<serde_json::Value>) -> reqwest::Response {
        client()
            .post(self.url("/chat/completions"))
            .json(&chat_body(stream, tools))
            .send()
            .await
            .expect("serve answers")
    }
}

/// A client that never goes through a proxy.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client")
}

/// A chat request body, with `tools` when given.
pub fn chat_body(stream: bool, tools: Option<serde_json::Value>) -> serde_json::Value {
    let mut b = serde_json::json!({
        "model": "fake-model",
        "messages": [{"role": "user", "content": "What is the weather in Paris?"}],
        "stream": stream,
    });
    if let Some(t) = tools {
        b["tools"] = t;
    }
    b
}

/// One `get_weather(city, unit?)` tool, in the request form.
pub fn weather_tools() -> serde_json::Value {
    serde_json::json!([{
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather in a city",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string"},
                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    "days": {"type": "integer"}
                },
                "required": ["city"]
            }
        }
    }])
}

/// The `data:` payloads of an SSE body, in order.
pub fn sse_payloads(body: &str) -> Vec<String> {
    body.split("\n\n")
        .filter_map(|ev| {
            let data: Vec<&str> = ev
                .lines()
                .filter_map(|l| {
                    l.strip_prefix("data:")
                        .map(|d| d.strip_prefix(' ').unwrap_or(d))
                })
                .collect();
            (!data.is_empty()).then(|| data.join("\n"))
        })
        .collect()
}

/// One replay case of `corpus/serve/`: a recorded model output and what the client must receive.
#[derive(Debug, Clone)]
pub struct Case {
    pub name: String,
    pub output: toolmend::serve::fake::Output,
    pub expect: serde_json::Value,
}

/// Reads every case of `corpus/serve/`, sorted by name.
pub fn corpus_cases() -> Vec<Case> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/serve");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus/serve exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            let o = &v["output"];
            let mut output = toolmend::serve::fake::Output::text("");
            output.content = o["content"].as_str().map(str::to_owned);
            output.reasoning = o["reasoning"].as_str().map(str::to_owned);
            output.tool_calls = o["tool_calls"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|c| (c[0].as_str().unwrap().into(), c[1].as_str().unwrap().into()))
                        .collect()
                })
                .unwrap_or_default();
            Case {
                name: p.file_stem().unwrap().to_string_lossy().into_owned(),
                output,
                expect: v["expect"].clone(),
            }
        })
        .collect()
}

/// The parts of an assistant message a client ends up with, comparable across JSON and SSE.
#[derive(Debug, Clone, PartialEq)]
pub struct Final {
    pub content: Option<String>,
    pub reasoning: Option<String>,
    /// Name and parsed arguments of each call (ids differ between answers by design).
    pub calls: Vec<(String, serde_json::Value)>,
    pub finish_reason: Option<String>,
}

/// The final message of a non-streamed answer.
pub fn final_of_json(v: &serde_json::Value) -> Final {
    let c = &v["choices"][0];
    let m = &c["message"];
    Final {
        content: m["content"].as_str().map(str::to_owned),
        reasoning: m["reasoning_content"].as_str().map(str::to_owned),
        calls: calls_of(&m["tool_calls"]),
        finish_reason: c["finish_reason"].as_str().map(str::to_owned),
    }
}

fn calls_of(v: &serde_json::Value) -> Vec<(String, serde_json::Value)> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|c| {
                    let f = &c["function"];
                    let args = f["arguments"].as_str().unwrap_or("null");
                    (
                        f["name"].as_str().unwrap_or("").to_owned(),
                        serde_json::from_str(args)
                            .unwrap_or(serde_json::Value::String(args.into())),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The final message a client assembles from SSE payloads, the way the `openai` SDK does: content
/// and reasoning deltas concatenated, call fragments merged by index; also checks that every call
/// has an id and `type: "function"`, and that the stream ends with `[DONE]`.
pub fn final_of_sse(payloads: &[String]) -> Final {
    assert_eq!(
        payloads.last().map(String::as_str),
        Some("[DONE]"),
        "{payloads:?}"
    );
    let mut content: Option<String> = None;
    let mut reasoning: Option<String> = None;
    let mut calls: Vec<(Option<String>, String, String)> = Vec::new();
    let mut finish = None;
    for p in &payloads[..payloads.len() - 1] {
        let v: serde_json::Value = serde_json::from_str(p).expect("SSE data is JSON");
        assert!(v.get("error").is_none(), "error event: {p}");
        let Some(c) = v["choices"].get(0) else {
            continue;
        };
        let d = &c["delta"];
        if let Some(s) = d["content"].as_str() {
            content.get_or_insert_with(String::new).push_str(s);
        }
        if let Some(s) = d["reasoning_content"].as_str() {
            reasoning.get_or_insert_with(String::new).push_str(s);
        }
        for tc in d["tool_calls"].as_array().into_iter().flatten() {
            let i = tc["index"].as_u64().expect("tool call delta has an index") as usize;
            if calls.len() <= i {
                calls.resize(i + 1, (None, String::new(), String::new()));
            }
            if let Some(id) = tc["id"].as_str() {
                assert_eq!(tc["type"], "function");
                calls[i].0 = Some(id.to_owned());
            }
            if let Some(n) = tc["function"]["name"].as_str() {
                calls[i].1.push_str(n);
            }
            if let Some(a) = tc["function"]["arguments"].as_str() {
                calls[i].2.push_str(a);
            }
        }
        if let Some(f) = c["finish_reason"].as_str() {
            finish = Some(f.to_owned());
        }
    }
    let calls = calls
        .into_iter()
        .map(|(id, n, a)| {
            assert!(id.is_some(), "call {n} has no id");
            (
                n,
                serde_json::from_str(&a).unwrap_or(serde_json::Value::String(a)),
            )
        })
        .collect();
    // An empty content delta (the role chunk) is how runtimes start; it is not content.
    let content = content.filter(|c| !c.is_empty());
    Final {
        content,
        reasoning,
        calls,
        finish_reason: finish,
    }
}

/// Checks `got` against a case's `expect` block; returns a description of each mismatch.
pub fn check(expect: &serde_json::Value, got: &Final) -> Vec<String> {
    let mut bad = Vec::new();
    let want: Vec<(String, serde_json::Value)> = expect["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_owned(),
                c["arguments"].clone(),
            )
        })
        .collect();
    if got.calls != want {
        bad.push(format!("calls: want {want:?}, got {:?}", got.calls));
    }
    let want_finish = if want.is_empty() {
        "stop"
    } else {
        "tool_calls"
    };
    if got.finish_reason.as_deref() != Some(want_finish) {
        bad.push(format!(
            "finish_reason: want {want_finish}, got {:?}",
            got.finish_reason
        ));
    }
    if let Some(c) = expect.get("content") {
        let want = c.as_str().map(str::to_owned);
        let got_c = got.content.clone().filter(|s| !s.trim().is_empty());
        if got_c != want {
            bad.push(format!("content: want {want:?}, got {:?}", got.content));
        }
    }
    if let Some(s) = expect["content_contains"].as_str()
        && !got.content.as_deref().unwrap_or("").contains(s)
    {
        bad.push(format!(
            "content should contain {s:?}, got {:?}",
            got.content
        ));
    }
    if let Some(s) = expect["reasoning_contains"].as_str()
        && !got.reasoning.as_deref().unwrap_or("").contains(s)
    {
        bad.push(format!(
            "reasoning should contain {s:?}, got {:?}",
            got.reasoning
        ));
    }
    bad
}

/// Makes sure `python3` can `import openai`; returns false (after saying why) when it cannot.
pub fn python_with_openai() -> bool {
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
pub struct Child {
    child: std::process::Child,
    pub lines: mpsc::Receiver<String>,
}

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Child {
    pub fn start(upstream: &str) -> (Self, String) {
        Self::spawn(&["--upstream", upstream])
    }

    /// `toolmend serve ARGS --listen 127.0.0.1:0 --json --report`; returns it and its base URL.
    pub fn spawn(args: &[&str]) -> (Self, String) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_toolmend"))
            .arg("serve")
            .args(args)
            .args(["--listen", "127.0.0.1:0", "--json", "--report"])
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

/// The final message of one `client.py` result line.
pub fn final_of_client(v: &serde_json::Value) -> Final {
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
