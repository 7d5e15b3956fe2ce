//! The per-request log line: method, path, status, upstream time, toolmend time, calls recovered.
//!
//! Written to stderr when the request is finished — for a stream, when the stream ends or the
//! client goes away — as text, or as one JSON object per line with `--json`.

use std::io::Write;
use std::time::Duration;

use serde::Serialize;

/// How request log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LogFormat {
    /// No log lines.
    Off,
    /// One human-readable line per request.
    #[default]
    Text,
    /// One JSON object per line (JSON Lines).
    Json,
}

/// One request's log record.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RequestLog {
    /// HTTP method.
    pub method: String,
    /// Request path.
    pub path: String,
    /// Status answered to the client.
    pub status: u16,
    /// Whether the client asked for a stream.
    pub stream: bool,
    /// Whether the request carried `tools` and allowed calls (so the answer was inspected).
    pub tools: bool,
    /// Milliseconds spent waiting for the upstream (head and body).
    pub upstream_ms: f64,
    /// Milliseconds toolmend itself spent (parsing, rewriting, serialising).
    pub toolmend_ms: f64,
    /// Tool calls toolmend recovered or repaired.
    pub calls_recovered: usize,
    /// Whether the answer differs from the upstream's.
    pub rewritten: bool,
    /// The client went away before the answer was complete.
    pub cancelled: bool,
    /// The error answered, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl RequestLog {
    /// A record for `method path`.
    pub fn new(method: &str, path: &str) -> Self {
        Self {
            method: method.to_owned(),
            path: path.to_owned(),
            ..Self::default()
        }
    }

    /// Adds `d` to the upstream time.
    pub fn add_upstream(&mut self, d: Duration) {
        self.upstream_ms += d.as_secs_f64() * 1000.0;
    }

    /// Adds `d` to toolmend's own time.
    pub fn add_toolmend(&mut self, d: Duration) {
        self.toolmend_ms += d.as_secs_f64() * 1000.0;
    }

    /// Writes the record to stderr in `format`.
    pub fn emit(&self, format: LogFormat) {
        let line = match format {
            LogFormat::Off => return,
            LogFormat::Json => match serde_json::to_string(self) {
                Ok(s) => s,
                Err(_) => return,
            },
            LogFormat::Text => self.text(),
        };
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "{line}");
    }

    /// The human-readable form.
    pub fn text(&self) -> String {
        let mut s = format!(
            "{} {} {} upstream={:.2}ms toolmend={:.3}ms calls_recovered={}",
            self.method,
            self.path,
            self.status,
            self.upstream_ms,
            self.toolmend_ms,
            self.calls_recovered
        );
        if self.stream {
            s.push_str(" stream");
        }
        if self.rewritten {
            s.push_str(" rewritten");
        }
        if self.cancelled {
            s.push_str(" cancelled");
        }
        if let Some(e) = &self.error {
            s.push_str(" error=");
            s.push_str(e);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_line_has_every_field_the_issue_names() {
        let mut l = RequestLog::new("POST", "/v1/chat/completions");
        l.status = 200;
        l.calls_recovered = 2;
        let v: serde_json::Value = serde_json::to_value(&l).unwrap();
        for k in [
            "method",
            "status",
            "upstream_ms",
            "toolmend_ms",
            "calls_recovered",
        ] {
            assert!(v.get(k).is_some(), "{k} missing");
        }
        assert!(l.text().contains("calls_recovered=2"));
    }
}
