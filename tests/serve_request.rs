//! `toolmend serve` honouring what the request asks for and what the upstream's answer says:
//! `tool_choice` (`none`, a named function), `parallel_tool_calls: false`, an answer cut off at the
//! token limit (`finish_reason: "length"`), and native `arguments` sent as a JSON object. Every
//! case is checked on the JSON and the streamed path, which must agree.

#[path = "serve/common.rs"]
mod common;

use common::{Final, Serve, chat_body, client, final_of_json, final_of_sse, sse_payloads};
use serde_json::{Value, json};
use toolmend::serve::fake::{FakeUpstream, Output, Reply};

/// `get_weather(city)` and `get_time(tz)`.
fn tools() -> Value {
    json!([
        {"type": "function", "function": {"name": "get_weather", "parameters": {
            "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}},
        {"type": "function", "function": {"name": "get_time", "parameters": {
            "type": "object", "properties": {"tz": {"type": "string"}}, "required": ["tz"]}}}
    ])
}

fn hermes(name: &str, args: &Value) -> String {
    format!(
        "<tool_call>\n{}\n</tool_call>\n",
        json!({"name": name, "arguments": args})
    )
}

/// What a client gets for one request: the JSON answer (and its body), and the streamed answer.
struct Both {
    json: Value,
    whole: Final,
    rewritten: bool,
    streamed: Final,
}

/// Sends the request built from `extra` (merged into a chat body with [`tools`]) once as JSON and
/// once as a stream to a server in front of a fake answering `reply`, with `--report`.
async fn ask(reply: Reply, extra: Value) -> Both {
    let fake = FakeUpstream::always(reply).await.unwrap();
    let serve = Serve::start(&fake.url(), |c| c.report = true).await;
    let c = client();
    let body = |stream: bool| {
        let mut b = chat_body(stream, Some(tools()));
        for (k, v) in extra.as_object().unwrap() {
            b[k] = v.clone();
        }
        b
    };
    let resp = c
        .post(serve.url("/chat/completions"))
        .json(&body(false))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let rewritten = resp.headers().get("x-toolmend").is_some();
    let json: Value = resp.json().await.unwrap();
    let text = c
        .post(serve.url("/chat/completions"))
        .json(&body(true))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let streamed = final_of_sse(&sse_payloads(&text));
    Both {
        whole: final_of_json(&json),
        json,
        rewritten,
        streamed,
    }
}

fn output(content: &str, calls: &[(&str, &str)], finish: &str) -> Reply {
    let mut o = Output::text(content);
    o.tool_calls = calls
        .iter()
        .map(|(n, a)| ((*n).to_owned(), (*a).to_owned()))
        .collect();
    o.finish_reason = finish.into();
    Reply::Output(o)
}

#[tokio::test]
async fn a_native_call_cut_off_at_the_token_limit_is_not_presented_as_finished() {
    let cut = r#"{"city": "San Fra"#;
    let b = ask(output("", &[("get_weather", cut)], "length"), json!({})).await;
    for f in [&b.whole, &b.streamed] {
        assert_eq!(f.finish_reason.as_deref(), Some("length"), "{f:?}");
        // Arguments as the model sent them, not completed into `{"city": "San Fra"}`.
        assert_eq!(
            f.calls,
            vec![("get_weather".to_owned(), Value::String(cut.into()))]
        );
    }
    // Nothing was changed: the upstream's answer goes out as it was.
    assert!(!b.rewritten, "{}", b.json);

    // A complete call before the cut one is repaired as usual; the finish reason stays.
    let b = ask(
        output(
            "",
            &[("get_weather", "{'city': 'Paris'}"), ("get_weather", cut)],
            "length",
        ),
        json!({}),
    )
    .await;
    for f in [&b.whole, &b.streamed] {
        assert_eq!(f.finish_reason.as_deref(), Some("length"), "{f:?}");
        assert_eq!(
            f.calls,
            vec![
                ("get_weather".to_owned(), json!({"city": "Paris"})),
                ("get_weather".to_owned(), Value::String(cut.into())),
            ]
        );
    }
    let report = &b.json["toolmend"]["choices"][0]["calls"][1];
    assert!(
        report["error"].as_str().unwrap_or("").contains("cut off"),
        "{}",
        b.json
    );
}

#[tokio::test]
async fn a_text_call_before_a_cut_off_keeps_finish_reason_length() {
    let text = format!(
        "{}<tool_call>\n{{\"name\": \"get_weather\", \"arguments\": {{\"city\": \"Ber",
        hermes("get_weather", &json!({"city": "Paris"}))
    );
    let b = ask(output(&text, &[], "length"), json!({})).await;
    for f in [&b.whole, &b.streamed] {
        assert_eq!(f.finish_reason.as_deref(), Some("length"), "{f:?}");
        assert_eq!(
            f.calls,
            vec![("get_weather".to_owned(), json!({"city": "Paris"}))]
        );
    }
    assert_eq!(b.whole, b.streamed);
}

#[tokio::test]
async fn tool_choice_none_leaves_envelopes_as_content() {
    let text = hermes("get_weather", &json!({"city": "Paris"}));
    let b = ask(output(&text, &[], "stop"), json!({"tool_choice": "none"})).await;
    assert!(!b.rewritten, "{}", b.json);
    for f in [&b.whole, &b.streamed] {
        assert!(f.calls.is_empty(), "{f:?}");
        assert_eq!(f.content.as_deref(), Some(text.as_str()));
        assert_eq!(f.finish_reason.as_deref(), Some("stop"));
    }
}

#[tokio::test]
async fn a_named_tool_choice_recovers_only_that_function() {
    let text = format!(
        "{}{}",
        hermes("get_weather", &json!({"city": "Paris"})),
        hermes("get_time", &json!({"tz": "Europe/Paris"}))
    );
    let choice = json!({"tool_choice": {"type": "function", "function": {"name": "get_time"}}});
    let b = ask(output(&text, &[], "stop"), choice).await;
    for f in [&b.whole, &b.streamed] {
        assert_eq!(
            f.calls,
            vec![("get_time".to_owned(), json!({"tz": "Europe/Paris"}))],
            "{f:?}"
        );
        assert!(
            f.content.as_deref().unwrap_or("").contains("get_weather"),
            "{f:?}"
        );
        assert_eq!(f.finish_reason.as_deref(), Some("tool_calls"));
    }
    assert_eq!(b.whole, b.streamed);
    // `auto` and `required` recover every offered tool.
    for choice in ["auto", "required"] {
        let b = ask(output(&text, &[], "stop"), json!({"tool_choice": choice})).await;
        assert_eq!(b.whole.calls.len(), 2, "{choice}: {:?}", b.whole);
        assert_eq!(b.streamed.calls.len(), 2, "{choice}: {:?}", b.streamed);
    }
}

#[tokio::test]
async fn parallel_tool_calls_false_sends_one_call_and_leaves_the_rest_as_content() {
    let text = format!(
        "{}{}",
        hermes("get_weather", &json!({"city": "Paris"})),
        hermes("get_weather", &json!({"city": "Berlin"}))
    );
    let b = ask(
        output(&text, &[], "stop"),
        json!({"parallel_tool_calls": false}),
    )
    .await;
    for f in [&b.whole, &b.streamed] {
        assert_eq!(
            f.calls,
            vec![("get_weather".to_owned(), json!({"city": "Paris"}))],
            "{f:?}"
        );
        assert!(
            f.content.as_deref().unwrap_or("").contains("Berlin"),
            "{f:?}"
        );
        assert_eq!(f.finish_reason.as_deref(), Some("tool_calls"));
    }
    assert_eq!(b.whole, b.streamed);
    let rejected = &b.json["toolmend"]["choices"][0]["rejected"][0];
    assert!(
        rejected["reason"]
            .as_str()
            .unwrap_or("")
            .contains("parallel_tool_calls"),
        "{}",
        b.json
    );
    let b = ask(
        output(&text, &[], "stop"),
        json!({"parallel_tool_calls": true}),
    )
    .await;
    assert_eq!(b.whole.calls.len(), 2);
    assert_eq!(b.streamed.calls.len(), 2);
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
