//! Criterion benches for `toolmend::repair`, each group asserting its result before timing:
//! - `valid`: a realistic 5 MB document, next to `serde_json::from_str::<Value>` and
//!   `::<IgnoredAny>` on the same bytes, and the `jsonrepair` crate;
//! - `typical`: 10,000 small broken tool-call arguments (fixed seed), toolmend vs `jsonrepair`,
//!   with toolmend's full cascade alone (no quick pass) alongside;
//! - `small_valid`: the same arguments once repaired (valid JSON), toolmend vs serde_json's
//!   validator and `jsonrepair`;
//! - in both, a floor from `support/floor.rs` (not a repairer): the allocations and copy a
//!   changed result needs (`typical`), a grammar-shaped validator with no tolerance (`small_valid`);
//! - `by_breakage`: the typical group taken apart — clean arguments, then each breakage alone,
//!   toolmend vs `jsonrepair`;
//! - `wild_args`: the argument texts two real small models wrote on BFCL (`corpus/wild/bfcl`),
//!   toolmend vs serde_json's validator and `jsonrepair`;
//! - `pathological`: 1e6-deep nesting, a 1 MB unterminated string, `{a:` repeated 100k times.
//!
//! Run: `cargo bench --no-default-features --bench repair` (see README "Repair" for the numbers).

use std::borrow::Cow;
use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use serde::de::IgnoredAny;

#[path = "support/typical.rs"]
mod typical;

#[path = "support/floor.rs"]
mod floor;

#[path = "support/wild.rs"]
mod wild;

use typical::{Rng, WORDS};

/// A realistic 5 MB JSON document: an array of records with nested objects, text and numbers.
fn valid_document() -> String {
    let mut rng = Rng(0x5eed_0001);
    let mut s = String::with_capacity(5_300_000);
    s.push_str("{\"results\": [\n");
    let mut n = 0u64;
    while s.len() < 5_000_000 {
        if n > 0 {
            s.push_str(",\n");
        }
        let score = rng.below(100_000) as f64 / 1000.0;
        s.push_str(&format!(
            "  {{\"id\": {n}, \"name\": \"{} {}\", \"score\": {score}, \"active\": {}, \"tags\": [\"{}\", \"{}\"], \"meta\": {{\"path\": \"src/{}/mod.rs\", \"lines\": [{}, {}], \"note\": \"{} {} {}\", \"owner\": null}}}}",
            rng.pick(WORDS),
            rng.pick(WORDS),
            rng.below(2) == 0,
            rng.pick(WORDS),
            rng.pick(WORDS),
            rng.pick(WORDS),
            rng.below(1000),
            rng.below(100_000),
            rng.pick(WORDS),
            rng.pick(WORDS),
            rng.pick(WORDS),
        ));
        n += 1;
    }
    s.push_str("\n], \"count\": ");
    s.push_str(&n.to_string());
    s.push_str("}\n");
    s
}

fn bench_valid(c: &mut Criterion) {
    let doc = valid_document();
    let r = toolmend::repair::repair(&doc).expect("valid document repairs");
    assert!(matches!(r.text, Cow::Borrowed(_)) && r.fixes.is_empty());
    serde_json::from_str::<serde_json::Value>(&doc).expect("valid document parses");
    let opts = jsonrepair::Options::default();
    let theirs = jsonrepair::repair_to_string(&doc, &opts).expect("jsonrepair handles it");
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&theirs).ok(),
        serde_json::from_str::<serde_json::Value>(&doc).ok()
    );
    let mut g = c.benchmark_group("valid");
    g.throughput(Throughput::Bytes(doc.len() as u64));
    g.sample_size(10);
    g.bench_function("toolmend_repair", |b| {
        b.iter(|| toolmend::repair::repair(black_box(&doc)).map(|r| r.text.len()))
    });
    g.bench_function("serde_json_ignored_any", |b| {
        b.iter(|| serde_json::from_str::<IgnoredAny>(black_box(&doc)).is_ok())
    });
    g.bench_function("serde_json_value", |b| {
        b.iter(|| serde_json::from_str::<serde_json::Value>(black_box(&doc)).is_ok())
    });
    g.bench_function("jsonrepair_crate", |b| {
        b.iter(|| jsonrepair::repair_to_string(black_box(&doc), &opts).map(|s| s.len()))
    });
    g.finish();
}

fn bench_typical(c: &mut Criterion) {
    let inputs = typical::typical_inputs(0x5eed_0002);
    let ok = inputs
        .iter()
        .filter(|s| {
            toolmend::repair::repair(s)
                .ok()
                .is_some_and(|r| serde_json::from_str::<serde_json::Value>(&r.text).is_ok())
        })
        .count();
    assert!(ok >= 9_900, "only {ok} of 10000 typical inputs repaired");
    let bytes: usize = inputs.iter().map(String::len).sum();
    println!("typical: 10000 inputs, {bytes} bytes, {ok} repaired by toolmend");
    let opts = jsonrepair::Options::default();
    let mut g = c.benchmark_group("typical");
    g.throughput(Throughput::Elements(inputs.len() as u64));
    g.sample_size(20);
    each_input(&mut g, "toolmend_repair", &inputs, |s| {
        toolmend::repair::repair(s).map_or(0, |r| r.text.len())
    });
    each_input(&mut g, "toolmend_full_cascade", &inputs, |s| {
        toolmend::repair::repair_full_cascade(s).map_or(0, |r| r.text.len())
    });
    each_input(&mut g, "jsonrepair_crate", &inputs, |s| {
        jsonrepair::repair_to_string(s, &opts).map_or(0, |r| r.len())
    });
    // A floor, not a repairer: the allocations and copy a changed result needs, nothing else.
    each_input(&mut g, "floor_alloc_copy", &inputs, |s| {
        floor::alloc_copy(s)
    });
    g.finish();

    // The same arguments once repaired: small valid JSON, what a model that gets it right sends.
    let valid: Vec<String> = inputs
        .iter()
        .filter_map(|s| {
            toolmend::repair::repair(s)
                .ok()
                .map(|r| r.text.into_owned())
        })
        .collect();
    assert!(
        valid
            .iter()
            .all(|s| toolmend::repair::repair(s).is_ok_and(|r| matches!(r.text, Cow::Borrowed(_))))
    );
    assert!(valid.iter().all(|s| floor::validate(s.as_bytes())));
    assert!(!floor::validate(b"{\"a\": 1,}") && !floor::validate(b"{'a': 1}"));
    let mut g = c.benchmark_group("small_valid");
    g.throughput(Throughput::Elements(valid.len() as u64));
    g.sample_size(20);
    repairers_and_validator(&mut g, &valid);
    // A floor, not a repairer: a validator shaped by the grammar with no tolerance and no output.
    each_input(&mut g, "floor_grammar_validator", &valid, |s| {
        usize::from(floor::validate(s.as_bytes()))
    });
    g.finish();
}

/// The typical group taken apart: 1,000 clean arguments, then 1,000 for each breakage alone (each
/// changed by it), toolmend vs the `jsonrepair` crate — where the typical ratio comes from.
fn bench_by_breakage(c: &mut Criterion) {
    let mut rng = Rng(0x5eed_0003);
    let mut sets = vec![(
        "none",
        (0..1000)
            .map(|_| typical::clean_args(&mut rng))
            .collect::<Vec<_>>(),
    )];
    for (kind, name) in typical::BREAKAGES.iter().enumerate() {
        let mut set = Vec::new();
        while set.len() < 1000 {
            let clean = typical::clean_args(&mut rng);
            let broken = typical::break_args(&clean, kind as u64, &mut rng);
            if broken != clean {
                set.push(broken);
            }
        }
        sets.push((name, set));
    }
    let opts = jsonrepair::Options::default();
    let mut g = c.benchmark_group("by_breakage");
    g.sample_size(10);
    for (name, inputs) in &sets {
        let ok = inputs
            .iter()
            .filter(|s| {
                toolmend::repair::repair(s)
                    .is_ok_and(|r| serde_json::from_str::<serde_json::Value>(&r.text).is_ok())
            })
            .count();
        assert!(ok >= 990, "{name}: only {ok} of 1000 repaired");
        g.throughput(Throughput::Elements(inputs.len() as u64));
        each_input(&mut g, &format!("toolmend_repair/{name}"), inputs, |s| {
            toolmend::repair::repair(s).map_or(0, |r| r.text.len())
        });
        each_input(&mut g, &format!("jsonrepair_crate/{name}"), inputs, |s| {
            jsonrepair::repair_to_string(s, &opts).map_or(0, |r| r.len())
        });
    }
    g.finish();
}

/// The argument texts real small models wrote: every call toolmend's extractor finds in the
/// recorded BFCL outputs of Qwen2.5-Coder-0.5B and SmolLM2-135M (`corpus/wild/bfcl`), as the
/// extractor hands them to repair — toolmend vs `serde_json`'s validator and `jsonrepair`.
fn bench_wild(c: &mut Criterion) {
    let args = wild::recorded_arguments();
    let changed = args
        .iter()
        .filter(|s| toolmend::repair::repair(s).is_ok_and(|r| matches!(r.text, Cow::Owned(_))))
        .count();
    assert!(args.len() > 600, "only {} calls found", args.len());
    let bytes: usize = args.iter().map(String::len).sum();
    println!(
        "wild_args: {} calls, {bytes} bytes, {changed} changed by repair",
        args.len()
    );
    let mut g = c.benchmark_group("wild_args");
    g.throughput(Throughput::Elements(args.len() as u64));
    g.sample_size(20);
    repairers_and_validator(&mut g, &args);
    g.finish();
}

/// toolmend's repair, serde_json's validator and the `jsonrepair` crate over the same (mostly
/// valid) inputs.
fn repairers_and_validator(g: &mut BenchmarkGroup<'_, WallTime>, inputs: &[String]) {
    let opts = jsonrepair::Options::default();
    each_input(g, "toolmend_repair", inputs, |s| {
        toolmend::repair::repair(s).map_or(0, |r| r.text.len())
    });
    each_input(g, "serde_json_ignored_any", inputs, |s| {
        usize::from(serde_json::from_str::<IgnoredAny>(s).is_ok())
    });
    each_input(g, "jsonrepair_crate", inputs, |s| {
        jsonrepair::repair_to_string(s, &opts).map_or(0, |r| r.len())
    });
}

/// Times `f` over every input in one iteration (the groups count calls: `Throughput::Elements`).
fn each_input(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    inputs: &[String],
    f: impl Fn(&str) -> usize,
) {
    g.bench_function(name, |b| {
        b.iter(|| inputs.iter().map(|s| f(black_box(s))).sum::<usize>())
    });
}

fn bench_pathological(c: &mut Criterion) {
    let deep_valid = format!("{}{}", "[".repeat(1_000_000), "]".repeat(1_000_000));
    let deep_open = "[".repeat(1_000_000);
    let unterminated = format!("{{\"content\": \"{}", "lorem ipsum ".repeat(1_048_576 / 12));
    let obj_a = "{a:".repeat(100_000);
    assert!(
        toolmend::repair::repair(&deep_valid).is_ok_and(|r| matches!(r.text, Cow::Borrowed(_)))
    );
    assert!(matches!(
        toolmend::repair::repair(&deep_open),
        Err(toolmend::repair::RepairError::LimitExceeded { .. })
    ));
    let r = toolmend::repair::repair(&unterminated).expect("unterminated string repairs");
    assert_eq!(r.text.len(), unterminated.len() + 2);
    assert!(matches!(
        toolmend::repair::repair(&obj_a),
        Err(toolmend::repair::RepairError::LimitExceeded { .. })
    ));
    let mut g = c.benchmark_group("pathological");
    g.sample_size(10);
    for (name, input) in [
        ("deep_1e6_valid", &deep_valid),
        ("deep_1e6_open", &deep_open),
        ("unterminated_string_1mb", &unterminated),
        ("obj_a_colon_100k", &obj_a),
    ] {
        g.throughput(Throughput::Bytes(input.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| toolmend::repair::repair(black_box(input)).is_ok())
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    bench_valid,
    bench_typical,
    bench_by_breakage,
    bench_wild,
    bench_pathological
);
criterion_main!(benches);
