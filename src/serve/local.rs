//! The embedded model as the upstream (`toolmend serve --model`): OpenAI chat requests are turned
//! into [`backend::Request`](crate::backend::Request)s and queued on the one model; its output is
//! written back as the chat completion (or SSE chunks) an OpenAI-compatible runtime would send, so
//! the same rewriting path recovers the calls.
//!
//! One worker task owns the backend and runs one generation at a time; at most `queue` requests
//! wait (more get 503). A client that goes away stops its generation: the sink sees the closed
//! channel and answers [`Control::Stop`].

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::error::{ApiError, UpstreamError};
use super::upstream::Answer;
use crate::backend::{
    Backend, Control, Event, GenerateOptions, Message, NativeToolCall, Request, Role, StopReason,
    ToolDef,
};

type Chunks = mpsc::UnboundedSender<Result<Bytes, UpstreamError>>;

struct Job {
    request: Request,
    stream: bool,
    out: Chunks,
}

/// The embedded model behind a queue.
#[derive(Clone)]
pub struct Local {
    jobs: mpsc::Sender<Job>,
    name: Arc<str>,
    queue: usize,
    timeout: Duration,
    defaults: GenerateOptions,
}

impl std::fmt::Debug for Local {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Local")
            .field("name", &self.name)
            .field("queue", &self.queue)
            .finish_non_exhaustive()
    }
}

impl Local {
    /// Starts the worker owning `backend` on the current tokio runtime; at most `queue` requests
    /// wait for it. `defaults` apply where a request does not say (`max_tokens`, `temperature`,
    /// `seed`); `timeout` bounds the wait for each piece of output, as for an HTTP upstream.
    pub fn start(
        backend: Box<dyn Backend>,
        queue: usize,
        defaults: GenerateOptions,
        timeout: Duration,
    ) -> Self {
        let name: Arc<str> = backend.name().into();
        let (jobs, rx) = mpsc::channel(queue.max(1));
        tokio::spawn(worker(backend, rx, Arc::clone(&name)));
        Self {
            jobs,
            name,
            queue: queue.max(1),
            timeout,
            defaults,
        }
    }

    /// The model's name, as `/v1/models` lists it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Queues a chat request (the raw body) and returns its answer, whose body arrives as the
    /// model generates.
    ///
    /// # Errors
    /// 400 when the body is not a chat request, 503 when the queue is full.
    pub fn chat(&self, body: &[u8]) -> Result<Answer, ApiError> {
        let req: Value = serde_json::from_slice(body)
            .map_err(|e| ApiError::bad_request(format!("the request body is not JSON: {e}")))?;
        let stream = req["stream"].as_bool().unwrap_or(false);
        let request = to_request(&req, &self.defaults)?;
        let (out, rx) = mpsc::unbounded_channel();
        self.jobs
            .try_send(Job {
                request,
                stream,
                out,
            })
            .map_err(|_| ApiError::busy(self.queue))?;
        let ct = if stream {
            "text/event-stream"
        } else {
            "application/json"
        };
        Ok(Answer::local(ct, rx, self.timeout))
    }

    /// The `/v1/models` list: the one model.
    pub fn models(&self) -> Value {
        json!({"object": "list", "data": [{"id": &*self.name, "object": "model", "created": 0, "owned_by": "toolmend"}]})
    }
}

async fn worker(mut backend: Box<dyn Backend>, mut rx: mpsc::Receiver<Job>, name: Arc<str>) {
    while let Some(job) = rx.recv().await {
        if job.out.is_closed() {
            continue;
        }
        let id = format!(
            "chatcmpl-{}",
            super::recover::call_id().trim_start_matches("call_")
        );
        let created = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let mut w = Writer {
            out: job.out,
            stream: job.stream,
            id,
            created,
            model: name.to_string(),
            text: String::new(),
            calls: Vec::new(),
        };
        if w.stream {
            w.chunk(json!({"role": "assistant", "content": ""}), Value::Null);
        }
        let result = {
            let mut sink = |e: Event| w.event(e);
            backend.generate(&job.request, &mut sink).await
        };
        match result {
            Ok(stats) => w.end(stats.stop, stats.prompt_tokens, stats.generated_tokens),
            Err(e) => {
                let _ = w.out.send(Err(UpstreamError::Model {
                    message: e.to_string(),
                }));
            }
        }
    }
}

/// Writes one generation as an OpenAI answer.
struct Writer {
    out: Chunks,
    stream: bool,
    id: String,
    created: u64,
    model: String,
    text: String,
    calls: Vec<NativeToolCall>,
}

impl Writer {
    fn event(&mut self, e: Event) -> Control {
        match e {
            Event::Chunk(s) => {
                if self.stream {
                    self.chunk(json!({ "content": s }), Value::Null);
                } else {
                    self.text.push_str(&s);
                }
            }
            Event::ToolCall(c) => {
                if self.stream {
                    let i = self.calls.len();
                    self.chunk(json!({"tool_calls": [call_json(i, &c)]}), Value::Null);
                }
                self.calls.push(c);
            }
        }
        if self.out.is_closed() {
            Control::Stop
        } else {
            Control::Continue
        }
    }

    fn chunk(&self, delta: Value, finish: Value) {
        let v = json!({
            "id": self.id, "object": "chat.completion.chunk", "created": self.created, "model": self.model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]
        });
        let _ = self.out.send(Ok(Bytes::from(format!("data: {v}\n\n"))));
    }

    fn end(&mut self, stop: StopReason, prompt: u32, generated: u32) {
        let finish = match stop {
            StopReason::MaxTokens | StopReason::ContextFull => "length",
            _ if !self.calls.is_empty() => "tool_calls",
            _ => "stop",
        };
        let usage = json!({"prompt_tokens": prompt, "completion_tokens": generated, "total_tokens": prompt + generated});
        if self.stream {
            self.chunk(json!({}), finish.into());
            let _ = self.out.send(Ok(Bytes::from_static(b"data: [DONE]\n\n")));
            return;
        }
        let mut message = json!({"role": "assistant", "content": self.text});
        if !self.calls.is_empty() {
            message["tool_calls"] = self
                .calls
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let mut v = call_json(i, c);
                    if let Value::Object(o) = &mut v {
                        o.remove("index");
                    }
                    v
                })
                .collect();
        }
        let v = json!({
            "id": self.id, "object": "chat.completion", "created": self.created, "model": self.model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": usage,
        });
        let _ = self.out.send(Ok(Bytes::from(v.to_string())));
    }
}

fn call_json(i: usize, c: &NativeToolCall) -> Value {
    let arguments = match &c.arguments {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    json!({
        "index": i,
        "id": c.id.clone().unwrap_or_else(super::recover::call_id),
        "type": "function",
        "function": {"name": c.name, "arguments": arguments},
    })
}

/// An OpenAI chat request as a backend request.
fn to_request(req: &Value, defaults: &GenerateOptions) -> Result<Request, ApiError> {
    let Some(list) = req["messages"].as_array() else {
        return Err(ApiError::bad_request(
            "`messages` must be an array of messages",
        ));
    };
    let mut messages = Vec::with_capacity(list.len());
    for (i, m) in list.iter().enumerate() {
        let role = match m["role"].as_str() {
            Some("system" | "developer") => Role::System,
            Some("user") => Role::User,
            Some("assistant") => Role::Assistant,
            Some("tool") => Role::Tool,
            other => {
                return Err(ApiError::bad_request(format!(
                    "messages[{i}].role is {other:?}: use system, user, assistant or tool"
                )));
            }
        };
        let mut msg = Message::new(role, text_of(&m["content"]));
        msg.tool_call_id = m["tool_call_id"].as_str().map(str::to_owned);
        msg.name = m["name"].as_str().map(str::to_owned);
        for c in m["tool_calls"].as_array().into_iter().flatten() {
            let f = &c["function"];
            msg.tool_calls.push(NativeToolCall {
                id: c["id"].as_str().map(str::to_owned),
                name: f["name"].as_str().unwrap_or_default().to_owned(),
                arguments: match &f["arguments"] {
                    Value::String(s) => {
                        serde_json::from_str(s).unwrap_or_else(|_| s.clone().into())
                    }
                    other => other.clone(),
                },
            });
        }
        messages.push(msg);
    }
    let tools = req["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| {
            let f = t.get("function")?;
            Some(ToolDef {
                name: f["name"].as_str()?.to_owned(),
                description: f["description"].as_str().unwrap_or_default().to_owned(),
                parameters: f
                    .get("parameters")
                    .cloned()
                    .unwrap_or_else(|| json!({"type": "object"})),
            })
        })
        .collect();
    let mut options = defaults.clone();
    if let Some(n) = req["max_completion_tokens"]
        .as_u64()
        .or(req["max_tokens"].as_u64())
    {
        options.max_tokens = u32::try_from(n).unwrap_or(u32::MAX);
    }
    if let Some(t) = req["temperature"].as_f64() {
        #[allow(clippy::cast_possible_truncation)]
        let t = t as f32;
        options.temperature = t;
    }
    if let Some(s) = req["seed"].as_u64() {
        #[allow(clippy::cast_possible_truncation)]
        let s = s as u32;
        options.seed = s;
    }
    Ok(Request {
        messages,
        tools,
        options,
    })
}

/// A message's text: a string, or the text parts of a content array joined.
fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openai_requests_become_backend_requests() {
        let req = json!({
            "messages": [
                {"role": "system", "content": "be brief"},
                {"role": "user", "content": [{"type": "text", "text": "hi "}, {"type": "text", "text": "there"}]},
                {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\"a\":1}"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": "42"}
            ],
            "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}],
            "max_tokens": 7, "temperature": 0.5
        });
        let r = to_request(&req, &GenerateOptions::default()).unwrap();
        assert_eq!(r.messages.len(), 4);
        assert_eq!(r.messages[1].content, "hi there");
        assert_eq!(r.messages[2].tool_calls[0].arguments, json!({"a": 1}));
        assert_eq!(r.messages[3].tool_call_id.as_deref(), Some("c1"));
        assert_eq!(r.tools[0].name, "f");
        assert_eq!(r.options.max_tokens, 7);
        assert!(
            to_request(
                &json!({"messages": [{"role": "robot"}]}),
                &GenerateOptions::default()
            )
            .is_err()
        );
    }
}
