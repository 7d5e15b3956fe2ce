//! `glob`: find files inside the root by a glob pattern; also the confined directory walk shared
//! with `grep`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Sandbox, blocking, default_path, io_failure};
use crate::tools::{Annotations, Failure, Output, ToolContext, TypedTool};

const MAX_RESULTS: usize = 500;
/// Most directory entries one walk visits (a guard against huge trees).
pub(super) const MAX_WALK: usize = 100_000;

/// Entries a look on the loop's behalf takes at most (naming a file by its stem, a folder's
/// telling word): it runs on every answer given without a call, so it is bounded well below
/// [`MAX_WALK`].
pub(super) const MAX_LOOK: usize = 10_000;

/// Arguments of `glob`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct GlobArgs {
    /// Glob pattern, matched against paths relative to `path` (e.g. "**/*" for every file,
    /// "**/*.md", "src/*.toml").
    pub pattern: String,
    /// Directory to search, relative to the workspace root. Default: ".".
    #[serde(default = "default_path")]
    pub path: String,
}

/// Finds files whose path matches a glob pattern.
#[derive(Debug)]
pub struct Glob {
    sandbox: Arc<Sandbox>,
}

impl Glob {
    /// `glob` confined to `sandbox`.
    pub fn new(sandbox: Arc<Sandbox>) -> Self {
        Self { sandbox }
    }
}

impl TypedTool for Glob {
    type Args = GlobArgs;

    fn name(&self) -> &str {
        "glob"
    }

    fn description(&self) -> &str {
        // Small models copy the first example they see: `**/*.rs` was searched for in a folder
        // of notes (eval tasks); `**/*`, copied, lists every file.
        "Find files in the workspace whose path matches a glob pattern, such as **/* (every file) or **/*.md."
    }

    fn annotations(&self) -> Annotations {
        Annotations::READ_ONLY
    }

    fn example(&self) -> Option<Value> {
        Some(json!({"pattern": "**/*"}))
    }

    async fn run(&self, _ctx: &ToolContext, args: GlobArgs) -> Result<Output, Failure> {
        let sb = Arc::clone(&self.sandbox);
        blocking("glob", move || glob(&sb, &args)).await
    }
}

/// Compiles a glob, refusing patterns that would look outside the root.
pub(super) fn matcher(
    tool: &str,
    pointer: &str,
    pattern: &str,
) -> Result<globset::GlobMatcher, Failure> {
    let p = pattern.trim();
    if p.starts_with('/') || p.starts_with('~') || p.split('/').any(|c| c == "..") {
        return Err(Failure::denied(
            tool,
            format!(
                "the pattern `{p}` points outside the workspace; patterns are relative to the workspace root, e.g. \"**/*\" for every file"
            ),
        ));
    }
    globset::GlobBuilder::new(p)
        .literal_separator(false)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| {
            Failure::invalid_args(
                tool,
                pointer,
                format!(
                    "`{p}` is not a valid glob pattern: {e}. For example: \"**/*\" for every file"
                ),
            )
        })
}

/// The regular files under `start` (or `start` itself when `is_file`), sorted, without following
/// symbolic links and skipping `.git`. Nothing outside the sandbox is visited: the walk starts
/// from a resolved path and never follows links.
pub(super) fn walk_files(sb: &Sandbox, start: &Path, is_file: bool) -> Vec<PathBuf> {
    walk_files_within(sb, start, is_file, MAX_WALK)
}

/// [`walk_files`] looking at `entries` entries at most (files and folders, in name order).
pub(super) fn walk_files_within(
    sb: &Sandbox,
    start: &Path,
    is_file: bool,
    entries: usize,
) -> Vec<PathBuf> {
    if is_file {
        return vec![start.to_path_buf()];
    }
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(start)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.file_name() != ".git")
        .take(entries)
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().starts_with(sb.root()))
        .map(walkdir::DirEntry::into_path)
        .collect();
    out.sort();
    out
}

fn glob(sb: &Sandbox, args: &GlobArgs) -> Result<Output, Failure> {
    let m = matcher("glob", "/pattern", &args.pattern)?;
    let (abs, note) = sb.resolve_near("glob", &args.path)?;
    glob_at(sb, args, &m, abs).map(|out| super::noted(out, note))
}

fn glob_at(
    sb: &Sandbox,
    args: &GlobArgs,
    m: &globset::GlobMatcher,
    abs: std::path::PathBuf,
) -> Result<Output, Failure> {
    let meta = std::fs::metadata(&abs).map_err(|e| io_failure("glob", sb, &abs, &e))?;
    if !meta.is_dir() {
        return Err(Failure::invalid_args(
            "glob",
            "/path",
            format!("`{}` is a file; path must be a directory", sb.display(&abs)),
        ));
    }
    let mut found = Vec::new();
    for file in walk_files(sb, &abs, false) {
        let rel_to_start = file.strip_prefix(&abs).unwrap_or(&file);
        if m.is_match(rel_to_start) {
            found.push(sb.display(&file));
        }
    }
    let total = found.len();
    let mut text = found
        .iter()
        .take(MAX_RESULTS)
        .cloned()
        .collect::<Vec<_>>()
        .join("\n");
    if total == 0 {
        text = format!(
            "no files match `{}` in `{}`",
            args.pattern,
            sb.display(&abs)
        );
    } else if total > MAX_RESULTS {
        text.push_str(&format!(
            "\n[{MAX_RESULTS} of {total} files shown; use a narrower pattern]"
        ));
    }
    let data: Vec<Value> = found
        .into_iter()
        .take(MAX_RESULTS)
        .map(Value::String)
        .collect();
    Ok(Output::list(text, Value::Array(data)).reading(abs))
}
