//! Runs every case in `corpus/dispatch/` (format in its README) through the dispatch path over
//! the built-in tools.

use std::path::Path;

use serde::Deserialize;
use serde_json::Value;
use toolmend::backend::NativeToolCall;
use toolmend::dispatch::{Dispatcher, Policy};

#[derive(Deserialize)]
struct Case {
    #[allow(dead_code)]
    description: String,
    files: std::collections::BTreeMap<String, String>,
    /// Requests the tools that change files read before any call: the change each offers.
    #[serde(default)]
    asked: Vec<Asked>,
    calls: Vec<Call>,
    expect: Vec<Expect>,
    /// Files whose whole content must be this after the last call.
    #[serde(default)]
    files_after: std::collections::BTreeMap<String, String>,
}

#[derive(Deserialize)]
struct Call {
    name: String,
    arguments: Value,
}

#[derive(Deserialize)]
struct Asked {
    /// The user's request.
    request: String,
    /// The tool asked for the change the request spells out.
    tool: String,
    /// Substrings of the arguments it offers (as compact JSON); empty when it must offer none.
    #[serde(default)]
    contains: Vec<String>,
}

#[derive(Deserialize)]
struct Expect {
    kind: Option<String>,
    cached: Option<bool>,
    #[serde(default)]
    contains: Vec<String>,
    #[serde(default)]
    absent: Vec<String>,
}

async fn run_case(path: &Path) -> Result<(), String> {
    let case: Case = serde_json::from_str(&std::fs::read_to_string(path).unwrap())
        .map_err(|e| format!("bad case file: {e}"))?;
    if case.calls.len() != case.expect.len() {
        return Err("calls and expect differ in length".into());
    }
    let dir = tempfile::tempdir().unwrap();
    for (rel, content) in &case.files {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content).unwrap();
    }
    let mut d = Dispatcher::new(
        toolmend::builtin::registry(dir.path()).unwrap(),
        Policy::default(),
    );
    for (i, a) in case.asked.iter().enumerate() {
        let snap = d.registry().snapshot();
        let entry = snap
            .get(&a.tool)
            .ok_or_else(|| format!("asked {i}: no tool {}", a.tool))?;
        let offered = entry.tool.change_asked(&a.request).map(|v| v.to_string());
        match (&offered, a.contains.is_empty()) {
            (None, true) => {}
            (Some(o), true) => return Err(format!("asked {i}: offered {o}, expected none")),
            (None, false) => return Err(format!("asked {i}: offered nothing")),
            (Some(o), false) => {
                if let Some(s) = a.contains.iter().find(|s| !o.contains(s.as_str())) {
                    return Err(format!("asked {i}: the offer lacks {s:?}: {o}"));
                }
            }
        }
    }
    for (i, (call, want)) in case.calls.into_iter().zip(case.expect).enumerate() {
        let native = NativeToolCall {
            id: None,
            name: call.name,
            arguments: call.arguments,
        };
        let r = d.dispatch(native.into()).await;
        let kind = r.failure.as_ref().map(|f| f.kind().as_str().to_string());
        if kind != want.kind {
            return Err(format!(
                "call {i}: kind {kind:?}, expected {:?}: {}",
                want.kind, r.output
            ));
        }
        if let Some(c) = want.cached
            && c != r.cached
        {
            return Err(format!("call {i}: cached {}, expected {c}", r.cached));
        }
        for s in &want.contains {
            if !r.output.contains(s.as_str()) {
                return Err(format!("call {i}: output lacks {s:?}: {}", r.output));
            }
        }
        for s in &want.absent {
            if r.output.contains(s.as_str()) {
                return Err(format!("call {i}: output contains {s:?}: {}", r.output));
            }
        }
    }
    for (rel, want) in &case.files_after {
        let got = std::fs::read_to_string(dir.path().join(rel))
            .map_err(|e| format!("after the calls, {rel}: {e}"))?;
        if got != *want {
            return Err(format!(
                "after the calls, {rel} holds {got:?}, expected {want:?}"
            ));
        }
    }
    Ok(())
}

#[tokio::test]
async fn corpus_dispatch_cases_pass() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/dispatch");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 6, "the corpus is missing");
    let mut failures = Vec::new();
    for p in &paths {
        if let Err(e) = run_case(p).await {
            failures.push(format!("{}: {e}", p.file_name().unwrap().to_string_lossy()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n")
    );
}
