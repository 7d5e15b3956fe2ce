//! Agent tasks: prompts that go through the whole tool loop — generation, extraction, repair,
//! decoding, the tools, the corrective messages — on a fresh copy of a folder, each judged by
//! checks on the answer and on the folder afterwards. Where BFCL scores one model turn, a task
//! scores what a person running `toolmend run` gets.
//!
//! A task file is JSON Lines, one task per line:
//!
//! ```json
//! {"id": "todo_open", "prompt": "Which TODO items in todo.txt are still open?",
//!  "answer_contains": ["passport", "plumber"], "unchanged": true}
//! {"id": "add_line", "prompt": "Add the line \"- buy coffee\" at the end of todo.txt.",
//!  "files": {"todo.txt": ["TODO: renew the passport", "- buy coffee"]}}
//! ```
//!
//! `answer_contains`: strings the final answer must hold (letter case aside); `unchanged`: no file
//! of the folder may be created, changed or removed; `files`: for each path, the strings the
//! file must hold afterwards (all of them); `files_lack`: for each path, strings the file must
//! no longer hold (`{"README.md": ["temperture"]}` for a fixed typo). A task passes when the run ended with an answer and every check holds.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::agent::{EndReason, Transcript};

/// One task: a prompt and what must hold after its run.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    /// A short name for reports, also the name of the task's folder: letters, digits, `_`, `-`
    /// and `.`, not starting with `.`.
    pub id: String,
    /// What the user asks.
    pub prompt: String,
    /// Strings the final answer must contain (compared without letter case).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answer_contains: Vec<String>,
    /// True when the task must leave every file of the folder as it was.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unchanged: bool,
    /// For each path (relative to the folder), strings the file must contain afterwards.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub files: BTreeMap<String, Vec<String>>,
    /// For each path (relative to the folder), strings the file must no longer contain
    /// afterwards (a typo fixed, an old value gone); the file must exist.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub files_lack: BTreeMap<String, Vec<String>>,
}

/// A task line that could not be read.
#[derive(Debug, thiserror::Error)]
#[error(
    "task line {line}: {message} (expected {{\"id\", \"prompt\", \"answer_contains\"?, \"unchanged\"?, \"files\"?, \"files_lack\"?}})"
)]
pub struct TaskError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads a task file (blank lines skipped; ids must be unique).
///
/// # Errors
/// [`TaskError`] naming the first line that is not a task, or that repeats an id.
pub fn load(text: &str) -> Result<Vec<Task>, TaskError> {
    let mut tasks: Vec<Task> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let task: Task = serde_json::from_str(line).map_err(|e| TaskError {
            line: i + 1,
            message: e.to_string(),
        })?;
        let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
        if task.id.is_empty() || task.id.starts_with('.') || !task.id.chars().all(plain) {
            // The id names the task's folder, which is removed after a pass: `..` or `a/b`
            // would name another one.
            return Err(TaskError {
                line: i + 1,
                message: format!(
                    "the id {:?} must be letters, digits, `_`, `-` or `.`, not starting with `.`",
                    task.id
                ),
            });
        }
        if tasks.iter().any(|t| t.id == task.id) {
            return Err(TaskError {
                line: i + 1,
                message: format!("the id {:?} is used twice", task.id),
            });
        }
        tasks.push(task);
    }
    Ok(tasks)
}

/// Every regular file below a folder with its bytes, by path relative to it.
pub type Snapshot = BTreeMap<PathBuf, Vec<u8>>;

/// The files below `dir` (symbolic links are not followed).
///
/// # Errors
/// The first I/O error.
pub fn snapshot(dir: &Path) -> std::io::Result<Snapshot> {
    let mut out = Snapshot::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d)? {
            let e = e?;
            let ft = e.file_type()?;
            let path = e.path();
            if ft.is_dir() {
                stack.push(path);
            } else if ft.is_file() {
                let rel = path.strip_prefix(dir).unwrap_or(&path).to_path_buf();
                out.insert(rel, std::fs::read(&path)?);
            }
        }
    }
    Ok(out)
}

/// Copies the files of `from` (as [`snapshot`] sees them) into `to`, creating folders, and
/// returns what was copied: `to`'s snapshot, for [`judge`] (no second read of the files).
///
/// # Errors
/// The first I/O error.
pub fn copy_folder(from: &Path, to: &Path) -> std::io::Result<Snapshot> {
    let files = snapshot(from)?;
    for (rel, bytes) in &files {
        let dest = to.join(rel);
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(dest, bytes)?;
    }
    Ok(files)
}

/// How one task went.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// The task's id.
    pub id: String,
    /// True when the run answered and every check held.
    pub passed: bool,
    /// Each check that failed, in words.
    pub failures: Vec<String>,
    /// How the run ended.
    pub end: EndReason,
    /// The final answer, if any.
    pub answer: Option<String>,
    /// Model turns.
    pub turns: u32,
    /// Calls made.
    pub calls: u32,
    /// Calls that failed.
    pub failed_calls: u32,
}

/// Judges a finished run of `task`: `before` is the folder as it was, `dir` the folder now.
///
/// # Errors
/// An I/O error reading the folder.
pub fn judge(
    task: &Task,
    before: &Snapshot,
    dir: &Path,
    t: &Transcript,
) -> std::io::Result<Outcome> {
    let mut failures = Vec::new();
    let answered = matches!(t.end, EndReason::Answered | EndReason::AnswerCutOff);
    if !answered {
        failures.push(format!("no answer: the run ended with {}", end_word(t.end)));
    }
    let answer = t.answer.clone().unwrap_or_default().to_lowercase();
    for want in &task.answer_contains {
        if !answer.contains(&want.to_lowercase()) {
            failures.push(format!("the answer does not mention {want:?}"));
        }
    }
    if task.unchanged {
        let after = snapshot(dir)?;
        let changed: Vec<String> = before
            .keys()
            .chain(after.keys())
            .filter(|k| before.get(*k) != after.get(*k))
            .map(|k| k.display().to_string())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        if !changed.is_empty() {
            failures.push(format!(
                "files changed in a task that must change nothing: {}",
                changed.join(", ")
            ));
        }
    }
    for (path, wants) in &task.files {
        match std::fs::read_to_string(dir.join(path)) {
            Ok(text) => {
                for want in wants.iter().filter(|w| !text.contains(w.as_str())) {
                    failures.push(format!("{path} does not contain {want:?}"));
                }
            }
            Err(_) => failures.push(format!("{path} cannot be read")),
        }
    }
    for (path, gone) in &task.files_lack {
        match std::fs::read_to_string(dir.join(path)) {
            Ok(text) => {
                for g in gone.iter().filter(|g| text.contains(g.as_str())) {
                    failures.push(format!("{path} still contains {g:?}"));
                }
            }
            Err(_) => failures.push(format!("{path} cannot be read")),
        }
    }
    Ok(Outcome {
        id: task.id.clone(),
        passed: failures.is_empty(),
        failures,
        end: t.end,
        answer: t.answer.clone(),
        turns: t.stats.turns,
        calls: t.stats.calls,
        failed_calls: t.stats.failed_calls,
    })
}

/// The snake_case word of an end reason, as the event stream writes it.
fn end_word(e: EndReason) -> String {
    serde_json::to_value(e)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{e:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_lines_are_read_and_checked() {
        let tasks = load(
            "{\"id\": \"a\", \"prompt\": \"p\", \"unchanged\": true}\n\n{\"id\": \"b\", \"prompt\": \"q\", \"files\": {\"x.txt\": [\"y\"]}}\n",
        )
        .unwrap();
        assert_eq!(tasks.len(), 2);
        assert!(tasks[0].unchanged && tasks[1].files["x.txt"] == ["y"]);
        let e = load("{\"id\": \"a\", \"prompt\": \"p\"}\n{\"id\": \"a\", \"prompt\": \"q\"}")
            .unwrap_err();
        assert_eq!(e.line, 2);
        let e = load("{\"id\": \"a\", \"promt\": \"p\"}").unwrap_err();
        assert!(e.to_string().contains("line 1"), "{e}");
        for id in ["..", "../x", "a/b", "", ".hidden", "a b"] {
            let line = serde_json::json!({"id": id, "prompt": "p"}).to_string();
            let e = load(&line).unwrap_err();
            assert!(e.message.contains("must be letters"), "{id:?}: {e}");
        }
        assert!(load("{\"id\": \"v1.2_a-b\", \"prompt\": \"p\"}").is_ok());
    }
}
