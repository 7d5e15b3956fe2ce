//! A whole tool loop through the Ollama backend against the local NDJSON server: native
//! `tool_calls` whose arguments are a broken JSON string are repaired and dispatched to the
//! built-in tools, calls narrated in the text are extracted, and the results are sent back to the
//! server in the next request.
#![cfg(feature = "ollama")]

mod ollama_server;

use ollama_server::{Reply, call_line, line, serve_all};
use serde_json::{Value, json};
use toolmend::agent::{Agent, AgentOptions, DispatchToolbox, EndReason};
use toolmend::backend::ollama::OllamaBackend;

fn workspace() -> &'static std::path::Path {
    std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/workspace"))
}

#[tokio::test]
async fn broken_native_arguments_are_repaired_and_text_calls_extracted() {
    let (url, bodies) = serve_all(vec![
        // Turn 1: a native call whose arguments string lacks its closing brace.
        Reply {
            status: "200 OK",
            pieces: vec![
                call_line("read", Value::String("{\"path\": \"todo.txt\"".into())),
                line("", true),
            ],
            cut: false,
        },
        // Turn 2: a call narrated in the text, not in tool_calls.
        Reply {
            status: "200 OK",
            pieces: vec![
                line(
                    "Next I list the folder:\n```json\n{\"name\": \"ls\", ",
                    false,
                ),
                line("\"arguments\": {\"path\": \".\"}}\n```", false),
                line("", true),
            ],
            cut: false,
        },
        Reply {
            status: "200 OK",
            pieces: vec![line("Two TODOs are open.", false), line("", true)],
            cut: false,
        },
    ])
    .await;
    let backend = OllamaBackend::new(&url, "qwen2.5-coder:0.5b").unwrap();
    let tools = DispatchToolbox::builtin(workspace()).unwrap();
    let options = AgentOptions {
        world_retries: 0,
        ..AgentOptions::default()
    };
    let mut agent = Agent::new(backend, tools, options);
    let t = agent.run("What is left to do?", &mut |_| {}).await;
    assert_eq!(t.end, EndReason::Answered, "{t:#?}");
    let read = &t.turns[0].calls[0];
    assert!(read.native);
    assert!(read.result.is_ok(), "repaired and run: {:?}", read.result);
    assert!(read.result.output.contains("renew the passport"));
    let ls = &t.turns[1].calls[0];
    assert!(!ls.native);
    assert!(ls.result.is_ok(), "{:?}", ls.result);
    // What went back to the server: the read result as a tool message naming its tool.
    let bodies = bodies.lock().unwrap();
    assert_eq!(bodies.len(), 3);
    let msgs = bodies[1]["messages"].as_array().unwrap();
    let tool = msgs.last().unwrap();
    assert_eq!(tool["role"], "tool");
    assert_eq!(tool["tool_name"], "read");
    assert!(
        tool["content"]
            .as_str()
            .unwrap()
            .contains("renew the passport")
    );
    assert_eq!(
        msgs[msgs.len() - 2]["tool_calls"][0]["function"]["name"],
        json!("read")
    );
}

/// Left alone, Ollama drops the oldest messages of a prompt longer than its window without a
/// word, the user's request among them. With a window set, every request carries it as
/// `num_ctx`, and a tool result that would not fit is cut before the request goes out.
#[tokio::test]
async fn a_result_too_long_for_the_window_is_cut_before_it_reaches_ollama() {
    let dir = tempfile::tempdir().unwrap();
    let log: String = (1..=400)
        .map(|i| format!("line {i}: the nightly build passed\n"))
        .collect();
    std::fs::write(dir.path().join("log.txt"), &log).unwrap();
    let (url, bodies) = serve_all(vec![
        Reply {
            status: "200 OK",
            pieces: vec![
                call_line("read", json!({"path": "log.txt"})),
                line("", true),
            ],
            cut: false,
        },
        Reply {
            status: "200 OK",
            pieces: vec![line("Every build passed.", false), line("", true)],
            cut: false,
        },
    ])
    .await;
    let backend = OllamaBackend::new(&url, "qwen2.5-coder:0.5b")
        .unwrap()
        .with_context(2048);
    let tools = DispatchToolbox::builtin(dir.path()).unwrap();
    let mut agent = Agent::new(backend, tools, AgentOptions::default());
    let mut fits = Vec::new();
    let t = agent
        .run("What does log.txt say?", &mut |e| {
            if let toolmend::agent::AgentEvent::ContextFit {
                tokens, context, ..
            } = e
            {
                fits.push((*tokens, *context));
            }
        })
        .await;
    assert_eq!(t.end, EndReason::Answered, "{t:#?}");
    // The person sees the whole result; the model a part that fits.
    assert!(t.turns[0].calls[0].result.output.contains("line 400:"));
    let bodies = bodies.lock().unwrap();
    for b in bodies.iter() {
        assert_eq!(b["options"]["num_ctx"], 2048, "{b}");
    }
    let sent = bodies[1]["messages"].as_array().unwrap();
    assert_eq!(sent[0]["content"], "What does log.txt say?");
    let result = sent.last().unwrap()["content"].as_str().unwrap();
    assert!(result.trim_start().starts_with("1\tline 1: "), "{result}");
    assert!(result.contains("[cut to fit"), "{result}");
    assert!(!result.contains("line 400:"), "{result}");
    assert_eq!(fits.len(), 1);
    let (tokens, context) = fits[0];
    assert_eq!(context, 2048);
    assert!(
        tokens <= 2048 - 512,
        "{tokens} tokens leave room for the reply"
    );
}
