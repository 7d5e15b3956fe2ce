//! Built-in file tools for the CLI — `ls`, `read`, `grep`, `glob`, `write`, `edit` — confined to a
//! root directory by a [`Sandbox`]: `..` above the root, absolute paths and symbolic links leading
//! out are refused, and nothing outside the root is read or written. There is no shell tool.
//!
//! ```
//! let dir = tempfile::tempdir().unwrap();
//! let registry = toolmend::builtin::registry(dir.path()).unwrap();
//! assert_eq!(registry.snapshot().names(), ["edit", "glob", "grep", "ls", "read", "write"]);
//! ```

mod asked;
mod edit;
mod glob;
mod grep;
mod helm;
mod ls;
mod read;
pub mod sandbox;
mod snippet;
mod spelling;
mod write;

use std::io;
use std::path::Path;
use std::sync::Arc;

pub use edit::{Edit, EditArgs};
pub(crate) use edit::{cmdliner_default, is_changelog, is_document, is_test_file, keyword_arg};
pub use glob::{Glob, GlobArgs};
pub(crate) use grep::{
    ASSIGNED, PORT_PATTERN, SET_HERE, SHOWN_WITH, asked_words, asks_which_source, counts_tries,
    is_common, left_unset, negations,
};
pub use grep::{Grep, GrepArgs};
pub use ls::{Ls, LsArgs};
pub use read::{Read, ReadArgs};
pub use sandbox::Sandbox;
pub(crate) use snippet::declared;
pub use write::{Write, WriteArgs};

use crate::tools::{Failure, Registry, SchemaError, Tool, typed};

/// Why the built-in tools could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum BuiltinError {
    /// The root directory is missing or unreadable.
    #[error("cannot use {root} as the tools' root directory; pass an existing directory")]
    Root {
        /// The root as given.
        root: String,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
    /// A tool's schema did not compile (a bug in toolmend).
    #[error(transparent)]
    Schema(#[from] SchemaError),
}

/// All built-in tools, confined to `sandbox`, in name order.
pub fn all(sandbox: &Arc<Sandbox>) -> Vec<Arc<dyn Tool>> {
    vec![
        Arc::new(typed(Edit::new(Arc::clone(sandbox)))),
        Arc::new(typed(Glob::new(Arc::clone(sandbox)))),
        Arc::new(typed(Grep::new(Arc::clone(sandbox)))),
        Arc::new(typed(Ls::new(Arc::clone(sandbox)))),
        Arc::new(typed(Read::new(Arc::clone(sandbox)))),
        Arc::new(typed(Write::new(Arc::clone(sandbox)))),
    ]
}

/// The names of the built-in tools, in name order.
pub const NAMES: [&str; 6] = ["edit", "glob", "grep", "ls", "read", "write"];

/// The built-in tools that only read (`ls read grep glob`): a set that cannot change the root.
pub const READ_ONLY: [&str; 4] = ["glob", "grep", "ls", "read"];

/// Registers all built-in tools rooted at `root` into `registry`, under the provider `builtin`.
///
/// # Errors
/// [`BuiltinError::Root`] when `root` is not an existing directory.
pub fn register(registry: &Registry, root: &Path) -> Result<(), BuiltinError> {
    register_some(registry, root, |_| true)
}

/// Registers the built-in tools whose name `keep` accepts (see [`NAMES`]), rooted at `root`,
/// under the provider `builtin` — e.g. only [`READ_ONLY`] ones for a task that must not change
/// anything.
///
/// # Errors
/// [`BuiltinError::Root`] when `root` is not an existing directory.
pub fn register_some(
    registry: &Registry,
    root: &Path,
    keep: impl Fn(&str) -> bool,
) -> Result<(), BuiltinError> {
    let sandbox = Sandbox::new(root).map_err(|source| BuiltinError::Root {
        root: root.display().to_string(),
        source,
    })?;
    for tool in all(&Arc::new(sandbox)) {
        if keep(&tool.spec().name) {
            registry.insert(tool, Some("builtin".into()))?;
        }
    }
    Ok(())
}

/// A new registry holding the built-in tools rooted at `root`.
///
/// # Errors
/// [`BuiltinError::Root`] when `root` is not an existing directory.
pub fn registry(root: &Path) -> Result<Registry, BuiltinError> {
    let r = Registry::new();
    register(&r, root)?;
    Ok(r)
}

/// Runs blocking file-system work off the async threads; a panic inside becomes `Panicked`.
async fn blocking<T: Send + 'static>(
    tool: &'static str,
    f: impl FnOnce() -> Result<T, Failure> + Send + 'static,
) -> Result<T, Failure> {
    match tokio::task::spawn_blocking(f).await {
        Ok(r) => r,
        Err(e) => Err(Failure::Panicked {
            tool: tool.into(),
            message: e.to_string(),
        }),
    }
}

/// `out` with `note` (from [`Sandbox::resolve_near`]: the path given named nothing, this is the
/// entry it plainly meant) as its first line.
fn noted(mut out: crate::tools::Output, note: Option<String>) -> crate::tools::Output {
    if let Some(n) = note {
        out.text = format!("{n}\n{}", out.text);
    }
    out
}

/// Maps an I/O error on `abs` to the failure the model should see.
fn io_failure(tool: &str, sb: &Sandbox, abs: &Path, err: &io::Error) -> Failure {
    let shown = sb.display(abs);
    match err.kind() {
        io::ErrorKind::NotFound => sb.not_found(tool, abs),
        io::ErrorKind::PermissionDenied => Failure::denied(
            tool,
            format!("the file system does not allow access to `{shown}`"),
        ),
        io::ErrorKind::IsADirectory => Failure::invalid_args(
            tool,
            "/path",
            format!("`{shown}` is a directory; use `ls` to list it"),
        ),
        _ if sandbox::is_bad_name(err) => sandbox::bad_name(tool, &shown, err),
        _ => Failure::transient(tool, format!("I/O error on `{shown}`: {err}")),
    }
}

/// The separator of a table file by its name: `,` for a `.csv` file, a tab for a `.tsv` one
/// (case aside); `None` for any other file.
pub(crate) fn table_separator(path: &str) -> Option<char> {
    let lower = path.to_lowercase();
    if lower.ends_with(".csv") {
        Some(',')
    } else if lower.ends_with(".tsv") {
        Some('\t')
    } else {
        None
    }
}

/// The texts of the text files below `dir` for a bounded look (the look-first checks run on
/// every answer given without a call, so they never search a large tree): at most 500 files of
/// up to 256 KiB each, 4 MiB in all, among the first 10,000 entries in name order; binary files
/// skipped.
fn small_texts(sb: &Sandbox, dir: &Path) -> impl Iterator<Item = String> {
    small_files(sb, dir).map(|(_, text)| text)
}

/// [`small_texts`] with each file's path, as the workspace shows it.
fn small_files<'s>(sb: &'s Sandbox, dir: &Path) -> impl Iterator<Item = (String, String)> + 's {
    let mut budget: u64 = 4 << 20;
    glob::walk_files_within(sb, dir, false, glob::MAX_LOOK)
        .into_iter()
        .take(500)
        .map_while(move |file| {
            let len = std::fs::metadata(&file).map_or(u64::MAX, |m| m.len());
            if len <= 256 * 1024 && len > budget {
                return None;
            }
            if len > 256 * 1024 {
                return Some(None);
            }
            budget -= len;
            let Ok(bytes) = std::fs::read(&file) else {
                return Some(None);
            };
            Some((!looks_binary(&bytes)).then(|| {
                (
                    sb.display(&file),
                    String::from_utf8_lossy(&bytes).into_owned(),
                )
            }))
        })
        .flatten()
}

/// True when the first bytes look binary (contain a NUL).
fn looks_binary(bytes: &[u8]) -> bool {
    memchr::memchr(0, &bytes[..bytes.len().min(8192)]).is_some()
}

/// "1 byte", "288 bytes".
fn byte_count(n: u64) -> String {
    if n == 1 {
        "1 byte".to_owned()
    } else {
        format!("{n} bytes")
    }
}

fn default_path() -> String {
    ".".into()
}
