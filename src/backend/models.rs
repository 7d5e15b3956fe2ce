//! The models toolmend knows by short name: file, size, sha256 and how to fetch each, and where
//! they live on disk (`~/.cache/toolmend/models`, or `$TOOLMEND_MODELS`, the same folder
//! `scripts/fetch-models` writes to).
//!
//! # Example: resolve a short name
//! ```
//! use toolmend::backend::models::{self, KnownModel};
//!
//! let qwen: &KnownModel = models::find("qwen2.5-coder:0.5b").unwrap();
//! assert_eq!(qwen.size, 491_400_064);
//! assert_eq!(models::find(models::DEFAULT).unwrap().name, "qwen2.5-coder:0.5b");
//! assert!(qwen.fetch_command().starts_with("scripts/fetch-models"));
//! ```

use std::path::{Path, PathBuf};

/// Environment variable overriding the model folder.
pub const MODELS_ENV: &str = "TOOLMEND_MODELS";

/// The default model's short name.
pub const DEFAULT: &str = "qwen2.5-coder:0.5b";

/// A model toolmend can fetch and verify.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownModel {
    /// Short name (`qwen2.5-coder:0.5b`).
    pub name: &'static str,
    /// File name inside the model folder.
    pub file: &'static str,
    /// Size in bytes.
    pub size: u64,
    /// sha256 of the file, lowercase hex.
    pub sha256: &'static str,
    /// One line on what it is and what it is for.
    pub summary: &'static str,
}

/// Every known model, the default first.
pub const KNOWN: &[KnownModel] = &[
    KnownModel {
        name: "qwen2.5-coder:0.5b",
        file: "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        size: 491_400_064,
        sha256: "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        summary: "Qwen2.5-Coder-0.5B-Instruct Q4_K_M, the default; its own template has tool support",
    },
    KnownModel {
        name: "smollm2:135m",
        file: "SmolLM2-135M-Instruct.Q4_1.gguf",
        size: 98_362_432,
        sha256: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        summary: "SmolLM2-135M-Instruct Q4_1, fast, for tests; ChatML without tool support",
    },
    KnownModel {
        name: "gemma3:270m",
        file: "gemma-3-270m-q4_k_m.gguf",
        size: 253_113_024,
        sha256: "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818",
        summary: "Gemma 3 270M base Q4_K_M; no chat template (llama.cpp's gemma format)",
    },
];

/// The known model called `name`.
pub fn find(name: &str) -> Option<&'static KnownModel> {
    KNOWN.iter().find(|m| m.name.eq_ignore_ascii_case(name))
}

/// The model folder: `$TOOLMEND_MODELS`, else `~/.cache/toolmend/models`.
pub fn dir() -> PathBuf {
    match std::env::var_os(MODELS_ENV) {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => std::env::var_os("HOME")
            .map_or_else(|| PathBuf::from("."), PathBuf::from)
            .join(".cache/toolmend/models"),
    }
}

/// Whether a model file is present, and whether it looks right.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// The file exists with the pinned size (the sha256 is checked by `scripts/fetch-models`).
    Present,
    /// The file exists but its size is wrong (a partial or different file).
    WrongSize(u64),
    /// No file.
    Missing,
}

impl KnownModel {
    /// Where this model lives in the model folder.
    pub fn path(&self) -> PathBuf {
        dir().join(self.file)
    }

    /// Whether the file is present in [`dir`] with the pinned size. Cheap: the sha256 is not
    /// recomputed.
    pub fn presence(&self) -> Presence {
        self.presence_in(&dir())
    }

    /// Whether the file is present in `folder` with the pinned size.
    pub fn presence_in(&self, folder: &Path) -> Presence {
        match std::fs::metadata(folder.join(self.file)) {
            Ok(m) if m.len() == self.size => Presence::Present,
            Ok(m) => Presence::WrongSize(m.len()),
            Err(_) => Presence::Missing,
        }
    }

    /// The exact command that fetches and verifies this model.
    pub fn fetch_command(&self) -> String {
        format!("scripts/fetch-models {}", self.name)
    }
}

/// How a `--model` argument resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The GGUF file to load.
    pub path: PathBuf,
    /// The name to report: the short name, or the file stem for a path.
    pub name: String,
    /// The known model, when the argument was a short name or its file.
    pub known: Option<&'static KnownModel>,
}

/// A `--model` argument that does not name a usable file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ResolveError {
    /// A known model that has not been fetched (or is incomplete).
    #[error("model {name} is not in {dir} ({why}): fetch it with `{command}`")]
    NotFetched {
        /// Its short name.
        name: &'static str,
        /// The model folder searched.
        dir: String,
        /// `missing` or the wrong size found.
        why: String,
        /// The command that fetches it.
        command: String,
    },
    /// Neither a known short name nor an existing file.
    #[error(
        "no model file at {arg} and no known model of that name (known: {known}); pass a .gguf path or one of the known names"
    )]
    Unknown {
        /// The argument as given.
        arg: String,
        /// The known short names.
        known: String,
    },
}

/// Resolves a `--model` argument: a known short name (looked up in [`dir`]) or a path to a GGUF
/// file.
///
/// # Errors
/// [`ResolveError::NotFetched`] with the fetch command when a known model is missing,
/// [`ResolveError::Unknown`] when the argument is neither a name nor a file.
pub fn resolve(arg: &str) -> Result<Resolved, ResolveError> {
    resolve_in(arg, &dir())
}

/// [`resolve`] with short names looked up in `folder` instead of [`dir`].
///
/// # Errors
/// As [`resolve`].
pub fn resolve_in(arg: &str, folder: &Path) -> Result<Resolved, ResolveError> {
    if let Some(m) = find(arg) {
        return match m.presence_in(folder) {
            Presence::Present => Ok(Resolved {
                path: folder.join(m.file),
                name: m.name.to_owned(),
                known: Some(m),
            }),
            p => Err(ResolveError::NotFetched {
                name: m.name,
                dir: folder.display().to_string(),
                why: match p {
                    Presence::WrongSize(n) => {
                        format!("found {n} bytes, expected {}", m.size)
                    }
                    _ => "missing".to_owned(),
                },
                command: m.fetch_command(),
            }),
        };
    }
    let path = Path::new(arg);
    if path.is_file() {
        let file = path.file_name().and_then(|f| f.to_str()).unwrap_or("");
        let known = KNOWN.iter().find(|m| m.file == file);
        let name = known.map_or_else(
            || {
                path.file_stem()
                    .map_or_else(|| arg.to_owned(), |s| s.to_string_lossy().into_owned())
            },
            |m| m.name.to_owned(),
        );
        return Ok(Resolved {
            path: path.to_path_buf(),
            name,
            known,
        });
    }
    Err(ResolveError::Unknown {
        arg: arg.to_owned(),
        known: KNOWN.iter().map(|m| m.name).collect::<Vec<_>>().join(", "),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_default_is_known() {
        assert!(find(DEFAULT).is_some());
        for (i, a) in KNOWN.iter().enumerate() {
            for b in &KNOWN[i + 1..] {
                assert_ne!(a.name, b.name);
                assert_ne!(a.file, b.file);
            }
            assert_eq!(a.sha256.len(), 64);
        }
    }

    #[test]
    fn unknown_argument_lists_the_known_names() {
        let e = resolve("no-such-model:1b").unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains("smollm2:135m") && msg.contains("no-such-model:1b"),
            "{msg}"
        );
    }

    #[test]
    fn a_missing_known_model_names_the_fetch_command() {
        let d = tempfile::tempdir().unwrap();
        let msg = resolve_in("smollm2:135m", d.path())
            .unwrap_err()
            .to_string();
        assert!(msg.contains("scripts/fetch-models smollm2:135m"), "{msg}");
        std::fs::write(d.path().join("SmolLM2-135M-Instruct.Q4_1.gguf"), b"short").unwrap();
        let msg = resolve_in("smollm2:135m", d.path())
            .unwrap_err()
            .to_string();
        assert!(msg.contains("found 5 bytes"), "{msg}");
    }

    #[test]
    fn a_path_resolves_to_itself() {
        let f = tempfile::Builder::new().suffix(".gguf").tempfile().unwrap();
        let r = resolve(f.path().to_str().unwrap()).unwrap();
        assert_eq!(r.path, f.path());
        assert!(r.known.is_none());
    }
}
