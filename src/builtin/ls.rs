//! `ls`: list a directory inside the root.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Sandbox, blocking, default_path, io_failure};
use crate::tools::{Annotations, Failure, Output, ToolContext, TypedTool};

const MAX_ENTRIES: usize = 500;

/// Arguments of `ls`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct LsArgs {
    /// Directory to list, relative to the workspace root ("." is the root).
    #[serde(default = "default_path")]
    pub path: String,
}

/// Lists the entries of a directory: directories end in `/`, files show their size; git's own
/// folder (`.git`) is left out.
#[derive(Debug)]
pub struct Ls {
    sandbox: Arc<Sandbox>,
}

impl Ls {
    /// `ls` confined to `sandbox`.
    pub fn new(sandbox: Arc<Sandbox>) -> Self {
        Self { sandbox }
    }
}

impl TypedTool for Ls {
    type Args = LsArgs;

    fn name(&self) -> &str {
        "ls"
    }

    fn description(&self) -> &str {
        "List the files and directories in a directory of the workspace. Directories end with /."
    }

    fn annotations(&self) -> Annotations {
        Annotations::READ_ONLY
    }

    fn example(&self) -> Option<Value> {
        Some(json!({"path": "."}))
    }

    /// The first folder the request names (else the root, the fixed example).
    fn example_for(&self, request: &str) -> Option<Value> {
        let path = self.sandbox.first_named(request, true)?;
        Some(json!({"path": path}))
    }

    /// A call named after a folder of the workspace (`notes`) means listing it.
    fn call_named(&self, name: &str) -> Option<Value> {
        let path = self.sandbox.entry_named(name, true)?;
        Some(json!({"path": path}))
    }

    async fn run(&self, _ctx: &ToolContext, args: LsArgs) -> Result<Output, Failure> {
        let sb = Arc::clone(&self.sandbox);
        blocking("ls", move || list(&sb, &args.path)).await
    }
}

fn list(sb: &Sandbox, path: &str) -> Result<Output, Failure> {
    let (abs, note) = sb.resolve_near("ls", path)?;
    list_at(sb, abs).map(|out| super::noted(out, note))
}

/// The listing of `abs`, already resolved inside the sandbox (also what `read` of a directory
/// shows).
pub(super) fn list_at(sb: &Sandbox, abs: std::path::PathBuf) -> Result<Output, Failure> {
    let shown = sb.display(&abs);
    let meta = std::fs::metadata(&abs).map_err(|e| io_failure("ls", sb, &abs, &e))?;
    if meta.is_file() {
        let data = json!([{"name": shown, "type": "file", "size": meta.len()}]);
        return Ok(
            Output::list(format!("{shown} ({})", super::byte_count(meta.len())), data)
                .reading(abs.clone()),
        );
    }
    let rd = std::fs::read_dir(&abs).map_err(|e| io_failure("ls", sb, &abs, &e))?;
    let mut entries: Vec<(String, &'static str, u64)> = Vec::new();
    let mut git = false;
    for e in rd {
        let e = e.map_err(|e| io_failure("ls", sb, &abs, &e))?;
        let name = e.file_name().to_string_lossy().into_owned();
        // git's own folder is no file of the project (`glob` and `grep` skip it too): listed,
        // Qwen2.5-Coder-0.5B called a tool `git` with `ls`'s arguments until the run ended
        // (session 27). Listed by name (`ls .git`), it shows what it holds.
        if name == ".git" {
            git = true;
            continue;
        }
        let ft = e
            .file_type()
            .map_err(|err| io_failure("ls", sb, &e.path(), &err))?;
        let (kind, size) = if ft.is_symlink() {
            ("symlink", 0)
        } else if ft.is_dir() {
            ("dir", 0)
        } else {
            ("file", e.metadata().map(|m| m.len()).unwrap_or(0))
        };
        entries.push((name, kind, size));
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    let total = entries.len();
    let mut text = String::new();
    let mut data = Vec::new();
    for (name, kind, size) in entries.iter().take(MAX_ENTRIES) {
        match *kind {
            "dir" => text.push_str(&format!("{name}/\n")),
            "symlink" => text.push_str(&format!("{name}@ (symbolic link)\n")),
            _ => text.push_str(&format!("{name} ({})\n", super::byte_count(*size))),
        }
        data.push(json!({"name": name, "type": kind, "size": size}));
    }
    if total == 0 && git {
        text = format!("`{shown}` holds nothing but git's own folder, `.git/`.");
    } else if total == 0 {
        text = format!("`{shown}` is empty.");
    } else if total > MAX_ENTRIES {
        text.push_str(&format!(
            "[{MAX_ENTRIES} of {total} entries shown; use glob with a pattern to narrow down]"
        ));
    }
    Ok(Output::list(text.trim_end().to_string(), Value::Array(data)).reading(abs))
}
