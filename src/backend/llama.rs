//! The embedded llama.cpp backend (feature `llama`): loads a GGUF file, renders the model's own
//! chat template with the tools (see [`template`](super::template)), and streams the generated
//! text to the sink token by token.
//!
//! llama.cpp runs on one worker thread per loaded model. The thread owns the model and one
//! context, and keeps the tokens already in the context's KV cache: a new request that starts with
//! the same tokens (the next turn of a tool loop, or the next question under the same system
//! prompt) only evaluates the new part. [`Backend::generate`] sends a job to that thread and
//! forwards each chunk to the sink in lock-step, so [`Control::Stop`] stops generation before the
//! next token is computed, and dropping the future stops it too.
//!
//! Text is decoded with one `encoding_rs` UTF-8 decoder per generation, kept across tokens, so a
//! character split over several byte tokens arrives whole ([`Utf8Stream`]).

use std::num::NonZeroU32;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock, mpsc};
use std::time::Instant;

use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::llama_backend::LlamaBackend as LlamaCppBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::LlamaToken;
use serde::{Deserialize, Serialize};

mod grammar;
mod log;
mod stop;

use super::models;
use super::template::{ChatTemplate, PromptOptions, Rendered};
use super::{
    Backend, BackendError, BoxFuture, Control, Event, GenerateOptions, GrammarMode, Request, Sink,
    Stats, StopReason, ToolDef,
};

/// Options fixed when a model is loaded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LlamaOptions {
    /// Context size in tokens (prompt plus generation).
    pub ctx: u32,
    /// Threads for generation and prompt evaluation. The default, 1, is the count that holds its
    /// speed when other processes compete for a small machine's cores (2 threads on 2 busy cores
    /// collapsed to 1–3 tokens/s here).
    pub threads: u32,
    /// Most prompt tokens evaluated per batch.
    pub batch: u32,
    /// How tools are put into the prompt.
    pub prompt: PromptOptions,
    /// Reuse the KV cache for a prompt that starts like the previous one.
    pub prompt_cache: bool,
    /// Stop when the model starts writing a tool result or the next turn itself (see
    /// [`Rendered::stop`]); the marker is not emitted.
    pub stop_at_turn_markers: bool,
}

impl Default for LlamaOptions {
    fn default() -> Self {
        Self {
            ctx: 4096,
            threads: 1,
            batch: 512,
            prompt: PromptOptions::default(),
            prompt_cache: true,
            stop_at_turn_markers: true,
        }
    }
}

/// What was loaded, and how long it took.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelInfo {
    /// The name reported by [`Backend::name`]: the short name, or the file stem.
    pub name: String,
    /// The GGUF file.
    pub path: PathBuf,
    /// `general.architecture`.
    pub architecture: Option<String>,
    /// Where the chat template came from: `gguf`, `builtin gemma`, `builtin chatml`.
    pub template: String,
    /// Whether that template renders tool definitions itself.
    pub template_tools: bool,
    /// Context size of the loaded context.
    pub ctx: u32,
    /// Context length the model was trained with.
    pub ctx_train: u32,
    /// Parameter count.
    pub params: u64,
    /// Milliseconds to load the model and create its context.
    pub load_ms: f64,
}

/// How much of the last prompt came from the KV cache.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheUse {
    /// Prompt tokens reused from the previous request.
    pub cached: u32,
    /// Prompt tokens evaluated.
    pub evaluated: u32,
}

/// The process-wide llama.cpp backend: initialised once, on first use, and shared (a second
/// `llama_backend_init` fails). Other modules embedding llama.cpp must use this too.
///
/// # Errors
/// [`BackendError::Unavailable`] when llama.cpp could not be initialised.
pub fn llama_cpp() -> Result<&'static LlamaCppBackend, BackendError> {
    static BACKEND: OnceLock<Result<LlamaCppBackend, String>> = OnceLock::new();
    BACKEND
        .get_or_init(|| {
            // llama.cpp logs to stderr by default; route it to `tracing` (silent unless a
            // subscriber is installed) so the CLI's stderr stays readable.
            llama_cpp_2::send_logs_to_tracing(llama_cpp_2::LogOptions::default());
            LlamaCppBackend::init().map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| BackendError::Unavailable(format!("cannot initialise llama.cpp: {e}")))
}

/// Decodes a stream of byte pieces into whole UTF-8 characters: bytes of a character split across
/// pieces are held back until it is complete. Invalid bytes become U+FFFD.
pub struct Utf8Stream {
    decoder: encoding_rs::Decoder,
}

impl Default for Utf8Stream {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for Utf8Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Utf8Stream").finish_non_exhaustive()
    }
}

impl Utf8Stream {
    /// A decoder with nothing pending.
    pub fn new() -> Self {
        Self {
            decoder: encoding_rs::UTF_8.new_decoder_without_bom_handling(),
        }
    }

    /// Decodes `bytes`, appending every completed character to `out`.
    pub fn push(&mut self, bytes: &[u8], out: &mut String) {
        self.decode(bytes, out, false);
    }

    /// Flushes what is pending at the end of the stream (an incomplete character becomes U+FFFD).
    pub fn finish(&mut self, out: &mut String) {
        self.decode(&[], out, true);
    }

    fn decode(&mut self, bytes: &[u8], out: &mut String, last: bool) {
        let mut input = bytes;
        loop {
            // `max_utf8_buffer_length` is `None` only on usize overflow; reserve generously then.
            out.reserve(
                self.decoder
                    .max_utf8_buffer_length(input.len())
                    .unwrap_or(input.len() * 3 + 4),
            );
            let (result, read, _) = self.decoder.decode_to_string(input, out, last);
            input = &input[read..];
            if matches!(result, encoding_rs::CoderResult::InputEmpty) {
                return;
            }
        }
    }
}

/// The embedded llama.cpp backend. See the [module docs](self).
pub struct LlamaBackend {
    info: ModelInfo,
    options: LlamaOptions,
    template: Arc<ChatTemplate>,
    counter: Counter,
    jobs: Option<mpsc::Sender<Job>>,
    worker: Option<std::thread::JoinHandle<()>>,
    last_cache: Arc<std::sync::Mutex<CacheUse>>,
}

impl std::fmt::Debug for LlamaBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlamaBackend")
            .field("info", &self.info)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

/// One generation for the worker thread.
struct Job {
    prompt: String,
    stop: Vec<String>,
    options: GenerateOptions,
    tools: Vec<ToolDef>,
    events: tokio::sync::mpsc::UnboundedSender<WorkerEvent>,
    control: mpsc::Receiver<Control>,
}

enum WorkerEvent {
    /// Text to hand to the sink; the worker waits for the sink's answer.
    Chunk(String),
    /// Generation ended.
    Done(Result<Stats, BackendError>),
}

impl LlamaBackend {
    /// Loads `model` — a GGUF path or a known short name (`qwen2.5-coder:0.5b`, `smollm2:135m`,
    /// `gemma3:270m`, see [`models`]) — and creates its context. `progress` is called with the
    /// load progress in `0.0..=1.0` (for a progress bar). Blocks until the model is ready.
    ///
    /// # Errors
    /// [`BackendError::Unavailable`] when the name does not resolve (the message names the fetch
    /// command for a known model that is missing), the file cannot be loaded or the context
    /// cannot be created; [`BackendError::Template`] when the model's chat template does not
    /// compile.
    pub fn load(
        model: &str,
        options: LlamaOptions,
        progress: impl FnMut(f32) + Send + 'static,
    ) -> Result<Self, BackendError> {
        let resolved =
            models::resolve(model).map_err(|e| BackendError::Unavailable(e.to_string()))?;
        let (ready_tx, ready_rx) = mpsc::channel();
        let (jobs_tx, jobs_rx) = mpsc::channel::<Job>();
        let last_cache = Arc::new(std::sync::Mutex::new(CacheUse::default()));
        let worker_opts = options.clone();
        let worker_cache = Arc::clone(&last_cache);
        let worker = std::thread::Builder::new()
            .name(format!("llama {}", resolved.name))
            .spawn(move || {
                worker_main(
                    resolved,
                    worker_opts,
                    progress,
                    ready_tx,
                    jobs_rx,
                    worker_cache,
                );
            })
            .map_err(|e| {
                BackendError::Unavailable(format!("cannot start the llama thread: {e}"))
            })?;
        match ready_rx.recv() {
            Ok(Ok((info, template, counter))) => Ok(Self {
                info,
                counter,
                options,
                template: Arc::new(template),
                jobs: Some(jobs_tx),
                worker: Some(worker),
                last_cache,
            }),
            Ok(Err(e)) => {
                let _ = worker.join();
                Err(e)
            }
            Err(_) => {
                let _ = worker.join();
                Err(BackendError::Unavailable(
                    "the llama thread stopped while loading the model".into(),
                ))
            }
        }
    }

    /// What was loaded and how long it took.
    pub fn info(&self) -> &ModelInfo {
        &self.info
    }

    /// The options the model was loaded with.
    pub fn options(&self) -> &LlamaOptions {
        &self.options
    }

    /// The chat template in use.
    pub fn template(&self) -> &ChatTemplate {
        &self.template
    }

    /// The prompt text `request` renders to (what [`Backend::generate`] feeds the model).
    ///
    /// # Errors
    /// [`BackendError::Template`] when the template fails.
    pub fn render(&self, request: &Request) -> Result<Rendered, BackendError> {
        self.template
            .render(&request.messages, &request.tools, &self.options.prompt)
            .map_err(|e| BackendError::Template(e.to_string()))
    }

    /// How much of the last generation's prompt came from the KV cache.
    pub fn last_cache_use(&self) -> CacheUse {
        self.last_cache.lock().map(|c| *c).unwrap_or_default()
    }
}

impl Drop for LlamaBackend {
    fn drop(&mut self) {
        // Closing the job channel ends the worker loop; wait so the model is freed.
        self.jobs.take();
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }
}

impl Backend for LlamaBackend {
    fn name(&self) -> &str {
        &self.info.name
    }

    fn context_size(&self) -> Option<u32> {
        Some(self.info.ctx)
    }

    fn prompt_tokens(&self, request: &Request) -> Option<u32> {
        let rendered = self.render(request).ok()?;
        u32::try_from(self.counter.count(&rendered.text)).ok()
    }

    fn generate<'a>(
        &'a mut self,
        request: &'a Request,
        sink: &'a mut Sink<'_>,
    ) -> BoxFuture<'a, Result<Stats, BackendError>> {
        Box::pin(async move {
            let rendered = self.render(request)?;
            let (events_tx, mut events_rx) = tokio::sync::mpsc::unbounded_channel();
            let (control_tx, control_rx) = mpsc::channel();
            let gone = || BackendError::Generation("the llama thread has stopped".into());
            self.jobs
                .as_ref()
                .ok_or_else(gone)?
                .send(Job {
                    prompt: rendered.text,
                    stop: if self.options.stop_at_turn_markers {
                        rendered.stop
                    } else {
                        Vec::new()
                    },
                    options: request.options.clone(),
                    tools: request.tools.clone(),
                    events: events_tx,
                    control: control_rx,
                })
                .map_err(|_| gone())?;
            while let Some(ev) = events_rx.recv().await {
                match ev {
                    WorkerEvent::Chunk(text) => {
                        let c = sink(Event::Chunk(text));
                        // The worker may have finished already; nothing to tell it then.
                        let _ = control_tx.send(c);
                    }
                    WorkerEvent::Done(result) => return result,
                }
            }
            Err(gone())
        })
    }
}

/// What the worker sends once the model is loaded: its facts, its chat template, and the model
/// itself, shared for counting tokens outside the worker ([`Backend::prompt_tokens`]).
type Ready = Result<(ModelInfo, ChatTemplate, Counter), BackendError>;

/// Tokenizes prompts: the worker before generating, [`Backend::prompt_tokens`] outside it, the
/// same way (llama.cpp's tokenizer is read-only and may be used from any thread).
#[derive(Clone)]
struct Counter {
    model: Arc<LlamaModel>,
    /// The BOS token's text: a prompt that starts with it gets no second one.
    bos: String,
}

impl Counter {
    /// The template may write the BOS text itself; the tokenizer adds it only when it is not
    /// already there (a doubled BOS degrades small models).
    fn tokenize(&self, prompt: &str) -> Vec<LlamaToken> {
        let starts_with_bos = !self.bos.is_empty() && prompt.starts_with(&self.bos);
        self.model
            .vocab()
            .tokenize(prompt.as_bytes(), !starts_with_bos, true)
    }

    fn count(&self, prompt: &str) -> usize {
        self.tokenize(prompt).len()
    }
}

fn worker_main(
    resolved: models::Resolved,
    options: LlamaOptions,
    mut progress: impl FnMut(f32) + Send + 'static,
    ready: mpsc::Sender<Ready>,
    jobs: mpsc::Receiver<Job>,
    last_cache: Arc<std::sync::Mutex<CacheUse>>,
) {
    let started = Instant::now();
    let backend = match llama_cpp() {
        Ok(b) => b,
        Err(e) => {
            let _ = ready.send(Err(e));
            return;
        }
    };
    let params = LlamaModelParams::default().with_progress_callback(move |p| {
        progress(p);
        true
    });
    let (loaded, said) =
        log::capture(|| LlamaModel::load_from_file(backend, &resolved.path, &params));
    let model = match loaded {
        Ok(m) => Arc::new(m),
        Err(e) => {
            let why = if said.is_empty() {
                "is it a GGUF file llama.cpp supports?".to_owned()
            } else {
                format!("llama.cpp says: {said}")
            };
            let _ = ready.send(Err(BackendError::Unavailable(format!(
                "cannot load {}: {e} ({why})",
                resolved.path.display()
            ))));
            return;
        }
    };
    let threads = i32::try_from(options.threads.max(1)).unwrap_or(1);
    let ctx_size = options.ctx.max(64);
    let batch = options.batch.clamp(1, ctx_size);
    let ctx_params = LlamaContextParams::default()
        .with_n_ctx(NonZeroU32::new(ctx_size))
        .with_n_batch(batch)
        .with_n_ubatch(batch)
        .with_n_threads(threads)
        .with_n_threads_batch(threads);
    let ctx = match model.new_context(backend, ctx_params) {
        Ok(c) => c,
        Err(e) => {
            let _ = ready.send(Err(BackendError::Unavailable(format!(
                "cannot create a context of {ctx_size} tokens for {}: {e} (try a smaller --ctx)",
                resolved.path.display()
            ))));
            return;
        }
    };
    let architecture = model.meta_val_str("general.architecture").ok();
    let own_template = model.meta_val_str("tokenizer.chat_template").ok();
    let vocab = model.vocab();
    let piece =
        |t: LlamaToken| String::from_utf8_lossy(&vocab.token_to_piece(t, true, None)).into_owned();
    let bos = piece(vocab.bos());
    let eos = piece(vocab.eos());
    let template =
        match ChatTemplate::for_model(own_template.as_deref(), architecture.as_deref(), &bos, &eos)
        {
            Ok(t) => t,
            Err(e) => {
                let _ = ready.send(Err(BackendError::Template(e.to_string())));
                return;
            }
        };
    let info = ModelInfo {
        name: resolved.name.clone(),
        path: resolved.path.clone(),
        architecture,
        template: template.origin().to_owned(),
        template_tools: template.supports_tools(),
        ctx: ctx.n_ctx(),
        ctx_train: model.n_ctx_train(),
        params: model.n_params(),
        load_ms: started.elapsed().as_secs_f64() * 1000.0,
    };
    let counter = Counter {
        model: Arc::clone(&model),
        bos,
    };
    if ready.send(Ok((info, template, counter.clone()))).is_err() {
        return;
    }
    let mut worker = Worker {
        model: &model,
        ctx,
        cached: Vec::new(),
        batch_size: batch as usize,
        tokenizer: counter,
        prompt_cache: options.prompt_cache,
        call_leads: None,
    };
    for job in jobs {
        let (result, cache) = worker.run(&job);
        if let Ok(mut c) = last_cache.lock() {
            *c = cache;
        }
        let _ = job.events.send(WorkerEvent::Done(result));
    }
}

struct Worker<'m> {
    model: &'m LlamaModel,
    ctx: LlamaContext<'m>,
    /// Tokens whose keys and values are in the context's cache, in position order.
    cached: Vec<LlamaToken>,
    batch_size: usize,
    tokenizer: Counter,
    prompt_cache: bool,
    /// Tokens that would open a call ([`call_leads`]), once a turn for the answer needed them.
    call_leads: Option<Vec<bool>>,
}

impl Worker<'_> {
    fn run(&mut self, job: &Job) -> (Result<Stats, BackendError>, CacheUse) {
        let mut cache = CacheUse::default();
        let result = self.generate(job, &mut cache);
        if result.is_err() {
            // The cache may hold a half-evaluated batch: start clean next time.
            self.ctx.clear_kv_cache();
            self.cached.clear();
        }
        (result, cache)
    }

    fn generate(&mut self, job: &Job, cache: &mut CacheUse) -> Result<Stats, BackendError> {
        let fail = |what: &str, e: &dyn std::fmt::Display| {
            BackendError::Generation(format!("{what}: {e}"))
        };
        let vocab = self.model.vocab();
        let tokens = self.tokenizer.tokenize(&job.prompt);
        let n_ctx = self.ctx.n_ctx() as usize;
        if tokens.is_empty() || tokens.len() >= n_ctx {
            return Err(BackendError::ContextOverflow {
                tokens: u32::try_from(tokens.len()).unwrap_or(u32::MAX),
                context: self.ctx.n_ctx(),
            });
        }

        // Keep the longest cached prefix; at least the last prompt token is evaluated again so
        // there are logits to sample from.
        let mut keep = if self.prompt_cache {
            self.cached
                .iter()
                .zip(&tokens)
                .take_while(|(a, b)| a == b)
                .count()
        } else {
            0
        };
        keep = keep.min(tokens.len() - 1);
        let removed = self
            .ctx
            .clear_kv_cache_seq(Some(0), u32::try_from(keep).ok(), None)
            .unwrap_or(false);
        if !removed {
            self.ctx.clear_kv_cache();
            keep = 0;
        }
        self.cached.truncate(keep);
        cache.cached = u32::try_from(keep).unwrap_or(u32::MAX);
        cache.evaluated = u32::try_from(tokens.len() - keep).unwrap_or(u32::MAX);

        let prompt_start = Instant::now();
        let mut batch = LlamaBatch::new(self.batch_size.max(1), 1);
        let mut pos = keep;
        for chunk in tokens[keep..].chunks(self.batch_size.max(1)) {
            batch.clear();
            for (i, &t) in chunk.iter().enumerate() {
                let is_last = pos + i + 1 == tokens.len();
                batch
                    .add(t, to_pos(pos + i), &[0], is_last)
                    .map_err(|e| fail("cannot fill the batch", &e))?;
            }
            self.ctx
                .decode(&mut batch)
                .map_err(|e| fail("prompt evaluation failed", &e))?;
            self.cached.extend_from_slice(chunk);
            pos += chunk.len();
        }
        let prompt_ms = ms(prompt_start);

        let gen_start = Instant::now();
        let mut sampling = self.sampling(&job.options, &job.tools)?;
        // A turn for the answer: tokens that would open a call are masked until one with text
        // other than whitespace is chosen.
        let mut lead_pending = job.options.grammar == GrammarMode::Answer;
        if lead_pending && self.call_leads.is_none() {
            self.call_leads = Some(call_leads(&vocab));
        }
        let room = n_ctx - tokens.len();
        let max_new = (job.options.max_tokens as usize).min(room);
        // Which limit ends the generation when it reaches `max_new`.
        let limit = if job.options.max_tokens as usize <= room {
            StopReason::MaxTokens
        } else {
            StopReason::ContextFull
        };
        let mut utf8 = Utf8Stream::new();
        let mut piece = Vec::with_capacity(32);
        let mut text = String::new();
        let mut generated = 0u32;
        let mut logits_at = batch.n_tokens() - 1;
        let mut stops = stop::StopText::new(&job.stop);
        let mut at_marker = false;
        let stop = loop {
            if generated as usize >= max_new {
                break limit;
            }
            let masked = if lead_pending {
                self.call_leads.as_deref()
            } else {
                None
            };
            let token = sampling.next(&self.ctx, logits_at, &vocab, masked);
            if vocab.is_eog(token) {
                break StopReason::EndOfGeneration;
            }
            generated += 1;
            piece.clear();
            vocab.token_to_piece_into(token, &mut piece, true, None);
            if piece.iter().any(|b| !b.is_ascii_whitespace()) {
                lead_pending = false;
            }
            text.clear();
            utf8.push(&piece, &mut text);
            if !text.is_empty() {
                let (out, hit) = stops.push(&text);
                if !emit(job, out) {
                    break StopReason::Stopped;
                }
                if hit {
                    // The model left its turn: as good as an end-of-generation token.
                    at_marker = true;
                    break StopReason::EndOfGeneration;
                }
            }
            if generated as usize >= max_new {
                break limit;
            }
            batch.clear();
            batch
                .add(token, to_pos(pos), &[0], true)
                .map_err(|e| fail("cannot fill the batch", &e))?;
            self.ctx
                .decode(&mut batch)
                .map_err(|e| fail("generation failed", &e))?;
            self.cached.push(token);
            pos += 1;
            logits_at = 0;
        };
        // What is still held back — a character left incomplete (flushed as U+FFFD) or text that
        // looked like the start of a marker — is emitted, never dropped.
        if stop != StopReason::Stopped && !at_marker {
            text.clear();
            utf8.finish(&mut text);
            let (mut out, hit) = stops.push(&text);
            if !hit {
                out.push_str(&stops.finish());
            }
            emit(job, out);
        }
        Ok(Stats {
            prompt_tokens: u32::try_from(tokens.len()).unwrap_or(u32::MAX),
            generated_tokens: generated,
            prompt_ms,
            generation_ms: ms(gen_start),
            stop,
        })
    }

    fn sampling(
        &self,
        options: &GenerateOptions,
        tools: &[ToolDef],
    ) -> Result<Sampling, BackendError> {
        let mut chain = Vec::with_capacity(6);
        if options.temperature <= 0.0 {
            chain.push(LlamaSampler::greedy());
        } else {
            chain.push(LlamaSampler::top_k(40));
            chain.push(LlamaSampler::top_p(0.95, 1));
            chain.push(LlamaSampler::min_p(0.05, 1));
            chain.push(LlamaSampler::temp(options.temperature));
            chain.push(LlamaSampler::dist(options.seed));
        }
        let grammar = match options.grammar {
            GrammarMode::Off | GrammarMode::Answer => None,
            _ if tools.is_empty() => None,
            mode => Some(grammar::sampler(self.model, tools, mode)?),
        };
        Ok(Sampling {
            chain: LlamaSampler::chain_simple(chain),
            grammar,
        })
    }
}

/// The samplers of one generation: the grammar (when a mode is on) kept apart from the chain so
/// that a grammar that rejects the text it is fed (a lazy trigger in the middle of a token the
/// grammar cannot continue) is dropped instead of aborting llama.cpp.
struct Sampling {
    chain: LlamaSampler,
    grammar: Option<LlamaSampler>,
}

impl Sampling {
    /// The next token; `masked[id]` true rules token `id` out (see [`call_leads`]).
    fn next(
        &mut self,
        ctx: &LlamaContext<'_>,
        idx: i32,
        vocab: &llama_cpp_2::vocab::LlamaVocab<'_>,
        masked: Option<&[bool]>,
    ) -> LlamaToken {
        if self.grammar.is_none() && masked.is_none() {
            // Fast path: llama.cpp samples and accepts in one call.
            return self.chain.sample(ctx, idx);
        }
        let mut data = ctx.token_data_array_ith(idx);
        if let Some(masked) = masked {
            for d in &mut data.data {
                let id = usize::try_from(d.id().0).unwrap_or(usize::MAX);
                if masked.get(id).copied().unwrap_or(false) {
                    d.set_logit(f32::NEG_INFINITY);
                }
            }
        }
        let Some(grammar) = self.grammar.as_mut() else {
            data.apply_sampler(&mut self.chain);
            let token = data.selected_token().unwrap_or_else(|| vocab.eos());
            self.chain.accept(token);
            return token;
        };
        data.apply_sampler(grammar);
        data.apply_sampler(&mut self.chain);
        let token = data.selected_token().unwrap_or_else(|| {
            // Greedy and dist always select; fall back to the most likely token regardless.
            ctx.candidates_ith(idx)
                .max_by(|a, b| a.logit().total_cmp(&b.logit()))
                .map_or(vocab.eos(), |d| d.id())
        });
        self.chain.accept(token);
        // Generation stops at an end-of-generation token: the grammar need not see it (and
        // llama.cpp aborts when an incomplete grammar is handed one).
        if !vocab.is_eog(token) && grammar.try_accept(token).is_err() {
            self.grammar = None;
        }
        token
    }
}

/// For each token of `vocab`, whether its text, after any leading whitespace, opens a call: it
/// starts with `{`, `[`, `<` (special tokens such as `<tool_call>` included) or `` ` `` (a
/// fence). End-of-generation tokens are never ruled out. Computed once per model, on the first
/// turn for the answer ([`GrammarMode::Answer`]).
fn call_leads(vocab: &llama_cpp_2::vocab::LlamaVocab<'_>) -> Vec<bool> {
    let n = vocab.n_tokens().max(0);
    (0..n)
        .map(|id| {
            let t = LlamaToken::new(id);
            !vocab.is_eog(t)
                && vocab
                    .token_to_piece(t, true, None)
                    .iter()
                    .find(|b| !b.is_ascii_whitespace())
                    .is_some_and(|b| matches!(b, b'{' | b'[' | b'<' | b'`'))
        })
        .collect()
}

/// Hands `text` to the caller and waits for the sink's answer; `false` means stop (the sink said
/// so, or the caller went away). Empty text is not sent.
fn emit(job: &Job, text: String) -> bool {
    if text.is_empty() {
        return true;
    }
    if job.events.send(WorkerEvent::Chunk(text)).is_err() {
        return false;
    }
    matches!(job.control.recv(), Ok(Control::Continue))
}

fn to_pos(p: usize) -> i32 {
    // Positions are below the context size, which is a u32 well under i32::MAX in practice.
    i32::try_from(p).unwrap_or(i32::MAX)
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}
