//! Recorded runs: one JSON line per question with the raw model output, written as generated and
//! read back for replay.
//!
//! A run appends to `DIR/<model>.jsonl` and flushes after every line, so an interrupted run keeps
//! everything recorded so far; re-running skips the ids already in the file.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::data::Question;
use super::parse::StrictFormat;
use crate::backend::{Backend, Control, Event, GenerateOptions, Request, StopReason};

/// One recorded question: the contract is `id`, `category`, `model`, `output`; the rest describes
/// how it was produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordLine {
    /// The BFCL id.
    pub id: String,
    /// The BFCL category.
    pub category: String,
    /// The model's short name.
    pub model: String,
    /// The raw model text, verbatim.
    pub output: String,
    /// Calls the backend reported natively (Ollama), as JSON; empty for text backends.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub native_calls: Vec<serde_json::Value>,
    /// The envelope the model's template documents (what the `strict` parser accepts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strict_format: Option<StrictFormat>,
    /// The model file (its name carries the quantisation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_file: Option<String>,
    /// Tokens in the rendered prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<u32>,
    /// Tokens generated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated_tokens: Option<u32>,
    /// Milliseconds spent on the prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_ms: Option<f64>,
    /// Milliseconds spent generating.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation_ms: Option<f64>,
    /// Why generation ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<StopReason>,
    /// Sampling settings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampling: Option<GenerateOptions>,
    /// When it was recorded (RFC 3339 UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recorded_at: Option<String>,
}

impl RecordLine {
    /// The strict format of this line: as recorded, else guessed from the model's name.
    pub fn strict_format(&self) -> StrictFormat {
        self.strict_format
            .unwrap_or_else(|| StrictFormat::guess_for_model(&self.model))
    }
}

/// A problem reading or writing recordings.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RecordError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A line is not a record.
    #[error(
        "{path} line {line}: {message} (each line must be {{\"id\", \"category\", \"model\", \"output\", …}})"
    )]
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The model failed.
    #[error("model failed on {id}: {source}")]
    Backend {
        /// The question being generated.
        id: String,
        /// The backend's error.
        source: crate::backend::BackendError,
    },
}

/// The file name for a model's recordings: its short name with characters unsafe in file names
/// replaced (`qwen2.5-coder:0.5b` → `qwen2.5-coder_0.5b.jsonl`).
pub fn file_name(model: &str) -> String {
    let safe: String = model
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{safe}.jsonl")
}

/// Reads every line of a recording. A last line cut off mid-write (no trailing newline, not JSON)
/// is ignored: the run was interrupted there and will redo that question.
///
/// # Errors
/// [`RecordError`] when the file cannot be read or a complete line is not a record.
pub fn read_file(path: &Path) -> Result<Vec<RecordLine>, RecordError> {
    let text = std::fs::read_to_string(path).map_err(|source| RecordError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let mut out = Vec::new();
    let complete = text.ends_with('\n');
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<RecordLine>(line) {
            Ok(r) => out.push(r),
            Err(_) if i + 1 == lines.len() && !complete => break,
            Err(e) => {
                return Err(RecordError::Parse {
                    path: path.to_path_buf(),
                    line: i + 1,
                    message: e.to_string(),
                });
            }
        }
    }
    Ok(out)
}

/// The `*.jsonl` files of a folder, sorted by name.
///
/// # Errors
/// [`RecordError::Io`] when the folder cannot be listed.
pub fn list_files(dir: &Path) -> Result<Vec<PathBuf>, RecordError> {
    let rd = std::fs::read_dir(dir).map_err(|source| RecordError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut files: Vec<PathBuf> = rd
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    Ok(files)
}

/// Appends records to a file, one flushed line each.
#[derive(Debug)]
pub struct Recorder {
    path: PathBuf,
    file: std::fs::File,
    done: HashSet<String>,
}

impl Recorder {
    /// Opens (or creates) `path` for appending and reads the ids already recorded there. A partial
    /// last line left by an interrupted run (no newline, not a record) is cut off, so the next record
    /// starts on its own line and that question is generated again.
    ///
    /// # Errors
    /// [`RecordError`] when the file cannot be read, parsed or opened.
    pub fn open(path: &Path) -> Result<Self, RecordError> {
        let io = |source| RecordError::Io {
            path: path.to_path_buf(),
            source,
        };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        let existing = if path.exists() {
            read_file(path)?
        } else {
            Vec::new()
        };
        let bytes = std::fs::read(path).unwrap_or_default();
        if !bytes.is_empty() && !bytes.ends_with(b"\n") {
            let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(io)?;
            f.set_len(keep as u64).map_err(io)?;
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        Ok(Self {
            path: path.to_path_buf(),
            file,
            done: existing.into_iter().map(|r| r.id).collect(),
        })
    }

    /// True when `id` is already recorded.
    pub fn has(&self, id: &str) -> bool {
        self.done.contains(id)
    }

    /// How many ids are recorded.
    pub fn len(&self) -> usize {
        self.done.len()
    }

    /// True when nothing is recorded yet.
    pub fn is_empty(&self) -> bool {
        self.done.is_empty()
    }

    /// Appends one record as a single line and flushes it to disk.
    ///
    /// # Errors
    /// [`RecordError::Io`] when the write fails.
    pub fn append(&mut self, line: &RecordLine) -> Result<(), RecordError> {
        let mut text = serde_json::to_string(line).map_err(|e| RecordError::Io {
            path: self.path.clone(),
            source: std::io::Error::other(e),
        })?;
        text.push('\n');
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|source| RecordError::Io {
                path: self.path.clone(),
                source,
            })?;
        self.done.insert(line.id.clone());
        Ok(())
    }
}

/// Settings of a recording run that end up in every line.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSettings {
    /// The model's short name.
    pub model: String,
    /// The model file, when known.
    pub model_file: Option<String>,
    /// The envelope the model's template documents.
    pub strict_format: StrictFormat,
    /// Sampling and length settings (greedy, fixed seed, a max-token cap).
    pub options: GenerateOptions,
}

/// Generates the answer to one question with `backend` and returns its record line.
///
/// # Errors
/// [`RecordError::Backend`] when the backend fails.
pub async fn generate_one(
    backend: &mut dyn Backend,
    question: &Question,
    settings: &RunSettings,
) -> Result<RecordLine, RecordError> {
    let request = Request {
        messages: question.messages.clone(),
        tools: question.tools(),
        options: settings.options.clone(),
    };
    let mut output = String::new();
    let mut native = Vec::new();
    let stats = {
        let mut sink = |event: Event| {
            match event {
                Event::Chunk(s) => output.push_str(&s),
                Event::ToolCall(c) => native.push(serde_json::to_value(&c).unwrap_or_default()),
            }
            Control::Continue
        };
        backend
            .generate(&request, &mut sink)
            .await
            .map_err(|source| RecordError::Backend {
                id: question.id.clone(),
                source,
            })?
    };
    Ok(RecordLine {
        id: question.id.clone(),
        category: question.category.clone(),
        model: settings.model.clone(),
        output,
        native_calls: native,
        strict_format: Some(settings.strict_format),
        model_file: settings.model_file.clone(),
        prompt_tokens: Some(stats.prompt_tokens),
        generated_tokens: Some(stats.generated_tokens),
        prompt_ms: Some(stats.prompt_ms),
        generation_ms: Some(stats.generation_ms),
        stop: Some(stats.stop),
        sampling: Some(settings.options.clone()),
        recorded_at: Some(now_rfc3339()),
    })
}

/// The current UTC time as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn now_rfc3339() -> String {
    jiff::Timestamp::now()
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(id: &str) -> RecordLine {
        RecordLine {
            id: id.into(),
            category: "simple_python".into(),
            model: "m".into(),
            output: "out\nwith newline".into(),
            native_calls: Vec::new(),
            strict_format: None,
            model_file: None,
            prompt_tokens: None,
            generated_tokens: None,
            prompt_ms: None,
            generation_ms: None,
            stop: None,
            sampling: None,
            recorded_at: None,
        }
    }

    #[test]
    fn appends_and_skips_recorded_ids_across_reopen_and_cut_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(file_name("qwen2.5-coder:0.5b"));
        assert!(path.ends_with("qwen2.5-coder_0.5b.jsonl"));
        let mut r = Recorder::open(&path).unwrap();
        r.append(&line("simple_python_0")).unwrap();
        drop(r);
        // An interrupted write leaves half a line.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"id\": \"simple_py")
            .unwrap();
        let mut r = Recorder::open(&path).unwrap();
        assert!(r.has("simple_python_0"));
        assert!(!r.has("simple_python_1"));
        r.append(&line("simple_python_1")).unwrap();
        drop(r);
        let lines = read_file(&path).unwrap();
        let ids: Vec<&str> = lines.iter().map(|l| l.id.as_str()).collect();
        assert_eq!(ids, ["simple_python_0", "simple_python_1"]);
    }

    #[test]
    fn reads_a_file_whose_last_line_was_cut() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.jsonl");
        let mut r = Recorder::open(&path).unwrap();
        r.append(&line("a_0")).unwrap();
        drop(r);
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"id\": \"a_1\", \"outp")
            .unwrap();
        let lines = read_file(&path).unwrap();
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].output, "out\nwith newline");
    }

    #[test]
    fn timestamp_shape() {
        let t = now_rfc3339();
        assert_eq!(t.len(), 20, "{t}");
        assert!(t.starts_with("20") && t.ends_with('Z'));
    }
}
