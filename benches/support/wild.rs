//! The argument texts real small models wrote: every call toolmend's extractor finds in the
//! recorded BFCL outputs of Qwen2.5-Coder-0.5B and SmolLM2-135M (`corpus/wild/bfcl`), as the
//! extractor hands them to repair. Shared by `benches/repair.rs` (`wild_args`) and
//! `tests/repair_quick.rs` (`#[path]` include), so the bench measures what the equality test checks.

#![allow(dead_code)]

/// The raw argument text of every call found in the two recordings, in file order.
pub fn recorded_arguments() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/wild/bfcl");
    let mut out = Vec::new();
    for model in ["qwen2.5-coder_0.5b", "smollm2_135m"] {
        let text = std::fs::read_to_string(dir.join(format!("{model}.jsonl")))
            .expect("corpus/wild/bfcl is committed");
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("a recorded line");
            let output = v["output"].as_str().expect("a recorded output");
            let found = toolmend::extract::extract(output, &toolmend::extract::Options::new());
            out.extend(found.calls.into_iter().map(|c| c.raw_arguments));
        }
    }
    out
}
