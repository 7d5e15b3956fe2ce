//! `toolmend serve`: an OpenAI-compatible endpoint that rewrites responses into proper `tool_calls`.
//!
//! The server forwards `POST /v1/chat/completions` and `GET /v1/models` to an upstream
//! OpenAI-compatible runtime (llama-server, Ollama's `/v1`, vLLM, LM Studio, …). Requests without
//! `tools`, or with `tool_choice: "none"`, pass through untouched, byte for byte. For requests with
//! `tools` (narrowed to one by a named `tool_choice`: [`Tools::for_request`]), each choice of the
//! answer goes through a [`recover::Recover`] (extract → repair → decode against the request's tool
//! schemas): calls written in `content` in any envelope, or sent as broken native `tool_calls`,
//! come back as proper `tool_calls` with `finish_reason: "tool_calls"` (except that a `"length"`
//! is kept, and a call cut off by it is never completed: see [`pipeline`]); everything else stays
//! as it was. Streams are rewritten event by event ([`stream`]), whole answers at once ([`rewrite`]), from
//! the same pieces, so both give the same final message.
//!
//! Faults never hang and always answer an OpenAI-style error object ([`error`]): 502 for an
//! unreachable, failing or malformed upstream, 504 for a timeout, 413 for an oversized request, 401
//! for a missing `--api-key` token, 404 for any other path and 405 for a known path with another
//! method. A client that disconnects drops the upstream request with it.
//! Every request is logged on stderr ([`log`]). [`fake`] is the loopback upstream the tests and the
//! bench replay recorded model outputs with.

pub mod error;
pub mod fake;
pub mod local;
pub mod log;
pub mod pipeline;
pub mod recover;
pub mod rewrite;
pub mod sse;
pub mod stream;
pub mod upstream;

use std::collections::VecDeque;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use bytes::Bytes;
use futures::{Stream, StreamExt};

use self::error::{ApiError, StartError, UpstreamError};
use self::log::{LogFormat, RequestLog};
use self::recover::{Recover, Tools};
use self::sse::SseParser;
use self::stream::StreamRewriter;
use self::upstream::Upstream;

/// Response header set on every answer toolmend changed (`rewritten`), and on streamed answers to
/// requests with tools (`stream`: changes are announced in the stream itself, see `--report`).
pub const HEADER: &str = "x-toolmend";
/// Response header with the number of calls toolmend recovered in a non-streamed answer.
pub const HEADER_CALLS: &str = "x-toolmend-calls";

/// Largest upstream answer (or single SSE event) toolmend reads: 64 MiB.
const MAX_ANSWER: usize = 64 << 20;

/// Everything `toolmend serve` needs to run.
#[derive(Clone)]
pub struct Config {
    /// The upstream's OpenAI base URL (`http://host:port/v1`).
    pub upstream: String,
    /// Key sent to the upstream as a bearer token; the client's own `Authorization` is never
    /// forwarded.
    pub upstream_api_key: Option<String>,
    /// When set, clients must send `Authorization: Bearer <key>`.
    pub api_key: Option<String>,
    /// Longest wait for the upstream: connecting, the response head, each body chunk.
    pub timeout: Duration,
    /// Largest request body accepted, in bytes (larger: 413).
    pub max_body: usize,
    /// Add a `toolmend` field listing envelope, fixes and coercions per call to changed answers.
    pub report: bool,
    /// How request log lines are written.
    pub log: LogFormat,
    /// The recovery pipeline applied to answers of requests with tools.
    pub recover: Arc<dyn Recover>,
    /// The embedded model to answer with instead of the upstream (`--model`); `upstream` is then
    /// not used.
    pub local: Option<local::Local>,
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("upstream", &self.upstream)
            .field(
                "upstream_api_key",
                &self.upstream_api_key.as_ref().map(|_| "<set>"),
            )
            .field("api_key", &self.api_key.as_ref().map(|_| "<set>"))
            .field("timeout", &self.timeout)
            .field("max_body", &self.max_body)
            .field("report", &self.report)
            .field("log", &self.log)
            .field("local", &self.local)
            .finish_non_exhaustive()
    }
}

impl Config {
    /// A configuration for `upstream` with the defaults: no keys, 300 s timeout, 16 MiB bodies,
    /// no report, text log lines.
    pub fn new(upstream: impl Into<String>, recover: Arc<dyn Recover>) -> Self {
        Self {
            upstream: upstream.into(),
            upstream_api_key: None,
            api_key: None,
            timeout: Duration::from_secs(300),
            max_body: 16 << 20,
            report: false,
            log: LogFormat::Text,
            recover,
            local: None,
        }
    }
}

struct App {
    /// The HTTP upstream (`None` when answering with the embedded model).
    upstream: Option<Upstream>,
    config: Config,
}

impl App {
    fn upstream(&self) -> Result<&Upstream, ApiError> {
        self.upstream.as_ref().ok_or_else(|| {
            ApiError::bad_request("this server has no upstream (it runs an embedded model)")
        })
    }
}

/// A bound server, ready to run.
pub struct Server {
    listener: tokio::net::TcpListener,
    router: Router,
}

impl Server {
    /// Binds `listen` (e.g. `127.0.0.1:8080`; port 0 picks a free one) and prepares the routes.
    ///
    /// # Errors
    /// [`StartError`] when the address cannot be bound or the upstream URL is unusable.
    pub async fn bind(config: Config, listen: &str) -> Result<Self, StartError> {
        let router = router(config)?;
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .map_err(|source| StartError::Bind {
                addr: listen.to_owned(),
                source,
            })?;
        Ok(Self { listener, router })
    }

    /// The address actually bound.
    ///
    /// # Errors
    /// The OS error when the socket cannot report it.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until `shutdown` completes, then finishes the requests in flight.
    ///
    /// # Errors
    /// The I/O error that stopped the server.
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        axum::serve(self.listener, self.router)
            .with_graceful_shutdown(shutdown)
            .await
    }
}

/// The routes of `toolmend serve` for `config`.
///
/// # Errors
/// [`StartError`] when the upstream URL is unusable.
pub fn router(config: Config) -> Result<Router, StartError> {
    let upstream = match config.local {
        Some(_) => None,
        None => Some(Upstream::new(
            &config.upstream,
            config.upstream_api_key.clone(),
            config.timeout,
        )?),
    };
    let app = Arc::new(App { upstream, config });
    Ok(Router::new()
        .route("/v1/chat/completions", post(chat))
        .route("/v1/models", get(models))
        .route("/health", get(health))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::disable())
        .with_state(app))
}

/// `GET /health`: the server is up (it does not call the upstream).
async fn health() -> Response {
    axum::Json(serde_json::json!({"status": "ok"})).into_response()
}

/// Any other path: 404 with an error object naming the routes there are.
async fn not_found(State(app): State<Arc<App>>, method: Method, uri: Uri) -> Response {
    let mut log = RequestLog::new(method.as_str(), uri.path());
    let e = ApiError::not_found(method.as_str(), uri.path());
    let resp = finish(&mut log, Err(e));
    log.emit(app.config.log);
    resp
}

/// A known path with another method: 405 with an error object (axum adds the `Allow` header).
async fn method_not_allowed(State(app): State<Arc<App>>, method: Method, uri: Uri) -> Response {
    let mut log = RequestLog::new(method.as_str(), uri.path());
    let e = ApiError::method_not_allowed(method.as_str(), uri.path());
    let resp = finish(&mut log, Err(e));
    log.emit(app.config.log);
    resp
}

/// Logs the request when dropped, so a stream logs when it ends or when the client goes away.
struct LogGuard {
    log: RequestLog,
    format: LogFormat,
    complete: bool,
}

impl Drop for LogGuard {
    fn drop(&mut self) {
        if !self.complete {
            self.log.cancelled = true;
        }
        self.log.emit(self.format);
    }
}

/// `GET /v1/models`: the upstream's list, as it is.
async fn models(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    let mut guard = LogGuard {
        log: RequestLog::new("GET", "/v1/models"),
        format: app.config.log,
        complete: false,
    };
    let res = async {
        authorize(&app.config, &headers)?;
        if let Some(local) = &app.config.local {
            return Ok(axum::Json(local.models()).into_response());
        }
        let t = Instant::now();
        let answer = app.upstream()?.get("/models").await?;
        if !answer.is_success() {
            return passthrough_failure(answer).await;
        }
        let ct = answer.content_type.clone();
        let body = answer.bytes(MAX_ANSWER).await?;
        guard.log.add_upstream(t.elapsed());
        Ok(raw_response(StatusCode::OK, ct.as_deref(), body))
    }
    .await;
    guard.complete = true;
    finish(&mut guard.log, res)
}

fn finish(log: &mut RequestLog, res: Result<Response, ApiError>) -> Response {
    let resp = match res {
        Ok(r) => r,
        Err(e) => {
            log.error = Some(e.code.to_owned());
            e.into_response()
        }
    };
    log.status = resp.status().as_u16();
    resp
}

/// Checks the bearer token when `--api-key` is set.
fn authorize(config: &Config, headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(key) = &config.api_key else {
        return Ok(());
    };
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(bearer_token)
        .unwrap_or("");
    if constant_time_eq(given.as_bytes(), key.as_bytes()) {
        Ok(())
    } else {
        Err(ApiError::unauthorized())
    }
}

/// The token of an `Authorization: Bearer TOKEN` value. The scheme is case-insensitive and may be
/// followed by more than one space (RFC 7235 §2.1: `auth-scheme 1*SP token68`); the token itself
/// is compared exactly.
fn bearer_token(value: &str) -> Option<&str> {
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim_start_matches(' '))
}

/// Compares without an early exit, so the time taken does not reveal how much of a key matched.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    let mut diff = u8::from(a.len() != b.len());
    for (i, x) in a.iter().enumerate() {
        diff |= x ^ b.get(i).copied().unwrap_or(0);
    }
    diff == 0
}

/// Reads the request body, refusing more than `limit` bytes (413) before reading them all.
async fn read_body(headers: &HeaderMap, body: Body, limit: usize) -> Result<Bytes, ApiError> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(ApiError::too_large(limit));
    }
    let mut stream = body.into_data_stream();
    let mut buf = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk
            .map_err(|e| ApiError::bad_request(format!("cannot read the request body: {e}")))?;
        if buf.len() + chunk.len() > limit {
            return Err(ApiError::too_large(limit));
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(Bytes::from(buf))
}

/// The fields of a chat request toolmend looks at.
#[derive(serde::Deserialize)]
struct Peek {
    #[serde(default)]
    stream: Option<bool>,
    #[serde(default)]
    tools: Option<Vec<serde_json::Value>>,
    #[serde(default)]
    tool_choice: Option<serde_json::Value>,
    #[serde(default)]
    parallel_tool_calls: Option<bool>,
}

/// `POST /v1/chat/completions`.
async fn chat(State(app): State<Arc<App>>, headers: HeaderMap, body: Body) -> Response {
    let mut guard = LogGuard {
        log: RequestLog::new("POST", "/v1/chat/completions"),
        format: app.config.log,
        complete: false,
    };
    let res = chat_inner(&app, &headers, body, &mut guard).await;
    guard.complete = true;
    match res {
        Ok(Reply::Done(resp)) => finish(&mut guard.log, Ok(resp)),
        Ok(Reply::Stream(resp)) => {
            // The stream logs when it ends: it owns the guard from here.
            guard.complete = true;
            guard.format = LogFormat::Off;
            resp
        }
        Err(e) => finish(&mut guard.log, Err(e)),
    }
}

enum Reply {
    Done(Response),
    Stream(Response),
}

async fn chat_inner(
    app: &Arc<App>,
    headers: &HeaderMap,
    body: Body,
    guard: &mut LogGuard,
) -> Result<Reply, ApiError> {
    authorize(&app.config, headers)?;
    let body = read_body(headers, body, app.config.max_body).await?;
    let t = Instant::now();
    // A body that is not JSON is still forwarded: the upstream answers it with its own 400.
    let peek: Option<Peek> = serde_json::from_slice(&body).ok();
    let stream = peek.as_ref().and_then(|p| p.stream).unwrap_or(false);
    let tools = peek
        .as_ref()
        .and_then(|p| {
            let t = p.tools.as_ref().filter(|t| !t.is_empty())?;
            Tools::for_request(t, p.tool_choice.as_ref(), p.parallel_tool_calls)
        })
        .map(Arc::new);
    guard.log.stream = stream;
    guard.log.tools = tools.is_some();
    guard.log.add_toolmend(t.elapsed());

    let t = Instant::now();
    let answer = match &app.config.local {
        Some(local) => local.chat(&body)?,
        None => app.upstream()?.post("/chat/completions", body).await?,
    };
    guard.log.add_upstream(t.elapsed());
    if !answer.is_success() {
        return passthrough_failure(answer).await.map(Reply::Done);
    }
    if stream {
        if !answer.is_event_stream() {
            return Err(UpstreamError::Malformed {
                at: 0,
                message: format!(
                    "a streaming request was answered with content type {:?} instead of text/event-stream",
                    answer.content_type.as_deref().unwrap_or("none")
                ),
            }
            .into());
        }
        let log = std::mem::take(&mut guard.log);
        return Ok(Reply::Stream(stream_response(app, answer, tools, log)));
    }
    let ct = answer.content_type.clone();
    let t = Instant::now();
    let bytes = answer.bytes(MAX_ANSWER).await?;
    guard.log.add_upstream(t.elapsed());
    let t = Instant::now();
    let resp = match tools {
        None => {
            serde_json::from_slice::<serde::de::IgnoredAny>(&bytes)
                .map_err(|e| rewrite::malformed_json(&bytes, &e))?;
            raw_response(StatusCode::OK, ct.as_deref(), bytes)
        }
        Some(tools) => {
            let out = rewrite::rewrite_json(
                &bytes,
                &tools,
                app.config.recover.as_ref(),
                app.config.report,
            )?;
            guard.log.calls_recovered = out.calls_recovered;
            match out.body {
                None => raw_response(StatusCode::OK, ct.as_deref(), bytes),
                Some(new) => {
                    guard.log.rewritten = true;
                    let mut r = raw_response(StatusCode::OK, Some("application/json"), new.into());
                    let h = r.headers_mut();
                    h.insert(HEADER, HeaderValue::from_static("rewritten"));
                    h.insert(HEADER_CALLS, HeaderValue::from(out.calls_recovered));
                    r
                }
            }
        }
    };
    guard.log.add_toolmend(t.elapsed());
    Ok(Reply::Done(resp))
}

/// A non-2xx upstream answer: an OpenAI-style 4xx error is passed on as is, anything else is a 502.
async fn passthrough_failure(answer: upstream::Answer) -> Result<Response, ApiError> {
    let (status, body) = answer.into_failure().await?;
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY);
    Ok(raw_response(status, Some("application/json"), body))
}

fn raw_response(status: StatusCode, content_type: Option<&str>, body: Bytes) -> Response {
    let mut r = Response::new(Body::from(body));
    *r.status_mut() = status;
    let ct = content_type
        .and_then(|c| HeaderValue::from_str(c).ok())
        .unwrap_or_else(|| HeaderValue::from_static("application/json"));
    r.headers_mut().insert(header::CONTENT_TYPE, ct);
    r
}

/// What a streamed answer does to each upstream event.
enum Mode {
    /// No tools: events are checked and forwarded as they are.
    Pass { done: bool, finished: bool },
    /// Tools: events go through the rewriter.
    Rewrite(Box<StreamRewriter>),
}

struct Pump {
    chunks: std::pin::Pin<Box<dyn Stream<Item = Result<Bytes, UpstreamError>> + Send>>,
    parser: SseParser,
    mode: Mode,
    queue: VecDeque<Bytes>,
    ended: bool,
    guard: LogGuard,
}

fn stream_response(
    app: &Arc<App>,
    answer: upstream::Answer,
    tools: Option<Arc<Tools>>,
    mut log: RequestLog,
) -> Response {
    log.status = 200;
    let tools_given = tools.is_some();
    let mode = match tools {
        None => Mode::Pass {
            done: false,
            finished: false,
        },
        Some(t) => Mode::Rewrite(Box::new(StreamRewriter::new(
            t,
            Arc::clone(&app.config.recover),
            app.config.report,
        ))),
    };
    let pump = Pump {
        chunks: Box::pin(answer.chunks()),
        parser: SseParser::new(MAX_ANSWER),
        mode,
        queue: VecDeque::new(),
        ended: false,
        guard: LogGuard {
            log,
            format: app.config.log,
            complete: false,
        },
    };
    let body = futures::stream::unfold(pump, |mut p| async move {
        loop {
            if let Some(b) = p.queue.pop_front() {
                return Some((Ok::<Bytes, std::convert::Infallible>(b), p));
            }
            if p.ended {
                p.guard.complete = true;
                drop(p);
                return None;
            }
            p.step().await;
        }
    });
    let mut r = Response::new(Body::from_stream(body));
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if tools_given {
        h.insert(HEADER, HeaderValue::from_static("stream"));
    }
    r
}

impl Pump {
    /// Reads one upstream chunk and queues what it produces.
    async fn step(&mut self) {
        let t = Instant::now();
        let next = self.chunks.next().await;
        self.guard.log.add_upstream(t.elapsed());
        let t = Instant::now();
        let res = match next {
            Some(Ok(bytes)) => self.feed(&bytes),
            Some(Err(e)) => Err(e),
            None => self.end(),
        };
        if let Err(e) = res {
            self.fail(&e);
        }
        self.guard.log.add_toolmend(t.elapsed());
    }

    fn feed(&mut self, bytes: &[u8]) -> Result<(), UpstreamError> {
        let events = self
            .parser
            .push(bytes)
            .map_err(|e| UpstreamError::Malformed {
                at: 0,
                message: e.to_string(),
            })?;
        for ev in events {
            self.event(&ev)?;
        }
        Ok(())
    }

    fn event(&mut self, ev: &sse::SseEvent) -> Result<(), UpstreamError> {
        match &mut self.mode {
            Mode::Pass { done, finished } => {
                if let Some(data) = ev.data.as_deref() {
                    if data.trim() == "[DONE]" {
                        *done = true;
                    } else {
                        let v: serde_json::Value =
                            serde_json::from_str(data).map_err(|e| UpstreamError::Malformed {
                                at: ev.at,
                                message: format!("an event's data is not JSON: {e}"),
                            })?;
                        *finished |= v["choices"]
                            .as_array()
                            .is_some_and(|c| c.iter().any(|c| !c["finish_reason"].is_null()));
                    }
                }
                self.queue.push_back(ev.raw.clone());
            }
            Mode::Rewrite(rw) => {
                let mut out = Vec::new();
                rw.event(ev, &mut out)?;
                self.queue.extend(out);
                self.guard.log.calls_recovered = rw.calls_recovered;
                self.guard.log.rewritten = rw.rewritten;
            }
        }
        Ok(())
    }

    /// The upstream closed the stream.
    fn end(&mut self) -> Result<(), UpstreamError> {
        self.ended = true;
        let last = self.parser.finish().map_err(|e| UpstreamError::Malformed {
            at: 0,
            message: e.to_string(),
        })?;
        if let Some(ev) = last {
            self.event(&ev)?;
        }
        let complete = match &mut self.mode {
            Mode::Pass { done, finished } => *done || *finished,
            Mode::Rewrite(rw) => {
                let complete = rw.is_done() || rw.all_finished();
                let mut out = Vec::new();
                rw.flush(&mut out);
                self.queue.extend(out);
                complete
            }
        };
        if complete {
            Ok(())
        } else {
            Err(UpstreamError::Malformed {
                at: 0,
                message: "the stream ended before a finish_reason or [DONE]: the upstream stopped mid-answer".into(),
            })
        }
    }

    /// Sends an error event and ends the stream (the status line has been sent already).
    fn fail(&mut self, e: &UpstreamError) {
        self.queue.push_back(stream::sse_data(&e.to_api().body()));
        self.guard.log.error = Some(e.code().to_owned());
        self.ended = true;
    }
}
