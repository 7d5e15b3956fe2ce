//! The failure taxonomy: every way a tool call can fail, split by whose fault it is.
//!
//! The split decides what happens next. The model's faults come back to the model as a corrective
//! message (with one concrete valid call) and count against a retry budget; the world's faults are
//! retried by the runtime with backoff and are never presented as the model's mistake; policy
//! failures end the turn with a clear reason.

use std::time::Duration;

use serde::ser::SerializeStruct;

/// Whose fault a failure is; decides how the runtime reacts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fault {
    /// The model wrote a bad call: it gets a corrective message and may retry within its budget.
    Model,
    /// The environment failed (I/O hiccup, timeout, a crashing tool): the runtime retries with
    /// backoff; the model is told it was not its mistake.
    World,
    /// A rule forbids the call or a budget ran out: the turn ends with the reason.
    Policy,
}

impl Fault {
    /// The snake_case name used on the wire (`model`, `world`, `policy`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Model => "model",
            Self::World => "world",
            Self::Policy => "policy",
        }
    }
}

/// The kind of a [`Failure`], as a plain tag (for `--json` output, metrics and matching).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// See [`Failure::Malformed`].
    Malformed,
    /// See [`Failure::InvalidArgs`].
    InvalidArgs,
    /// See [`Failure::UnknownTool`].
    UnknownTool,
    /// See [`Failure::Duplicate`].
    Duplicate,
    /// See [`Failure::AlreadyDone`].
    AlreadyDone,
    /// See [`Failure::Transient`].
    Transient,
    /// See [`Failure::Timeout`].
    Timeout,
    /// See [`Failure::Panicked`].
    Panicked,
    /// See [`Failure::Denied`].
    Denied,
    /// See [`Failure::BudgetExhausted`].
    BudgetExhausted,
    /// See [`Failure::Skipped`].
    Skipped,
}

impl FailureKind {
    /// The snake_case name used on the wire (`invalid_args`, `timeout`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Malformed => "malformed",
            Self::InvalidArgs => "invalid_args",
            Self::UnknownTool => "unknown_tool",
            Self::Duplicate => "duplicate",
            Self::AlreadyDone => "already_done",
            Self::Transient => "transient",
            Self::Timeout => "timeout",
            Self::Panicked => "panicked",
            Self::Denied => "denied",
            Self::BudgetExhausted => "budget_exhausted",
            Self::Skipped => "skipped",
        }
    }
}

/// Why a tool call did not produce a result. `Display` is the model-facing message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Failure {
    /// Model's fault: the arguments are not JSON even after repair.
    #[error("the arguments of `{tool}` are not valid JSON (at byte {at}): {message}")]
    Malformed {
        /// The tool that was called.
        tool: String,
        /// Byte offset of the problem in the argument text.
        at: usize,
        /// What is wrong and how to write it instead.
        message: String,
    },
    /// Model's fault: the arguments are JSON but do not fit the tool (wrong type, missing field,
    /// a path that does not exist, an edit whose old text is absent, …).
    #[error("{}", invalid_args_message(.tool, .pointer, .message))]
    InvalidArgs {
        /// The tool that was called.
        tool: String,
        /// JSON Pointer to the offending argument (`""` for the whole object).
        pointer: String,
        /// What is wrong and what to send instead.
        message: String,
    },
    /// Model's fault: no tool has this name. Never executed.
    #[error("{}", unknown_tool_message(.name, .known, .example.as_deref()))]
    UnknownTool {
        /// The name the model used.
        name: String,
        /// The names of the tools that exist, in registry order.
        known: Vec<String>,
        /// One concrete valid call, as JSON text: the one read-only tool whose parameters take the
        /// arguments sent, with those arguments (the call the model meant), else the closest
        /// read-only tool's example — never a call that changes anything: models copy the example
        /// they are given.
        example: Option<String>,
    },
    /// Model's fault: the same call (same tool, same canonical arguments) was already made
    /// `count` times in this task and nothing it depends on has changed since.
    #[error(
        "duplicate call: you already called `{tool}` with exactly these arguments {count} times in this task and nothing has changed since. Its result was:\n{previous}\nDo not repeat the call: use that result, or call a different tool or different arguments."
    )]
    Duplicate {
        /// The tool that was called.
        tool: String,
        /// How many identical calls came before this one.
        count: u32,
        /// The model-facing output of the last identical call.
        previous: String,
    },
    /// Model's fault: the same call of a tool that changes things and is not idempotent already
    /// succeeded in this task and nothing it touched has changed since. Never executed: running
    /// it again would make the same change twice.
    #[error(
        "`{tool}` with exactly these arguments already ran and succeeded, and nothing has changed since. Its result was:\n{previous}\nIt was not run again: that would make the same change a second time. The change is made; do not send this call again. Go on with the next step, or answer the user."
    )]
    AlreadyDone {
        /// The tool that was called.
        tool: String,
        /// The model-facing output of the call that ran.
        previous: String,
    },
    /// World's fault: a temporary failure (I/O error, resource busy); may succeed later.
    #[error(
        "`{tool}` failed for a reason outside your control: {message}. Your call was fine; try again later or continue without it."
    )]
    Transient {
        /// The tool that was called.
        tool: String,
        /// What went wrong.
        message: String,
    },
    /// World's fault: the tool did not finish within its time limit.
    #[error(
        "`{tool}` did not finish within {}s. Your call was fine; the tool is slow or stuck. Try again later or continue without it.",
        .after.as_secs_f64()
    )]
    Timeout {
        /// The tool that was called.
        tool: String,
        /// The time limit that was exceeded.
        after: Duration,
    },
    /// World's fault: the tool crashed (panicked). The panic was caught.
    #[error(
        "`{tool}` crashed while running ({message}). This is a bug in the tool, not in your call; continue without it."
    )]
    Panicked {
        /// The tool that was called.
        tool: String,
        /// The panic message.
        message: String,
    },
    /// Policy: the call is not allowed (outside the sandbox root, a read-only task, …).
    #[error("`{tool}` was refused: {reason}")]
    Denied {
        /// The tool that was called.
        tool: String,
        /// Why, and what is allowed instead.
        reason: String,
    },
    /// Policy: the retry budget for this call is used up.
    #[error("`{tool}` was not run: {reason}")]
    BudgetExhausted {
        /// The tool that was called.
        tool: String,
        /// Which budget ran out.
        reason: String,
    },
    /// Policy: the call was not run because an earlier call in the same turn ended the turn.
    #[error("`{tool}` was not run: {reason}")]
    Skipped {
        /// The tool that was called.
        tool: String,
        /// Which call ended the turn, and why.
        reason: String,
    },
}

fn invalid_args_message(tool: &str, pointer: &str, message: &str) -> String {
    if pointer.is_empty() {
        format!("invalid arguments for `{tool}`: {message}")
    } else {
        format!(
            "invalid arguments for `{tool}`, field `{}`: {message}",
            field_label(pointer)
        )
    }
}

/// How a model-facing message names the argument at JSON Pointer `pointer`: `content` for
/// `/content`, `items[0].name` for `/items/0/name` (`~1` and `~0` unescaped); empty for the
/// whole arguments. Small models took a pointer such as `/new_text` for a file path and sent it
/// as one.
///
/// ```
/// use toolmend::tools::field_label;
/// assert_eq!(field_label("/content"), "content");
/// assert_eq!(field_label("/items/0/a~1b"), "items[0].a/b");
/// assert_eq!(field_label(""), "");
/// ```
#[must_use]
pub fn field_label(pointer: &str) -> String {
    let mut out = String::new();
    for seg in pointer.split('/').skip(1) {
        let seg = seg.replace("~1", "/").replace("~0", "~");
        if !out.is_empty() && !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit()) {
            out.push('[');
            out.push_str(&seg);
            out.push(']');
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&seg);
        }
    }
    out
}

fn unknown_tool_message(name: &str, known: &[String], example: Option<&str>) -> String {
    let mut m = format!("unknown tool `{name}`: there is no tool with that name.");
    if known.is_empty() {
        m.push_str(" No tools are available; answer in plain text.");
        return m;
    }
    m.push_str(" The known tools are: ");
    m.push_str(&known.join(", "));
    m.push('.');
    if let Some(ex) = example {
        m.push_str(" Call one of them, for example: ");
        m.push_str(ex);
    }
    m
}

impl Failure {
    /// The kind tag of this failure.
    pub fn kind(&self) -> FailureKind {
        match self {
            Self::Malformed { .. } => FailureKind::Malformed,
            Self::InvalidArgs { .. } => FailureKind::InvalidArgs,
            Self::UnknownTool { .. } => FailureKind::UnknownTool,
            Self::Duplicate { .. } => FailureKind::Duplicate,
            Self::AlreadyDone { .. } => FailureKind::AlreadyDone,
            Self::Transient { .. } => FailureKind::Transient,
            Self::Timeout { .. } => FailureKind::Timeout,
            Self::Panicked { .. } => FailureKind::Panicked,
            Self::Denied { .. } => FailureKind::Denied,
            Self::BudgetExhausted { .. } => FailureKind::BudgetExhausted,
            Self::Skipped { .. } => FailureKind::Skipped,
        }
    }

    /// Whose fault this failure is.
    pub fn fault(&self) -> Fault {
        match self.kind() {
            FailureKind::Malformed
            | FailureKind::InvalidArgs
            | FailureKind::UnknownTool
            | FailureKind::Duplicate
            | FailureKind::AlreadyDone => Fault::Model,
            FailureKind::Transient | FailureKind::Timeout | FailureKind::Panicked => Fault::World,
            FailureKind::Denied | FailureKind::BudgetExhausted | FailureKind::Skipped => {
                Fault::Policy
            }
        }
    }

    /// True for policy failures: the remaining calls of the turn are not run.
    pub fn ends_turn(&self) -> bool {
        self.fault() == Fault::Policy
    }

    /// A model's-fault failure for arguments that do not fit (for tools to return).
    pub fn invalid_args(
        tool: impl Into<String>,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self::InvalidArgs {
            tool: tool.into(),
            pointer: pointer.into(),
            message: message.into(),
        }
    }

    /// A world's-fault failure that may succeed later (for tools to return).
    pub fn transient(tool: impl Into<String>, message: impl Into<String>) -> Self {
        Self::Transient {
            tool: tool.into(),
            message: message.into(),
        }
    }

    /// A policy refusal (for tools to return, e.g. a path outside the sandbox).
    pub fn denied(tool: impl Into<String>, reason: impl Into<String>) -> Self {
        Self::Denied {
            tool: tool.into(),
            reason: reason.into(),
        }
    }

    /// The name of the tool this failure is about.
    pub fn tool(&self) -> &str {
        match self {
            Self::UnknownTool { name, .. } => name,
            Self::Malformed { tool, .. }
            | Self::InvalidArgs { tool, .. }
            | Self::Duplicate { tool, .. }
            | Self::AlreadyDone { tool, .. }
            | Self::Transient { tool, .. }
            | Self::Timeout { tool, .. }
            | Self::Panicked { tool, .. }
            | Self::Denied { tool, .. }
            | Self::BudgetExhausted { tool, .. }
            | Self::Skipped { tool, .. } => tool,
        }
    }
}

/// Serialised as `{"kind": "invalid_args", "fault": "model", "message": "<model-facing text>"}`.
impl serde::Serialize for Failure {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Failure", 3)?;
        st.serialize_field("kind", &self.kind())?;
        st.serialize_field("fault", &self.fault())?;
        st.serialize_field("message", &self.to_string())?;
        st.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_tool_lists_known_names_and_an_example() {
        let f = Failure::UnknownTool {
            name: "receive".into(),
            known: vec!["ls".into(), "read".into()],
            example: Some(r#"{"name": "read", "arguments": {"path": "README.md"}}"#.into()),
        };
        let m = f.to_string();
        assert!(m.contains("`receive`"), "{m}");
        assert!(m.contains("ls, read"), "{m}");
        assert!(m.contains(r#"{"name": "read""#), "{m}");
        assert_eq!(f.fault(), Fault::Model);
    }

    #[test]
    fn faults_follow_the_taxonomy() {
        let t = |f: Failure| (f.kind(), f.fault());
        assert_eq!(
            t(Failure::transient("x", "busy")),
            (FailureKind::Transient, Fault::World)
        );
        assert_eq!(
            t(Failure::denied("x", "no")),
            (FailureKind::Denied, Fault::Policy)
        );
        assert!(Failure::denied("x", "no").ends_turn());
        assert!(!Failure::invalid_args("x", "/a", "no").ends_turn());
    }

    #[test]
    fn serialises_kind_fault_and_message() {
        let v = serde_json::to_value(Failure::invalid_args("read", "/path", "missing")).unwrap();
        assert_eq!(v["kind"], "invalid_args");
        assert_eq!(v["fault"], "model");
        assert!(v["message"].as_str().unwrap().contains("missing"));
    }
}
