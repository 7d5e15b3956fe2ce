//! Incremental Server-Sent Events parsing: bytes in any chunking, whole events out.
//!
//! Each [`SseEvent`] keeps the exact bytes it was made of, so an event toolmend does not change is
//! forwarded byte for byte. Lines may end in `\n`, `\r\n` or `\r`; an event ends at a blank line;
//! `data:` lines are joined with `\n`; comment lines (`:`) are kept in the raw bytes only. The
//! buffer is bounded: an event larger than the limit is a [`SseError`], never unbounded memory.
//! An error ends the stream: the events completed before it are delivered first, whatever the
//! chunking, and every later call returns the error.

use bytes::{Bytes, BytesMut};

/// One complete event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The joined `data:` lines; `None` when the event had no data field (a keep-alive comment).
    pub data: Option<String>,
    /// The `event:` field, when present.
    pub event: Option<String>,
    /// The bytes of the event, including its terminating blank line.
    pub raw: Bytes,
    /// Byte offset of the event in the whole stream.
    pub at: usize,
}

/// A stream that is not valid SSE.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SseError {
    /// An event's bytes are not UTF-8.
    #[error("the event at byte {at} is not UTF-8")]
    NotUtf8 {
        /// Offset of the event.
        at: usize,
    },
    /// An event grew beyond the size limit without ending.
    #[error("an event at byte {at} is larger than {limit} bytes without ending")]
    TooLarge {
        /// Offset of the event.
        at: usize,
        /// The limit.
        limit: usize,
    },
}

/// Splits a byte stream into [`SseEvent`]s.
#[derive(Debug)]
pub struct SseParser {
    buf: BytesMut,
    /// Offset of `buf[0]` in the whole stream.
    base: usize,
    /// How far `buf` has been scanned for a blank line (so each byte is scanned once).
    scanned: usize,
    /// Whether the previous line in `buf[..scanned]` was empty-terminated state: offset just past the
    /// last line end, and whether that line was blank.
    line_start: usize,
    limit: usize,
    /// The error that ended the stream, returned by every later call.
    failed: Option<SseError>,
}

impl SseParser {
    /// A parser refusing events larger than `limit` bytes.
    pub fn new(limit: usize) -> Self {
        Self {
            buf: BytesMut::new(),
            base: 0,
            scanned: 0,
            line_start: 0,
            limit,
            failed: None,
        }
    }

    /// Adds `chunk` and returns every event it completes.
    ///
    /// # Errors
    /// [`SseError`] when an event is not UTF-8 or exceeds the size limit.
    /// Events completed in `chunk` before an error are returned first, and the error by the next
    /// call, so what comes out does not depend on how the stream was cut.
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<SseEvent>, SseError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        self.buf.extend_from_slice(chunk);
        let mut out = Vec::new();
        let mut failure = None;
        while let Some(end) = self.find_event_end(false) {
            match self.take_event(end) {
                Ok(ev) => out.push(ev),
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        if failure.is_none() && self.buf.len() > self.limit {
            failure = Some(SseError::TooLarge {
                at: self.base,
                limit: self.limit,
            });
        }
        match failure {
            None => Ok(out),
            Some(e) => {
                self.failed = Some(e.clone());
                if out.is_empty() { Err(e) } else { Ok(out) }
            }
        }
    }

    /// Ends the stream: returns a last event left without its blank line, if it has any field.
    ///
    /// # Errors
    /// [`SseError::NotUtf8`] when the leftover bytes are not UTF-8.
    pub fn finish(&mut self) -> Result<Option<SseEvent>, SseError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if let Some(end) = self.find_event_end(true) {
            return self.take_event(end).map(Some);
        }
        if self.buf.iter().all(u8::is_ascii_whitespace) {
            return Ok(None);
        }
        let end = self.buf.len();
        let ev = self.take_event(end)?;
        Ok(Some(ev))
    }

    /// Finds the end (exclusive, after the blank line) of the first complete event in `buf`.
    /// A lone `\r` at the very end of the buffer may be the first half of `\r\n`, so it only counts
    /// as a line end when `at_eof`.
    fn find_event_end(&mut self, at_eof: bool) -> Option<usize> {
        let b = &self.buf;
        let mut i = self.scanned;
        while i < b.len() {
            let c = b[i];
            if c == b'\n' || c == b'\r' {
                let mut next = i + 1;
                if c == b'\r' {
                    if next == b.len() && !at_eof {
                        break;
                    }
                    if next < b.len() && b[next] == b'\n' {
                        next += 1;
                    }
                }
                let blank = i == self.line_start;
                self.line_start = next;
                i = next;
                if blank {
                    self.scanned = i;
                    return Some(i);
                }
                continue;
            }
            i += 1;
        }
        self.scanned = i;
        None
    }

    fn take_event(&mut self, end: usize) -> Result<SseEvent, SseError> {
        let at = self.base;
        let raw = self.buf.split_to(end).freeze();
        self.base += end;
        self.scanned = 0;
        self.line_start = 0;
        let text = std::str::from_utf8(&raw).map_err(|_| SseError::NotUtf8 { at })?;
        let mut data: Option<String> = None;
        let mut event = None;
        for line in text.split(['\n', '\r']) {
            if line.is_empty() || line.starts_with(':') {
                continue;
            }
            let (field, value) = match line.split_once(':') {
                Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
                None => (line, ""),
            };
            match field {
                "data" => match &mut data {
                    Some(d) => {
                        d.push('\n');
                        d.push_str(value);
                    }
                    None => data = Some(value.to_owned()),
                },
                "event" => event = Some(value.to_owned()),
                _ => {}
            }
        }
        Ok(SseEvent {
            data,
            event,
            raw,
            at,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(chunks: &[&[u8]]) -> Vec<SseEvent> {
        let mut p = SseParser::new(1 << 20);
        let mut out = Vec::new();
        for c in chunks {
            out.extend(p.push(c).unwrap());
        }
        out.extend(p.finish().unwrap());
        out
    }

    #[test]
    fn events_survive_any_chunking_and_keep_their_bytes() {
        let stream =
            b"data: {\"a\":1}\n\n: keep-alive\n\ndata: x\r\ndata: y\r\n\r\ndata: [DONE]\n\n";
        let whole = all(&[stream]);
        assert_eq!(whole.len(), 4);
        assert_eq!(whole[0].data.as_deref(), Some("{\"a\":1}"));
        assert_eq!(whole[1].data, None);
        assert_eq!(whole[2].data.as_deref(), Some("x\ny"));
        assert_eq!(whole[3].data.as_deref(), Some("[DONE]"));
        let joined: Vec<u8> = whole.iter().flat_map(|e| e.raw.to_vec()).collect();
        assert_eq!(joined, stream);
        for split in 1..stream.len() {
            let (a, b) = stream.split_at(split);
            assert_eq!(all(&[a, b]), whole, "split at {split}");
        }
        let bytes: Vec<&[u8]> = stream.chunks(1).collect();
        assert_eq!(all(&bytes), whole);
    }

    #[test]
    fn lone_cr_line_endings_and_missing_final_blank_line() {
        let ev = all(&[b"data: a\r\rdata: b"]);
        assert_eq!(ev.len(), 2);
        assert_eq!(ev[0].data.as_deref(), Some("a"));
        assert_eq!(ev[1].data.as_deref(), Some("b"));
        assert_eq!(ev[1].at, 9);
    }

    #[test]
    fn oversized_event_and_bad_utf8_are_errors() {
        let mut p = SseParser::new(8);
        assert!(matches!(
            p.push(b"data: 0123456789"),
            Err(SseError::TooLarge { at: 0, limit: 8 })
        ));
        let mut p = SseParser::new(64);
        assert_eq!(p.push(b"data: \xff\n\n"), Err(SseError::NotUtf8 { at: 0 }));
    }

    /// Found by the serve_props proptest (bytes `\n`, NULs, `\x80`, `\n\r`, NUL): a chunk holding
    /// a good event and then a bad one lost the good one, so the events out depended on where
    /// the stream was cut. Events before an error come first; the error, and only the error,
    /// after.
    #[test]
    fn events_before_an_error_come_out_and_the_stream_ends_there() {
        let mut p = SseParser::new(64);
        let ev = p.push(b"data: a\n\ndata: \xff\n\ndata: b\n\n").unwrap();
        assert_eq!(ev.len(), 1);
        assert_eq!(ev[0].data.as_deref(), Some("a"));
        assert_eq!(p.push(b""), Err(SseError::NotUtf8 { at: 9 }));
        assert_eq!(p.finish(), Err(SseError::NotUtf8 { at: 9 }));
        let mut p = SseParser::new(64);
        assert_eq!(p.push(b"data: a\n\n").unwrap().len(), 1);
        assert_eq!(
            p.push(b"data: \xff\n\ndata: b\n\n"),
            Err(SseError::NotUtf8 { at: 9 })
        );
        assert_eq!(p.finish(), Err(SseError::NotUtf8 { at: 9 }));
        // Too large, after a complete event in the same chunk.
        let mut p = SseParser::new(16);
        let ev = p.push(b"data: a\n\ndata: 0123456789abcdef").unwrap();
        assert_eq!(ev.len(), 1);
        assert!(matches!(
            p.push(b""),
            Err(SseError::TooLarge { at: 9, limit: 16 })
        ));
    }
}
