//! Output stuck in a loop: a small model decoding greedily often falls into writing the same line,
//! or the same few words, again and again until the token limit (Qwen2.5-Coder-0.5B, shown the
//! edit a changelog needed, copied it and then wrote `- update: add README.md` inside the call's
//! `new_text` until the limit, turn after turn, until the prompt no longer fit the context).
//!
//! [`tail_loop`] looks at the end of the text generated so far and says whether it is one piece
//! of text repeated back to back: at least [`MIN_REPEATS`] times, over at least [`MIN_SPAN`]
//! bytes, the piece at most [`MAX_UNIT`] bytes long and holding at least two letters or digits (so
//! runs of spaces, rules like `-----`, closing brackets and table borders never count). The loop
//! checks it after every chunk and stops generating at the first [`Loop`]: what follows the first
//! time the piece was written is repetition, and a call cut there is refused with a message that
//! says its arguments repeated themselves (without quoting them: a small model copies a
//! message's wording into its next call).

/// Fewest back-to-back copies that make a loop.
pub const MIN_REPEATS: usize = 5;
/// Fewest bytes the copies must cover together (short pieces need more copies).
pub const MIN_SPAN: usize = 120;
/// Longest repeated piece looked for, in bytes.
pub const MAX_UNIT: usize = 512;

/// A piece of text written again and again at the end of the output.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Loop {
    /// Byte offset where the repetition starts: the first copy begins here.
    pub start: usize,
    /// The repeated piece as first written (from `start`).
    pub unit: String,
    /// Whole copies written back to back from `start` to the end of the text.
    pub repeats: usize,
}

impl Loop {
    /// Byte offset where the text kept ends: everything before it is what the output says,
    /// everything after it only repeats it. That is after the first whole copy, moved on (by
    /// less than one copy) to where a line ends (a line break, or `\n` inside a JSON string), else
    /// a sentence, else a word, so a repeated sentence is kept whole whatever byte its
    /// repetition happened to start at.
    #[must_use]
    pub fn first_end(&self) -> usize {
        self.start + self.unit.len() + self.phase()
    }

    /// The repeated text for a message: one copy as it stands after [`Self::first_end`] (the line
    /// that repeats, when there are lines), trimmed.
    #[must_use]
    pub fn shown(&self) -> String {
        let k = self.phase();
        let turned = format!("{}{}", &self.unit[k..], &self.unit[..k]);
        turned
            .trim()
            .trim_start_matches("\\n")
            .trim_end_matches("\\n")
            .trim()
            .to_owned()
    }

    /// How far past the first copy the kept text ends (less than one copy). The text from
    /// `start` on repeats `unit`, so the byte at `start + unit.len() + k` is `unit[k]`.
    fn phase(&self) -> usize {
        let u = self.unit.as_bytes();
        let p = u.len();
        let at = |k: usize| u[k % p];
        let before = |k: usize| u[(k + p - 1) % p];
        let pick = |fits: &dyn Fn(usize) -> bool| {
            (0..p).find(|&k| self.unit.is_char_boundary(k) && fits(k))
        };
        pick(&|k| at(k) == b'\n' || (at(k) == b'\\' && at(k + 1) == b'n'))
            .or_else(|| {
                pick(&|k| matches!(before(k), b'.' | b'!' | b'?') && at(k).is_ascii_whitespace())
            })
            .or_else(|| pick(&|k| at(k).is_ascii_whitespace()))
            .unwrap_or(0)
    }
}

/// The loop the end of `text` is stuck in, if any (see the module documentation). Costs one
/// byte comparison per candidate length, plus a comparison of the candidate span where the last
/// byte matches: cheap enough to run after every generated token.
#[must_use]
pub fn tail_loop(text: &str) -> Option<Loop> {
    let b = text.as_bytes();
    let n = b.len();
    for p in 1..=MAX_UNIT {
        let span = (p * MIN_REPEATS).max(MIN_SPAN);
        if span > n {
            break;
        }
        if b[n - 1] != b[n - 1 - p] || b[n - span..n - p] != b[n - span + p..] {
            continue;
        }
        let mut start = n - span;
        while start > 0 && b[start - 1] == b[start - 1 + p] {
            start -= 1;
        }
        // A periodic stretch repeats its bytes every `p`: once `start` is on a character
        // boundary, so is `start + p`.
        while !text.is_char_boundary(start) {
            start += 1;
        }
        let unit = &text[start..start + p];
        let mut letters = unit.chars().filter(|c| c.is_alphanumeric());
        let first = letters.next();
        if !letters.any(|c| Some(c) != first) {
            // Fewer than two different letters or digits: spaces, rules, brackets, `0000`.
            continue;
        }
        return Some(Loop {
            start,
            unit: unit.to_owned(),
            repeats: (n - start) / p,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_written_again_and_again_is_a_loop_kept_once() {
        let head = "<tool_call>\n{\"name\": \"edit\", \"arguments\": {\"path\": \"CHANGELOG.md\", \"new_text\": \"## 1.5.0\\n";
        let text = format!("{head}{}", "- update: add README.md\\n".repeat(6));
        let found = tail_loop(&text).expect("a loop");
        // The `\n` closing the line before is part of the stretch that repeats.
        assert_eq!(found.start, head.len() - 2);
        assert_eq!(found.unit, "\\n- update: add README.md");
        assert_eq!(found.repeats, 6);
        assert_eq!(found.shown(), "- update: add README.md");
        assert_eq!(
            &text[..found.first_end()],
            format!("{head}- update: add README.md")
        );
        // Real line breaks: the piece is shown as the line that repeats.
        let text = format!("Steps:\n{}", "Read the file again.\n".repeat(7));
        let found = tail_loop(&text).expect("a loop");
        assert_eq!(found.shown(), "Read the file again.");
        assert_eq!(&text[..found.first_end()], "Steps:\nRead the file again.");
    }

    #[test]
    fn a_loop_is_found_whatever_chunk_it_ends_in() {
        let text = format!("The answer is{}", " yes, yes, it is".repeat(10));
        let whole = tail_loop(&text).expect("a loop");
        assert_eq!(whole.start, "The answer".len());
        assert_eq!(whole.unit, " is yes, yes, it");
        // The kept text ends at a word, with one whole copy.
        assert_eq!(&text[..whole.first_end()], "The answer is yes, yes, it");
        assert_eq!(whole.shown(), "is yes, yes, it");
        for end in text.len() - 20..text.len() {
            let found = tail_loop(&text[..end]).expect("a loop at every end");
            assert_eq!((found.start, &found.unit), (whole.start, &whole.unit));
        }
        // A repeated sentence is kept whole.
        let text = format!("The files are: notes.txt.{}", " I will read it.".repeat(20));
        let found = tail_loop(&text).expect("a loop");
        assert_eq!(
            &text[..found.first_end()],
            "The files are: notes.txt. I will read it."
        );
        assert_eq!(found.shown(), "I will read it.");
    }

    #[test]
    fn short_pieces_need_more_copies_and_four_copies_are_no_loop() {
        assert!(tail_loop(&"ha ".repeat(39)).is_none());
        assert_eq!(tail_loop(&"ha ".repeat(40)).map(|l| l.unit.len()), Some(3));
        let line = "- update: add README.md and the tests of it\n";
        assert!(tail_loop(&format!("x{}", line.repeat(4))).is_none());
        assert!(tail_loop(&format!("x{}", line.repeat(5))).is_some());
    }

    #[test]
    fn text_that_legitimately_repeats_is_no_loop() {
        let mut json = String::from("[");
        for i in 0..40 {
            json.push_str(&format!(
                "\n  {{\n    \"id\": {i},\n    \"ok\": true\n  }},"
            ));
        }
        let cases = [
            " ".repeat(600),
            "-".repeat(600),
            format!("fn f() {{{}", "\n    }".repeat(100)),
            "|---|---|---|\n".repeat(40),
            "0".repeat(200),
            json,
            "Line one.\nLine two.\nLine one.\nLine two.\n".to_owned(),
        ];
        for text in cases {
            assert_eq!(tail_loop(&text), None, "{text:?}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// Any text, and any text ending in a piece repeated: no panic, and a loop found is
        /// one (whole characters, the piece repeated from its start to the end, enough of it).
        #[test]
        fn a_loop_found_is_a_loop(
            prefix in "\\PC{0,40}",
            unit in "[a-c é\n\\\\.]{1,12}",
            n in 0usize..60,
            cut in 0usize..12,
        ) {
            let whole = format!("{prefix}{}", unit.repeat(n));
            let mut end = whole.len().saturating_sub(cut);
            while !whole.is_char_boundary(end) {
                end -= 1;
            }
            let text = &whole[..end];
            if let Some(l) = tail_loop(text) {
                let b = text.as_bytes();
                let p = l.unit.len();
                proptest::prop_assert!(text.is_char_boundary(l.start));
                proptest::prop_assert_eq!(&text[l.start..l.start + p], l.unit.as_str());
                proptest::prop_assert!((l.start..b.len() - p).all(|i| b[i] == b[i + p]));
                proptest::prop_assert!(l.repeats >= MIN_REPEATS && b.len() - l.start >= MIN_SPAN);
                proptest::prop_assert!(l.first_end() <= text.len());
                proptest::prop_assert!(text.is_char_boundary(l.first_end()));
                let _ = l.shown();
            }
        }
    }

    #[test]
    fn multibyte_text_gives_whole_characters() {
        let text = format!("Résumé: {}", "naïve café — ".repeat(12));
        let found = tail_loop(&text).expect("a loop");
        assert!(text.is_char_boundary(found.start));
        let end = found.start + found.repeats * found.unit.len();
        assert!(end <= text.len() && text.len() < end + found.unit.len());
        assert!(found.unit.contains("café"));
        assert!(tail_loop("é").is_none() && tail_loop("").is_none());
    }
}
