//! `toolmend extract`: model output in, tool calls out (plus content and reasoning).
//!
//! Without flags, prints each call as one JSON line `{"name", "arguments"}` on stdout and the
//! content, reasoning and rejected calls on stderr. `--json` prints the whole extraction as one
//! JSON object. `--jsonl` reads JSON lines `{"text", "tools"?, "format"?, "think_prefilled"?,
//! "reasoning_in_content"?, "partial"?, "drop_text_after_calls"?}`
//! from FILE or stdin and answers each with one line `{"calls", "content", "reasoning", "rejected"}`.
//! Exit status: 0 when a call was found (`--jsonl`: every line was read), 1 when none was,
//! 2 on usage or I/O errors (`--jsonl`: some line was not valid input; it gets
//! `{"ok": false, "error": "malformed_line", "message"}` and the lines after it are still answered).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use toolmend::extract::{Extraction, FormatHint, Options, ToolInfo, extract};

/// Arguments of `toolmend extract`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The model output to read (`-` or absent: stdin).
    file: Option<PathBuf>,
    /// Envelope family (`auto` or a family name such as `hermes`, `qwen3-coder-xml`).
    #[arg(long, default_value = "auto")]
    format: String,
    /// A JSON file with the tool list: `[{"name", "parameters"}]`.
    #[arg(long)]
    tools: Option<PathBuf>,
    /// The prompt already opened a think block.
    #[arg(long)]
    think_prefilled: bool,
    /// Print the whole result as one JSON object.
    #[arg(long, conflicts_with = "jsonl")]
    json: bool,
    /// Machine mode: JSON lines in on stdin, JSON lines out.
    #[arg(long)]
    jsonl: bool,
}

#[derive(serde::Deserialize)]
struct Line {
    text: String,
    #[serde(default)]
    tools: Option<Vec<ToolInfo>>,
    #[serde(default)]
    format: Option<String>,
    #[serde(default)]
    think_prefilled: bool,
    #[serde(default)]
    reasoning_in_content: bool,
    #[serde(default)]
    partial: bool,
    #[serde(default)]
    drop_text_after_calls: bool,
}

/// The wire form of an extraction (see DESIGN.md).
fn wire(x: &Extraction) -> serde_json::Value {
    serde_json::to_value(x).unwrap_or_default()
}

/// Runs `toolmend extract`.
pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let hint: FormatHint = args.format.parse()?;
    let mut opts = Options::new()
        .with_format(hint)
        .with_think_prefilled(args.think_prefilled);
    if let Some(p) = &args.tools {
        let text =
            std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?;
        let tools: Vec<ToolInfo> = serde_json::from_str(&text).with_context(|| {
            format!("{} is not a JSON list of {{name, parameters}}", p.display())
        })?;
        opts = opts.with_tools(tools);
    }
    if args.jsonl {
        return jsonl(args.file.as_deref(), &opts);
    }
    let input = crate::io::read_input(args.file.as_deref())?;
    let x = extract(&input, &opts);
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", wire(&x))?;
    } else {
        for c in &x.calls {
            match &c.arguments {
                Ok(a) => writeln!(
                    out,
                    "{}",
                    serde_json::json!({"name": c.name, "arguments": a})
                )?,
                Err(e) => eprintln!("malformed call: {e}"),
            }
        }
        if !x.content.is_empty() {
            eprintln!("content: {}", x.content);
        }
        if !x.reasoning.is_empty() {
            eprintln!("reasoning: {}", x.reasoning);
        }
        for r in &x.rejected {
            eprintln!("rejected: {}", r.reason);
        }
    }
    Ok(if x.calls.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `--jsonl`: one result line per input line (from `file`, or stdin); a malformed line is
/// answered `{"ok": false, "error": "malformed_line", "message": …}` and the run goes on. Exit
/// status: see [`crate::io::JsonlTally`] (every extraction counts as usable).
fn jsonl(file: Option<&std::path::Path>, base: &Options) -> anyhow::Result<ExitCode> {
    let reader = crate::io::open_lines(file)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut tally = crate::io::JsonlTally::default();
    crate::io::for_each_line(reader, |n, line| {
        let answer = match line.and_then(|l| parse_line(l, base)) {
            Ok((text, opts)) => {
                // An extraction is the result, call or none ("no call" is an outcome).
                tally.answered(true);
                wire(&extract(&text, &opts))
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

/// The keys an `--jsonl` request line may have.
const LINE_KEYS: &[&str] = &[
    "text",
    "tools",
    "format",
    "think_prefilled",
    "reasoning_in_content",
    "partial",
    "drop_text_after_calls",
];

fn parse_line(line: &str, base: &Options) -> Result<(String, Options), String> {
    let req = crate::io::request_object(line, LINE_KEYS)?;
    let l: Line = serde_json::from_value(serde_json::Value::Object(req))
        .map_err(|e| format!("{e}; expected {{\"text\": \"…\", \"tools\"?, \"format\"?}}"))?;
    let mut opts = base.clone();
    if let Some(f) = &l.format {
        opts = opts.with_format(f.parse().map_err(|e| format!("{e:#}"))?);
    }
    if let Some(t) = l.tools {
        opts = opts.with_tools(t);
    }
    if l.think_prefilled {
        opts = opts.with_think_prefilled(true);
    }
    if l.partial {
        opts = opts.with_partial(true);
    }
    if l.reasoning_in_content {
        opts = opts.with_reasoning_in_content(true);
    }
    if l.drop_text_after_calls {
        opts = opts.with_drop_text_after_calls(true);
    }
    Ok((l.text, opts))
}
