//! `read`: read a text file inside the root, with numbered lines and an optional line range.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Sandbox, blocking, io_failure, looks_binary};
use crate::tools::{Annotations, Failure, Output, ToolContext, TypedTool};

/// Most lines returned by one call when no range is given.
const MAX_LINES: usize = 2000;
/// Largest file `read` loads.
const MAX_FILE_BYTES: u64 = 32 * 1024 * 1024;

/// Arguments of `read`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ReadArgs {
    /// File to read, relative to the workspace root.
    pub path: String,
    /// First line to show (1-based). Default: 1.
    #[serde(default)]
    pub start_line: Option<u64>,
    /// Last line to show (inclusive). Default: the end of the file (at most 2000 lines).
    #[serde(default)]
    pub end_line: Option<u64>,
}

/// Reads a text file and shows it with line numbers.
#[derive(Debug)]
pub struct Read {
    sandbox: Arc<Sandbox>,
}

impl Read {
    /// `read` confined to `sandbox`.
    pub fn new(sandbox: Arc<Sandbox>) -> Self {
        Self { sandbox }
    }
}

impl TypedTool for Read {
    type Args = ReadArgs;

    fn name(&self) -> &str {
        "read"
    }

    fn description(&self) -> &str {
        "Read a text file of the workspace. Lines are numbered; use start_line and end_line to read part of a long file."
    }

    fn annotations(&self) -> Annotations {
        Annotations::READ_ONLY
    }

    fn example(&self) -> Option<Value> {
        Some(json!({"path": "README.md"}))
    }

    /// The first file the request names; else, when the root has no `README.md` (the fixed
    /// example), its first file in name order.
    fn example_for(&self, request: &str) -> Option<Value> {
        let sb = &self.sandbox;
        if let Some(path) = sb.first_named(request, false) {
            return Some(json!({"path": path}));
        }
        if sb.root().join("README.md").is_file() {
            return None;
        }
        let mut files: Vec<String> = std::fs::read_dir(sb.root())
            .ok()?
            .filter_map(Result::ok)
            .take(10_000)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|e| e.file_name().into_string().ok())
            .collect();
        files.sort();
        files.into_iter().next().map(|path| json!({"path": path}))
    }

    /// A call named after a file of the workspace (`config.json`, or `groceries.md` for
    /// `notes/groceries.md`) means reading it.
    fn call_named(&self, name: &str) -> Option<Value> {
        let path = self.sandbox.entry_named(name, false)?;
        Some(json!({"path": path}))
    }

    async fn run(&self, _ctx: &ToolContext, args: ReadArgs) -> Result<Output, Failure> {
        let sb = Arc::clone(&self.sandbox);
        blocking("read", move || read(&sb, &args)).await
    }
}

fn read(sb: &Sandbox, args: &ReadArgs) -> Result<Output, Failure> {
    let (abs, note) = sb.resolve_near("read", &args.path)?;
    read_at(sb, abs, args).map(|out| super::noted(out, note))
}

fn read_at(sb: &Sandbox, abs: std::path::PathBuf, args: &ReadArgs) -> Result<Output, Failure> {
    let shown = sb.display(&abs);
    if abs.is_dir() {
        // What a model reading a folder wants is what it holds (small models `read` `.`): the
        // listing `ls` gives, said to be one, instead of a failure that costs a turn.
        let note = format!("(`{shown}` is a directory, not a file; this is what it holds.)");
        return super::ls::list_at(sb, abs).map(|out| super::noted(out, Some(note)));
    }
    let meta = std::fs::metadata(&abs).map_err(|e| io_failure("read", sb, &abs, &e))?;
    if !meta.is_file() {
        return Err(Failure::invalid_args(
            "read",
            "/path",
            format!(
                "`{shown}` is not a regular file (a device, socket or pipe); only text files can be read"
            ),
        ));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(Failure::invalid_args(
            "read",
            "/path",
            format!(
                "`{shown}` is too large to read ({} bytes); find the lines you need with {{\"name\": \"grep\", \"arguments\": {{\"pattern\": \"...\", \"path\": \"{shown}\"}}}}",
                meta.len()
            ),
        ));
    }
    let bytes = std::fs::read(&abs).map_err(|e| io_failure("read", sb, &abs, &e))?;
    if looks_binary(&bytes) {
        return Err(Failure::invalid_args(
            "read",
            "/path",
            format!(
                "`{shown}` is a binary file ({}); only text files can be read",
                super::byte_count(bytes.len() as u64)
            ),
        ));
    }
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.lines().collect();
    let total = lines.len();
    let start = args.start_line.unwrap_or(1).max(1);
    if total == 0 {
        return Ok(Output::text(format!("`{shown}` is empty."))
            .with_data(json!({"path": shown, "total_lines": 0}))
            .reading(abs));
    }
    if start > total as u64 {
        return Err(Failure::invalid_args(
            "read",
            "/start_line",
            format!(
                "`{shown}` has only {total} lines, so start_line {start} is past the end. For example: {{\"name\": \"read\", \"arguments\": {{\"path\": \"{shown}\", \"start_line\": 1}}}}"
            ),
        ));
    }
    let start = start as usize;
    let requested_end = args.end_line.map(|e| e.min(total as u64) as usize);
    if let Some(end) = requested_end
        && end < start
    {
        return Err(Failure::invalid_args(
            "read",
            "/end_line",
            format!(
                "end_line {end} is before start_line {start}; end_line must be at least start_line"
            ),
        ));
    }
    let end = requested_end.unwrap_or(total).min(start + MAX_LINES - 1);
    let width = end.to_string().len();
    let mut out = String::new();
    for (i, line) in lines[start - 1..end].iter().enumerate() {
        out.push_str(&format!("{:>width$}\t{line}\n", start + i));
    }
    // A Helm template's values, from the chart's values.yaml and Chart.yaml (see `helm`).
    if let Some(chart) = super::helm::Chart::of(sb, &abs) {
        let used = chart.resolved(&lines[start - 1..end].join("\n"));
        if !used.is_empty() {
            let shown: Vec<String> = used
                .iter()
                .map(|r| format!("{} = {} ({} line {})", r.reference, r.value, r.file, r.line))
                .collect();
            out.push_str(&format!(
                "[the chart's values these lines use: {}]\n",
                shown.join("; ")
            ));
        }
    }
    if end < requested_end.unwrap_or(total) || (requested_end.is_none() && end < total) {
        out.push_str(&format!(
            "[lines {start}-{end} of {total}; read more with {{\"path\": \"{shown}\", \"start_line\": {}}}]",
            end + 1
        ));
    }
    let mut data =
        json!({"path": shown, "start_line": start, "end_line": end, "total_lines": total});
    // A whole table under a header line: how many rows, which a small model does not count
    // (shopdata set, session 34: five numbered lines of orders.csv, answered `1`).
    if start == 1
        && end == total
        && let Some(rows) = table_rows(&shown, &lines)
    {
        out.push_str(&format!(
            "[{rows} row{} below the header line]",
            if rows == 1 { "" } else { "s" }
        ));
        data["rows"] = json!(rows);
    }
    Ok(Output::text(out.trim_end().to_string())
        .with_data(data)
        .reading(abs))
}

/// The number of rows (lines not blank) below the header line of `lines`, a CSV or TSV file's
/// (`path`): `None` for another file, or when its first line is no header — one of its fields
/// is empty or a number.
fn table_rows(path: &str, lines: &[&str]) -> Option<usize> {
    let sep = super::table_separator(path)?;
    let header = lines.first()?;
    let names_only = header.split(sep).all(|f| {
        let f = f.trim().trim_matches('"').trim();
        !f.is_empty() && f.parse::<f64>().is_err()
    });
    names_only.then(|| lines[1..].iter().filter(|l| !l.trim().is_empty()).count())
}
