//! `toolmend repair`: broken JSON in, valid JSON out, fixes on stderr.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `toolmend repair`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The file to repair (`-` or absent: stdin).
    file: Option<PathBuf>,
    /// Print one JSON object with the output and the fixes instead of the bare JSON.
    #[arg(long)]
    json: bool,
}

/// Runs `toolmend repair`.
pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let input = crate::io::read_input(args.file.as_deref())?;
    let mut out = std::io::stdout().lock();
    match toolmend::repair::repair(&input) {
        Ok(r) => {
            if args.json {
                let v = serde_json::json!({"ok": true, "output": r.text, "fixes": r.fixes});
                writeln!(out, "{v}")?;
            } else {
                writeln!(out, "{}", r.text)?;
                for f in &r.fixes {
                    eprintln!("fix: {:?} at byte {}", f.kind, f.at);
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            if args.json {
                writeln!(
                    out,
                    "{}",
                    serde_json::json!({"ok": false, "message": e.to_string()})
                )?;
            } else {
                eprintln!("error: {e}");
            }
            Ok(ExitCode::from(1))
        }
    }
}
