//! `StreamExtractor` fed one char at a time (or in chunks: the first byte picks 1 to 8 bytes)
//! finishes with exactly what one-shot `extract` returns, and the content it streamed is a prefix
//! of the final content.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolmend::extract::{Event, Options, StreamExtractor, ToolInfo, extract};

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let mut opts = Options::new().with_think_prefilled(first & 0x80 != 0);
    if first & 0x40 != 0 {
        // With a tool list: prose calls, positional binding (E30), lone values (E28).
        opts = opts.with_tools(vec![
            ToolInfo::new("f", serde_json::json!({"type": "object", "properties": {"a": {"type": "integer"}}})),
            ToolInfo::new("g", serde_json::json!({"type": "object", "properties": {"p": {"type": "string"}, "q": {"type": "integer"}}, "required": ["p"]})),
        ]);
    }
    let step = usize::from(first & 7) + 1;
    let one = extract(text, &opts);
    let mut s = StreamExtractor::new(&opts);
    let mut content = String::new();
    let mut i = 0;
    while i < text.len() {
        let mut j = (i + step).min(text.len());
        while !text.is_char_boundary(j) {
            j += 1;
        }
        for e in s.push(&text[i..j]) {
            if let Event::Content(c) = e {
                content.push_str(&c);
            }
        }
        i = j;
    }
    assert_eq!(s.finish(), one, "streamed result differs from one-shot");
    assert!(one.content.starts_with(content.trim()), "streamed content {content:?} does not start {:?}", one.content);
});
