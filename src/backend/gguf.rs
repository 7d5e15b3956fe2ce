//! A small reader for GGUF metadata: the key–value header of a model file (architecture, name,
//! chat template, special tokens), read without loading llama.cpp or the tensors.
//!
//! It exists so that chat-template rendering, `toolmend models` and the template tests work in
//! builds without the `llama` feature, and so that a broken or hostile file is reported as an
//! error instead of crashing: every length is checked against the bytes actually left in the file
//! and against fixed limits before anything is allocated, and nested arrays are walked with an
//! explicit stack.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufReader, Read, Seek};
use std::path::Path;

/// The GGUF magic number: the bytes `GGUF` read as a little-endian `u32`.
const MAGIC: u32 = u32::from_le_bytes(*b"GGUF");
/// Longest string value kept (a chat template is a few kB; 16 MiB is far beyond any real one).
const MAX_STRING: u64 = 16 << 20;
/// Most metadata entries accepted.
const MAX_ENTRIES: u64 = 1 << 16;
/// Deepest nesting of arrays accepted.
const MAX_DEPTH: usize = 8;
/// Most entries in a kept string array (the token list): real vocabularies have 32k–262k, and
/// every kept string costs far more in memory than its bytes in the file.
const MAX_TOKENS: u64 = 1 << 20;

/// A metadata value, with large arrays summarised except the token list.
#[derive(Debug, Clone, PartialEq)]
pub enum MetaValue {
    /// Any integer type (`u8` … `i64`).
    Int(i64),
    /// An unsigned 64-bit integer too large for `i64`.
    UInt(u64),
    /// `f32` or `f64`.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// A UTF-8 string (invalid bytes replaced by U+FFFD).
    String(String),
    /// An array of strings (only kept for `tokenizer.ggml.tokens`).
    Strings(Vec<String>),
    /// Any other array: only its length is kept.
    Array {
        /// Number of elements.
        len: u64,
    },
}

impl MetaValue {
    /// The value as a string slice, when it is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Self::String(s) => Some(s),
            _ => None,
        }
    }

    /// The value as an unsigned integer, when it is a non-negative integer.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Self::Int(i) => u64::try_from(i).ok(),
            Self::UInt(u) => Some(u),
            _ => None,
        }
    }

    /// The value as a boolean.
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Self::Bool(b) => Some(b),
            _ => None,
        }
    }
}

/// Why a GGUF header could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GgufError {
    /// The file could not be opened or read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The file is not GGUF or its header is corrupt.
    #[error("{path} is not a valid GGUF file: {message} at byte {at}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
        /// Byte offset where the problem was found.
        at: u64,
    },
}

/// The metadata of a GGUF file.
#[derive(Debug, Clone, Default)]
pub struct GgufMetadata {
    /// GGUF format version.
    pub version: u32,
    /// Every metadata entry, by key.
    pub entries: BTreeMap<String, MetaValue>,
}

impl GgufMetadata {
    /// Reads the metadata of the GGUF file at `path`.
    ///
    /// # Errors
    /// [`GgufError::Io`] when the file cannot be read, [`GgufError::Invalid`] when it is not GGUF
    /// or its header is truncated or inconsistent.
    pub fn read(path: &Path) -> Result<Self, GgufError> {
        let shown = path.display().to_string();
        let io = |source| GgufError::Io {
            path: shown.clone(),
            source,
        };
        let file = File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        let mut r = Reader {
            inner: BufReader::with_capacity(1 << 16, file),
            pos: 0,
            len,
            path: shown.clone(),
        };
        r.read_all()
    }

    /// A string entry.
    pub fn string(&self, key: &str) -> Option<&str> {
        self.entries.get(key).and_then(MetaValue::as_str)
    }

    /// The model's Jinja chat template (`tokenizer.chat_template`), when it has one.
    pub fn chat_template(&self) -> Option<&str> {
        self.string("tokenizer.chat_template")
    }

    /// The model architecture (`general.architecture`, e.g. `qwen2`, `llama`, `gemma3`).
    pub fn architecture(&self) -> Option<&str> {
        self.string("general.architecture")
    }

    /// The text of a special token named by `tokenizer.ggml.<which>_token_id` (e.g. `bos`).
    pub fn special_token(&self, which: &str) -> Option<&str> {
        let id = self
            .entries
            .get(&format!("tokenizer.ggml.{which}_token_id"))?
            .as_u64()?;
        match self.entries.get("tokenizer.ggml.tokens")? {
            MetaValue::Strings(tokens) => tokens.get(usize::try_from(id).ok()?).map(String::as_str),
            _ => None,
        }
    }

    /// Whether the tokenizer adds a BOS token by itself (`tokenizer.ggml.add_bos_token`).
    pub fn add_bos_token(&self) -> Option<bool> {
        self.entries
            .get("tokenizer.ggml.add_bos_token")
            .and_then(MetaValue::as_bool)
    }
}

struct Reader<R> {
    inner: R,
    pos: u64,
    len: u64,
    path: String,
}

/// One open array on the explicit stack: element type and elements still to read.
struct Frame {
    ty: u32,
    left: u64,
}

impl<R: Read + Seek> Reader<R> {
    #[cold]
    fn invalid(&self, message: impl Into<String>) -> GgufError {
        GgufError::Invalid {
            path: self.path.clone(),
            message: message.into(),
            at: self.pos,
        }
    }

    fn bytes<const N: usize>(&mut self) -> Result<[u8; N], GgufError> {
        let mut b = [0u8; N];
        self.inner.read_exact(&mut b).map_err(|e| {
            if e.kind() == std::io::ErrorKind::UnexpectedEof {
                self.invalid("unexpected end of file")
            } else {
                GgufError::Io {
                    path: self.path.clone(),
                    source: e,
                }
            }
        })?;
        self.pos += N as u64;
        Ok(b)
    }

    fn u32(&mut self) -> Result<u32, GgufError> {
        self.bytes::<4>().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Result<u64, GgufError> {
        self.bytes::<8>().map(u64::from_le_bytes)
    }

    fn skip(&mut self, n: u64) -> Result<(), GgufError> {
        if n > self.len.saturating_sub(self.pos) {
            return Err(self.invalid(format!(
                "a value of {n} bytes runs past the end of the file"
            )));
        }
        let off = i64::try_from(n).map_err(|_| self.invalid("value too large"))?;
        self.inner
            .seek_relative(off)
            .map_err(|source| GgufError::Io {
                path: self.path.clone(),
                source,
            })?;
        self.pos += n;
        Ok(())
    }

    /// Reads a length-prefixed string, or skips it (returning `None`) when `keep` is false.
    fn string(&mut self, keep: bool) -> Result<Option<String>, GgufError> {
        let n = self.u64()?;
        if n > self.len.saturating_sub(self.pos) {
            return Err(self.invalid(format!(
                "a string of {n} bytes runs past the end of the file"
            )));
        }
        if !keep || n > MAX_STRING {
            self.skip(n)?;
            return Ok(keep.then(|| format!("<{n} bytes not read>")));
        }
        // In bounds of the file (checked above) and below MAX_STRING: safe to allocate.
        let mut buf = vec![0u8; usize::try_from(n).map_err(|_| self.invalid("string too long"))?];
        self.inner
            .read_exact(&mut buf)
            .map_err(|_| self.invalid("unexpected end of file"))?;
        self.pos += n;
        Ok(Some(match String::from_utf8(buf) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        }))
    }

    /// Size in bytes of a fixed-size scalar type, `None` for strings and arrays.
    fn scalar_size(&self, ty: u32) -> Result<Option<u64>, GgufError> {
        Ok(Some(match ty {
            0 | 1 | 7 => 1,
            2 | 3 => 2,
            4..=6 => 4,
            10..=12 => 8,
            8 | 9 => return Ok(None),
            _ => return Err(self.invalid(format!("unknown value type {ty}"))),
        }))
    }

    fn scalar(&mut self, ty: u32) -> Result<MetaValue, GgufError> {
        Ok(match ty {
            0 => MetaValue::Int(i64::from(self.bytes::<1>()?[0])),
            1 => MetaValue::Int(i64::from(i8::from_le_bytes(self.bytes::<1>()?))),
            2 => MetaValue::Int(i64::from(u16::from_le_bytes(self.bytes::<2>()?))),
            3 => MetaValue::Int(i64::from(i16::from_le_bytes(self.bytes::<2>()?))),
            4 => MetaValue::Int(i64::from(self.u32()?)),
            5 => MetaValue::Int(i64::from(i32::from_le_bytes(self.bytes::<4>()?))),
            6 => MetaValue::Float(f64::from(f32::from_le_bytes(self.bytes::<4>()?))),
            7 => MetaValue::Bool(self.bytes::<1>()?[0] != 0),
            10 => {
                let u = self.u64()?;
                i64::try_from(u).map_or(MetaValue::UInt(u), MetaValue::Int)
            }
            11 => MetaValue::Int(i64::from_le_bytes(self.bytes::<8>()?)),
            12 => MetaValue::Float(f64::from_le_bytes(self.bytes::<8>()?)),
            _ => return Err(self.invalid(format!("unknown value type {ty}"))),
        })
    }

    /// Reads an array header and its elements; keeps the elements only for a string array when
    /// `keep_strings` is set. Nested arrays are skipped with an explicit stack.
    fn array(&mut self, keep_strings: bool) -> Result<MetaValue, GgufError> {
        let ty = self.u32()?;
        let len = self.u64()?;
        if ty == 8 && keep_strings {
            // Each string takes at least its 8-byte length prefix: bound the count by the file.
            if len > self.len.saturating_sub(self.pos) / 8 {
                return Err(
                    self.invalid(format!("an array of {len} strings cannot fit in the file"))
                );
            }
            if len > MAX_TOKENS {
                return Err(self.invalid(format!(
                    "a token list of {len} entries is more than the {MAX_TOKENS} any vocabulary has"
                )));
            }
            let mut out = Vec::with_capacity(usize::try_from(len).unwrap_or(0).min(1 << 20));
            for _ in 0..len {
                // keep = true always yields Some.
                out.push(self.string(true)?.unwrap_or_default());
            }
            return Ok(MetaValue::Strings(out));
        }
        let mut stack = vec![Frame { ty, left: len }];
        while let Some(top) = stack.last_mut() {
            if top.left == 0 {
                stack.pop();
                continue;
            }
            let ty = top.ty;
            if let Some(size) = self.scalar_size(ty)? {
                // A run of scalars: skip them all at once.
                let total = top
                    .left
                    .checked_mul(size)
                    .ok_or_else(|| self.invalid("array too large"))?;
                top.left = 0;
                self.skip(total)?;
            } else if ty == 8 {
                top.left -= 1;
                self.string(false)?;
            } else {
                top.left -= 1;
                let inner_ty = self.u32()?;
                let inner_len = self.u64()?;
                if stack.len() >= MAX_DEPTH {
                    return Err(self.invalid("arrays nested too deeply"));
                }
                stack.push(Frame {
                    ty: inner_ty,
                    left: inner_len,
                });
            }
        }
        Ok(MetaValue::Array { len })
    }

    fn read_all(&mut self) -> Result<GgufMetadata, GgufError> {
        if self.u32()? != MAGIC {
            return Err(self.invalid("missing GGUF magic"));
        }
        let version = self.u32()?;
        if !(2..=3).contains(&version) {
            return Err(self.invalid(format!("unsupported GGUF version {version}")));
        }
        let _tensors = self.u64()?;
        let count = self.u64()?;
        if count > MAX_ENTRIES {
            return Err(self.invalid(format!(
                "{count} metadata entries is more than {MAX_ENTRIES}"
            )));
        }
        let mut entries = BTreeMap::new();
        for _ in 0..count {
            let key = self.string(true)?.unwrap_or_default();
            let ty = self.u32()?;
            let value = match ty {
                8 => MetaValue::String(self.string(true)?.unwrap_or_default()),
                9 => self.array(key == "tokenizer.ggml.tokens")?,
                _ => self.scalar(ty)?,
            };
            entries.insert(key, value);
        }
        Ok(GgufMetadata { version, entries })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn put_str(out: &mut Vec<u8>, s: &str) {
        out.extend_from_slice(&(s.len() as u64).to_le_bytes());
        out.extend_from_slice(s.as_bytes());
    }

    fn header(count: u64) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(b"GGUF");
        out.extend_from_slice(&3u32.to_le_bytes());
        out.extend_from_slice(&0u64.to_le_bytes());
        out.extend_from_slice(&count.to_le_bytes());
        out
    }

    fn write(bytes: &[u8]) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(&mut f, bytes).unwrap();
        f
    }

    #[test]
    fn reads_strings_tokens_and_skips_nested_arrays() {
        let mut b = header(5);
        put_str(&mut b, "tokenizer.chat_template");
        b.extend_from_slice(&8u32.to_le_bytes());
        put_str(&mut b, "{{ x }}");
        put_str(&mut b, "tokenizer.ggml.tokens");
        b.extend_from_slice(&9u32.to_le_bytes());
        b.extend_from_slice(&8u32.to_le_bytes());
        b.extend_from_slice(&2u64.to_le_bytes());
        put_str(&mut b, "<s>");
        put_str(&mut b, "</s>");
        put_str(&mut b, "tokenizer.ggml.bos_token_id");
        b.extend_from_slice(&4u32.to_le_bytes());
        b.extend_from_slice(&1u32.to_le_bytes());
        // An array of arrays of u16.
        put_str(&mut b, "nested");
        b.extend_from_slice(&9u32.to_le_bytes());
        b.extend_from_slice(&9u32.to_le_bytes());
        b.extend_from_slice(&1u64.to_le_bytes());
        b.extend_from_slice(&2u32.to_le_bytes());
        b.extend_from_slice(&3u64.to_le_bytes());
        b.extend_from_slice(&[0; 6]);
        put_str(&mut b, "flag");
        b.extend_from_slice(&7u32.to_le_bytes());
        b.push(1);
        let f = write(&b);
        let m = GgufMetadata::read(f.path()).unwrap();
        assert_eq!(m.chat_template(), Some("{{ x }}"));
        assert_eq!(m.special_token("bos"), Some("</s>"));
        assert_eq!(m.entries["nested"], MetaValue::Array { len: 1 });
        assert_eq!(m.entries["flag"], MetaValue::Bool(true));
    }

    #[test]
    fn truncated_and_lying_headers_are_errors_not_panics() {
        let mut b = header(1);
        put_str(&mut b, "k");
        b.extend_from_slice(&8u32.to_le_bytes());
        b.extend_from_slice(&u64::MAX.to_le_bytes());
        let f = write(&b);
        let e = GgufMetadata::read(f.path()).unwrap_err();
        assert!(e.to_string().contains("past the end"), "{e}");

        for cut in 0..b.len() {
            let f = write(&b[..cut]);
            assert!(GgufMetadata::read(f.path()).is_err());
        }

        let f = write(b"not a gguf file at all");
        assert!(
            GgufMetadata::read(f.path())
                .unwrap_err()
                .to_string()
                .contains("magic")
        );
    }

    #[test]
    fn a_token_list_longer_than_any_vocabulary_is_refused_before_it_is_read() {
        // Regression: a list of millions of empty tokens (8 bytes each in the file) was read into
        // memory several times the file's size (3 GB for a 491 MB file).
        let n = MAX_TOKENS + 1;
        let mut b = header(1);
        put_str(&mut b, "tokenizer.ggml.tokens");
        b.extend_from_slice(&9u32.to_le_bytes());
        b.extend_from_slice(&8u32.to_le_bytes());
        b.extend_from_slice(&n.to_le_bytes());
        b.resize(b.len() + usize::try_from(n).unwrap() * 8, 0);
        let f = write(&b);
        let e = GgufMetadata::read(f.path()).unwrap_err();
        assert!(e.to_string().contains("more than"), "{e}");
    }

    #[test]
    fn deep_nesting_is_refused() {
        let mut b = header(1);
        put_str(&mut b, "deep");
        b.extend_from_slice(&9u32.to_le_bytes());
        for _ in 0..100 {
            b.extend_from_slice(&9u32.to_le_bytes());
            b.extend_from_slice(&1u64.to_le_bytes());
        }
        let f = write(&b);
        let e = GgufMetadata::read(f.path()).unwrap_err();
        assert!(e.to_string().contains("nested"), "{e}");
    }
}
