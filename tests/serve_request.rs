//! `toolmend serve` honouring what the upstream's answer says: native `arguments` sent as a JSON
//! object. Every case is checked on the JSON and the streamed path.

#[path = "serve/common.rs"]
mod common;

use common::{Serve, chat_body, client, final_of_sse, sse_payloads};
use serde_json::{Value, json};
use toolmend::serve::fake::{FakeUpstream, Reply};

/// `get_weather(city)` and `get_time(tz)`.
fn tools() -> Value {
    json!([
        {"type": "function", "function": {"name": "get_weather", "parameters": {
            "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}},
        {"type": "function", "function": {"name": "get_time", "parameters": {
            "type": "object", "properties": {"tz": {"type": "string"}}, "required": ["tz"]}}}
    ])
}

#[tokio::test]
async fn native_arguments_sent_as_an_object_go_out_as_a_string() {
    let answer = json!({
        "id": "x", "object": "chat.completion", "created": 0, "model": "m",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": null,
            "tool_calls": [
                {"id": "a", "type": "function", "function": {"name": "get_weather", "arguments": {"city": "Paris"}}},
                {"id": "b", "type": "function", "function": {"name": "not_offered", "arguments": {"x": 1}}}
            ]}}]
    });
    let chunk = |delta: Value, finish: Value| {
        let v = json!({"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "m",
                       "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
        format!("data: {v}\n\n").into_bytes()
    };
    let pieces = vec![
        chunk(
            json!({"role": "assistant", "tool_calls": [{"index": 0, "id": "a", "type": "function",
                "function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]}),
            Value::Null,
        ),
        chunk(json!({}), "tool_calls".into()),
        b"data: [DONE]\n\n".to_vec(),
    ];
    let fake = FakeUpstream::start(std::sync::Arc::new(move |req| {
        if req["stream"] == true {
            Reply::Stream {
                pieces: pieces.clone(),
                delay: std::time::Duration::ZERO,
                stall: false,
            }
        } else {
            Reply::Raw {
                status: 200,
                content_type: "application/json".into(),
                body: serde_json::to_vec(&answer).unwrap(),
            }
        }
    }))
    .await
    .unwrap();
    let serve = Serve::start(&fake.url(), |_| {}).await;
    let v: Value = client()
        .post(serve.url("/chat/completions"))
        .json(&chat_body(false, Some(tools())))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let calls = &v["choices"][0]["message"]["tool_calls"];
    assert_eq!(
        calls[0]["function"]["arguments"], r#"{"city":"Paris"}"#,
        "{v}"
    );
    assert_eq!(calls[0]["id"], "a");
    // A call to a tool the request did not offer is left alone, but its arguments must still be
    // a string.
    assert_eq!(calls[1]["function"]["arguments"], r#"{"x":1}"#, "{v}");
    let text = client()
        .post(serve.url("/chat/completions"))
        .json(&chat_body(true, Some(tools())))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let payloads = sse_payloads(&text);
    for p in &payloads[..payloads.len() - 1] {
        let v: Value = serde_json::from_str(p).unwrap();
        for tc in v["choices"][0]["delta"]["tool_calls"]
            .as_array()
            .into_iter()
            .flatten()
        {
            assert!(tc["function"]["arguments"].is_string(), "{p}");
        }
    }
    let streamed = final_of_sse(&payloads);
    assert_eq!(
        streamed.calls,
        vec![("get_weather".to_owned(), json!({"city": "Paris"}))]
    );
}
