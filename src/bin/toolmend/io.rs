//! Input and output helpers shared by the subcommands.

use std::io::Read;
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
