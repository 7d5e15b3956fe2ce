//! Input and output helpers shared by the subcommands.

use std::io::Read;
use std::path::Path;

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
