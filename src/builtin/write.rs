//! `write`: create or overwrite a file inside the root.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Sandbox, asked, blocking, io_failure};
use crate::tools::{Annotations, Effect, Failure, Output, Replace, ToolContext, TypedTool};

/// Arguments of `write`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct WriteArgs {
    /// File to write, relative to the workspace root. Missing parent directories are created.
    pub path: String,
    /// The complete new content of the file.
    pub content: String,
}

/// Writes a whole file (creating or replacing it).
#[derive(Debug)]
pub struct Write {
    sandbox: Arc<Sandbox>,
}

impl Write {
    /// `write` confined to `sandbox`.
    pub fn new(sandbox: Arc<Sandbox>) -> Self {
        Self { sandbox }
    }
}

impl TypedTool for Write {
    type Args = WriteArgs;

    fn name(&self) -> &str {
        "write"
    }

    fn description(&self) -> &str {
        "Create a file or replace its whole content. Use edit to change part of an existing file."
    }

    fn annotations(&self) -> Annotations {
        Annotations {
            read_only: false,
            destructive: true,
            idempotent: true,
            open_world: false,
        }
    }

    /// Names a file no real folder has: models copy the example they are shown, and a copied
    /// `write` of a real name would replace that file.
    fn example(&self) -> Option<Value> {
        Some(json!({"path": "toolmend-example.txt", "content": "hello\n"}))
    }

    /// The file the request asks to create, with the one value it gives as its content ("Create
    /// a file named .gitignore that contains the line __pycache__/", read by the crate's request
    /// parser, `builtin::asked`), when no file or folder of that name exists yet (replacing one
    /// is no creation). Found on the held-out project tasks: Qwen2.5-Coder-0.5B called a tool
    /// `gitignore` with `{"pattern": "__pycache__"}` and never `write`.
    fn change_asked(&self, request: &str) -> Option<Value> {
        let (path, content) = asked::file_created(&asked::parts(request))?;
        let abs = self.sandbox.resolve("write", &path).ok()?;
        (abs != self.sandbox.root() && !abs.exists())
            .then(|| json!({"path": self.sandbox.display(&abs), "content": content}))
    }

    /// An existing file that is not empty: its lines would be lost unless the model sends them
    /// again, which it can only do having read them.
    fn replaces(&self, args: &Value) -> Option<Replace> {
        let path = args.get("path")?.as_str()?;
        let abs = self.sandbox.resolve("write", path).ok()?;
        let meta = std::fs::metadata(&abs).ok()?;
        if !meta.is_file() || meta.len() == 0 {
            return None;
        }
        let shown = self.sandbox.display(&abs);
        let lines = std::fs::read(&abs)
            .map(|b| b.split(|&c| c == b'\n').filter(|l| !l.is_empty()).count())
            .unwrap_or(0);
        let read = json!({"name": "read", "arguments": {"path": shown}});
        let message = format!(
            "`{shown}` already exists ({lines} line{}) and was not read in this task: write replaces its whole content, so every line you do not send again is lost. Read it first: {read}. Then send its complete new content with write, or change only part of it with edit",
            if lines == 1 { "" } else { "s" }
        );
        Some(Replace {
            path: abs,
            read_with: "read".into(),
            message,
        })
    }

    async fn run(&self, _ctx: &ToolContext, args: WriteArgs) -> Result<Output, Failure> {
        let sb = Arc::clone(&self.sandbox);
        blocking("write", move || write(&sb, &args)).await
    }
}

fn write(sb: &Sandbox, args: &WriteArgs) -> Result<Output, Failure> {
    let abs = sb.resolve("write", &args.path)?;
    let shown = sb.display(&abs);
    if abs == sb.root() || abs.is_dir() {
        return Err(Failure::invalid_args(
            "write",
            "/path",
            // No file name to copy here: a model shown `./notes.txt` creates exactly that file.
            format!(
                "`{shown}` is a directory; write needs the path of a file. To see which files there are, call {{\"name\": \"ls\", \"arguments\": {{\"path\": \"{shown}\"}}}}"
            ),
        ));
    }
    let existed = abs.exists();
    // A few of the file's own lines sent as its whole content: a change of part of it gone
    // wrong, which would lose the rest. Found with a Nim daemon (session 52): asked to change a
    // built-in default and leave the production config as it is, Qwen2.5-Coder-0.5B read
    // `config/fjord.prod.toml` (33 lines) and wrote its line `vessel = "shore-gateway"` as
    // the file's content.
    if existed && let Ok(old) = std::fs::read_to_string(&abs) {
        let said = |t: &str| -> Vec<String> {
            t.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_owned)
                .collect()
        };
        let (old_lines, new_lines) = (said(&old), said(&args.content));
        if old_lines.len() >= 4
            && !new_lines.is_empty()
            && new_lines.len() * 2 < old_lines.len()
            && new_lines.iter().all(|l| old_lines.contains(l))
        {
            let kept = new_lines.len();
            return Err(Failure::invalid_args(
                "write",
                "/content",
                format!(
                    "`{shown}` has {} lines and this content is {kept} of them: write replaces the whole file, so the other {} would be lost; nothing was written. To change a line, call edit with the line as old_text and the changed line as new_text",
                    old_lines.len(),
                    old_lines.len() - kept
                ),
            ));
        }
    }
    if let Some(parent) = abs.parent() {
        std::fs::create_dir_all(parent).map_err(|e| io_failure("write", sb, parent, &e))?;
    }
    std::fs::write(&abs, &args.content).map_err(|e| io_failure("write", sb, &abs, &e))?;
    let bytes = args.content.len() as u64;
    let verb = if existed { "replaced" } else { "created" };
    Ok(
        Output::text(format!("{verb} `{shown}` ({})", super::byte_count(bytes)))
            .with_data(json!({"path": shown, "bytes": bytes, "created": !existed}))
            .with_effect(Effect::FileWritten {
                path: abs.clone(),
                bytes,
            })
            .reading(abs),
    )
}
