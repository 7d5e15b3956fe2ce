use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;

/// Rough per-record cost of the JSON envelope (keys, quotes, timestamp).
pub const RECORD_OVERHEAD_BYTES: usize = 96;

pub type Labels = Arc<BTreeMap<String, String>>;

/// One line read from a log file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogRecord {
    /// Milliseconds since the Unix epoch at which the line was read.
    pub ts_ms: u64,
    pub input: Arc<str>,
    pub path: Arc<str>,
    /// Byte offset of the first byte of the line.
    pub offset: u64,
    /// Byte offset just past the line terminator; this is what gets checkpointed.
    #[serde(skip)]
    pub next_offset: u64,
    pub line: String,
    #[serde(skip_serializing_if = "no_labels")]
    pub labels: Labels,
}

fn no_labels(labels: &Labels) -> bool {
    labels.is_empty()
}

impl LogRecord {
    pub fn new(input: Arc<str>, path: Arc<str>, offset: u64, next_offset: u64, line: String) -> Self {
        let ts_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or_default();
        Self {
            ts_ms,
            input,
            path,
            offset,
            next_offset,
            line,
            labels: Labels::default(),
        }
    }

    #[must_use]
    pub fn with_labels(mut self, labels: Labels) -> Self {
        self.labels = labels;
        self
    }

    /// Approximate size of this record once serialized, used for batch limits.
    pub fn encoded_len(&self) -> usize {
        let labels: usize = self.labels.iter().map(|(k, v)| k.len() + v.len() + 6).sum();
        RECORD_OVERHEAD_BYTES + self.input.len() + self.path.len() + self.line.len() + labels
    }
}

/// Shortens `line` to at most `max_bytes` bytes without splitting a UTF-8
/// character. Returns `true` if the line was truncated.
pub fn truncate_line(line: &mut String, max_bytes: usize) -> bool {
    if line.len() <= max_bytes {
        return false;
    }
    let mut cut = max_bytes;
    while !line.is_char_boundary(cut) {
        cut -= 1;
    }
    line.truncate(cut);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_respects_char_boundaries() {
        let mut line = "größe".to_owned(); // 'ö' and 'ß' are two bytes each
        assert!(truncate_line(&mut line, 3));
        assert_eq!(line, "gr");

        let mut short = "ok".to_owned();
        assert!(!truncate_line(&mut short, 16));
        assert_eq!(short, "ok");
    }

    #[test]
    fn next_offset_and_empty_labels_are_not_serialized() {
        let record = LogRecord::new("nginx".into(), "/var/log/nginx/access.log".into(), 10, 42, "GET /".into());
        let json = serde_json::to_value(&record).unwrap();
        assert!(json.get("next_offset").is_none());
        assert!(json.get("labels").is_none());
        assert_eq!(json["offset"], 10);
    }
}
