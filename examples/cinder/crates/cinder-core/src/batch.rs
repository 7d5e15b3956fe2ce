//! Grouping of log records into batches.
//!
//! A batch is closed when it reaches `max_lines`, when it reaches `max_bytes`,
//! or when its oldest record has waited `flush_interval_ms`. `max_bytes` is a
//! soft limit: the record that crosses it is still added, so a batch can
//! overshoot by at most one line (itself capped by `agent.max_line_bytes`).

use std::time::{Duration, Instant};

use crate::config::BatchConfig;
use crate::record::LogRecord;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlushReason {
    MaxLines,
    MaxBytes,
    Interval,
    Shutdown,
}

impl FlushReason {
    pub fn as_str(self) -> &'static str {
        match self {
            FlushReason::MaxLines => "max_lines",
            FlushReason::MaxBytes => "max_bytes",
            FlushReason::Interval => "interval",
            FlushReason::Shutdown => "shutdown",
        }
    }
}

#[derive(Debug)]
pub struct Batch {
    /// Monotonic per-process sequence number, sent to the collector for de-duplication.
    pub seq: u64,
    pub records: Vec<LogRecord>,
    /// Sum of [`LogRecord::encoded_len`] over all records.
    pub bytes: usize,
    pub reason: FlushReason,
}

impl Batch {
    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }
}

#[derive(Debug)]
pub struct Batcher {
    max_lines: usize,
    max_bytes: usize,
    flush_interval: Duration,
    records: Vec<LogRecord>,
    bytes: usize,
    opened_at: Option<Instant>,
    next_seq: u64,
}

impl Batcher {
    pub fn new(cfg: &BatchConfig) -> Self {
        Self {
            max_lines: cfg.max_lines,
            max_bytes: cfg.max_bytes,
            flush_interval: cfg.flush_interval(),
            records: Vec::with_capacity(initial_capacity(cfg.max_lines)),
            bytes: 0,
            opened_at: None,
            next_seq: 0,
        }
    }

    /// Adds a record and returns the batch if this record completed it.
    pub fn push(&mut self, record: LogRecord, now: Instant) -> Option<Batch> {
        if self.records.is_empty() {
            self.opened_at = Some(now);
        }
        self.bytes += record.encoded_len();
        self.records.push(record);

        if self.records.len() >= self.max_lines {
            self.take(FlushReason::MaxLines)
        } else if self.bytes >= self.max_bytes {
            self.take(FlushReason::MaxBytes)
        } else {
            None
        }
    }

    /// When the current batch has to be shipped even if it is not full.
    pub fn deadline(&self) -> Option<Instant> {
        self.opened_at.map(|opened| opened + self.flush_interval)
    }

    pub fn flush_if_due(&mut self, now: Instant) -> Option<Batch> {
        match self.deadline() {
            Some(deadline) if deadline <= now => self.take(FlushReason::Interval),
            _ => None,
        }
    }

    /// Closes the current batch regardless of its size; used on shutdown.
    pub fn drain(&mut self) -> Option<Batch> {
        self.take(FlushReason::Shutdown)
    }

    pub fn pending(&self) -> usize {
        self.records.len()
    }

    fn take(&mut self, reason: FlushReason) -> Option<Batch> {
        if self.records.is_empty() {
            return None;
        }
        let records = std::mem::replace(
            &mut self.records,
            Vec::with_capacity(initial_capacity(self.max_lines)),
        );
        let batch = Batch {
            seq: self.next_seq,
            records,
            bytes: self.bytes,
            reason,
        };
        self.next_seq += 1;
        self.bytes = 0;
        self.opened_at = None;
        Some(batch)
    }
}

/// Avoids pre-allocating huge vectors for configs with very large `max_lines`.
fn initial_capacity(max_lines: usize) -> usize {
    max_lines.min(4096)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(max_lines: usize, max_bytes: usize) -> BatchConfig {
        BatchConfig {
            max_lines,
            max_bytes,
            flush_interval_ms: 100,
        }
    }

    fn rec(line: &str) -> LogRecord {
        LogRecord::new("test".into(), "/var/log/test.log".into(), 0, 0, line.to_owned())
    }

    #[test]
    fn closes_batch_at_max_lines() {
        let mut batcher = Batcher::new(&config(3, usize::MAX));
        let now = Instant::now();
        assert!(batcher.push(rec("a"), now).is_none());
        assert!(batcher.push(rec("b"), now).is_none());
        let batch = batcher.push(rec("c"), now).expect("third line fills the batch");
        assert_eq!(batch.len(), 3);
        assert_eq!(batch.reason, FlushReason::MaxLines);
        assert_eq!(batcher.pending(), 0);
        assert!(batcher.deadline().is_none());
    }

    #[test]
    fn closes_batch_once_max_bytes_is_reached() {
        let one = rec("x").encoded_len();
        let mut batcher = Batcher::new(&config(1000, one * 2));
        let now = Instant::now();
        assert!(batcher.push(rec("x"), now).is_none());
        let batch = batcher.push(rec("y"), now).unwrap();
        assert_eq!(batch.reason, FlushReason::MaxBytes);
        assert_eq!(batch.bytes, one * 2);
    }

    #[test]
    fn interval_flush_only_after_deadline() {
        let mut batcher = Batcher::new(&config(1000, usize::MAX));
        let start = Instant::now();
        batcher.push(rec("a"), start);
        assert!(batcher.flush_if_due(start + Duration::from_millis(99)).is_none());
        let batch = batcher.flush_if_due(start + Duration::from_millis(100)).unwrap();
        assert_eq!(batch.reason, FlushReason::Interval);
    }

    #[test]
    fn sequence_numbers_increase_and_empty_drain_is_none() {
        let mut batcher = Batcher::new(&config(1, usize::MAX));
        let now = Instant::now();
        let first = batcher.push(rec("a"), now).unwrap();
        let second = batcher.push(rec("b"), now).unwrap();
        assert_eq!((first.seq, second.seq), (0, 1));
        assert!(batcher.drain().is_none());
    }
}
