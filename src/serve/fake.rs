//! A fake OpenAI-compatible upstream on loopback, for tests and benchmarks.
//!
//! It replays scripted model outputs as a chat completion or as an SSE stream (whichever the
//! request asks for), and can misbehave on purpose: error statuses, malformed bodies, stalls, slow
//! streams. It binds `127.0.0.1:0`, runs on the caller's tokio runtime, and stops when dropped:
//! no process and no port outlive it. It counts the streams a client abandoned, so tests can check
//! that a client disconnect reaches the upstream.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use tokio::sync::watch;

/// A model output to replay.
#[derive(Debug, Clone, PartialEq)]
pub struct Output {
    /// The text the model wrote (`None`: `content: null`).
    pub content: Option<String>,
    /// Reasoning the runtime separated (`reasoning_content`).
    pub reasoning: Option<String>,
    /// Calls the runtime reported natively: name and arguments text.
    pub tool_calls: Vec<(String, String)>,
    /// Characters per streamed content delta (at least 1).
    pub chunk_chars: usize,
    /// Pause between streamed events.
    pub delay: Duration,
    /// The finish reason reported.
    pub finish_reason: String,
}

impl Output {
    /// A plain text answer, streamed 4 characters per delta with no pause.
    pub fn text(content: impl Into<String>) -> Self {
        Self {
            content: Some(content.into()),
            reasoning: None,
            tool_calls: Vec::new(),
            chunk_chars: 4,
            delay: Duration::ZERO,
            finish_reason: "stop".into(),
        }
    }
}

/// What the fake answers to one chat request.
#[derive(Debug, Clone)]
pub enum Reply {
    /// A model answer, as JSON or SSE depending on the request's `stream`.
    Output(Output),
    /// Exactly these bytes, with this status and content type.
    Raw {
        /// HTTP status.
        status: u16,
        /// `Content-Type`.
        content_type: String,
        /// Body.
        body: Vec<u8>,
    },
    /// An SSE stream of exactly these pieces (each a body frame), `delay` apart, then the end —
    /// or, with `stall`, no end until the client goes away.
    Stream {
        /// The body frames.
        pieces: Vec<Vec<u8>>,
        /// Pause before each frame.
        delay: Duration,
        /// Keep the stream open after the last piece.
        stall: bool,
    },
    /// No answer at all (until the client goes away or the fake stops).
    Stall,
    /// An SSE stream of these pieces, each sent only once the test adds a permit to `gate`: lets a
    /// test check what the client has received after each upstream event, by counting, not timing.
    Gated {
        /// The body frames.
        pieces: Vec<Vec<u8>>,
        /// One permit per frame to release.
        gate: Arc<tokio::sync::Semaphore>,
    },
}

/// Decides the reply to each chat request body.
pub type Script = Arc<dyn Fn(&Value) -> Reply + Send + Sync>;

struct Shared {
    script: Script,
    requests: AtomicUsize,
    abandoned: AtomicUsize,
    authorization: std::sync::Mutex<Option<String>>,
    stop: watch::Receiver<bool>,
}

/// A running fake upstream; stops when dropped.
pub struct FakeUpstream {
    addr: SocketAddr,
    shared: Arc<Shared>,
    stop: watch::Sender<bool>,
}

impl FakeUpstream {
    /// Starts a fake answering chat requests with `script`, on a free loopback port.
    ///
    /// # Errors
    /// The I/O error when no loopback port can be bound.
    pub async fn start(script: Script) -> std::io::Result<Self> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let (stop, stop_rx) = watch::channel(false);
        let shared = Arc::new(Shared {
            script,
            requests: AtomicUsize::new(0),
            abandoned: AtomicUsize::new(0),
            authorization: std::sync::Mutex::new(None),
            stop: stop_rx.clone(),
        });
        let app = Router::new()
            .route("/v1/chat/completions", post(chat))
            .route("/v1/models", get(models))
            .with_state(Arc::clone(&shared));
        let mut rx = stop_rx;
        tokio::spawn(async move {
            let shutdown = async move {
                let _ = rx.wait_for(|s| *s).await;
            };
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(shutdown)
                .await;
        });
        Ok(Self { addr, shared, stop })
    }

    /// Starts a fake that answers every request with `reply`.
    ///
    /// # Errors
    /// The I/O error when no loopback port can be bound.
    pub async fn always(reply: Reply) -> std::io::Result<Self> {
        Self::start(Arc::new(move |_| reply.clone())).await
    }

    /// The OpenAI base URL of the fake (`http://127.0.0.1:PORT/v1`).
    pub fn url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// Its address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Chat requests received so far.
    pub fn requests(&self) -> usize {
        self.shared.requests.load(Ordering::SeqCst)
    }

    /// The `Authorization` header of the last chat request (`None` when it had none).
    pub fn last_authorization(&self) -> Option<String> {
        self.shared
            .authorization
            .lock()
            .map(|a| a.clone())
            .unwrap_or_default()
    }

    /// Streams (and stalled answers) the client abandoned before their end.
    pub fn abandoned(&self) -> usize {
        self.shared.abandoned.load(Ordering::SeqCst)
    }
}

impl Drop for FakeUpstream {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
    }
}

async fn models() -> Response {
    axum::Json(json!({
        "object": "list",
        "data": [{"id": "fake-model", "object": "model", "created": 0, "owned_by": "toolmend"}]
    }))
    .into_response()
}

/// Counts an abandoned answer when dropped before `done` is set.
struct Abandon {
    shared: Arc<Shared>,
    done: bool,
}

impl Drop for Abandon {
    fn drop(&mut self) {
        if !self.done {
            self.shared.abandoned.fetch_add(1, Ordering::SeqCst);
        }
    }
}

async fn chat(
    State(shared): State<Arc<Shared>>,
    headers: axum::http::HeaderMap,
    body: Bytes,
) -> Response {
    if let Ok(mut a) = shared.authorization.lock() {
        *a = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
    }
    shared.requests.fetch_add(1, Ordering::SeqCst);
    let req: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let stream = req["stream"].as_bool().unwrap_or(false);
    let model = req["model"].as_str().unwrap_or("fake-model").to_owned();
    match (shared.script)(&req) {
        Reply::Raw {
            status,
            content_type,
            body,
        } => {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            (status, [(header::CONTENT_TYPE, content_type)], body).into_response()
        }
        Reply::Stall => {
            let mut guard = Abandon {
                shared: Arc::clone(&shared),
                done: false,
            };
            let mut stop = shared.stop.clone();
            let _ = stop.wait_for(|s| *s).await;
            guard.done = true;
            StatusCode::SERVICE_UNAVAILABLE.into_response()
        }
        Reply::Output(out) if !stream => axum::Json(completion(&out, &model)).into_response(),
        Reply::Output(out) => {
            let delay = out.delay;
            let pieces = events(&out, &model);
            sse(shared, pieces, delay, false)
        }
        Reply::Stream {
            pieces,
            delay,
            stall,
        } => sse(shared, pieces, delay, stall),
        Reply::Gated { pieces, gate } => {
            let body = futures::stream::unfold(pieces.into_iter(), move |mut it| {
                let gate = Arc::clone(&gate);
                async move {
                    let p = it.next()?;
                    gate.acquire().await.ok()?.forget();
                    Some((Ok::<_, std::convert::Infallible>(Bytes::from(p)), it))
                }
            });
            (
                [(header::CONTENT_TYPE, "text/event-stream")],
                Body::from_stream(body),
            )
                .into_response()
        }
    }
}

fn sse(shared: Arc<Shared>, pieces: Vec<Vec<u8>>, delay: Duration, stall: bool) -> Response {
    let guard = Abandon {
        shared: Arc::clone(&shared),
        done: false,
    };
    let state = (pieces.into_iter(), guard, stall);
    let body = futures::stream::unfold(state, move |(mut it, mut guard, stall)| async move {
        match it.next() {
            Some(p) => {
                if !delay.is_zero() {
                    tokio::time::sleep(delay).await;
                }
                Some((
                    Ok::<_, std::convert::Infallible>(Bytes::from(p)),
                    (it, guard, stall),
                ))
            }
            None => {
                if stall {
                    let mut stop = guard.shared.stop.clone();
                    let _ = stop.wait_for(|s| *s).await;
                }
                guard.done = true;
                drop(guard);
                None
            }
        }
    });
    (
        [(header::CONTENT_TYPE, "text/event-stream")],
        Body::from_stream(body),
    )
        .into_response()
}

/// The non-streaming chat completion for `out`.
pub fn completion(out: &Output, model: &str) -> Value {
    let mut message = json!({"role": "assistant", "content": out.content});
    if let Some(r) = &out.reasoning {
        message["reasoning_content"] = r.clone().into();
    }
    if !out.tool_calls.is_empty() {
        message["tool_calls"] = out
            .tool_calls
            .iter()
            .enumerate()
            .map(|(i, (name, args))| {
                json!({"id": format!("fake_{i}"), "type": "function",
                       "function": {"name": name, "arguments": args}})
            })
            .collect();
    }
    json!({
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": message, "logprobs": null, "finish_reason": out.finish_reason}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
    })
}

/// The SSE events for `out`, one body frame each: role, reasoning, content and call deltas, the
/// finish reason, `[DONE]`.
pub fn events(out: &Output, model: &str) -> Vec<Vec<u8>> {
    let chunk = |delta: Value, finish: Value| {
        let v = json!({
            "id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": model,
            "choices": [{"index": 0, "delta": delta, "logprobs": null, "finish_reason": finish}]
        });
        format!("data: {v}\n\n").into_bytes()
    };
    let n = out.chunk_chars.max(1);
    let mut ev = vec![chunk(
        json!({"role": "assistant", "content": ""}),
        Value::Null,
    )];
    for key in ["reasoning_content", "content"] {
        let text = if key == "content" {
            out.content.as_deref()
        } else {
            out.reasoning.as_deref()
        };
        let chars: Vec<char> = text.unwrap_or("").chars().collect();
        for piece in chars.chunks(n) {
            let s: String = piece.iter().collect();
            ev.push(chunk(json!({ key: s }), Value::Null));
        }
    }
    for (i, (name, args)) in out.tool_calls.iter().enumerate() {
        ev.push(chunk(
            json!({"tool_calls": [{"index": i, "id": format!("fake_{i}"), "type": "function",
                                    "function": {"name": name, "arguments": ""}}]}),
            Value::Null,
        ));
        let chars: Vec<char> = args.chars().collect();
        for piece in chars.chunks(n) {
            let s: String = piece.iter().collect();
            ev.push(chunk(
                json!({"tool_calls": [{"index": i, "function": {"arguments": s}}]}),
                Value::Null,
            ));
        }
    }
    ev.push(chunk(json!({}), out.finish_reason.clone().into()));
    ev.push(b"data: [DONE]\n\n".to_vec());
    ev
}
