//! `toolmend repair`: broken JSON in, valid JSON out, fixes on stderr.
//!
//! Machine mode `--jsonl` reads one `{"text": "..."}` object per stdin line and writes one line per
//! input: `{"ok": true, "output": "<repaired JSON text>", "fixes": [{"kind": "...", "at": N}]}` or
//! `{"ok": false, "error": "<kind>", "message": "<corrective message>"}` (DESIGN.md); a malformed
//! line gets `{"ok": false, "error": "malformed_line", "message"}` and the lines after it are still
//! answered. Exit status of `--jsonl`: 0 when every line was repaired, 1 when some line had
//! nothing usable, 2 when some line was malformed.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `toolmend repair`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The file to repair (`-` or absent: stdin).
    file: Option<PathBuf>,
    /// Print one JSON object with the output and the fixes instead of the bare JSON.
    #[arg(long, conflicts_with = "jsonl")]
    json: bool,
    /// Machine mode: each stdin line `{"text": "..."}` gives one JSON result line on stdout.
    #[arg(long)]
    jsonl: bool,
}

/// The JSON form of one result (`--json` and `--jsonl`).
fn result_json(
    input: &str,
    res: &Result<toolmend::repair::Repaired<'_>, toolmend::repair::RepairError>,
) -> serde_json::Value {
    match res {
        Ok(r) => serde_json::json!({"ok": true, "output": r.text, "fixes": r.fixes}),
        Err(e) => serde_json::json!({
            "ok": false,
            "error": e.kind(),
            "message": e.corrective_message(input),
        }),
    }
}

/// Runs `toolmend repair`.
pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    if args.jsonl {
        return run_jsonl(args);
    }
    let input = crate::io::read_input(args.file.as_deref())?;
    let mut out = std::io::stdout().lock();
    let res = toolmend::repair::repair(&input);
    if args.json {
        writeln!(out, "{}", result_json(&input, &res))?;
    }
    match res {
        Ok(r) => {
            if !args.json {
                // The repaired text keeps the input's trailing whitespace: one line ending, not two.
                write!(out, "{}", r.text)?;
                if !r.text.ends_with('\n') {
                    writeln!(out)?;
                }
            }
            let mut err = std::io::stderr().lock();
            for f in &r.fixes {
                let kind = serde_json::to_value(f.kind)?;
                writeln!(
                    err,
                    "fix: {} at byte {}",
                    kind.as_str().unwrap_or("?"),
                    f.at
                )?;
            }
            if r.fixes.is_empty() {
                writeln!(err, "valid JSON: nothing to repair")?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("error: {e}");
            Ok(ExitCode::from(1))
        }
    }
}

/// `--jsonl`: one result line per input line; a malformed line is answered
/// `{"ok": false, "error": "malformed_line", "message": …}` and the run goes on. Exit status: see
/// [`crate::io::JsonlTally`].
fn run_jsonl(args: &Args) -> anyhow::Result<ExitCode> {
    let reader = crate::io::open_lines(args.file.as_deref())?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut tally = crate::io::JsonlTally::default();
    crate::io::for_each_line(reader, |n, line| {
        let text = line.and_then(|l| {
            let mut req = crate::io::request_object(l, &["text"])?;
            match req.remove("text") {
                Some(serde_json::Value::String(t)) => Ok(t),
                Some(_) => Err("\"text\" must be a string (the JSON to repair)".to_owned()),
                None => Err("the line has no \"text\" (the JSON to repair)".to_owned()),
            }
        });
        let answer = match text {
            Ok(text) => {
                let res = toolmend::repair::repair(&text);
                tally.answered(res.is_ok());
                result_json(&text, &res)
            }
            Err(message) => {
                tally.malformed(n, &message);
                crate::io::malformed_answer(&message, serde_json::json!({}))
            }
        };
        writeln!(out, "{answer}")?;
        Ok(())
    })?;
    out.flush()?;
    Ok(tally.exit_code())
}
