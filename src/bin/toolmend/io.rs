//! Input and output helpers shared by the subcommands.

use std::io::{BufRead, Read};
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;

/// Reads a whole document from `path`, or from stdin when `path` is `None` or `-`.
pub fn read_input(path: Option<&Path>) -> anyhow::Result<String> {
    match path {
        Some(p) if p.as_os_str() != "-" => {
            std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))
        }
        _ => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .context("cannot read stdin")?;
            Ok(s)
        }
    }
}

/// Opens `path` for `--jsonl` reading, or stdin when `path` is `None` or `-`.
pub fn open_lines(path: Option<&Path>) -> anyhow::Result<Box<dyn BufRead>> {
    Ok(match path {
        Some(p) if p.as_os_str() != "-" => Box::new(std::io::BufReader::new(
            std::fs::File::open(p).with_context(|| format!("cannot read {}", p.display()))?,
        )),
        _ => Box::new(std::io::stdin().lock()),
    })
}

/// Reads `reader` line by line for a `--jsonl` mode and calls `each(n, line)` for every non-blank
/// line (`n` 1-based): `Ok(text)` without its line ending (and without a UTF-8 byte-order mark on
/// the first line), or `Err(message)` for a line that is not UTF-8 — a malformed line to answer
/// like any other, so the lines after it are still read. `Err` only when reading fails.
pub fn for_each_line(
    mut reader: impl BufRead,
    mut each: impl FnMut(usize, Result<&str, String>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut buf = Vec::new();
    let mut n = 0;
    loop {
        buf.clear();
        if reader
            .read_until(b'\n', &mut buf)
            .context("cannot read input")?
            == 0
        {
            return Ok(());
        }
        n += 1;
        let mut line: &[u8] = &buf;
        line = line.strip_suffix(b"\n").unwrap_or(line);
        line = line.strip_suffix(b"\r").unwrap_or(line);
        if n == 1 {
            line = line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(line);
        }
        match std::str::from_utf8(line) {
            Ok(text) if text.trim().is_empty() => {}
            Ok(text) => each(n, Ok(text))?,
            Err(e) => each(
                n,
                Err(format!(
                    "the line is not UTF-8 (invalid byte at column {}); send UTF-8 JSON",
                    e.valid_up_to() + 1
                )),
            )?,
        }
    }
}

/// Parses one `--jsonl` request line: a JSON object whose keys are all among `known` (a misspelt
/// option must not be ignored silently). `Err` is the message for the malformed-line answer.
pub fn request_object(
    line: &str,
    known: &[&str],
) -> Result<serde_json::Map<String, serde_json::Value>, String> {
    let shape = || {
        let keys: Vec<String> = known.iter().map(|k| format!("{k:?}")).collect();
        format!(
            "send one JSON object per line with the keys {}",
            keys.join(", ")
        )
    };
    let value: serde_json::Value = serde_json::from_str(line)
        .map_err(|e| format!("the line is not JSON ({e}); {}", shape()))?;
    let serde_json::Value::Object(map) = value else {
        return Err(format!("the line is not a JSON object; {}", shape()));
    };
    if let Some(k) = map.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(format!("unknown key {k:?}; {}", shape()));
    }
    Ok(map)
}

/// The answer line for a malformed `--jsonl` line, the same in every mode:
/// `{"ok": false, "error": "malformed_line", "message": …}` plus `extra` fields.
pub fn malformed_answer(message: &str, extra: serde_json::Value) -> serde_json::Value {
    let mut v = serde_json::json!({"ok": false, "error": "malformed_line", "message": message});
    if let (Some(m), serde_json::Value::Object(x)) = (v.as_object_mut(), extra) {
        m.extend(x);
    }
    v
}

/// True when the error chain contains a broken pipe (the reader went away: not an error).
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// What a `--jsonl` run met, and its exit status: one rule for `repair`, `extract` and `decode`.
/// Every non-blank input line gets exactly one output line, in order; a malformed line (not the
/// JSON request the mode reads) gets an error line in that mode's form, is named on stderr, and
/// the run goes on with the next line.
#[derive(Debug, Default)]
pub struct JsonlTally {
    malformed: bool,
    unusable: bool,
}

impl JsonlTally {
    /// A well-formed line was answered; `usable` is false when it gave nothing usable.
    pub fn answered(&mut self, usable: bool) {
        self.unusable |= !usable;
    }

    /// Line `n` (1-based) is malformed: says so on stderr.
    pub fn malformed(&mut self, n: usize, message: &str) {
        self.malformed = true;
        eprintln!("line {n}: {message}");
    }

    /// 2 when some line was malformed (a usage error), else 1 when some line gave nothing
    /// usable, else 0.
    pub fn exit_code(&self) -> ExitCode {
        if self.malformed {
            ExitCode::from(2)
        } else if self.unusable {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }
    }
}
