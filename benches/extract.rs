//! Extraction speed: 1 MB of prose with no call markers (against two baselines in the same run:
//! one `memchr::memchr` pass over the same bytes, and copying them into a new `String`), and
//! typical model outputs (one Hermes call, Qwen3-Coder XML, Gemma 4, a bare JSON call in prose, a
//! think block then a call).
//! Every input's result is asserted before it is timed.
//!
//! `cargo bench --no-default-features --bench extract`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use toolmend::extract::{Options, extract};

/// About 1 MB of English-like prose: words, spaces, commas, full stops, line breaks.
fn prose() -> String {
    const WORDS: &[&str] = &[
        "the",
        "model",
        "answered",
        "quickly",
        "and",
        "then",
        "explained",
        "why",
        "it",
        "chose",
        "this",
        "path",
        "through",
        "a",
        "long",
        "list",
        "of",
        "small",
        "files",
        "without",
        "calling",
        "any",
        "tool",
        "because",
        "nothing",
        "was",
        "needed",
        "here",
    ];
    let mut s = String::with_capacity(1 << 20);
    let mut i = 7usize;
    while s.len() < 1 << 20 {
        i = i.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        s.push_str(WORDS[(i >> 8) % WORDS.len()]);
        s.push_str(match (i >> 4) % 17 {
            0 => ". ",
            1 => ", ",
            2 => ".\n",
            _ => " ",
        });
    }
    s
}

fn scan(c: &mut Criterion) {
    let text = prose();
    let opts = Options::default();
    let x = extract(&text, &opts);
    assert!(
        x.calls.is_empty() && x.content.len() + 2 >= text.trim().len(),
        "prose must come back as content"
    );
    let mut g = c.benchmark_group("prose_1mb");
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("extract_auto", |b| {
        b.iter(|| extract(black_box(&text), &opts))
    });
    // Baseline: the cheapest possible full pass over the same bytes.
    g.bench_function("baseline_memchr", |b| {
        b.iter(|| memchr::memchr(b'\0', black_box(text.as_bytes())))
    });
    // Baseline: copying the text into a new `String`, which any API that returns the prose as
    // owned `content` pays (allocation and page faults included).
    g.bench_function("baseline_to_owned", |b| {
        b.iter(|| black_box(&text).to_owned())
    });
    g.finish();
}

fn typical(c: &mut Criterion) {
    let cases: &[(&str, &str, &str)] = &[
        (
            "hermes_one_call",
            "I'll list the files.\n<tool_call>\n{\"name\": \"ls\", \"arguments\": {\"path\": \"src\"}}\n</tool_call>",
            "ls",
        ),
        (
            "qwen3_coder_xml",
            "<tool_call>\n<function=read>\n<parameter=path>\nsrc/main.rs\n</parameter>\n</function>\n</tool_call>",
            "read",
        ),
        (
            "gemma4",
            "<|tool_call>call:grep{pattern:<|\"|>fn main<|\"|>,path:<|\"|>src<|\"|>}<tool_call|>",
            "grep",
        ),
        (
            "bare_json_in_prose",
            "Sure, calling it now: {\"name\": \"glob\", \"arguments\": {\"pattern\": \"**/*.rs\"}} and then I will report back.",
            "glob",
        ),
        (
            "think_then_call",
            "<think>The user wants the README. I should read it.</think>\n<tool_call>\n{\"name\": \"read\", \"arguments\": {\"path\": \"README.md\"}}\n</tool_call>",
            "read",
        ),
    ];
    let opts = Options::default();
    let mut g = c.benchmark_group("typical");
    for (name, text, tool) in cases {
        let x = extract(text, &opts);
        assert_eq!(x.calls.len(), 1, "{name}");
        assert_eq!(x.calls[0].name, *tool, "{name}");
        assert!(x.calls[0].arguments.is_ok(), "{name}");
        g.bench_function(*name, |b| b.iter(|| extract(black_box(text), &opts)));
    }
    g.finish();
}

criterion_group!(benches, scan, typical);
criterion_main!(benches);
