//! Reference floors for the `typical` and `small_valid` repair groups: what any repairer of these
//! small arguments must pay at least, measured on the same inputs in the same run so the README can
//! say how far toolmend is from them.
//!
//! - [`validate`]: a grammar-shaped JSON validator that does nothing but check valid input — keys,
//!   values, string runs eight bytes at a time (the quick pass's own scan,
//!   `toolmend::repair::string_run_end`), an explicit stack — with no tolerance, no output and no
//!   fixes. Any repairer that reads every byte of valid input costs at least about this.
//! - [`alloc_copy`]: the allocations a changed result needs (the output `String` and the fix
//!   `Vec`), one copy of the input and the frees, with no parsing at all.

#![allow(dead_code)]

/// Whitespace after `i`.
#[inline(always)]
fn ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\n' | b'\t' | b'\r') {
        i += 1;
    }
    i
}

/// The end of the string whose opening quote is at `i`.
#[inline(always)]
fn string(b: &[u8], mut i: usize) -> Option<usize> {
    i += 1;
    loop {
        i = toolmend::repair::string_run_end(b, i);
        match b.get(i)? {
            b'"' => return Some(i + 1),
            b'\\' => i += 2,
            _ => return None,
        }
    }
}

/// `"key"` and its colon at `i`, and the whitespace after them.
#[inline(always)]
fn key(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let i = ws(b, string(b, i)?);
    (b.get(i) == Some(&b':')).then(|| ws(b, i + 1))
}

/// Whether `b` is one JSON value nested at most 32 deep (numbers are checked loosely: the floor
/// is about the cost of the scan, not about every grammar rule).
#[inline(never)]
pub fn validate(b: &[u8]) -> bool {
    let mut stack = [false; 32];
    let mut depth = 0usize;
    let mut i = ws(b, 0);
    loop {
        let Some(&c) = b.get(i) else { return false };
        match c {
            b'{' | b'[' => {
                if depth == stack.len() {
                    return false;
                }
                stack[depth] = c == b'{';
                depth += 1;
                i = ws(b, i + 1);
                if b.get(i) == Some(&(c + 2)) {
                    // `{}` / `[]` (`}` and `]` are two past their openers).
                    depth -= 1;
                    i += 1;
                } else {
                    if c == b'{' {
                        let Some(k) = key(b, i) else { return false };
                        i = k;
                    }
                    continue;
                }
            }
            b'"' => {
                let Some(e) = string(b, i) else { return false };
                i = e;
            }
            b't' if b[i..].starts_with(b"true") => i += 4,
            b'f' if b[i..].starts_with(b"false") => i += 5,
            b'n' if b[i..].starts_with(b"null") => i += 4,
            b'-' | b'0'..=b'9' => {
                i += 1;
                while i < b.len() && matches!(b[i], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
                {
                    i += 1;
                }
            }
            _ => return false,
        }
        // After a value: commas and closers until the next value starts.
        loop {
            i = ws(b, i);
            if depth == 0 {
                return i == b.len();
            }
            let object = stack[depth - 1];
            match b.get(i) {
                Some(b',') => {
                    i = ws(b, i + 1);
                    if object {
                        let Some(k) = key(b, i) else { return false };
                        i = k;
                    }
                    break;
                }
                Some(b'}') if object => {
                    depth -= 1;
                    i += 1;
                }
                Some(b']') if !object => {
                    depth -= 1;
                    i += 1;
                }
                _ => return false,
            }
        }
    }
}

/// What a changed result costs before any parsing: the output `String` (sized as the quick pass
/// sizes it) holding a copy of the input, a fix list with room for eight fixes holding one, both
/// dropped. Returns the output length.
#[inline(never)]
pub fn alloc_copy(s: &str) -> usize {
    let mut out = String::with_capacity(s.len() + s.len() / 8 + 16);
    out.push_str(s);
    let mut fixes: Vec<(u8, usize)> = Vec::with_capacity(8);
    fixes.push((0, s.len()));
    std::hint::black_box(&fixes);
    out.len()
}
