//! Stop strings: text that means the model has left its own turn — it starts writing the tool's
//! answer (`<tool_response>`) or the next turn (`<|im_start|>`, `<start_of_turn>`) itself.
//! Generation stops there, and the marker and anything after it never reach the sink. Text that
//! could be the beginning of a marker is held back until it is clear either way.

/// Scans streamed text for stop strings.
#[derive(Debug)]
pub(super) struct StopText<'s> {
    stops: &'s [String],
    held: String,
}

impl<'s> StopText<'s> {
    pub(super) fn new(stops: &'s [String]) -> Self {
        Self {
            stops,
            held: String::new(),
        }
    }

    /// Adds `text`; returns the text that is safe to emit and whether a stop string was found
    /// (the returned text then ends just before it).
    pub(super) fn push(&mut self, text: &str) -> (String, bool) {
        if self.stops.is_empty() {
            return (text.to_owned(), false);
        }
        self.held.push_str(text);
        if let Some(pos) = self
            .stops
            .iter()
            .filter(|s| !s.is_empty())
            .filter_map(|s| self.held.find(s.as_str()))
            .min()
        {
            self.held.truncate(pos);
            return (std::mem::take(&mut self.held), true);
        }
        let keep = self.partial_len();
        let cut = self.held.len() - keep;
        let out = self.held[..cut].to_owned();
        self.held.drain(..cut);
        (out, false)
    }

    /// What is still held back at the end of generation.
    pub(super) fn finish(&mut self) -> String {
        std::mem::take(&mut self.held)
    }

    /// Length of the longest suffix of the held text that begins some stop string.
    fn partial_len(&self) -> usize {
        let h = &self.held;
        let longest = self.stops.iter().map(String::len).max().unwrap_or(0);
        (1..longest.min(h.len() + 1))
            .rev()
            .find(|&k| {
                h.is_char_boundary(h.len() - k)
                    && self.stops.iter().any(|s| s.starts_with(&h[h.len() - k..]))
            })
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(stops: &[&str], pieces: &[&str]) -> (Vec<String>, bool, String) {
        let stops: Vec<String> = stops.iter().map(|s| (*s).to_owned()).collect();
        let mut s = StopText::new(&stops);
        let mut out = Vec::new();
        for p in pieces {
            let (t, stop) = s.push(p);
            out.push(t);
            if stop {
                return (out, true, String::new());
            }
        }
        let rest = s.finish();
        (out, false, rest)
    }

    #[test]
    fn stops_before_a_marker_split_over_pieces() {
        let (out, stop, _) = run(
            &["<tool_response>"],
            &["ok}\n<tool", "_resp", "onse>\nfake"],
        );
        assert!(stop);
        assert_eq!(out.concat(), "ok}\n");
        assert_eq!(out[0], "ok}\n", "the possible marker start is held back");
    }

    #[test]
    fn a_false_start_is_released() {
        let (out, stop, rest) = run(&["<tool_response>"], &["a <tool", "s> b", " <to"]);
        assert!(!stop);
        assert_eq!(out.concat() + &rest, "a <tools> b <to");
        assert_eq!(rest, "<to");
    }

    #[test]
    fn no_stops_pass_everything_through() {
        let (out, stop, rest) = run(&[], &["<tool_response>", "x"]);
        assert!(!stop);
        assert_eq!(out.concat() + &rest, "<tool_response>x");
    }

    #[test]
    fn multibyte_text_is_not_split() {
        let (out, stop, rest) = run(&["<é>"], &["a<", "é", "b"]);
        assert!(!stop);
        assert_eq!(out.concat() + &rest, "a<éb");
    }
}
