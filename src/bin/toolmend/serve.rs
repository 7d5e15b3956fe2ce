//! `toolmend serve`: an OpenAI-compatible endpoint in front of an upstream runtime that returns
//! repaired `tool_calls`.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use toolmend::serve::log::LogFormat;
use toolmend::serve::{Config, Server, pipeline::Pipeline};

/// Arguments of `toolmend serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The upstream's OpenAI base URL, e.g. `http://127.0.0.1:11434/v1` (Ollama) or
    /// `http://127.0.0.1:8080/v1` (llama-server); a URL without a path gets `/v1`.
    #[arg(long)]
    upstream: String,
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
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        eprintln!("error: --timeout must be a positive number of seconds");
        return Ok(ExitCode::from(2));
    }
    let mut config = Config::new(args.upstream.clone(), Arc::new(Pipeline::default()));
    config.api_key.clone_from(&args.api_key);
    config.upstream_api_key.clone_from(&args.upstream_api_key);
    config.timeout = Duration::from_secs_f64(args.timeout);
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
        let server = match Server::bind(config, &args.listen).await {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {e}");
                return Ok(ExitCode::from(2));
            }
        };
        let addr = server.local_addr()?;
        if args.json {
            let line = serde_json::json!({"listening": format!("http://{addr}/v1"), "upstream": args.upstream});
            eprintln!("{line}");
        } else {
            eprintln!(
                "toolmend serve: listening on http://{addr}/v1, upstream {}",
                args.upstream
            );
        }
        server.run(shutdown_signal()).await?;
        Ok(ExitCode::SUCCESS)
    })
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
