//! Runs the `toolmend` binary as the CLI tests need it: arguments, text on stdin, and back the exit
//! code, stdout and stderr. Shared by `tests/repair_cli.rs`, `extract_cli.rs`, `decode_cli.rs` and `run_cli.rs`
//! (`#[path]` include).

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `toolmend args…` with `stdin` written to it; returns (exit code, stdout, stderr). The
/// caller's `NO_COLOR` is not passed on, so every run sees the same environment.
///
/// The process may exit before reading its input (a usage error ends it at once), so a broken
/// pipe while writing stdin is not a failure: what the test checks is the exit code and output.
pub fn toolmend(args: &[&str], stdin: &str) -> (i32, String, String) {
    toolmend_bytes(args, stdin.as_bytes())
}

/// [`toolmend`] with raw bytes on stdin (input that is not UTF-8).
#[allow(dead_code)]
pub fn toolmend_bytes(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolmend"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("toolmend runs");
    if let Some(mut input) = child.stdin.take() {
        let _ = input.write_all(stdin);
    }
    let out = child.wait_with_output().expect("toolmend exits");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        String::from_utf8(out.stderr).expect("UTF-8 stderr"),
    )
}
