//! `toolmend decode`: raw tool-call arguments + a JSON Schema in, the decoded value (with its
//! receipts) or the corrective message a model would get out.
//!
//! `--jsonl` is the machine interface: each input line `{"text": "<raw args>", "schema": {…}}`
//! (the schema may be left out when `--schema` is given; `text` may also be a JSON value, as a
//! native `tool_calls` entry carries it) gives one output line
//! `{"ok": true, "value": …, "fixes": […], "coercions": [{"path", "kind", "cost", "original"}]}` or
//! `{"ok": false, "message": "<corrective message>", "errors": [{"path", "expected", "received"}]}`.
//! A malformed line (not UTF-8, not a JSON object, an unknown key, no `text`, no usable schema)
//! gets `{"ok": false, "error": "malformed_line", "message", "errors": []}` and the lines after it
//! are still answered. Exit status of `--jsonl`: 0 when every line decoded, 1 when some line was rejected,
//! 2 when some line was malformed (as `repair --jsonl`).

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use serde_json::{Value, json};
use toolmend::decode::{DecodeError, Decoder, Policy, Raw};

/// Arguments of `toolmend decode`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The JSON Schema of the arguments (required unless every `--jsonl` line has its own).
    #[arg(long, value_name = "FILE")]
    schema: Option<PathBuf>,
    /// The raw arguments (`-` or absent: stdin).
    file: Option<PathBuf>,
    /// Print one JSON object (`ok`, `value`, `fixes`, `coercions` / `message`, `errors`).
    #[arg(long, conflicts_with = "jsonl")]
    json: bool,
    /// Machine mode: one JSON request per input line, one JSON result per output line.
    #[arg(long)]
    jsonl: bool,
    /// Reject keys the schema does not list instead of dropping them.
    #[arg(long)]
    reject_unknown: bool,
}

/// Runs `toolmend decode`.
pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let default_schema = match &args.schema {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read schema {}", p.display()))?;
            let v: Value = serde_json::from_str(&text)
                .with_context(|| format!("schema {} is not JSON", p.display()))?;
            Some(Decoder::new(&v).with_context(|| format!("schema {}", p.display()))?)
        }
        None => None,
    };
    let mut policy = Policy::default();
    if args.reject_unknown {
        policy = policy.with_unknown_keys(toolmend::decode::UnknownKeys::Reject);
    }
    if args.jsonl {
        return run_jsonl(args, default_schema.as_ref(), &policy);
    }
    let Some(decoder) = default_schema else {
        anyhow::bail!("--schema FILE is required (except with --jsonl lines that carry a schema)");
    };
    let input = crate::io::read_input(args.file.as_deref())?;
    let result = decoder.decode_value(input.as_str(), &policy);
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", result_json(&result))?;
    } else {
        match &result {
            Ok(d) => {
                writeln!(out, "{}", d.value)?;
                for f in &d.fixes {
                    eprintln!("fix: {:?} at byte {}", f.kind, f.at);
                }
                for c in &d.coercions {
                    eprintln!(
                        "coercion: {} {} (cost {}, was {})",
                        if c.path.is_empty() {
                            "(arguments)"
                        } else {
                            &c.path
                        },
                        serde_json::to_value(c.kind)
                            .unwrap_or_default()
                            .as_str()
                            .unwrap_or(""),
                        c.cost,
                        c.original
                    );
                }
            }
            Err(e) => writeln!(out, "{}", e.corrective_message())?,
        }
    }
    Ok(if result.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `--jsonl`: one result line per input line; a malformed line (not JSON, no `text`, no usable
/// schema) is answered `{"ok": false, "error": "malformed_line", "message": …, "errors": []}` and
/// the run goes on. Exit
/// status: see [`crate::io::JsonlTally`].
fn run_jsonl(args: &Args, default: Option<&Decoder>, policy: &Policy) -> anyhow::Result<ExitCode> {
    let reader = crate::io::open_lines(args.file.as_deref())?;
    let mut out = std::io::stdout().lock();
    let mut cache: HashMap<String, Result<Decoder, String>> = HashMap::new();
    let mut tally = crate::io::JsonlTally::default();
    crate::io::for_each_line(reader, |n, line| {
        let v = match line.and_then(|l| one_line(l, default, policy, &mut cache)) {
            Ok(r) => {
                tally.answered(r.is_ok());
                result_json(&r)
            }
            Err(msg) => {
                tally.malformed(n, &msg);
                crate::io::malformed_answer(&msg, json!({"errors": []}))
            }
        };
        writeln!(out, "{v}")?;
        Ok(())
    })?;
    Ok(tally.exit_code())
}

/// Decodes one `--jsonl` request; `Err` is a problem with the request line itself.
fn one_line(
    line: &str,
    default: Option<&Decoder>,
    policy: &Policy,
    cache: &mut HashMap<String, Result<Decoder, String>>,
) -> Result<Result<toolmend::decode::Decoded<Value>, DecodeError>, String> {
    let req = crate::io::request_object(line, &["text", "schema"])?;
    let decoder = match req.get("schema") {
        Some(s) => {
            let key = s.to_string();
            cache
                .entry(key)
                .or_insert_with(|| Decoder::new(s).map_err(|e| e.to_string()))
                .clone()?
        }
        None => default
            .cloned()
            .ok_or("the line has no \"schema\" and no --schema was given")?,
    };
    let text = req
        .get("text")
        .ok_or("the line has no \"text\" (the raw arguments)")?;
    let raw: Raw<'_> = match text {
        Value::String(s) => Raw::Text(s),
        v => Raw::from(v),
    };
    Ok(decoder.decode_value(raw, policy))
}

fn result_json(r: &Result<toolmend::decode::Decoded<Value>, DecodeError>) -> Value {
    match r {
        Ok(d) => json!({"ok": true, "value": d.value, "fixes": d.fixes, "coercions": d.coercions}),
        Err(e) => {
            let errors: Vec<Value> = match e {
                DecodeError::Invalid { problems, .. } => problems
                    .iter()
                    .map(|p| json!({"path": p.path, "expected": p.expected, "received": p.received, "fix": p.fix}))
                    .collect(),
                // One short entry with the same fields as a problem (received: what is wrong,
                // not the whole message again).
                DecodeError::Malformed(r) => vec![json!({
                    "path": "",
                    "expected": "the arguments as one JSON object",
                    "received": r.to_string(),
                    "fix": "send the arguments as one JSON object, with double-quoted keys and strings"
                })],
                other => vec![json!({
                    "path": "",
                    "expected": "a parameter schema that compiles",
                    "received": other.to_string(),
                    "fix": "fix the tool's parameter schema (not the model's fault)"
                })],
            };
            json!({"ok": false, "message": e.corrective_message(), "errors": errors})
        }
    }
}
