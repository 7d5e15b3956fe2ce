//! `toolmend call NAME --args JSON --root DIR [--json]`: one call through the dispatch path,
//! exactly as the agent would make it, against the built-in tools confined to `--root`.
//!
//! Without `--json`, a successful call's output goes to stdout and its coercions and effects to
//! stderr; a failed call prints nothing on stdout and its failure (kind and the corrective message
//! the model would get) on stderr. With `--json`, the whole `ToolResult` is printed as one JSON
//! line: `{"call_id", "name", "output", "data", "failure": {"kind", "fault", "message"} | null,
//! "coercions", "effects", "duration_ms", "attempts", "cached", "truncated"}`. Exit 0 when the call
//! succeeded, 1 when it failed, 2 on a usage or I/O error.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use toolmend::backend::NativeToolCall;
use toolmend::dispatch::{Dispatcher, Policy};
use toolmend::tools::OutputFormat;

/// Arguments of `toolmend call`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The tool to call (`toolmend tools` lists them).
    name: String,
    /// The arguments as JSON text (repaired like a model's; `-` reads them from stdin).
    #[arg(long, default_value = "{}")]
    args: String,
    /// The directory the tools are confined to.
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// How list results are rendered.
    #[arg(long, value_enum, default_value_t = Format::Labeled)]
    format: Format,
    /// Most bytes of output before it is cut with a note.
    #[arg(long, default_value_t = 16 * 1024)]
    max_output: usize,
    /// Print the whole result as one JSON object.
    #[arg(long)]
    json: bool,
}

/// Output format of list results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// Human-readable lines.
    Labeled,
    /// JSON.
    Json,
}

/// Runs `toolmend call`.
pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let raw = if args.args == "-" {
        crate::io::read_input(None)?
    } else {
        args.args.clone()
    };
    let registry = toolmend::builtin::registry(&args.root)?;
    let policy = Policy {
        format: match args.format {
            Format::Labeled => OutputFormat::Labeled,
            Format::Json => OutputFormat::Json,
        },
        max_output_bytes: args.max_output,
        ..Policy::default()
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    // Enter exactly like a backend's native call: string arguments are repaired and decoded.
    let call = NativeToolCall {
        id: None,
        name: args.name.clone(),
        arguments: serde_json::Value::String(raw),
    };
    let result = runtime.block_on(async {
        let mut dispatcher = Dispatcher::new(registry, policy);
        dispatcher.dispatch(call.into()).await
    });
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&result)?)?;
    } else if let Some(f) = &result.failure {
        eprintln!(
            "error: {} ({}'s fault)",
            f.kind().as_str(),
            f.fault().as_str()
        );
        eprintln!("{}", result.output);
    } else {
        writeln!(out, "{}", result.output)?;
        for e in &result.effects {
            eprintln!("effect: {}", serde_json::to_string(e)?);
        }
    }
    Ok(if result.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
