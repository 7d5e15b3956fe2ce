//! The quick pass answers exactly what the full cascade answers: whenever it settles an input, the
//! text and the fixes (kinds, offsets, order) equal `repair_full_cascade`'s, and on valid JSON it
//! agrees with serde_json (borrowed, unchanged).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Some(quick) = toolmend::repair::repair_quick_only(text) else {
        return;
    };
    let full = toolmend::repair::repair_full_cascade(text);
    assert_eq!(Ok(&quick), full.as_ref(), "quick pass differs on {text:?}");
    if serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok() {
        assert!(
            matches!(quick.text, std::borrow::Cow::Borrowed(_)) && quick.fixes.is_empty(),
            "valid JSON changed: {text:?}"
        );
    }
});
