//! Loads the repair corpus (`corpus/repair/<category>/<case>.txt`): a one-line JSON header, then
//! `--- input`, the input, `--- expected`, the expected output. Shared by `tests/repair_corpus.rs`
//! and `tests/repair_quick.rs` (`#[path]` include).

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use serde_json::Value;

pub struct Case {
    pub path: PathBuf,
    pub header: Value,
    pub input: String,
    pub expected: String,
}

pub fn load(path: &Path) -> Case {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (header, rest) = text
        .split_once('\n')
        .unwrap_or_else(|| panic!("{}: no header line", path.display()));
    let header: Value = serde_json::from_str(header)
        .unwrap_or_else(|e| panic!("{}: header is not JSON: {e}", path.display()));
    let rest = rest
        .strip_prefix("--- input\n")
        .unwrap_or_else(|| panic!("{}: missing `--- input`", path.display()));
    let (input, expected) = rest
        .split_once("\n--- expected\n")
        .unwrap_or_else(|| panic!("{}: missing `--- expected`", path.display()));
    let expected = expected.strip_suffix('\n').unwrap_or(expected);
    Case {
        path: path.to_owned(),
        header,
        input: input.to_owned(),
        expected: expected.to_owned(),
    }
}

/// Every case, sorted by path.
pub fn cases() -> Vec<Case> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/repair");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&root).expect("corpus/repair exists") {
        let dir = dir.expect("readable").path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dir).expect("readable category") {
            let f = f.expect("readable").path();
            if f.extension().is_some_and(|e| e == "txt") {
                out.push(load(&f));
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}
