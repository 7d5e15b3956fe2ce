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
