//! `toolmend tools`: the built-in tools and their argument schemas, as one JSON array on stdout.

use std::io::Write;
use std::process::ExitCode;

/// Arguments of `toolmend tools`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `toolmend tools`.
pub fn run(_args: &Args) -> anyhow::Result<ExitCode> {
    let root = std::env::temp_dir();
    let snap = toolmend::builtin::registry(&root)?.snapshot();
    let specs: Vec<_> = snap.specs();
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", serde_json::to_string_pretty(&specs)?)?;
    Ok(ExitCode::SUCCESS)
}
