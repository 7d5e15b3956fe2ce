//! Linear time and bounded stack, checked by counting the parser's steps (never by timing):
//! for each pathological input `steps ≤ K · len`, and the ratio stays flat as the input grows.
//! The 1e6-deep inputs also prove there is no recursion: the test thread has a 2 MiB stack.

use toolmend::repair::{RepairError, StreamRepairer, repair_counting_steps};

/// Steps allowed per input byte.
const K: u64 = 8;

fn steps(input: &str) -> u64 {
    let (res, steps) = repair_counting_steps(input);
    if let Ok(r) = &res {
        serde_json::from_str::<serde::de::IgnoredAny>(&r.text).expect("Ok output parses");
    }
    steps
}

fn assert_linear(name: &str, make: impl Fn(usize) -> String) {
    let mut ratios = Vec::new();
    for n in [1_000, 10_000, 100_000] {
        let input = make(n);
        let s = steps(&input);
        let len = input.len() as u64;
        assert!(
            s <= K * len + 64,
            "{name}: {s} steps for {len} bytes (more than {K} per byte)"
        );
        ratios.push(s as f64 / len as f64);
    }
    println!("{name}: steps per byte {ratios:.2?}");
}

#[test]
fn pathological_inputs_take_linear_steps() {
    assert_linear("{a: repeated", |n| "{a:".repeat(n));
    assert_linear("unterminated string", |n| {
        format!("\"{}", "a".repeat(n * 10))
    });
    assert_linear("unterminated string ending in a comma", |n| {
        format!("{{\"k\": \"{},", "ab ".repeat(n))
    });
    assert_linear("many inner quotes", |n| {
        format!("{{\"k\": \"{}\"}}", "a \"b\" c".repeat(n))
    });
    assert_linear("quote comma pairs", |n| format!("[{}]", "\"a,".repeat(n)));
    assert_linear("mixed quote families", |n| {
        format!("[{}", "'a, \"b, “c, ".repeat(n))
    });
    assert_linear("redundant closers", |n| {
        format!("{{\"a\": [1{}", "}".repeat(n))
    });
    assert_linear("missing commas", |n| {
        format!("[{}]", "1 \"x\" {} ".repeat(n))
    });
    assert_linear("comments", |n| {
        format!("[{}1]", "/* c */ 1, // x\n".repeat(n))
    });
    assert_linear("concatenated strings", |n| {
        format!("[\"a\"{}]", " + \"b\"".repeat(n))
    });
    assert_linear("tuples", |n| format!("[{}]", "((1)), ".repeat(n)));
    assert_linear("ndjson", |n| "{\"a\": 1}\n".repeat(n));
    assert_linear("prose then brace", |n| {
        format!("{} {{\"a\": 1}}", "word ".repeat(n))
    });
    assert_linear("doubled quotes", |n| {
        format!("[{}", "''a ''b'', ''c'' //x\n\"\"d\"\" ".repeat(n))
    });
    assert_linear("mismatched closers", |n| {
        format!("[{}", "{\"a\": [1}, ".repeat(n))
    });
    // Every `, [..]]` reopens the same array of rows, whose rows the first merge reads.
    assert_linear("reopened rows", |n| {
        format!("{{\"a\": [[1, 2]]{}}}", ", [3, 4], \"x\", \"y\"]".repeat(n))
    });
}

#[test]
fn million_deep_nesting_does_not_overflow() {
    let deep_open = "[".repeat(1_000_000);
    let (res, _) = repair_counting_steps(&deep_open);
    assert!(
        matches!(res, Err(RepairError::LimitExceeded { .. })),
        "{res:?}"
    );
    let deep_valid = format!("{}{}", "[".repeat(1_000_000), "]".repeat(1_000_000));
    let (res, _) = repair_counting_steps(&deep_valid);
    // Valid JSON is returned unchanged at any depth (serde_json's validator is iterative).
    let r = res.expect("valid JSON is Ok");
    assert!(matches!(r.text, std::borrow::Cow::Borrowed(_)) && r.fixes.is_empty());
    let broken = format!("{},", deep_valid);
    let (res, _) = repair_counting_steps(&broken);
    assert!(
        matches!(res, Err(RepairError::LimitExceeded { .. })),
        "{res:?}"
    );
    let deep_obj = "{\"a\":".repeat(1_000_000);
    let (res, _) = repair_counting_steps(&deep_obj);
    assert!(
        matches!(res, Err(RepairError::LimitExceeded { .. })),
        "{res:?}"
    );
    let deep_calls = "f(".repeat(1_000_000);
    let (res, _) = repair_counting_steps(&deep_calls);
    assert!(
        matches!(res, Err(RepairError::LimitExceeded { .. })),
        "{res:?}"
    );
}

#[test]
fn max_depth_output_parses() {
    let d = toolmend::repair::MAX_DEPTH;
    let ok = "[".repeat(d);
    let (res, _) = repair_counting_steps(&ok);
    let r = res.expect("MAX_DEPTH levels are accepted");
    serde_json::from_str::<serde_json::Value>(&r.text).expect("and serde_json reads them back");
    let too_deep = "[".repeat(d + 1);
    let (res, _) = repair_counting_steps(&too_deep);
    assert!(matches!(res, Err(RepairError::LimitExceeded { .. })));
}

#[test]
fn streaming_previews_take_linear_total_steps() {
    for n in [10_000usize, 100_000] {
        let text = format!("{{\"content\": \"{}\"}}", "lorem ipsum, ".repeat(n / 13));
        let mut s = StreamRepairer::new();
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let j = (i + 3).min(bytes.len());
            s.push(&text[i..j]);
            let _ = s.preview();
            i = j;
        }
        let total = s.preview_steps();
        let len = text.len() as u64;
        println!("stream {len} bytes in 3-byte chunks: {total} preview steps");
        assert!(
            total <= 16 * len + 1024 * 1024,
            "{total} steps for {len} bytes"
        );
        assert_eq!(
            s.finish().expect("repairs").0,
            toolmend::repair::repair(&text).expect("repairs").text
        );
    }
}
