//! The Ollama backend: a conversation with tools sent to an Ollama server's `/api/chat`, its NDJSON
//! stream read back as [`Event`]s.
//!
//! The request is built with `ollama-rs`'s own types (`ChatMessageRequest`, `ChatMessage`,
//! `ToolInfo`, `ModelOptions`), and each stream line is parsed as its `ChatMessageResponse`. The
//! stream itself is read here rather than through `ollama-rs`'s `send_chat_messages_stream`,
//! because that one loses output: it prints and skips any line that fails to parse (5 lines sent,
//! 4 items received) and drops a whole network chunk when a UTF-8 character is split across two.
//! Here lines are split on raw bytes, and a line that is not a valid response, an `{"error": …}`
//! line, an error status, or a stream that ends before `"done": true` each end generation with a
//! [`BackendError`] saying what happened; the text already reported stays with the caller.
//!
//! Native `tool_calls` are reported as [`Event::ToolCall`] with their arguments untouched (an
//! object, or a string of possibly broken JSON): they enter toolmend's path at repair and decode.
//!
//! Given a context window ([`OllamaBackend::with_context`]), every request carries it as
//! Ollama's `num_ctx`, and the backend estimates each prompt's tokens
//! ([`OllamaBackend::estimate_tokens`]) so the agent can cut tool results that would not fit:
//! left alone, Ollama drops the oldest messages of a prompt that is too long without a word, the
//! user's request among them. Ollama has no endpoint that counts tokens, so the estimate counts
//! bytes ([`BYTES_PER_TOKEN`], which errs towards cutting early) and is scaled up whenever a
//! response reports more prompt tokens than were estimated.

use std::time::{Duration, Instant};

use futures::StreamExt;
use ollama_rs::generation::chat::request::ChatMessageRequest;
use ollama_rs::generation::chat::{ChatMessage, ChatMessageResponse, MessageRole};
use ollama_rs::generation::tools::{
    ToolCall, ToolCallFunction, ToolFunctionInfo, ToolInfo, ToolType,
};
use ollama_rs::models::ModelOptions;

use super::{
    Backend, BackendError, BoxFuture, Control, Event, Message, NativeToolCall, Request, Role, Sink,
    Stats, StopReason,
};

/// Where an Ollama server listens unless told otherwise: loopback only.
pub const DEFAULT_HOST: &str = "http://127.0.0.1:11434";

/// Longest wait to connect to the server.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Longest silence between two pieces of the response (Ollama may load the model first).
const READ_TIMEOUT: Duration = Duration::from_secs(300);

/// Bytes of a prompt's text taken for one token when estimating its size: the tokenizers of the
/// models Ollama serves take about 3.5–4.5 bytes of English or code a token, so 3 overestimates
/// ordinary text and the agent cuts a little early rather than too late.
pub const BYTES_PER_TOKEN: usize = 3;

/// Tokens a chat template adds for each message (role markers, separators).
const TOKENS_PER_MESSAGE: usize = 8;

/// Tokens a chat template adds once a prompt (the frame around tools, the assistant's opening).
const TOKENS_PER_PROMPT: usize = 32;

/// The most the estimate is ever scaled up by what responses report (see
/// [`OllamaBackend::estimate_tokens`]).
const MAX_SCALE: f64 = 8.0;

/// A model served by Ollama.
#[derive(Debug, Clone)]
pub struct OllamaBackend {
    host: String,
    model: String,
    http: reqwest::Client,
    /// The context window sent as `num_ctx`, when set.
    context: Option<u32>,
    /// What the byte estimate is multiplied by: 1 until a response reports more prompt tokens
    /// than estimated, then the largest ratio seen (never lowered: Ollama reports only the
    /// tokens it evaluated, fewer when part of the prompt was cached).
    scale: f64,
}

impl OllamaBackend {
    /// A backend for `model` on the server at `host` (e.g. [`DEFAULT_HOST`]).
    ///
    /// # Errors
    /// [`BackendError::Unavailable`] when `host` is not an `http`/`https` URL.
    pub fn new(host: &str, model: impl Into<String>) -> Result<Self, BackendError> {
        // ollama-rs's own URL handling: the same host string it would accept.
        let client = ollama_rs::Ollama::try_new(host).map_err(|e| {
            BackendError::Unavailable(format!(
                "--host {host:?} is not a URL ({e}): give one like {DEFAULT_HOST}"
            ))
        })?;
        let host = client.url_str().trim_end_matches('/').to_owned();
        if !(host.starts_with("http://") || host.starts_with("https://")) {
            return Err(BackendError::Unavailable(format!(
                "--host {host:?} must be an http:// or https:// URL, like {DEFAULT_HOST}"
            )));
        }
        // A server that stops sending mid-stream must not hang the loop forever; the read limit
        // is generous because Ollama loads the model before its first byte.
        let http = reqwest::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            .read_timeout(READ_TIMEOUT)
            .build()
            .map_err(|e| BackendError::Unavailable(format!("cannot build the HTTP client: {e}")))?;
        Ok(Self {
            host,
            model: model.into(),
            http,
            context: None,
            scale: 1.0,
        })
    }

    /// Runs the model with a context window of `tokens` (sent as Ollama's `num_ctx` with every
    /// request), and lets the agent keep its requests inside it
    /// ([`Backend::context_size`], [`Backend::prompt_tokens`]). Without it Ollama uses its own
    /// default window, which toolmend cannot know, and nothing is fitted.
    #[must_use]
    pub fn with_context(mut self, tokens: u32) -> Self {
        self.context = Some(tokens);
        self
    }

    /// An estimate of the tokens `request` takes as a prompt: its text (message contents, call
    /// arguments, tool names, descriptions and schemas) at [`BYTES_PER_TOKEN`] bytes a token,
    /// plus what a chat template adds per message and per prompt, scaled up by the largest
    /// under-estimate a response has revealed so far.
    #[must_use]
    pub fn estimate_tokens(&self, request: &Request) -> u32 {
        let base = raw_estimate(request);
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss
        )]
        let scaled = (base as f64 * self.scale).ceil() as u64;
        u32::try_from(scaled).unwrap_or(u32::MAX)
    }

    /// Learns from a response that reported `reported` prompt tokens for `request`.
    fn calibrate(&mut self, request: &Request, reported: u32) {
        let base = raw_estimate(request);
        if base > 0 {
            #[allow(clippy::cast_precision_loss)]
            let ratio = f64::from(reported) / base as f64;
            self.scale = self.scale.max(ratio.min(MAX_SCALE));
        }
    }

    /// Checks, before the first turn, that the server answers and has the model: a `GET
    /// /api/version`, then a `POST /api/show` for the model (both cheap; neither loads the model).
    ///
    /// # Errors
    /// [`BackendError::Unavailable`] saying which: the server cannot be reached, or it does not
    /// have the model (with the `ollama pull` command).
    pub async fn check(&self) -> Result<(), BackendError> {
        let url = format!("{}/api/version", self.host);
        let response = self.http.get(&url).send().await.map_err(|e| {
            BackendError::Unavailable(format!(
                "cannot reach Ollama at {}: {e} (is `ollama serve` running? use --host to point elsewhere)",
                self.host
            ))
        })?;
        if !response.status().is_success() {
            return Err(BackendError::Unavailable(format!(
                "{} does not answer like an Ollama server ({} for {url}): use --host to point at one",
                self.host,
                response.status()
            )));
        }
        let url = format!("{}/api/show", self.host);
        let response = self
            .http
            .post(&url)
            .json(&serde_json::json!({"model": self.model}))
            .send()
            .await
            .map_err(|e| BackendError::Unavailable(format!("cannot reach Ollama at {url}: {e}")))?;
        let status = response.status();
        if status == reqwest::StatusCode::NOT_FOUND {
            let text = response.text().await.unwrap_or_default();
            let message = error_message(&text).unwrap_or(text);
            return Err(BackendError::Unavailable(format!(
                "Ollama at {} has no model {:?}: {} (pull it with `ollama pull {}`, or check the name)",
                self.host,
                self.model,
                message.trim(),
                self.model
            )));
        }
        Ok(())
    }

    /// The server URL, without a trailing slash.
    #[must_use]
    pub fn host(&self) -> &str {
        &self.host
    }

    /// The JSON body sent to `/api/chat` for `request` (streaming on).
    ///
    /// # Errors
    /// [`BackendError::Template`] when a tool's parameter schema is not a JSON object.
    pub fn body(&self, request: &Request) -> Result<serde_json::Value, BackendError> {
        let messages = request.messages.iter().map(to_ollama_message).collect();
        let mut tools = Vec::with_capacity(request.tools.len());
        for t in &request.tools {
            let parameters = schemars::Schema::try_from(t.parameters.clone()).map_err(|e| {
                BackendError::Template(format!(
                    "tool {:?}: its parameter schema must be a JSON object: {e}",
                    t.name
                ))
            })?;
            tools.push(ToolInfo {
                tool_type: ToolType::Function,
                function: ToolFunctionInfo {
                    name: t.name.clone(),
                    description: t.description.clone(),
                    parameters,
                },
            });
        }
        let o = &request.options;
        let mut options = ModelOptions::default()
            .temperature(o.temperature)
            .seed(i32::try_from(o.seed).unwrap_or(i32::MAX))
            .num_predict(i32::try_from(o.max_tokens).unwrap_or(i32::MAX));
        if let Some(tokens) = self.context {
            options = options.num_ctx(u64::from(tokens));
        }
        let chat = ChatMessageRequest::new(self.model.clone(), messages)
            .tools(tools)
            .options(options);
        let mut body = serde_json::to_value(&chat)
            .map_err(|e| BackendError::Template(format!("cannot serialise the request: {e}")))?;
        // `ChatMessageRequest::stream` is private to ollama-rs; we read the stream ourselves.
        body["stream"] = serde_json::Value::Bool(true);
        // Ollama matches a tool result to its tool by `tool_name`, which ollama-rs's type lacks.
        if let Some(list) = body["messages"].as_array_mut() {
            for (json, m) in list.iter_mut().zip(&request.messages) {
                if let (Role::Tool, Some(name)) = (m.role, &m.name) {
                    json["tool_name"] = serde_json::Value::String(name.clone());
                }
            }
        }
        Ok(body)
    }

    async fn chat(
        &mut self,
        request: &Request,
        sink: &mut Sink<'_>,
    ) -> Result<Stats, BackendError> {
        let body = self.body(request)?;
        let url = format!("{}/api/chat", self.host);
        let started = Instant::now();
        let response = self.http.post(&url).json(&body).send().await.map_err(|e| {
            BackendError::Unavailable(format!(
                "cannot reach Ollama at {url}: {e} (is `ollama serve` running? use --host to point elsewhere)"
            ))
        })?;
        let status = response.status();
        if !status.is_success() {
            let text = response.text().await.unwrap_or_default();
            let message = error_message(&text).unwrap_or(text);
            return Err(BackendError::Unavailable(format!(
                "Ollama answered {status} for model {:?}: {} (pull it with `ollama pull {}`, or check the model name)",
                self.model,
                message.trim(),
                self.model
            )));
        }
        let mut reader = NdjsonReader::default();
        let mut stream = response.bytes_stream();
        let mut first_token: Option<Instant> = None;
        let mut stats = Stats {
            prompt_tokens: 0,
            generated_tokens: 0,
            prompt_ms: 0.0,
            generation_ms: 0.0,
            stop: StopReason::EndOfGeneration,
        };
        // Each chunk's complete lines, then, once the stream ends, a last line without its `\n`.
        let mut ended = false;
        while !ended {
            let lines = match stream.next().await {
                Some(bytes) => {
                    let bytes = bytes.map_err(|e| {
                        BackendError::Generation(format!(
                            "the stream from Ollama broke after line {}: {e}",
                            reader.line
                        ))
                    })?;
                    reader.push(&bytes)
                }
                None => {
                    ended = true;
                    reader.finish().into_iter().collect()
                }
            };
            for line in lines {
                let (item, end) = line?;
                first_token.get_or_insert_with(Instant::now);
                match handle(item, sink, &mut stats) {
                    Flow::Continue => {}
                    Flow::Done => {
                        // Measured first; what the final line reports replaces it field by field.
                        finish_timing(&mut stats, started, first_token);
                        if let Some(end) = end {
                            end.apply(&mut stats);
                            if end.prompt_eval_count.is_some() {
                                self.calibrate(request, stats.prompt_tokens);
                            }
                        }
                        return Ok(stats);
                    }
                    Flow::Stop => {
                        stats.stop = StopReason::Stopped;
                        finish_timing(&mut stats, started, first_token);
                        return Ok(stats);
                    }
                }
            }
        }
        Err(BackendError::Generation(format!(
            "the stream from Ollama ended after {} lines without a final \"done\": true line: the output is cut off",
            reader.line
        )))
    }
}

enum Flow {
    Continue,
    Done,
    Stop,
}

fn finish_timing(stats: &mut Stats, started: Instant, first: Option<Instant>) {
    let now = Instant::now();
    let first = first.unwrap_or(now);
    stats.prompt_ms = first.duration_since(started).as_secs_f64() * 1e3;
    stats.generation_ms = now.duration_since(first).as_secs_f64() * 1e3;
}

/// Reports one stream item to the sink and updates the stats.
fn handle(item: ChatMessageResponse, sink: &mut Sink<'_>, stats: &mut Stats) -> Flow {
    let message = item.message;
    if !message.content.is_empty() {
        stats.generated_tokens += 1;
        if sink(Event::Chunk(message.content)) == Control::Stop {
            return Flow::Stop;
        }
    }
    for call in message.tool_calls {
        let call = NativeToolCall {
            id: None,
            name: call.function.name,
            arguments: call.function.arguments,
        };
        if sink(Event::ToolCall(call)) == Control::Stop {
            return Flow::Stop;
        }
    }
    if item.done {
        return Flow::Done;
    }
    Flow::Continue
}

/// What the final (`"done": true`) line says about the generation, each field read on its own:
/// Ollama leaves out zero-valued metrics (its Go structs use `omitempty`, so a prompt served
/// from the cache has no `prompt_eval_count`), while ollama-rs's `ChatMessageFinalResponseData`
/// needs all six to be present and has no `done_reason` at all.
#[derive(Debug, Default, serde::Deserialize)]
struct FinalLine {
    done_reason: Option<String>,
    prompt_eval_count: Option<u64>,
    prompt_eval_duration: Option<u64>,
    eval_count: Option<u64>,
    eval_duration: Option<u64>,
}

impl FinalLine {
    /// Puts the reported fields into `stats` (a missing one leaves what was counted or measured)
    /// and `done_reason: "length"` as [`StopReason::MaxTokens`].
    fn apply(&self, stats: &mut Stats) {
        if let Some(n) = self.prompt_eval_count {
            stats.prompt_tokens = u32::try_from(n).unwrap_or(u32::MAX);
        }
        if let Some(n) = self.eval_count {
            stats.generated_tokens = u32::try_from(n).unwrap_or(u32::MAX);
        }
        if let Some(ns) = self.prompt_eval_duration {
            stats.prompt_ms = ns_to_ms(ns);
        }
        if let Some(ns) = self.eval_duration {
            stats.generation_ms = ns_to_ms(ns);
        }
        if self.done_reason.as_deref() == Some("length") {
            stats.stop = StopReason::MaxTokens;
        }
    }
}

/// One parsed stream line: the response, and for the final line its own fields.
type Line = Result<(ChatMessageResponse, Option<FinalLine>), BackendError>;

#[allow(clippy::cast_precision_loss)]
fn ns_to_ms(ns: u64) -> f64 {
    ns as f64 / 1e6
}

/// The `error` field of an Ollama error body (`{"error": "model 'x' not found"}`), if it is one.
fn error_message(text: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(text.trim()).ok()?;
    v.get("error")?.as_str().map(str::to_owned)
}

/// Splits an NDJSON byte stream into parsed lines without losing any: every line either becomes a
/// response or an error naming the line.
#[derive(Debug, Default)]
struct NdjsonReader {
    buf: Vec<u8>,
    /// Lines parsed so far (1-based number of the last one).
    line: usize,
}

impl NdjsonReader {
    fn push(&mut self, bytes: &[u8]) -> Vec<Line> {
        self.buf.extend_from_slice(bytes);
        let mut out = Vec::new();
        let mut start = 0;
        while let Some(pos) = memchr::memchr(b'\n', &self.buf[start..]) {
            let end = start + pos;
            if let Some(r) = self.parse(start, end) {
                out.push(r);
            }
            start = end + 1;
        }
        self.buf.drain(..start);
        out
    }

    /// The last line when the stream ended without a newline after it.
    fn finish(&mut self) -> Option<Line> {
        let end = self.buf.len();
        let r = self.parse(0, end);
        self.buf.clear();
        r
    }

    fn parse(&mut self, start: usize, end: usize) -> Option<Line> {
        let raw = &self.buf[start..end];
        if raw.iter().all(u8::is_ascii_whitespace) {
            return None;
        }
        self.line += 1;
        let line = self.line;
        let text = String::from_utf8_lossy(raw);
        if let Some(message) = error_message(&text) {
            return Some(Err(BackendError::Generation(format!(
                "Ollama reported an error on stream line {line}: {message}"
            ))));
        }
        let bad = |e: serde_json::Error| {
            let preview: String = text.chars().take(120).collect();
            BackendError::Generation(format!(
                "stream line {line} from Ollama is not a valid chat response ({e}): {preview:?}; \
                 generation stopped there so no output is silently lost"
            ))
        };
        let response = match serde_json::from_slice::<ChatMessageResponse>(raw) {
            Ok(r) => r,
            Err(e) => return Some(Err(bad(e))),
        };
        if !response.done {
            return Some(Ok((response, None)));
        }
        Some(
            serde_json::from_slice::<FinalLine>(raw)
                .map(|f| (response, Some(f)))
                .map_err(bad),
        )
    }
}

/// [`OllamaBackend::estimate_tokens`] before scaling.
fn raw_estimate(request: &Request) -> u64 {
    let json_len = |v: &serde_json::Value| match v {
        serde_json::Value::String(t) => t.len(),
        v => v.to_string().len(),
    };
    let messages: usize = request
        .messages
        .iter()
        .map(|m| {
            m.content.len()
                + m.tool_calls
                    .iter()
                    .map(|c| c.name.len() + json_len(&c.arguments))
                    .sum::<usize>()
        })
        .sum();
    let tools: usize = request
        .tools
        .iter()
        .map(|t| t.name.len() + t.description.len() + json_len(&t.parameters))
        .sum();
    let tokens = (messages + tools).div_ceil(BYTES_PER_TOKEN)
        + TOKENS_PER_MESSAGE * request.messages.len()
        + TOKENS_PER_PROMPT;
    u64::try_from(tokens).unwrap_or(u64::MAX)
}

fn to_ollama_message(m: &Message) -> ChatMessage {
    let role = match m.role {
        Role::System => MessageRole::System,
        Role::User => MessageRole::User,
        Role::Assistant => MessageRole::Assistant,
        Role::Tool => MessageRole::Tool,
    };
    let mut out = ChatMessage::new(role, m.content.clone());
    out.tool_calls = m
        .tool_calls
        .iter()
        .map(|c| ToolCall {
            function: ToolCallFunction {
                name: c.name.clone(),
                // Arguments kept as text (still to repair) go back as the object they parse
                // to: Ollama takes an object.
                arguments: match &c.arguments {
                    serde_json::Value::String(t) => {
                        serde_json::from_str(t).unwrap_or_else(|_| c.arguments.clone())
                    }
                    v => v.clone(),
                },
            },
        })
        .collect();
    out
}

impl Backend for OllamaBackend {
    fn name(&self) -> &str {
        &self.model
    }

    fn generate<'a>(
        &'a mut self,
        request: &'a Request,
        sink: &'a mut Sink<'_>,
    ) -> BoxFuture<'a, Result<Stats, BackendError>> {
        Box::pin(self.chat(request, sink))
    }

    fn context_size(&self) -> Option<u32> {
        self.context
    }

    /// An estimate ([`OllamaBackend::estimate_tokens`]), and only with a context window set.
    fn prompt_tokens(&self, request: &Request) -> Option<u32> {
        self.context.map(|_| self.estimate_tokens(request))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(text: &str) -> Request {
        Request {
            messages: vec![Message::new(Role::User, text)],
            tools: Vec::new(),
            options: super::super::GenerateOptions::default(),
        }
    }

    #[test]
    fn the_estimate_counts_bytes_and_only_ever_scales_up() {
        let mut b = OllamaBackend::new(DEFAULT_HOST, "m").unwrap();
        let r = request(&"x".repeat(300));
        // 300 bytes at 3 a token, one message, one prompt.
        assert_eq!(b.estimate_tokens(&r), 100 + 8 + 32);
        // A response reporting twice as many prompt tokens doubles later estimates.
        b.calibrate(&r, 280);
        assert_eq!(b.estimate_tokens(&r), 280);
        assert_eq!(
            b.estimate_tokens(&request(&"x".repeat(600))),
            2 * (200 + 8 + 32)
        );
        // A cached prompt reports fewer: nothing is lowered. Nor scaled beyond 8×.
        b.calibrate(&r, 5);
        assert_eq!(b.estimate_tokens(&r), 280);
        b.calibrate(&r, 1_000_000);
        assert_eq!(b.estimate_tokens(&r), 8 * 140);
        // Without a window the agent is told nothing to fit to.
        assert_eq!((b.context_size(), b.prompt_tokens(&r)), (None, None));
        let b = b.with_context(2048);
        assert_eq!(b.context_size(), Some(2048));
        assert_eq!(b.prompt_tokens(&r), Some(8 * 140));
        assert_eq!(b.body(&r).unwrap()["options"]["num_ctx"], 2048);
    }

    #[test]
    fn lines_split_across_chunks_and_inside_utf8_characters_are_kept() {
        let line = "{\"model\":\"m\",\"created_at\":\"t\",\"message\":{\"role\":\"assistant\",\"content\":\"é\"},\"done\":false}\n";
        let bytes = line.as_bytes();
        let cut = line.find('é').unwrap() + 1; // inside the two-byte character
        let mut r = NdjsonReader::default();
        assert!(r.push(&bytes[..cut]).is_empty());
        let out = r.push(&bytes[cut..]);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].as_ref().unwrap().0.message.content, "é");
        assert!(r.finish().is_none());
    }

    #[test]
    fn a_corrupt_line_is_an_error_naming_it() {
        let mut r = NdjsonReader::default();
        let out = r.push(b"{\"model\":\"m\",\"created_at\":\"t\",\"message\":{\"role\":\"assistant\",\"content\":\"a\"},\"done\":false}\n{\"model\":\n");
        assert!(out[0].is_ok());
        let err = out[1].as_ref().unwrap_err().to_string();
        assert!(err.contains("line 2"), "{err}");
    }

    #[test]
    fn host_must_be_a_url() {
        assert!(OllamaBackend::new("not a url", "m").is_err());
        let b = OllamaBackend::new(DEFAULT_HOST, "m").unwrap();
        assert_eq!(b.host(), "http://127.0.0.1:11434");
    }
}
