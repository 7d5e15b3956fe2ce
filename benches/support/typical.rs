//! The generator of the `typical` repair inputs: small tool-call argument objects broken the way
//! small models break them, from a fixed seed. Shared by `benches/repair.rs` and
//! `tests/repair_quick.rs` (`#[path]` include), so the bench measures what the equality test checks.

#![allow(dead_code)]

/// xorshift64*: a tiny fixed-seed generator so the inputs are identical on every run.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len() as u64) as usize]
    }
}

pub const WORDS: &[&str] = &[
    "alpha",
    "config",
    "main.rs",
    "résumé",
    "quick brown fox",
    "src/lib.rs",
    "Paris",
    "ümlaut",
    "TODO: fix",
    "a \\\"quoted\\\" word",
    "line\\nbreak",
    "42",
    "tool",
    "日本語",
];

const KEYS: &[&str] = &[
    "path",
    "query",
    "pattern",
    "content",
    "limit",
    "recursive",
    "city",
    "unit",
    "lines",
    "name",
];

/// One small valid tool-call argument object: one to four keys with string, number, boolean or
/// small array values.
pub fn clean_args(rng: &mut Rng) -> String {
    let n = 1 + rng.below(4);
    let mut parts = Vec::new();
    for k in 0..n {
        let key = KEYS[((rng.below(KEYS.len() as u64)) as usize + k as usize) % KEYS.len()];
        let value = match rng.below(5) {
            0 => format!("\"{}\"", rng.pick(WORDS)),
            1 => rng.below(1000).to_string(),
            2 => {
                if rng.below(2) == 0 {
                    "true".into()
                } else {
                    "false".into()
                }
            }
            3 => format!("[\"{}\", {}]", rng.pick(WORDS), rng.below(10)),
            _ => format!("\"{} {}\"", rng.pick(WORDS), rng.pick(WORDS)),
        };
        parts.push(format!("\"{key}\": {value}"));
    }
    format!("{{{}}}", parts.join(", "))
}

/// The breakages small models make, by the index [`break_args`] takes.
pub const BREAKAGES: [&str; 9] = [
    "single_quotes",
    "unquoted_key",
    "trailing_comma",
    "python_literals",
    "truncated",
    "missing_closers",
    "code_fence",
    "comment",
    "raw_newline",
];

/// `s` with breakage `kind` (an index into [`BREAKAGES`]) applied; some leave some inputs as they
/// are (no boolean to turn into Python's, a single key with no `, ` for a comment). A truncation
/// of an input of two bytes or fewer is a raw newline instead.
pub fn break_args(s: &str, kind: u64, rng: &mut Rng) -> String {
    match kind {
        0 => s.replace('"', "'"),
        1 => s.replacen("\"", "", 2),
        2 => s.replacen('}', ",}", 1),
        3 => s.replace("true", "True").replace("false", "False"),
        4 if s.len() > 2 => {
            let cut = 1 + rng.below(s.len() as u64 - 1) as usize;
            let cut = (cut..=s.len())
                .find(|&c| s.is_char_boundary(c))
                .unwrap_or(s.len());
            s[..cut].to_owned()
        }
        5 => s.trim_end_matches('}').to_owned(),
        6 => format!("```json\n{s}\n```"),
        7 => s.replacen(", ", ",\n // note\n", 1),
        _ => s.replacen("\\n", "\n", 1),
    }
}

/// One small tool-call argument object, then one or two of the breakages small models make.
pub fn broken_args(rng: &mut Rng) -> String {
    let mut s = clean_args(rng);
    for _ in 0..1 + rng.below(2) {
        let kind = rng.below(BREAKAGES.len() as u64);
        s = break_args(&s, kind, rng);
    }
    s
}

/// 10,000 typical inputs from `seed` (the bench uses `0x5eed_0002`).
pub fn typical_inputs(seed: u64) -> Vec<String> {
    let mut rng = Rng(seed);
    (0..10_000).map(|_| broken_args(&mut rng)).collect()
}
