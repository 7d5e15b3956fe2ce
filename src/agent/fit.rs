//! Keeping the conversation inside the model's context window: cutting tool results that would
//! not fit, and removing earlier ones, before a turn is generated.
//!
//! A small local model usually runs with a few thousand tokens of context, and one `read` of a
//! long file fills it: the next turn would then fail before generating anything. When the backend
//! can count a request's tokens ([`crate::backend::Backend::prompt_tokens`]) and knows its window
//! ([`crate::backend::Backend::context_size`]), the agent checks each request before generating
//! it and, while it does not fit with room left for the reply ([`reply_room`]):
//!
//! 1. replaces results of earlier turns (and earlier prompts of a chat) by a short note saying
//!    the result was removed and the call may be made again ([`REMOVED`]): first those a later
//!    message repeats whole (a repeated call's result shown again), then oldest first, the
//!    results of the look the agent offers for the request last;
//! 2. then cuts the latest turn's results to the largest common length that fits (found by
//!    bisection over the exact count), each at a line boundary, with a note saying how much is
//!    shown and how to ask for the rest ([`cut`]).
//!
//! The person watching sees every result whole (the `ToolEnd` events); the model sees what fits,
//! and a `ContextFit` event says what was cut.

/// What replaces an earlier result removed to make room.
pub const REMOVED: &str = "[This earlier result was removed to fit the model's context window. Call the tool again if you still need it.]";

/// Tokens kept free for the reply: the token limit of a turn, but at most a quarter of the window
/// (a limit as large as the window would leave no room for any prompt).
#[must_use]
pub fn reply_room(context: u32, max_tokens: u32) -> u32 {
    max_tokens.min(context / 4)
}

/// `text` cut to at most `cap` bytes (plus the note), or `None` when it fits whole.
///
/// Whole lines are kept while they fit; when not even the first line fits, it is cut at a
/// character boundary. The note says how much of the result is shown and asks for a smaller part
/// (a line range, a narrower pattern), so the model can go on from there.
///
/// ```
/// use toolmend::agent::fit::cut;
/// let text = "1\tfn main() {\n2\t    println!(\"hi\");\n3\t}";
/// assert_eq!(cut(text, 100), None);
/// let shown = cut(text, 20).unwrap();
/// assert!(shown.starts_with("1\tfn main() {\n[cut to fit"), "{shown}");
/// assert!(shown.contains("1 of 3 lines"), "{shown}");
/// ```
#[must_use]
pub fn cut(text: &str, cap: usize) -> Option<String> {
    if text.len() <= cap {
        return None;
    }
    let total_lines = text.lines().count();
    // The end of the last whole line that fits, newline excluded.
    let mut end = 0;
    let mut lines = 0;
    for (at, _) in text.match_indices('\n') {
        if at > cap {
            break;
        }
        end = at;
        lines += 1;
    }
    let (shown, what) = if lines > 0 {
        (
            &text[..end],
            format!("{lines} of {total_lines} lines of this result are shown"),
        )
    } else {
        let mut at = cap.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let total_chars = text.chars().count();
        let shown = &text[..at];
        (
            shown,
            format!(
                "the first {} of {total_chars} characters of this result are shown",
                shown.chars().count()
            ),
        )
    };
    let mut out = String::with_capacity(shown.len() + 160);
    out.push_str(shown);
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str("[cut to fit the model's context window: ");
    out.push_str(&what);
    out.push_str(". To see more, ask for a smaller part at a time: a line range, a narrower pattern or path.]");
    Some(out)
}

/// The largest `cap` in `0..=hi` for which `fits(cap)` holds, `fits` being monotone (true up to
/// some cap, false above it); `None` when not even `fits(0)` holds. Bisection: about
/// `log2(hi)` calls.
pub fn largest_fitting(hi: usize, mut fits: impl FnMut(usize) -> bool) -> Option<usize> {
    if fits(hi) {
        return Some(hi);
    }
    if !fits(0) {
        return None;
    }
    // fits(lo) holds and fits(hi) does not.
    let (mut lo, mut hi) = (0, hi);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_keeps_whole_lines_and_says_how_many() {
        let text: String = (1..=100).map(|i| format!("{i:>3}\tline {i}\n")).collect();
        let text = text.trim_end();
        let shown = cut(text, 120).unwrap();
        let kept: Vec<&str> = shown.lines().take_while(|l| !l.starts_with('[')).collect();
        assert_eq!(kept.len(), 10, "{shown}");
        assert_eq!(kept[9], " 10\tline 10");
        assert!(shown.contains("10 of 100 lines"), "{shown}");
        assert!(shown.ends_with(']'));
        assert!(kept.join("\n").len() <= 120);
    }

    #[test]
    fn cut_splits_a_long_single_line_at_a_char_boundary() {
        let text = "é".repeat(100);
        let shown = cut(&text, 11).unwrap();
        assert!(shown.starts_with(&"é".repeat(5)), "{shown}");
        assert!(shown.contains("the first 5 of 100 characters"), "{shown}");
    }

    #[test]
    fn cut_to_nothing_still_says_what_happened() {
        let shown = cut("abc\ndef", 0).unwrap();
        assert!(shown.starts_with("[cut to fit"), "{shown}");
        assert!(shown.contains("the first 0 of 7 characters"), "{shown}");
    }

    #[test]
    fn cut_leaves_a_fitting_result_alone() {
        assert_eq!(cut("abc", 3), None);
        assert_eq!(cut("", 0), None);
    }

    #[test]
    fn largest_fitting_finds_the_edge() {
        for edge in [0usize, 1, 7, 500, 999, 1000] {
            let mut calls = 0;
            let got = largest_fitting(1000, |c| {
                calls += 1;
                c <= edge
            });
            assert_eq!(got, Some(edge));
            assert!(calls <= 12, "{calls} calls for edge {edge}");
        }
        assert_eq!(largest_fitting(1000, |_| false), None);
    }

    #[test]
    fn reply_room_is_at_most_a_quarter_of_the_window() {
        assert_eq!(reply_room(4096, 512), 512);
        assert_eq!(reply_room(1024, 512), 256);
    }
}
