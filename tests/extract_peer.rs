//! Peer suites (`../shared/peer-suites/extract/*.jsonl`, 1,051 cases from five runtimes' own
//! tests): pass rates per anchor and per family, with the family as the format hint and in
//! auto mode, ratcheted against `tests/extract_peer_baseline.json` (a case that passed there must
//! still pass). `TOOLMEND_UPDATE_BASELINE=1` rewrites the baseline; `TOOLMEND_PEER_DUMP=FILE`
//! writes every failing case with what was returned. Skips cleanly when the folder is absent.
//! Also: for every case, a `StreamExtractor` fed one char at a time gives the one-shot result.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use toolmend::extract::{
    Event, Extraction, FormatHint, Options, StreamExtractor, ToolInfo, extract,
};

const ANCHORS: &[&str] = &["llama.cpp", "vllm", "sglang", "ollama", "mistral.rs"];

fn suite_dir() -> Option<PathBuf> {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/peer-suites/extract");
    d.is_dir().then_some(d)
}

struct Case {
    anchor: &'static str,
    v: Value,
}

fn load() -> Option<Vec<Case>> {
    let Some(dir) = suite_dir() else {
        eprintln!("note: ../shared/peer-suites/extract not found; peer-suite test skipped");
        return None;
    };
    let mut out = Vec::new();
    for a in ANCHORS {
        let text = std::fs::read_to_string(dir.join(format!("{a}.jsonl"))).expect("readable suite");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            out.push(Case {
                anchor: a,
                v: serde_json::from_str(line).expect("suite line is JSON"),
            });
        }
    }
    infer_tools(&mut out);
    Some(out)
}

/// SGLang's detectors and Ollama's parsers are always built with the test's tool list (a
/// `setUp` / `tools` fixture), which the suites do not carry. For those anchors a case without
/// `tools` gets the names that the cases of its own test file call (no schemas), so a call to
/// a name the test never defined is judged as the anchor judged it: unknown.
fn infer_tools(cases: &mut [Case]) {
    let file = |c: &Case| {
        let s = c.v["source"].as_str().unwrap_or_default();
        s.rsplit_once(':').map_or(s, |(f, _)| f).to_owned()
    };
    let mut names: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for c in cases.iter() {
        for e in c.v["expected_calls"].as_array().into_iter().flatten() {
            if let Some(n) = e["name"].as_str() {
                names.entry(file(c)).or_default().insert(n.to_owned());
            }
        }
    }
    for c in cases.iter_mut() {
        if matches!(c.anchor, "sglang" | "ollama")
            && c.v
                .get("tools")
                .is_none_or(|t| t.as_array().is_none_or(Vec::is_empty))
            && let Some(ns) = names.get(&file(c))
        {
            c.v["tools"] = ns.iter().map(|n| json!({"name": n})).collect();
        }
    }
}

fn options(c: &Value, hinted: bool) -> Options {
    let mut o = Options::new();
    if hinted && let Ok(h) = c["family"].as_str().unwrap_or("auto").parse::<FormatHint>() {
        o = o.with_format(h);
    }
    if let Some(ts) = c.get("tools").and_then(Value::as_array) {
        let tools: Vec<ToolInfo> = ts
            .iter()
            .filter_map(|t| serde_json::from_value(t.clone()).ok())
            .collect();
        if !tools.is_empty() {
            o = o.with_tools(tools);
        }
    }
    if c["partial"] == json!(true) {
        o = o.with_partial(true);
    }
    // vLLM's tool parsers return only the text before the first call.
    if c["source"]
        .as_str()
        .is_some_and(|s| s.starts_with("vllm-project/"))
    {
        o = o.with_drop_text_after_calls(true);
    }
    let ctx = &c["context"];
    if ctx["think_prefilled"] == json!(true) {
        o = o.with_think_prefilled(true);
    }
    // llama.cpp's `reasoning_format: none` keeps think blocks in the content (its tests run
    // without a reasoning format unless they set one).
    let rf = ctx["reasoning_format"].as_str();
    if matches!(rf, Some("none" | "COMMON_REASONING_FORMAT_NONE"))
        || ctx["reasoning_in_content"] == json!(true)
        || (ctx.is_object() && rf.is_none() && c["id"].as_str().is_some_and(|i| i.starts_with("llama.cpp:")))
        // vLLM's tool-parser tests and Ollama's `tools` package run without a reasoning parser.
        || c["source"].as_str().is_some_and(|s| {
            s.starts_with("vllm-project/") || s.contains(" tools/tools_test.go")
        })
    {
        o = o.with_reasoning_in_content(true);
    }
    o
}

/// JSON equality with numbers compared as numbers and strings holding JSON compared parsed.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::String(s), other @ (Value::Object(_) | Value::Array(_)))
        | (other @ (Value::Object(_) | Value::Array(_)), Value::String(s)) => {
            serde_json::from_str::<Value>(s).is_ok_and(|p| same(&p, other))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// `match: subset`: the listed keys, at every level of nesting, hold the listed values (the
/// anchors assert nested keys one by one).
fn subset(exp: &Value, got: &Value) -> bool {
    match (exp, got) {
        (Value::Object(x), Value::Object(y)) => x
            .iter()
            .all(|(k, v)| y.get(k).is_some_and(|w| subset(v, w))),
        _ => same(exp, got),
    }
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The README's scoring: `Ok(())` or why the case fails.
fn score(c: &Value, x: &Extraction) -> Result<(), String> {
    let exp = c["expected_calls"].as_array().cloned().unwrap_or_default();
    let got: Vec<(String, Value)> = x
        .calls
        .iter()
        .map(|k| (k.name.clone(), k.arguments.clone().unwrap_or(Value::Null)))
        .collect();
    let mode = c.get("match").and_then(Value::as_str);
    if exp.is_empty() {
        if !got.is_empty() {
            return Err(format!("false call(s): {got:?}"));
        }
    } else {
        match mode {
            Some("names_only") => {
                let mut a: Vec<&str> = exp.iter().filter_map(|e| e["name"].as_str()).collect();
                let mut b: Vec<&str> = got.iter().map(|g| g.0.as_str()).collect();
                a.sort_unstable();
                b.sort_unstable();
                if a != b {
                    return Err(format!("names {b:?} != {a:?}"));
                }
            }
            Some("partial") => {
                for e in &exp {
                    if let Some(n) = e["name"].as_str()
                        && !got.iter().any(|g| g.0 == n)
                    {
                        return Err(format!("missing {n}; got {got:?}"));
                    }
                }
            }
            _ => {
                if exp.len() != got.len() {
                    return Err(format!(
                        "{} calls, expected {}: {got:?}",
                        got.len(),
                        exp.len()
                    ));
                }
                for (e, g) in exp.iter().zip(&got) {
                    if e["name"].as_str() != Some(g.0.as_str()) {
                        return Err(format!("name {} != {}", g.0, e["name"]));
                    }
                    if e.get("arguments_raw").is_some() && e["arguments"].is_null() {
                        continue;
                    }
                    if mode == Some("subset") {
                        if let Some(o) = e["arguments"].as_object() {
                            for (k, v) in o {
                                if !g.1.get(k).is_some_and(|w| subset(v, w)) {
                                    return Err(format!("arg {k}: {:?} != {v}", g.1.get(k)));
                                }
                            }
                        }
                    } else if !same(&e["arguments"], &g.1) {
                        return Err(format!("args {} != {}", g.1, e["arguments"]));
                    }
                }
            }
        }
    }
    if mode.is_none()
        && let Some(ec) = c["expected_content"].as_str()
        && squash(ec) != squash(&x.content)
    {
        return Err(format!("content {:?} != {:?}", x.content, ec));
    }
    Ok(())
}

/// mistral.rs's `partial` cases ask its streaming parser what it has reported before the output
/// ends (a call counts once its envelope is complete), unlike llama.cpp's, which parse the prefix
/// as a partial answer. The same question put to a [`StreamExtractor`]: the events so far.
fn streamed_so_far(text: &str, opts: &Options) -> Extraction {
    let mut s = StreamExtractor::new(opts);
    let mut x = Extraction::default();
    for e in s.push(text) {
        match e {
            Event::Content(t) => x.content.push_str(&t),
            Event::Call(k) => x.calls.push(k),
            Event::Rejected(r) => x.rejected.push(r),
            _ => {}
        }
    }
    x.content = x.content.trim().to_owned();
    x
}

#[derive(Default)]
struct Tally {
    by_anchor: BTreeMap<String, (usize, usize)>,
    by_family: BTreeMap<String, (usize, usize)>,
    passed: BTreeSet<String>,
    total: (usize, usize),
    false_calls: usize,
}

fn run(cases: &[Case], hinted: bool, dump: &mut Vec<Value>) -> Tally {
    let mut t = Tally::default();
    for c in cases {
        let id = c.v["id"].as_str().unwrap_or_default().to_owned();
        let text = c.v["input"].as_str().unwrap_or_default();
        let x = if c.anchor == "mistral.rs" && c.v["partial"] == json!(true) {
            streamed_so_far(text, &options(&c.v, hinted).with_partial(false))
        } else {
            extract(text, &options(&c.v, hinted))
        };
        let r = score(&c.v, &x);
        let ok = r.is_ok();
        if c.v["expected_calls"].as_array().is_some_and(Vec::is_empty) && !x.calls.is_empty() {
            t.false_calls += 1;
        }
        for (map, key) in [
            (&mut t.by_anchor, c.anchor.to_owned()),
            (
                &mut t.by_family,
                c.v["family"].as_str().unwrap_or("?").to_owned(),
            ),
        ] {
            let e = map.entry(key).or_default();
            e.1 += 1;
            e.0 += usize::from(ok);
        }
        t.total.1 += 1;
        t.total.0 += usize::from(ok);
        if ok {
            t.passed.insert(id);
        } else if let Err(why) = r {
            dump.push(json!({"mode": if hinted {"hint"} else {"auto"}, "id": id, "family": c.v["family"], "why": why,
                "input": c.v["input"], "expected_calls": c.v["expected_calls"], "expected_content": c.v["expected_content"],
                "got": serde_json::to_value(&x).unwrap()}));
        }
    }
    t
}

fn pct(p: (usize, usize)) -> f64 {
    if p.1 == 0 {
        100.0
    } else {
        100.0 * p.0 as f64 / p.1 as f64
    }
}

fn print(name: &str, t: &Tally) {
    eprintln!(
        "== {name}: {}/{} = {:.1}% (false calls on no-call cases: {})",
        t.total.0,
        t.total.1,
        pct(t.total),
        t.false_calls
    );
    for (a, p) in &t.by_anchor {
        eprintln!("  anchor {a:<12} {:>4}/{:<4} {:5.1}%", p.0, p.1, pct(*p));
    }
    for (f, p) in &t.by_family {
        eprintln!("  family {f:<24} {:>4}/{:<4} {:5.1}%", p.0, p.1, pct(*p));
    }
}

#[test]
fn peer_suites_ratchet() {
    let Some(cases) = load() else { return };
    let mut dump = Vec::new();
    let hint = run(&cases, true, &mut dump);
    let auto = run(&cases, false, &mut dump);
    print("family hint", &hint);
    print("auto", &auto);
    if let Ok(p) = std::env::var("TOOLMEND_PEER_DUMP") {
        let lines: Vec<String> = dump.iter().map(Value::to_string).collect();
        std::fs::write(p, lines.join("\n")).expect("dump written");
    }
    let base_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/extract_peer_baseline.json");
    let now = json!({"hint": hint.passed, "auto": auto.passed});
    if std::env::var("TOOLMEND_UPDATE_BASELINE").is_ok() {
        std::fs::write(
            &base_path,
            serde_json::to_string_pretty(&now).unwrap() + "\n",
        )
        .expect("baseline written");
        return;
    }
    let base: Value =
        serde_json::from_str(&std::fs::read_to_string(&base_path).expect("baseline present"))
            .expect("baseline JSON");
    let mut lost = Vec::new();
    for (mode, t) in [("hint", &hint), ("auto", &auto)] {
        for id in base[mode]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            if !t.passed.contains(id) {
                lost.push(format!("{mode}:{id}"));
            }
        }
        let gained = t
            .passed
            .iter()
            .filter(|id| {
                !base[mode]
                    .as_array()
                    .is_some_and(|a| a.iter().any(|x| x == *id))
            })
            .count();
        if gained > 0 {
            eprintln!(
                "{mode}: {gained} case(s) pass that the baseline does not list; run with TOOLMEND_UPDATE_BASELINE=1"
            );
        }
    }
    assert!(
        lost.is_empty(),
        "regressions against the baseline: {lost:?}"
    );
}

/// Streaming one char at a time ends in the one-shot result, and what it reported on the way
/// agrees with it (content is a prefix, calls in order).
#[test]
fn peer_suites_stream_equals_one_shot() {
    let Some(cases) = load() else { return };
    let mut bad = Vec::new();
    for c in &cases {
        for hinted in [true, false] {
            let text = c.v["input"].as_str().unwrap_or_default();
            let opts = options(&c.v, hinted);
            let one = extract(text, &opts);
            let mut s = StreamExtractor::new(&opts);
            let mut content = String::new();
            let mut calls = Vec::new();
            let mut buf = [0u8; 4];
            for ch in text.chars() {
                for e in s.push(ch.encode_utf8(&mut buf)) {
                    match e {
                        Event::Content(t) => content.push_str(&t),
                        Event::Call(k) => calls.push(k),
                        _ => {}
                    }
                }
            }
            let (held, fin) = s.finish_with_events();
            let id = c.v["id"].as_str().unwrap_or_default();
            // Everything in order: the events `push` gave and the ones `finish` held.
            let (mut all_content, mut all_calls) = (content.clone(), calls.clone());
            for e in held {
                match e {
                    Event::Content(t) => all_content.push_str(&t),
                    Event::Call(k) => all_calls.push(k),
                    _ => {}
                }
            }
            if all_content.trim() != one.content || all_calls != one.calls {
                bad.push(format!(
                    "{id} (hint={hinted}): events in order do not make the result: content {all_content:?}, {} calls",
                    all_calls.len()
                ));
            }
            if fin != one {
                bad.push(format!(
                    "{id} (hint={hinted}): finish differs\n  one: {one:?}\n  fin: {fin:?}"
                ));
            } else if !one.content.starts_with(content.trim())
                || calls.len() > one.calls.len()
                || calls.iter().zip(&one.calls).any(|(a, b)| a != b)
            {
                bad.push(format!(
                    "{id} (hint={hinted}): streamed events disagree: content {content:?}, {} calls",
                    calls.len()
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{} case(s):\n{}", bad.len(), bad.join("\n"));
}

/// The acceptance runs the suites through `toolmend extract --jsonl`: every case (both modes)
/// sent through the CLI, with the same options as a JSON line, comes back as exactly the library's
/// result, so the pass rates above are the CLI's.
#[test]
fn peer_suites_through_the_cli() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    use toolmend::extract::FormatHint;

    let Some(cases) = load() else { return };
    let mut lines = Vec::new();
    let mut want = Vec::new();
    for c in &cases {
        for hinted in [true, false] {
            let text = c.v["input"].as_str().unwrap_or_default();
            let o = options(&c.v, hinted);
            let format = match o.format {
                FormatHint::Family(f) => f.to_string(),
                _ => "auto".to_owned(),
            };
            lines.push(
                json!({"text": text, "format": format, "tools": o.tools,
                    "think_prefilled": o.think_prefilled, "reasoning_in_content": o.reasoning_in_content,
                    "partial": o.partial, "drop_text_after_calls": o.drop_text_after_calls})
                .to_string(),
            );
            want.push(serde_json::to_value(extract(text, &o)).unwrap());
        }
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolmend"))
        .args(["extract", "--jsonl"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("toolmend runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = lines.join("\n") + "\n";
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("toolmend ends");
    writer.join().unwrap().expect("stdin written");
    let got: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(got.len(), want.len());
    let differ: Vec<usize> = (0..got.len()).filter(|&i| got[i] != want[i]).collect();
    assert!(
        differ.is_empty(),
        "{} line(s) differ, first: {} -> {}",
        differ.len(),
        lines[differ[0]],
        got[differ[0]]
    );
}
