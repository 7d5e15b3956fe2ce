//! `toolmend serve` answering with an embedded backend instead of an upstream (`--model`; here the
//! scripted backend through the hidden `--script`, so no model file is needed): requests are turned
//! into backend requests, queued on the one model, and the output goes through the same recovery.

#[path = "serve/common.rs"]
mod common;

use std::io::Write;

use common::{Child, chat_body, client, final_of_json, final_of_sse, sse_payloads, weather_tools};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_embedded_backend_serves_repaired_tool_calls() {
    let mut script = tempfile::NamedTempFile::new().unwrap();
    for turn in [
        json!(
            "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": \"2\"}}\n</tool_call>"
        ),
        json!(
            "Sure.\n```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}\n```"
        ),
        json!({"text": "", "tool_calls": [{"name": "get_weather", "arguments": "{\"city\": \"Rome\""}]}),
        json!("Hello there."),
    ] {
        writeln!(script, "{turn}").unwrap();
    }
    let (_child, url) = Child::spawn(&["--script", script.path().to_str().unwrap()]);
    let c = client();
    let post =
        |body: serde_json::Value| c.post(format!("{url}/chat/completions")).json(&body).send();

    let v: serde_json::Value = post(chat_body(false, Some(weather_tools())))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let got = final_of_json(&v);
    assert_eq!(
        got.calls,
        vec![(
            "get_weather".to_owned(),
            json!({"city": "Paris", "days": 2})
        )]
    );
    assert_eq!(got.finish_reason.as_deref(), Some("tool_calls"));
    assert_eq!(v["object"], "chat.completion");

    let text = post(chat_body(true, Some(weather_tools())))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let got = final_of_sse(&sse_payloads(&text));
    assert_eq!(
        got.calls,
        vec![("get_weather".to_owned(), json!({"city": "Oslo"}))]
    );
    assert_eq!(got.content.as_deref(), Some("Sure."));

    let v: serde_json::Value = post(chat_body(false, Some(weather_tools())))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        final_of_json(&v).calls,
        vec![("get_weather".to_owned(), json!({"city": "Rome"}))]
    );

    let v: serde_json::Value = post(chat_body(false, None))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let got = final_of_json(&v);
    assert_eq!(got.content.as_deref(), Some("Hello there."));
    assert_eq!(got.finish_reason.as_deref(), Some("stop"));

    let models: serde_json::Value = c
        .get(format!("{url}/models"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(models["data"][0]["id"], "scripted");

    let bad = post(json!({"messages": [{"role": "robot", "content": "x"}]}))
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
    let v: serde_json::Value = bad.json().await.unwrap();
    assert!(v["error"]["message"].as_str().unwrap().contains("role"));
}

#[test]
fn usage_errors_exit_2_with_a_message() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_toolmend"))
            .arg("serve")
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = run(&[]);
    assert_eq!(code, Some(2), "{err}");
    let (code, err) = run(&[
        "--upstream",
        "https://example.com/v1",
        "--listen",
        "127.0.0.1:0",
    ]);
    assert_eq!(code, Some(2));
    assert!(err.contains("only http://"), "{err}");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let (code, err) = run(&["--upstream", "http://127.0.0.1:1/v1", "--listen", &addr]);
    assert_eq!(code, Some(2));
    assert!(err.contains("cannot listen"), "{err}");
    let (code, err) = run(&["--upstream", "http://127.0.0.1:1/v1", "--timeout", "0"]);
    assert_eq!(code, Some(2), "{err}");
    // Finite but too large for a Duration: a usage error, not a panic (exit 101).
    let (code, err) = run(&["--upstream", "http://127.0.0.1:1/v1", "--timeout", "1e20"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--timeout"), "{err}");
}
