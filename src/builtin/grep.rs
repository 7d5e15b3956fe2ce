//! `grep`: search file contents inside the root with a regular expression.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Sandbox, blocking, default_path, io_failure, looks_binary};
use crate::tools::{Annotations, Failure, Output, ToolContext, TypedTool};

const MAX_MATCHES: usize = 200;
const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;
const MAX_LINE_CHARS: usize = 200;

/// Arguments of `grep`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct GrepArgs {
    /// Regular expression to search for (Rust regex syntax).
    pub pattern: String,
    /// File or directory to search, relative to the workspace root. Default: ".".
    #[serde(default = "default_path")]
    pub path: String,
    /// Only search files whose path matches this glob (e.g. "*.rs").
    #[serde(default)]
    pub glob: Option<String>,
    /// Match without regard to letter case. Default: false.
    #[serde(default)]
    pub ignore_case: bool,
}

/// Searches text files for a regular expression and reports `file:line: text`.
#[derive(Debug)]
pub struct Grep {
    sandbox: Arc<Sandbox>,
}

impl Grep {
    /// `grep` confined to `sandbox`.
    pub fn new(sandbox: Arc<Sandbox>) -> Self {
        Self { sandbox }
    }
}

impl TypedTool for Grep {
    type Args = GrepArgs;

    fn name(&self) -> &str {
        "grep"
    }

    fn description(&self) -> &str {
        "Search the text files of the workspace for a regular expression. Prints file:line: text for each match."
    }

    fn annotations(&self) -> Annotations {
        Annotations::READ_ONLY
    }

    fn example(&self) -> Option<Value> {
        Some(json!({"pattern": "fn main", "path": "."}))
    }

    async fn run(&self, _ctx: &ToolContext, args: GrepArgs) -> Result<Output, Failure> {
        let sb = Arc::clone(&self.sandbox);
        blocking("grep", move || grep(&sb, &args)).await
    }
}

fn grep(sb: &Sandbox, args: &GrepArgs) -> Result<Output, Failure> {
    let re = regex::RegexBuilder::new(&args.pattern)
        .case_insensitive(args.ignore_case)
        .size_limit(1 << 20)
        .build()
        .map_err(|e| {
            Failure::invalid_args(
                "grep",
                "/pattern",
                format!(
                    "`{}` is not a valid regular expression: {e}. Escape special characters such as ( [ . * with a backslash, e.g. {{\"pattern\": \"{}\"}}",
                    args.pattern,
                    regex::escape(&args.pattern).replace('\\', "\\\\")
                ),
            )
        })?;
    let filter = match &args.glob {
        Some(g) => Some(super::glob::matcher("grep", "/glob", g)?),
        None => None,
    };
    let abs = sb.resolve("grep", &args.path)?;
    let meta = std::fs::metadata(&abs).map_err(|e| io_failure("grep", sb, &abs, &e))?;
    let files = super::glob::walk_files(sb, &abs, meta.is_file());
    let mut text = String::new();
    let mut data = Vec::new();
    let mut total = 0usize;
    for file in files {
        let rel = sb.display(&file);
        if let Some(f) = &filter
            && !f.is_match(&rel)
            && !file.file_name().is_some_and(|n| f.is_match(n))
        {
            continue;
        }
        if std::fs::metadata(&file)
            .map(|m| m.len())
            .unwrap_or(u64::MAX)
            > MAX_FILE_BYTES
        {
            continue;
        }
        let Ok(bytes) = std::fs::read(&file) else {
            continue;
        };
        if looks_binary(&bytes) {
            continue;
        }
        let content = String::from_utf8_lossy(&bytes);
        for (i, line) in content.lines().enumerate() {
            if !re.is_match(line) {
                continue;
            }
            total += 1;
            if total > MAX_MATCHES {
                continue;
            }
            let shown_line: String = if line.chars().count() > MAX_LINE_CHARS {
                line.chars()
                    .take(MAX_LINE_CHARS)
                    .chain("…".chars())
                    .collect()
            } else {
                line.to_string()
            };
            text.push_str(&format!("{rel}:{}: {}\n", i + 1, shown_line.trim_end()));
            data.push(json!({"path": rel, "line": i + 1, "text": shown_line}));
        }
    }
    let shown = sb.display(&abs);
    if total == 0 {
        text = format!("no matches for `{}` in `{shown}`", args.pattern);
    } else if total > MAX_MATCHES {
        text.push_str(&format!(
            "[{MAX_MATCHES} of {total} matches shown; narrow the pattern, the path or the glob]"
        ));
    }
    Ok(Output::list(text.trim_end().to_string(), Value::Array(data)).reading(abs))
}
