//! `extract` never panics; every call's and rejection's span lies in the input on char
//! boundaries. The first byte picks the options (hint auto or one family, tools, prefilled think).
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolmend::extract::{Format, FormatHint, Options, ToolInfo, extract};

const FAMILIES: &[&str] = &["hermes", "qwen3-coder-xml", "gemma4", "lfm2-pythonic", "harmony", "mistral-v11", "bare-json"];

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let mut opts = Options::new().with_think_prefilled(first & 1 == 1).with_partial(first & 2 == 2);
    if first & 4 == 4 {
        // `g` has a required string and an optional integer: positional binding (E30) and a lone
        // value for the one required parameter (E28).
        opts = opts.with_tools(vec![
            ToolInfo::new("f", serde_json::json!({"type": "object", "properties": {"a": {"type": "integer"}}})),
            ToolInfo::new("g", serde_json::json!({"type": "object", "properties": {"p": {"type": "string"}, "q": {"type": "integer"}}, "required": ["p"]})),
        ]);
    }
    let pick = usize::from(first >> 4);
    if let Some(f) = FAMILIES.get(pick) {
        opts = opts.with_format(FormatHint::Family(f.parse::<Format>().expect("known family")));
    }
    let x = extract(text, &opts);
    for s in x.calls.iter().map(|c| &c.span).chain(x.rejected.iter().map(|r| &r.span)) {
        assert!(s.start <= s.end && s.end <= text.len(), "span {s:?} out of bounds");
        assert!(text.is_char_boundary(s.start) && text.is_char_boundary(s.end), "span {s:?} off a char boundary");
    }
});
