//! Model backends: a conversation and tool definitions in, a stream of events out.
//!
//! Every backend — embedded llama.cpp (`llama`), Ollama (`ollama`), and the `scripted` backend that
//! replays recorded outputs for tests — implements [`Backend`]. The agent loop and `toolmend serve`
//! only ever see this trait, so the same extraction → repair → decode → dispatch path runs behind
//! all of them.

use std::future::Future;
use std::pin::Pin;

use serde::{Deserialize, Serialize};

pub mod gguf;
#[cfg(feature = "llama")]
pub mod llama;
pub mod models;
pub mod template;

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Instructions for the model.
    System,
    /// The user's turn.
    User,
    /// The model's turn.
    Assistant,
    /// A tool result fed back to the model.
    Tool,
}

/// One message of a conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// Who wrote it.
    pub role: Role,
    /// Its text. For the assistant: the raw model output, kept verbatim, or, when it made calls
    /// (`tool_calls`), the text outside them.
    pub content: String,
    /// Calls the assistant made in this message, as the backend or the extractor reported them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<NativeToolCall>,
    /// For a `Tool` message: the id of the call it answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// For a `Tool` message: the name of the tool that produced it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl Message {
    /// A message with only a role and text.
    pub fn new(role: Role, content: impl Into<String>) -> Self {
        Self {
            role,
            content: content.into(),
            tool_calls: Vec::new(),
            tool_call_id: None,
            name: None,
        }
    }
}

/// A tool call as a backend reports it natively (Ollama's `tool_calls`, an OpenAI upstream).
///
/// `arguments` may be an object, or a string holding (possibly broken) JSON: it still goes through
/// repair and decode like an extracted call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NativeToolCall {
    /// The backend's id for the call, when it gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The tool name as written by the model.
    pub name: String,
    /// The arguments as given: an object, or a string of JSON text.
    pub arguments: serde_json::Value,
}

/// A tool offered to the model: what a chat template or a grammar needs to know.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDef {
    /// The tool's name.
    pub name: String,
    /// What it does, for the model.
    pub description: String,
    /// JSON Schema of its arguments (an object schema).
    pub parameters: serde_json::Value,
}

/// How generation may be constrained by a grammar built from the tool schemas.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GrammarMode {
    /// No grammar: free generation, repair and coercion do the rest.
    #[default]
    Off,
    /// The grammar applies once a call marker appears.
    Lazy,
    /// The whole output must be a call.
    Strict,
    /// A turn for the answer, one that offers no tools: the output may not open with a call.
    /// Its first character other than whitespace is none of `{`, `[`, `<` and `` ` ``
    /// (embedded models: those tokens are masked until one with other text is chosen; other
    /// backends generate freely). The tool loop sets it; it is no choice for the command line.
    Answer,
}

/// Sampling and length settings for one generation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GenerateOptions {
    /// Most tokens to generate.
    pub max_tokens: u32,
    /// Sampling temperature; `0.0` is greedy.
    pub temperature: f32,
    /// Random seed for sampling.
    pub seed: u32,
    /// Grammar mode.
    pub grammar: GrammarMode,
}

impl Default for GenerateOptions {
    fn default() -> Self {
        Self {
            max_tokens: 512,
            temperature: 0.0,
            seed: 42,
            grammar: GrammarMode::Off,
        }
    }
}

/// Everything a backend needs for one generation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// The conversation so far.
    pub messages: Vec<Message>,
    /// Tools offered to the model (empty: none).
    pub tools: Vec<ToolDef>,
    /// Sampling and length settings.
    pub options: GenerateOptions,
}

/// What a backend reports while generating.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A piece of generated text (always whole UTF-8 characters).
    Chunk(String),
    /// A call the backend reported natively.
    ToolCall(NativeToolCall),
}

/// The sink's answer to an event: go on, or stop generating now (e.g. a complete call was seen).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    /// Keep generating.
    Continue,
    /// Stop generating; the backend returns its stats with [`StopReason::Stopped`].
    Stop,
}

/// Why generation ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The model produced an end-of-generation token.
    EndOfGeneration,
    /// The token limit was reached.
    MaxTokens,
    /// The context window filled up before the token limit (the prompt left too little room).
    ContextFull,
    /// The event sink asked to stop.
    Stopped,
}

/// Counts and timings of one generation.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Tokens in the rendered prompt.
    pub prompt_tokens: u32,
    /// Tokens generated.
    pub generated_tokens: u32,
    /// Milliseconds spent evaluating the prompt. A backend with a prompt cache (the embedded
    /// llama backend) only evaluates the tokens not already cached, so `prompt_tokens / prompt_ms`
    /// overstates its speed on a warm cache: see `LlamaBackend::last_cache_use` for the split.
    pub prompt_ms: f64,
    /// Milliseconds spent generating.
    pub generation_ms: f64,
    /// Why generation ended.
    pub stop: StopReason,
}

/// A backend failure: the model could not be reached, loaded or run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BackendError {
    /// The model file or server could not be loaded or reached.
    #[error("cannot load or reach the model: {0}")]
    Unavailable(String),
    /// The prompt could not be rendered (chat template error).
    #[error("cannot render the prompt: {0}")]
    Template(String),
    /// The prompt does not fit the context window.
    #[error(
        "the prompt has {tokens} tokens but the context holds {context}: use a larger --ctx or a shorter conversation"
    )]
    ContextOverflow {
        /// Tokens in the prompt.
        tokens: u32,
        /// Context size.
        context: u32,
    },
    /// The backend broke mid-generation (decode failure, a broken stream).
    #[error("generation failed: {0}")]
    Generation(String),
}

/// A boxed future, as returned by [`Backend::generate`].
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The sink a backend reports events to.
pub type Sink<'a> = dyn FnMut(Event) -> Control + Send + 'a;

/// A model that can take part in a conversation with tools.
pub trait Backend: Send {
    /// A short name for reports and transcripts (e.g. `qwen2.5-coder:0.5b`).
    fn name(&self) -> &str;

    /// Generates the next assistant message for `request`, reporting events to `sink` as they
    /// happen, and returns the counts and timings when generation ends.
    fn generate<'a>(
        &'a mut self,
        request: &'a Request,
        sink: &'a mut Sink<'_>,
    ) -> BoxFuture<'a, Result<Stats, BackendError>>;

    /// The context window in tokens (prompt and generation together), when the backend knows
    /// it. The agent keeps its requests inside it (see [`Backend::prompt_tokens`]).
    fn context_size(&self) -> Option<u32> {
        None
    }

    /// How many tokens `request` takes as a prompt, counted the way [`Backend::generate`] would
    /// count them (rendered by the chat template and tokenized), when the backend can tell
    /// without generating (`None` also when the request does not render: generating it reports
    /// why). With [`Backend::context_size`] it lets the agent cut tool results that would not
    /// fit instead of failing the next turn.
    fn prompt_tokens(&self, request: &Request) -> Option<u32> {
        let _ = request;
        None
    }
}

#[cfg(feature = "ollama")]
pub mod ollama;
pub mod scripted;
