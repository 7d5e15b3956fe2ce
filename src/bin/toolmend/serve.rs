//! `toolmend serve`: an OpenAI-compatible endpoint that returns repaired `tool_calls`, in front of
//! an upstream runtime (`--upstream`) or answering with the embedded model (`--model`).

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use toolmend::backend::{Backend, BackendError, GenerateOptions};
use toolmend::serve::local::Local;
use toolmend::serve::log::LogFormat;
use toolmend::serve::{Config, Server, pipeline::Pipeline};

/// Arguments of `toolmend serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The upstream's OpenAI base URL, e.g. `http://127.0.0.1:11434/v1` (Ollama) or
    /// `http://127.0.0.1:8080/v1` (llama-server); a URL without a path gets `/v1`.
    #[arg(long, required_unless_present_any = ["model", "script"], conflicts_with_all = ["model", "script"])]
    upstream: Option<String>,
    /// Answer with an embedded model instead of an upstream: a known short name (e.g.
    /// `qwen2.5-coder:0.5b`) or a `.gguf` path. Requests are queued on the one model.
    #[arg(long)]
    model: Option<String>,
    /// Answer with recorded outputs (JSON Lines, as `toolmend run --script`): for tests and demos.
    #[arg(long, value_name = "FILE", hide = true, conflicts_with = "model")]
    script: Option<std::path::PathBuf>,
    /// Requests that may wait for the embedded model; more get 503.
    #[arg(long, default_value_t = 64)]
    queue: usize,
    /// Context size in tokens of the embedded model.
    #[arg(long, default_value_t = 4096)]
    ctx: u32,
    /// Generation threads of the embedded model.
    #[arg(long, default_value_t = 1)]
    threads: u32,
    /// Most tokens per answer of the embedded model when the request does not say.
    #[arg(long, default_value_t = 512)]
    max_tokens: u32,
    /// Address to listen on (loopback by default; port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: String,
    /// Require clients to send `Authorization: Bearer KEY`.
    #[arg(long, env = "TOOLMEND_API_KEY", hide_env_values = true)]
    api_key: Option<String>,
    /// Key sent to the upstream as a bearer token (the clients' own key is never forwarded).
    #[arg(long, env = "TOOLMEND_UPSTREAM_API_KEY", hide_env_values = true)]
    upstream_api_key: Option<String>,
    /// Seconds to wait for the upstream to connect, to answer, and between two chunks of an answer.
    #[arg(long, default_value_t = 300.0)]
    timeout: f64,
    /// Largest request body accepted, in bytes (larger requests get 413).
    #[arg(long, default_value_t = 16 << 20)]
    max_body: usize,
    /// Add a `toolmend` field listing the envelope, fixes and coercions of each call to every
    /// answer toolmend changed.
    #[arg(long)]
    report: bool,
    /// Log one JSON object per request on stderr (JSON Lines) instead of a text line.
    #[arg(long)]
    json: bool,
    /// Do not log requests.
    #[arg(long, conflicts_with = "json")]
    quiet: bool,
}

/// Runs `toolmend serve` until interrupted (Ctrl-C or SIGTERM).
pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    // `try_from_secs_f64` refuses NaN, negatives and values too large for a `Duration` (1e20
    // would panic in `from_secs_f64`).
    let timeout = match Duration::try_from_secs_f64(args.timeout) {
        Ok(t) if !t.is_zero() => t,
        _ => {
            eprintln!(
                "error: --timeout must be a positive number of seconds no larger than {}",
                Duration::MAX.as_secs()
            );
            return Ok(ExitCode::from(2));
        }
    };
    let upstream = args.upstream.clone().unwrap_or_default();
    let mut config = Config::new(upstream, Arc::new(Pipeline::default()));
    config.api_key.clone_from(&args.api_key);
    config.upstream_api_key.clone_from(&args.upstream_api_key);
    config.timeout = timeout;
    config.max_body = args.max_body;
    config.report = args.report;
    config.log = if args.quiet {
        LogFormat::Off
    } else if args.json {
        LogFormat::Json
    } else {
        LogFormat::Text
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        if args.model.is_some() || args.script.is_some() {
            let backend = match backend(args) {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("error: {e}");
                    return Ok(ExitCode::from(2));
                }
            };
            let defaults = GenerateOptions {
                max_tokens: args.max_tokens,
                ..GenerateOptions::default()
            };
            config.local = Some(Local::start(backend, args.queue, defaults, config.timeout));
        }
        let source = match &config.local {
            Some(l) => format!("model {}", l.name()),
            None => format!("upstream {}", config.upstream),
        };
        let server = match Server::bind(config, &args.listen).await {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {e}");
                return Ok(ExitCode::from(2));
            }
        };
        let addr = server.local_addr()?;
        if args.json {
            let line =
                serde_json::json!({"listening": format!("http://{addr}/v1"), "source": source});
            eprintln!("{line}");
        } else {
            eprintln!("toolmend serve: listening on http://{addr}/v1, {source}");
        }
        server.run(shutdown_signal()).await?;
        Ok(ExitCode::SUCCESS)
    })
}

/// The embedded backend: the scripted one for `--script`, else llama.cpp for `--model`.
fn backend(args: &Args) -> Result<Box<dyn Backend>, BackendError> {
    if let Some(path) = &args.script {
        let text = std::fs::read_to_string(path).map_err(|e| {
            BackendError::Unavailable(format!("cannot read script {}: {e}", path.display()))
        })?;
        let b = toolmend::backend::scripted::ScriptedBackend::from_jsonl(&text)
            .map_err(|e| BackendError::Unavailable(e.to_string()))?;
        return Ok(Box::new(b));
    }
    llama(args)
}

#[cfg(feature = "llama")]
fn llama(args: &Args) -> Result<Box<dyn Backend>, BackendError> {
    use toolmend::backend::llama::{LlamaBackend, LlamaOptions};
    let model = args.model.clone().unwrap_or_default();
    let options = LlamaOptions {
        ctx: args.ctx,
        threads: args.threads,
        ..LlamaOptions::default()
    };
    eprintln!("loading {model}…");
    let b = LlamaBackend::load(&model, options, |_| {})?;
    Ok(Box::new(b))
}

#[cfg(not(feature = "llama"))]
fn llama(args: &Args) -> Result<Box<dyn Backend>, BackendError> {
    let _ = (args.ctx, args.threads);
    Err(BackendError::Unavailable(format!(
        "this toolmend was built without the `llama` feature, so --model {} cannot run: rebuild with default features, or put a runtime in front with --upstream",
        args.model.as_deref().unwrap_or_default()
    )))
}

/// Completes on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}
