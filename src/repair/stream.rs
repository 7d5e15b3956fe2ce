//! Streaming repair: [`StreamRepairer`] accepts chunks as tokens arrive and produces the best valid
//! JSON so far (for live argument previews) and, at the end, exactly what one-shot [`repair`] gives.
//!
//! Previews re-run the tolerant pass over the buffer, but only when the buffer has grown by at least
//! an eighth since the last one was computed (or is still small); otherwise the previous preview is
//! returned. Geometric growth bounds the total preview work over a stream of `n` bytes by about
//! `9·n` parser steps plus a constant, so feeding a whole stream token by token and asking for a
//! preview after every token stays linear.
//!
//! [`repair`]: super::repair

use super::{Fix, RepairError, repair_counting_steps};

/// Buffers below this size are always re-repaired for a preview (a constant amount of work).
const SMALL: usize = 4096;

/// Incremental repair of a JSON value arriving in chunks.
///
/// ```
/// use toolmend::repair::StreamRepairer;
///
/// let mut s = StreamRepairer::new();
/// s.push(r#"{"path": "src/ma"#);
/// assert_eq!(s.preview(), Some(r#"{"path": "src/ma"}"#));
/// s.push(r#"in.rs", "line": 4}"#);
/// assert_eq!(s.finish().unwrap().0, r#"{"path": "src/main.rs", "line": 4}"#);
/// ```
#[derive(Debug, Default, Clone)]
pub struct StreamRepairer {
    buf: String,
    /// Buffer length when the cached preview was computed.
    preview_len: usize,
    preview: Option<String>,
    /// Why the buffer could not be repaired at the last preview, if it could not.
    error: Option<RepairError>,
    steps: u64,
}

impl StreamRepairer {
    /// An empty stream.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a chunk (a token or any slice of the text).
    pub fn push(&mut self, chunk: &str) {
        self.buf.push_str(chunk);
    }

    /// Everything received so far.
    #[must_use]
    pub fn buffer(&self) -> &str {
        &self.buf
    }

    /// The best valid JSON for the text received so far, or `None` when nothing usable has
    /// arrived yet. Exact below 4 KiB; beyond that it may lag the buffer by up to an eighth of
    /// its length (see the module docs). Borrowed, so asking after every token copies nothing.
    ///
    /// When the text received so far cannot be repaired (often only for a moment, as in `{"a",`
    /// before the colon arrives), the last good preview stays so a live view does not flicker,
    /// and [`preview_error`](Self::preview_error) says why it is not current.
    pub fn preview(&mut self) -> Option<&str> {
        let len = self.buf.len();
        let stale = self.preview_len != len
            && (len <= SMALL || len >= self.preview_len + self.preview_len / 8);
        if stale {
            let (res, steps) = repair_counting_steps(&self.buf);
            self.steps += steps + 1;
            match res {
                Ok(r) => {
                    self.preview = Some(r.text.into_owned());
                    self.error = None;
                }
                Err(e) => self.error = Some(e),
            }
            self.preview_len = len;
        }
        self.preview.as_deref()
    }

    /// Why the text received so far could not be repaired when [`preview`](Self::preview) last
    /// looked at it (the preview it returned then is from earlier text), or `None` when that
    /// preview is current.
    ///
    /// ```
    /// let mut s = toolmend::repair::StreamRepairer::new();
    /// s.push(r#"{"a": "x"#);
    /// assert_eq!(s.preview(), Some(r#"{"a": "x"}"#));
    /// s.push(r#"\uZZZZ"#);
    /// assert_eq!(s.preview(), Some(r#"{"a": "x"}"#));
    /// assert_eq!(s.preview_error().map(|e| e.kind()), Some("invalid"));
    /// ```
    #[must_use]
    pub fn preview_error(&self) -> Option<&RepairError> {
        self.error.as_ref()
    }

    /// Parser steps spent on previews so far (for the linearity tests).
    #[must_use]
    pub fn preview_steps(&self) -> u64 {
        self.steps
    }

    /// Ends the stream: the same result as [`repair`](super::repair) on the whole text.
    ///
    /// # Errors
    /// Whatever [`repair`](super::repair) returns for the whole text.
    pub fn finish(self) -> Result<(String, Vec<Fix>), RepairError> {
        let r = super::repair(&self.buf)?;
        Ok((r.text.into_owned(), r.fixes))
    }
}
