//! Runs every extract corpus case (`corpus/extract/<family>/<case>.txt`): the calls (names and
//! arguments), the content, the reasoning and the rejected names, plus the invariants on every
//! case: spans lie in the input on char boundaries, and a `StreamExtractor` fed one char at a
//! time (and in chunks of 2 to 8 bytes) ends in the one-shot result.
//!
//! A case file is a one-line JSON header, then the input and the expected result:
//!
//! ```text
//! {"note": "why this case exists", "format": "auto", "tools": [...]?, "think_prefilled": true?, "partial": true?,
//!  "drop_text_after_calls": true?, "reasoning_in_content": true?}
//! --- input
//! <tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>
//! --- expected
//! {"calls": [{"name": "f", "arguments": {"a": 1}, "format"?: "hermes"}], "content": "", "reasoning"?: "",
//!  "rejected"?: ["name" | {"name": "f", "reason"?: "cut_off", "format"?: "hermes", "says"?: "…"}]}
//! ```
//! `content`, `reasoning`, `rejected` and a call's `format` are checked only when present; a
//! rejected entry written as an object also checks the reason (`unknown_tool`, `no_arguments`, `too_many_values`,
//! `cut_off`), the format, and text the reason's message must contain (`says`) when it gives them. A call written `{"name": "f", "error": true}` is
//! expected with arguments that could not be read (`Err`).

use std::path::{Path, PathBuf};

use serde_json::Value;
use toolmend::extract::{Extraction, Options, RejectReason, StreamExtractor, ToolInfo, extract};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("corpus folder readable") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "txt") {
            out.push(p);
        }
    }
}

fn parse(path: &Path) -> (Value, String, Value) {
    let text = std::fs::read_to_string(path).expect("case readable");
    let (header, rest) = text.split_once("\n--- input\n").expect("--- input");
    let (input, expected) = rest.rsplit_once("\n--- expected\n").expect("--- expected");
    (
        serde_json::from_str(header).expect("header JSON"),
        input.to_owned(),
        serde_json::from_str(expected.trim_end()).expect("expected JSON"),
    )
}

fn options(h: &Value) -> Options {
    let mut o = Options::new().with_format(
        h["format"]
            .as_str()
            .unwrap_or("auto")
            .parse()
            .expect("format name"),
    );
    if let Some(t) = h.get("tools") {
        let tools: Vec<ToolInfo> = serde_json::from_value(t.clone()).expect("tools");
        o = o.with_tools(tools);
    }
    o.with_think_prefilled(h["think_prefilled"] == Value::Bool(true))
        .with_partial(h["partial"] == Value::Bool(true))
        .with_drop_text_after_calls(h["drop_text_after_calls"] == Value::Bool(true))
        .with_reasoning_in_content(h["reasoning_in_content"] == Value::Bool(true))
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn check(input: &str, exp: &Value, x: &Extraction) -> Result<(), String> {
    let calls = exp["calls"].as_array().cloned().unwrap_or_default();
    if calls.len() != x.calls.len() {
        return Err(format!(
            "{} calls, expected {}: {:?}",
            x.calls.len(),
            calls.len(),
            x.calls
        ));
    }
    for (e, g) in calls.iter().zip(&x.calls) {
        if let Some(f) = e["format"].as_str()
            && f != g.format.to_string()
        {
            return Err(format!("{} has format {}, expected {f}", g.name, g.format));
        }
        if e["error"] == Value::Bool(true) {
            // A call kept with arguments that could not be read.
            if e["name"].as_str() != Some(g.name.as_str()) || g.arguments.is_ok() {
                return Err(format!(
                    "got {}({:?}), expected {} with unreadable arguments",
                    g.name, g.arguments, e["name"]
                ));
            }
            continue;
        }
        let args = g.arguments.clone().map_err(|e| e.to_string())?;
        if e["name"].as_str() != Some(g.name.as_str()) || !same(&e["arguments"], &args) {
            return Err(format!(
                "got {}({args}), expected {}({})",
                g.name, e["name"], e["arguments"]
            ));
        }
    }
    if let Some(c) = exp["content"].as_str()
        && c != x.content
    {
        return Err(format!("content {:?}, expected {c:?}", x.content));
    }
    if let Some(r) = exp["reasoning"].as_str()
        && r != x.reasoning
    {
        return Err(format!("reasoning {:?}, expected {r:?}", x.reasoning));
    }
    if let Some(r) = exp["rejected"].as_array() {
        let got: Vec<&str> = x.rejected.iter().map(|r| r.name.as_str()).collect();
        let want: Vec<&str> = r
            .iter()
            .filter_map(|w| w.as_str().or_else(|| w["name"].as_str()))
            .collect();
        if got != want {
            return Err(format!("rejected {got:?}, expected {want:?}"));
        }
        for (w, g) in r.iter().zip(&x.rejected) {
            let reason = match g.reason {
                RejectReason::UnknownTool { .. } => "unknown_tool",
                RejectReason::NoArguments { .. } => "no_arguments",
                RejectReason::CutOff { .. } => "cut_off",
                RejectReason::TooManyValues { .. } => "too_many_values",
                _ => "other",
            };
            if let Some(want) = w["reason"].as_str()
                && want != reason
            {
                return Err(format!("{} rejected as {reason}, expected {want}", g.name));
            }
            if let Some(says) = w["says"].as_str()
                && !g.reason.to_string().contains(says)
            {
                return Err(format!(
                    "{} rejected with message {:?}, expected it to say {says:?}",
                    g.name,
                    g.reason.to_string()
                ));
            }
            if let Some(f) = w["format"].as_str()
                && f != g.format.to_string()
            {
                return Err(format!(
                    "{} rejected with format {}, expected {f}",
                    g.name, g.format
                ));
            }
        }
    }
    for s in x
        .calls
        .iter()
        .map(|c| &c.span)
        .chain(x.rejected.iter().map(|r| &r.span))
    {
        if s.start > s.end
            || s.end > input.len()
            || !input.is_char_boundary(s.start)
            || !input.is_char_boundary(s.end)
        {
            return Err(format!("span {s:?} out of bounds or off a char boundary"));
        }
    }
    Ok(())
}

fn streamed(input: &str, opts: &Options, chunk: usize) -> Extraction {
    let mut s = StreamExtractor::new(opts);
    let mut i = 0;
    while i < input.len() {
        let mut j = (i + chunk).min(input.len());
        while !input.is_char_boundary(j) {
            j += 1;
        }
        let _ = s.push(&input[i..j]);
        i = j;
    }
    s.finish()
}

#[test]
fn extract_corpus() {
    let mut paths = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/extract"),
        &mut paths,
    );
    paths.sort();
    assert!(
        paths.len() >= 60,
        "corpus/extract has {} cases",
        paths.len()
    );
    let mut bad = Vec::new();
    for p in &paths {
        let (h, input, exp) = parse(p);
        let opts = options(&h);
        let x = extract(&input, &opts);
        if let Err(why) = check(&input, &exp, &x) {
            bad.push(format!("{}: {why}", p.display()));
            continue;
        }
        for chunk in 1..=8 {
            if streamed(&input, &opts, chunk) != x {
                bad.push(format!(
                    "{}: streaming in chunks of {chunk} differs from one-shot",
                    p.display()
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} cases fail:\n{}",
        bad.len(),
        paths.len(),
        bad.join("\n")
    );
}
