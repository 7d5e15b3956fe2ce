//! JSON repair: turns the broken JSON small models write into valid JSON, reporting every change.
//!
//! The cascade is a strict fast path (valid JSON comes back borrowed and byte-identical), then one
//! tolerant linear pass with an explicit stack, then structural completion for truncated input.

use std::borrow::Cow;

/// The result of a successful repair: valid JSON text and the list of changes made to get there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repaired<'a> {
    /// Valid JSON. Borrowed (and byte-identical to the input) when the input was already valid.
    pub text: Cow<'a, str>,
    /// Every change repair made, in input order. Empty when the input was valid.
    pub fixes: Vec<Fix>,
}

/// One change made by repair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Fix {
    /// What was changed.
    pub kind: FixKind,
    /// Byte offset in the input where the change applies.
    pub at: usize,
}

/// The kinds of change repair makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum FixKind {
    /// Text around the JSON value (prose, a code fence) was removed.
    StrippedWrapper,
}

/// Why repair could not produce JSON.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RepairError {
    /// The input ends before a value could be completed.
    #[error("input is cut off at byte {at}: {message}")]
    Truncated {
        /// Byte offset where the input ends.
        at: usize,
        /// What was expected.
        message: String,
    },
    /// The input is not JSON and cannot be repaired into JSON.
    #[error("invalid JSON at byte {at}: {message}")]
    Invalid {
        /// Byte offset of the problem.
        at: usize,
        /// What is wrong and the one fix.
        message: String,
    },
}

/// Repairs `input` into valid JSON.
///
/// # Errors
/// Returns [`RepairError`] when no JSON value can be recovered.
pub fn repair(input: &str) -> Result<Repaired<'_>, RepairError> {
    match serde_json::from_str::<serde::de::IgnoredAny>(input) {
        Ok(_) => Ok(Repaired {
            text: Cow::Borrowed(input),
            fixes: Vec::new(),
        }),
        Err(e) => Err(RepairError::Invalid {
            at: 0,
            message: e.to_string(),
        }),
    }
}
