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
/// Most lines of a glob's text: more matches than this are listed with the folders holding many
/// summed up ([`summed_up`]). A whole tree listed file by file fills a small model's context
/// window and, cut to fit, hides every folder after the first big one (Qwen2.5-Coder-0.5B's
/// `**/*` in this repository showed 327 files of `corpus/` and no `src/`).
const LIST_LINES: usize = 50;
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
/// symbolic links, skipping `.git` and what the workspace's `.gitignore` and `.ignore` files
/// exclude ([`walk_files_within`]). Nothing outside the sandbox is visited: the walk starts from
/// a resolved path and never follows links.
pub(super) fn walk_files(sb: &Sandbox, start: &Path, is_file: bool) -> Vec<PathBuf> {
    walk_files_within(sb, start, is_file, MAX_WALK)
}

/// [`walk_files`] looking at `entries` entries at most (files and folders, in name order).
///
/// Files a `.gitignore` or `.ignore` file inside the root excludes are left out, as `git` and
/// ripgrep leave them out: a build folder (`target/`, `node_modules/`) would otherwise fill the
/// results of `glob` and `grep` and make a file's name ambiguous. The ignore files of the folders
/// from the root down to `start` apply too, to what is below `start`; `start` itself, given
/// explicitly, is walked even when ignored (a search of `target/` looks there). Ignore files
/// outside the root, the user's global one included, are not read: the sandbox reads nothing
/// outside the root.
pub(super) fn walk_files_within(
    sb: &Sandbox,
    start: &Path,
    is_file: bool,
    entries: usize,
) -> Vec<PathBuf> {
    if is_file {
        return vec![start.to_path_buf()];
    }
    // From the root, so that the ignore files of the folders above `start` apply with git's
    // precedence (a deeper file's rule wins), going down only the way to `start`.
    let root = sb.root();
    let from = if start.starts_with(root) { root } else { start };
    let mut out = Vec::new();
    let reached = walk_below(from, start, entries, &mut out);
    if !reached {
        // `start` is ignored by a rule above it: given explicitly, it is walked on its own.
        out.clear();
        walk_below(start, start, entries, &mut out);
    }
    out.retain(|f| f.starts_with(root));
    out.sort();
    out
}

/// Walks `from` (`start` or a folder above it) for [`walk_files_within`], going down only the
/// way to `start` and everywhere below it, skipping `.git` and what ignore files exclude; pushes
/// the files below `start` to `out`. Whether the walk reached `start` (an ignored folder on the
/// way is not entered).
fn walk_below(from: &Path, start: &Path, entries: usize, out: &mut Vec<PathBuf>) -> bool {
    let target = start.to_path_buf();
    let mut walk = ignore::WalkBuilder::new(from);
    walk.follow_links(false)
        .hidden(false)
        .parents(false)
        .ignore(true)
        .git_ignore(true)
        .git_global(false)
        .git_exclude(false)
        .require_git(false)
        .sort_by_file_name(std::ffi::OsStr::cmp)
        .filter_entry(move |e| {
            e.file_name() != ".git"
                && (e.path().starts_with(&target) || target.starts_with(e.path()))
        });
    let mut reached = from == start;
    for e in walk.build().take(entries).filter_map(Result::ok) {
        if e.path() == start {
            reached = true;
        } else if e.file_type().is_some_and(|t| t.is_file()) && e.path().starts_with(start) {
            out.push(e.into_path());
        }
    }
    reached
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
    let base = sb.display(&abs);
    let text = if total == 0 {
        format!("no files match `{}` in `{base}`", args.pattern)
    } else if total > LIST_LINES {
        let mut text = summed_up(&found, &base, LIST_LINES).join("\n");
        text.push_str(&format!(
            "\n[{total} files match; folders with many are summed up as `folder/ (N files)`: \
             to list a folder's files, glob with that folder as the path]"
        ));
        text
    } else {
        found.join("\n")
    };
    let data: Vec<Value> = found
        .into_iter()
        .take(MAX_RESULTS)
        .map(Value::String)
        .collect();
    Ok(Output::list(text, Value::Array(data)).reading(abs))
}

/// The lines that show `found` (paths relative to the root, sorted, all below `base`, the
/// folder searched as the root shows it) in at most `limit` lines (when `base` itself holds no
/// more than that): each entry of `base` is a line — a file by its path, a folder as
/// `folder/ (N files)` — and folders are opened, level by level and the one with the fewest entries first, while
/// their entries still fit. Small folders come out file by file, big ones as one line each, so
/// every part of the tree shows.
pub(super) fn summed_up(found: &[String], base: &str, limit: usize) -> Vec<String> {
    use std::collections::{BTreeMap, BTreeSet};
    let skip = if base == "." { 0 } else { base.len() + 1 };
    // Each folder below `base` (as a path prefix with its trailing `/`; "" for `base`) with its
    // direct entries (a file's path, or a folder's prefix) and how many files it holds.
    let mut entries: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    let mut files: BTreeMap<&str, usize> = BTreeMap::new();
    for path in found {
        let rel = path.get(skip..).unwrap_or(path);
        let mut parent = "";
        for (i, _) in rel.match_indices('/') {
            let folder = &path[..skip + i + 1];
            entries.entry(parent).or_default().insert(folder);
            *files.entry(folder).or_default() += 1;
            parent = folder;
        }
        entries.entry(parent).or_default().insert(path);
    }
    let mut open: BTreeSet<&str> = BTreeSet::from([""]);
    let mut lines = entries.get("").map_or(0, BTreeSet::len);
    loop {
        // The closed folder on show nearest `base`, then with the fewest entries, whose opening
        // still fits: the tree opens level by level.
        let next = entries
            .iter()
            .filter(|(f, _)| !open.contains(*f) && open.iter().any(|o| entries[o].contains(*f)))
            .map(|(f, e)| (f.matches('/').count(), e.len(), *f))
            .filter(|(_, n, _)| lines - 1 + n <= limit)
            .min();
        let Some((_, n, folder)) = next else { break };
        open.insert(folder);
        lines = lines - 1 + n;
    }
    let mut out = Vec::new();
    let mut stack: Vec<&str> = entries
        .get("")
        .map(|e| e.iter().rev().copied().collect())
        .unwrap_or_default();
    while let Some(entry) = stack.pop() {
        if !entry.ends_with('/') {
            out.push(entry.to_owned());
        } else if open.contains(entry) {
            stack.extend(entries[entry].iter().rev().copied());
        } else {
            let n = files[entry];
            out.push(format!(
                "{entry} ({n} file{})",
                if n == 1 { "" } else { "s" }
            ));
        }
        if out.len() == limit && !stack.is_empty() {
            out.push(format!(
                "[… {} more entries of `{base}` not shown]",
                stack.len()
            ));
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::summed_up;

    fn paths(ps: &[&str]) -> Vec<String> {
        ps.iter().map(|p| (*p).to_owned()).collect()
    }

    #[test]
    fn folders_open_while_their_entries_fit() {
        let found = paths(&["a.txt", "big/1", "big/2", "big/3", "one/x", "src/a/b.rs"]);
        // Six lines allowed: everything.
        assert_eq!(summed_up(&found, ".", 6), found);
        // Four: `one/` and `src/` open (one entry each), `big/` (three) does not fit.
        assert_eq!(
            summed_up(&found, ".", 4),
            paths(&["a.txt", "big/ (3 files)", "one/x", "src/a/b.rs"])
        );
        // Searched from a folder: paths stay relative to the root.
        let found = paths(&["src/a/b.rs", "src/a/c.rs", "src/d/e.rs"]);
        assert_eq!(
            summed_up(&found, "src", 2),
            paths(&["src/a/ (2 files)", "src/d/e.rs"])
        );
    }

    #[test]
    fn a_folder_with_more_entries_than_fit_is_cut_saying_how_many_more() {
        let found: Vec<String> = (0..7).map(|i| format!("f{i}")).collect();
        assert_eq!(
            summed_up(&found, ".", 3),
            paths(&["f0", "f1", "f2", "[… 4 more entries of `.` not shown]"])
        );
    }
}
