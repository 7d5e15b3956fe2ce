//! `repair` never panics; every `Ok` parses with serde_json; repairing it again changes nothing.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(r) = toolmend::repair::repair(text) {
        serde_json::from_str::<serde::de::IgnoredAny>(&r.text)
            .unwrap_or_else(|e| panic!("Ok output is not JSON ({e}): {:?}", r.text));
        if let Err(e) = serde_json::from_str::<serde_json::Value>(&r.text) {
            // Into a Value, serde_json (without arbitrary_precision / unbounded_depth) also rejects
            // syntactically valid JSON that repair returns unchanged: numbers beyond f64 (1e400),
            // nesting deeper than 128, lone surrogate escapes (`"\ude00"`), and — with the
            // `raw_value` feature toolmend enables — an object whose key is serde_json's private
            // RawValue token (`{"$serde_json::private::RawValue": …}`, found by this target in
            // session 4); nothing else.
            let msg = e.to_string();
            assert!(
                msg.contains("number out of range")
                    || msg.contains("recursion limit")
                    || msg.contains("surrogate")
                    || r.text.contains("$serde_json::private::RawValue"),
                "{e}: {:?}",
                r.text
            );
        }
        let again = toolmend::repair::repair(&r.text).expect("repaired output repairs");
        assert_eq!(again.text, r.text, "not idempotent");
        assert!(again.fixes.is_empty(), "fixes on repaired output: {:?}", again.fixes);
    }
});
