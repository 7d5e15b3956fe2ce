//! `StreamRepairer`: previews are valid JSON; fed in chunks it finishes with exactly what one-shot
//! `repair` returns. The first byte picks the chunk size (1 to 16 bytes).
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolmend::repair::StreamRepairer;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let step = usize::from(first % 16) + 1;
    let mut stream = StreamRepairer::new();
    let mut i = 0;
    while i < text.len() {
        let mut j = (i + step).min(text.len());
        while !text.is_char_boundary(j) {
            j += 1;
        }
        stream.push(&text[i..j]);
        if let Some(p) = stream.preview() {
            serde_json::from_str::<serde::de::IgnoredAny>(p)
                .unwrap_or_else(|e| panic!("preview is not JSON ({e}): {p:?}"));
        }
        i = j;
    }
    let whole = toolmend::repair::repair(text).map(|r| (r.text.into_owned(), r.fixes));
    assert_eq!(stream.finish(), whole, "chunked result differs from one-shot");
});
