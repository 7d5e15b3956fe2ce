//! Memo for pure tools (read-only and idempotent): results keyed by tool and canonical
//! arguments, invalidated when an effect touches a path the result depends on.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// A memoised result.
#[derive(Debug, Clone, PartialEq)]
pub struct MemoEntry {
    /// The model-facing output, as rendered when it was stored.
    pub output: String,
    /// The structured data.
    pub data: Value,
    /// Whether the output had been truncated.
    pub truncated: bool,
    /// Paths the result depends on (empty: depends on everything).
    pub reads: Vec<PathBuf>,
}

/// Results of pure calls in one task, keyed by `tool \0 canonical args`.
#[derive(Debug, Default)]
pub struct Memo {
    entries: HashMap<String, MemoEntry>,
}

/// True when a change at `changed` may alter a result that read `read`: one is a prefix of the
/// other (a write inside a listed directory, or a listing of a written file's parent).
pub fn overlaps(read: &Path, changed: &Path) -> bool {
    changed.starts_with(read) || read.starts_with(changed)
}

impl Memo {
    /// The stored result for `key`.
    pub fn get(&self, key: &str) -> Option<&MemoEntry> {
        self.entries.get(key)
    }

    /// Stores a result.
    pub fn insert(&mut self, key: String, entry: MemoEntry) {
        self.entries.insert(key, entry);
    }

    /// Drops every result that depends on `path`; returns their keys.
    pub fn invalidate(&mut self, path: &Path) -> Vec<String> {
        let gone: Vec<String> = self
            .entries
            .iter()
            .filter(|(_, e)| e.reads.is_empty() || e.reads.iter().any(|r| overlaps(r, path)))
            .map(|(k, _)| k.clone())
            .collect();
        for k in &gone {
            self.entries.remove(k);
        }
        gone
    }

    /// Drops everything (after a tool changed the world without saying where).
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Number of stored results.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(reads: &[&str]) -> MemoEntry {
        MemoEntry {
            output: "x".into(),
            data: Value::Null,
            truncated: false,
            reads: reads.iter().map(PathBuf::from).collect(),
        }
    }

    #[test]
    fn invalidates_only_overlapping_paths() {
        let mut m = Memo::default();
        m.insert("read\0a".into(), entry(&["/r/src/a.rs"]));
        m.insert("read\0b".into(), entry(&["/r/src/b.rs"]));
        m.insert("ls\0src".into(), entry(&["/r/src"]));
        m.insert("ls\0docs".into(), entry(&["/r/docs"]));
        let mut gone = m.invalidate(Path::new("/r/src/a.rs"));
        gone.sort();
        assert_eq!(gone, vec!["ls\0src".to_string(), "read\0a".to_string()]);
        assert_eq!(m.len(), 2);
        assert!(m.get("read\0b").is_some());
    }

    #[test]
    fn entries_without_reads_depend_on_everything() {
        let mut m = Memo::default();
        m.insert("t\0x".into(), entry(&[]));
        assert_eq!(m.invalidate(Path::new("/anything")).len(), 1);
        assert!(m.is_empty());
    }
}
