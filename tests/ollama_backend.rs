//! The Ollama backend against a local HTTP server (127.0.0.1, started by each test) that speaks
//! Ollama's documented `/api/chat` NDJSON stream: plain text, native `tool_calls` (including broken
//! argument strings), an error status, an error line, a corrupt line, and a stream cut off midway.
#![cfg(feature = "ollama")]

use tokio::net::TcpListener;
use toolmend::backend::ollama::OllamaBackend;
use toolmend::backend::{
    Backend, BackendError, Control, Event, GenerateOptions, Message, Request, Role, StopReason,
    ToolDef,
};

mod ollama_server;

use ollama_server::{Reply, call_line, line, serve};

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
    let body = seen.lock().unwrap().first().cloned().expect("request body");
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

/// A final (`"done": true`) line with exactly the given extra fields.
fn final_line(extra: serde_json::Value) -> String {
    let mut v = serde_json::json!({
        "model": "qwen2.5-coder:0.5b",
        "created_at": "2026-01-01T00:00:00Z",
        "message": {"role": "assistant", "content": ""},
        "done": true,
    });
    for (k, val) in extra.as_object().unwrap() {
        v[k] = val.clone();
    }
    format!("{v}\n")
}

#[tokio::test]
async fn done_reason_length_is_max_tokens() {
    // Regression: `done_reason` was never read, so a reply cut off by `num_predict` looked like
    // a finished one and the agent's AnswerCutOff never fired on Ollama.
    let (url, _) = serve(Reply {
        status: "200 OK",
        pieces: vec![
            line("The answer is", false),
            final_line(serde_json::json!({
                "done_reason": "length", "total_duration": 10, "load_duration": 1,
                "prompt_eval_count": 20, "prompt_eval_duration": 5,
                "eval_count": 2, "eval_duration": 4_000_000u64})),
        ],
        cut: false,
    })
    .await;
    let (events, r) = run(&url, false).await;
    let stats = r.unwrap();
    assert_eq!(text_of(&events), "The answer is");
    assert_eq!(stats.stop, StopReason::MaxTokens);
    assert_eq!(stats.generated_tokens, 2);
}

#[tokio::test]
async fn a_final_line_missing_some_metrics_keeps_the_others() {
    // Regression: Ollama omits zero-valued metrics (Go `omitempty`), e.g. `prompt_eval_count`
    // when the whole prompt came from its cache; all six were read as one optional struct, so
    // one missing field lost every metric.
    let (url, _) = serve(Reply {
        status: "200 OK",
        pieces: vec![
            line("Hi", false),
            final_line(serde_json::json!({
                "done_reason": "stop", "total_duration": 10, "load_duration": 1,
                "eval_count": 7, "eval_duration": 4_000_000u64})),
        ],
        cut: false,
    })
    .await;
    let (_, r) = run(&url, false).await;
    let stats = r.unwrap();
    assert_eq!(stats.stop, StopReason::EndOfGeneration);
    assert_eq!(stats.generated_tokens, 7);
    assert!((stats.generation_ms - 4.0).abs() < 1e-9, "{stats:?}");
    assert_eq!(stats.prompt_tokens, 0);
}

/// Before the first turn: an unreachable server and a model the server does not have are each
/// reported as such (the CLI's set-up errors, exit 2); a server that has the model passes.
#[tokio::test]
async fn check_reports_an_unreachable_server_and_a_missing_model() {
    let closed = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let err = OllamaBackend::new(&url, "m")
        .unwrap()
        .check()
        .await
        .unwrap_err();
    assert!(matches!(err, BackendError::Unavailable(_)));
    assert!(err.to_string().contains("cannot reach Ollama"), "{err}");

    let (url, seen) = ollama_server::serve_all(vec![
        Reply {
            status: "200 OK",
            pieces: vec!["{\"version\": \"0.6.0\"}".into()],
            cut: false,
        },
        Reply {
            status: "404 Not Found",
            pieces: vec!["{\"error\": \"model 'nope' not found\"}".into()],
            cut: false,
        },
    ])
    .await;
    let err = OllamaBackend::new(&url, "nope")
        .unwrap()
        .check()
        .await
        .unwrap_err();
    assert!(err.to_string().contains("has no model \"nope\""), "{err}");
    assert!(err.to_string().contains("ollama pull nope"), "{err}");
    assert_eq!(seen.lock().unwrap().last().unwrap()["model"], "nope");

    let (url, _) = ollama_server::serve_all(vec![
        Reply {
            status: "200 OK",
            pieces: vec!["{\"version\": \"0.6.0\"}".into()],
            cut: false,
        },
        Reply {
            status: "200 OK",
            pieces: vec!["{}".into()],
            cut: false,
        },
    ])
    .await;
    OllamaBackend::new(&url, "qwen2.5-coder:0.5b")
        .unwrap()
        .check()
        .await
        .unwrap();
}
