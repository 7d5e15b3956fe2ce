//! The Ollama backend against a local HTTP server (127.0.0.1, started by each test) that speaks
//! Ollama's documented `/api/chat` NDJSON stream: plain text, native `tool_calls` (including broken
//! argument strings), an error status, an error line, a corrupt line, and a stream cut off midway.
#![cfg(feature = "ollama")]

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use toolmend::backend::ollama::OllamaBackend;
use toolmend::backend::{
    Backend, BackendError, Control, Event, GenerateOptions, Message, Request, Role, StopReason,
    ToolDef,
};

/// What the fake server sends back.
struct Reply {
    status: &'static str,
    /// Body pieces, written (and flushed) one after another.
    pieces: Vec<String>,
    /// Whether to announce a content-length longer than what is sent (the connection then drops).
    cut: bool,
}

fn line(content: &str, done: bool) -> String {
    let mut v = serde_json::json!({
        "model": "qwen2.5-coder:0.5b",
        "created_at": "2026-01-01T00:00:00Z",
        "message": {"role": "assistant", "content": content},
        "done": done,
    });
    if done {
        let extra = serde_json::json!({
            "done_reason": "stop",
            "total_duration": 5_000_000u64, "load_duration": 1_000_000u64,
            "prompt_eval_count": 26, "prompt_eval_duration": 2_000_000u64,
            "eval_count": 7, "eval_duration": 3_500_000u64,
        });
        for (k, val) in extra.as_object().unwrap() {
            v[k] = val.clone();
        }
    }
    format!("{v}\n")
}

fn call_line(name: &str, arguments: serde_json::Value) -> String {
    let v = serde_json::json!({
        "model": "m", "created_at": "2026-01-01T00:00:00Z",
        "message": {"role": "assistant", "content": "",
                    "tool_calls": [{"function": {"name": name, "arguments": arguments}}]},
        "done": false,
    });
    format!("{v}\n")
}

/// Starts a one-shot server; returns its URL and a handle holding the request body it received.
async fn serve(reply: Reply) -> (String, Arc<Mutex<Option<serde_json::Value>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(None));
    let seen2 = seen.clone();
    tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut req = Vec::new();
        let mut buf = [0u8; 4096];
        // Read headers, then the body by content-length.
        let (head_end, len) = loop {
            let n = socket.read(&mut buf).await.unwrap();
            req.extend_from_slice(&buf[..n]);
            if let Some(p) = req.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&req[..p]).to_ascii_lowercase();
                let len = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .map_or(0, |v| v.trim().parse::<usize>().unwrap());
                break (p + 4, len);
            }
            assert!(n > 0, "client closed before sending headers");
        };
        while req.len() < head_end + len {
            let n = socket.read(&mut buf).await.unwrap();
            if n == 0 {
                break;
            }
            req.extend_from_slice(&buf[..n]);
        }
        *seen2.lock().unwrap() = serde_json::from_slice(&req[head_end..]).ok();
        let total: usize = reply.pieces.iter().map(String::len).sum();
        let announced = if reply.cut { total + 1000 } else { total };
        let head = format!(
            "HTTP/1.1 {}\r\ncontent-type: application/x-ndjson\r\ncontent-length: {announced}\r\nconnection: close\r\n\r\n",
            reply.status
        );
        socket.write_all(head.as_bytes()).await.unwrap();
        for p in &reply.pieces {
            if socket.write_all(p.as_bytes()).await.is_err() {
                return;
            }
            let _ = socket.flush().await;
            tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        }
        let _ = socket.shutdown().await;
    });
    (url, seen)
}

fn request() -> Request {
    let mut tool_msg = Message::new(Role::Tool, "a.txt\nb.txt");
    tool_msg.name = Some("ls".into());
    Request {
        messages: vec![
            Message::new(Role::System, "You are helpful."),
            Message::new(Role::User, "List the files."),
            tool_msg,
        ],
        tools: vec![ToolDef {
            name: "ls".into(),
            description: "List a folder.".into(),
            parameters: serde_json::json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}),
        }],
        options: GenerateOptions::default(),
    }
}

async fn run(
    url: &str,
    stop_on_call: bool,
) -> (Vec<Event>, Result<toolmend::backend::Stats, BackendError>) {
    let mut backend = OllamaBackend::new(url, "qwen2.5-coder:0.5b").unwrap();
    let req = request();
    let mut events = Vec::new();
    let mut sink = |e: Event| {
        let stop = stop_on_call && matches!(e, Event::ToolCall(_));
        events.push(e);
        if stop {
            Control::Stop
        } else {
            Control::Continue
        }
    };
    let r = backend.generate(&req, &mut sink).await;
    (events, r)
}

fn text_of(events: &[Event]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Chunk(c) => Some(c.as_str()),
            Event::ToolCall(_) => None,
        })
        .collect()
}

#[tokio::test]
async fn streams_text_and_reports_stats_and_sends_tools() {
    let (url, seen) = serve(Reply {
        status: "200 OK",
        pieces: vec![
            line("The files", false),
            line(" are a.txt", false),
            line(" and b.txt.", false),
            line("", true),
        ],
        cut: false,
    })
    .await;
    let (events, r) = run(&url, false).await;
    let stats = r.unwrap();
    assert_eq!(text_of(&events), "The files are a.txt and b.txt.");
    assert_eq!(stats.prompt_tokens, 26);
    assert_eq!(stats.generated_tokens, 7);
    assert!((stats.generation_ms - 3.5).abs() < 1e-9);
    assert_eq!(stats.stop, StopReason::EndOfGeneration);
    let body = seen.lock().unwrap().clone().expect("request body");
    assert_eq!(body["stream"], true);
    assert_eq!(body["model"], "qwen2.5-coder:0.5b");
    assert_eq!(body["tools"][0]["function"]["name"], "ls");
    assert_eq!(body["tools"][0]["type"], "function");
    assert_eq!(body["messages"][2]["role"], "tool");
    assert_eq!(body["messages"][2]["tool_name"], "ls");
    assert_eq!(body["options"]["temperature"], 0.0);
}

#[tokio::test]
async fn native_tool_calls_arrive_with_arguments_untouched_even_broken() {
    let broken = serde_json::Value::String("{\"path\": \".\",".into());
    let (url, _) = serve(Reply {
        status: "200 OK",
        pieces: vec![
            call_line("ls", serde_json::json!({"path": "."})),
            call_line("read", broken.clone()),
            line("", true),
        ],
        cut: false,
    })
    .await;
    let (events, r) = run(&url, false).await;
    assert!(r.is_ok());
    let calls: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::ToolCall(c) => Some(c.clone()),
            Event::Chunk(_) => None,
        })
        .collect();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].name, "ls");
    assert_eq!(calls[0].arguments, serde_json::json!({"path": "."}));
    assert_eq!(calls[1].name, "read");
    assert_eq!(calls[1].arguments, broken);
}

#[tokio::test]
async fn the_sink_can_stop_generation() {
    let (url, _) = serve(Reply {
        status: "200 OK",
        pieces: vec![
            call_line("ls", serde_json::json!({"path": "."})),
            line("never seen", false),
            line("", true),
        ],
        cut: false,
    })
    .await;
    let (events, r) = run(&url, true).await;
    assert_eq!(r.unwrap().stop, StopReason::Stopped);
    assert_eq!(events.len(), 1);
}

#[tokio::test]
async fn an_error_status_names_the_problem() {
    let (url, _) = serve(Reply {
        status: "404 Not Found",
        pieces: vec!["{\"error\":\"model 'qwen2.5-coder:0.5b' not found\"}".into()],
        cut: false,
    })
    .await;
    let (events, r) = run(&url, false).await;
    assert!(events.is_empty());
    let err = r.unwrap_err();
    assert!(matches!(err, BackendError::Unavailable(_)));
    let msg = err.to_string();
    assert!(msg.contains("404") && msg.contains("not found"), "{msg}");
    assert!(msg.contains("ollama pull"), "{msg}");
}

#[tokio::test]
async fn an_error_line_mid_stream_is_reported() {
    let (url, _) = serve(Reply {
        status: "200 OK",
        pieces: vec![
            line("partial", false),
            "{\"error\":\"out of memory\"}\n".into(),
        ],
        cut: false,
    })
    .await;
    let (events, r) = run(&url, false).await;
    assert_eq!(text_of(&events), "partial");
    let msg = r.unwrap_err().to_string();
    assert!(msg.contains("out of memory"), "{msg}");
}

#[tokio::test]
async fn a_corrupt_line_is_reported_not_dropped() {
    // Five lines sent; the fourth is corrupt. ollama-rs's own stream would yield four items and
    // print a warning; here the caller gets the three good lines and an error naming line 4.
    let (url, _) = serve(Reply {
        status: "200 OK",
        pieces: vec![
            line("one ", false),
            line("two ", false),
            line("three ", false),
            "{\"model\":\"m\",\"message\":{\"content\":\"fo\n".into(),
            line("", true),
        ],
        cut: false,
    })
    .await;
    let (events, r) = run(&url, false).await;
    assert_eq!(text_of(&events), "one two three ");
    let msg = r.unwrap_err().to_string();
    assert!(msg.contains("line 4"), "{msg}");
}

#[tokio::test]
async fn a_stream_cut_off_midway_is_an_error_and_keeps_the_text() {
    let (url, _) = serve(Reply {
        status: "200 OK",
        pieces: vec![
            line("{\"name\": \"ls\", ", false),
            "{\"model\":\"m\",\"created_at\":\"t\",\"message\":{\"role\":\"assis".into(),
        ],
        cut: true,
    })
    .await;
    let (events, r) = run(&url, false).await;
    assert_eq!(text_of(&events), "{\"name\": \"ls\", ");
    let err = r.unwrap_err();
    assert!(matches!(err, BackendError::Generation(_)), "{err}");
}

#[tokio::test]
async fn a_stream_without_a_done_line_is_cut_off() {
    let (url, _) = serve(Reply {
        status: "200 OK",
        pieces: vec![line("Hello", false)],
        cut: false,
    })
    .await;
    let (events, r) = run(&url, false).await;
    assert_eq!(text_of(&events), "Hello");
    let msg = r.unwrap_err().to_string();
    assert!(msg.contains("cut off"), "{msg}");
}

#[tokio::test]
async fn an_unreachable_server_is_unavailable() {
    // Bind then drop a listener: the port is (almost certainly) closed now.
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
        l.local_addr().unwrap().port()
    };
    let (_, r) = run(&format!("http://127.0.0.1:{port}"), false).await;
    let msg = r.unwrap_err().to_string();
    assert!(msg.contains("cannot reach Ollama"), "{msg}");
}
