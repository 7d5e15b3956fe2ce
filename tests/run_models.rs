//! Whole tool loops with real models through the embedded llama.cpp backend (feature `llama`):
//! SmolLM2-135M for the loop's mechanics and its no-call paths, and the default Qwen2.5-Coder-0.5B
//! through at least one real tool call on a copy of `examples/workspace`.
//!
//! Each test skips cleanly (prints a note, passes) when its model file is absent; fetch them with
//! `scripts/fetch-models smollm2:135m qwen2.5-coder:0.5b`. One thread each, one test at a time.
//! Assertions are on the transcript's structure (events in order, every call dispatched or refused
//! with a reason, nothing invented), never on the model's wording. Timings are printed, not
//! asserted.
#![cfg(feature = "llama")]

use std::path::Path;
use std::sync::Mutex;

use toolmend::agent::{
    Agent, AgentEvent, AgentOptions, DispatchToolbox, EndReason, Toolbox, Transcript,
};
use toolmend::backend::llama::{LlamaBackend, LlamaOptions};
use toolmend::backend::{GenerateOptions, models};

/// Real-model tests run one at a time (2 shared cores; 1 thread each).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn load(name: &str) -> Option<LlamaBackend> {
    if let Err(e) = models::resolve(name) {
        eprintln!("SKIP: {e}");
        return None;
    }
    let options = LlamaOptions {
        threads: 1,
        ctx: 4096,
        ..LlamaOptions::default()
    };
    let backend = LlamaBackend::load(name, options, |_| {}).expect("the model loads");
    eprintln!("{name}: loaded in {:.0} ms", backend.info().load_ms);
    Some(backend)
}

fn copy_workspace(to: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/workspace");
    for entry in walkdir::WalkDir::new(&from) {
        let entry = entry.unwrap();
        let rel = entry.path().strip_prefix(&from).unwrap();
        let dest = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else {
            std::fs::copy(entry.path(), &dest).unwrap();
        }
    }
}

fn run(
    backend: LlamaBackend,
    root: &Path,
    prompt: &str,
    turns: u32,
    max_tokens: u32,
) -> (Transcript, Vec<AgentEvent>) {
    let tools = DispatchToolbox::builtin(root).unwrap();
    let options = AgentOptions {
        max_turns: turns,
        world_retries: 0,
        generate: GenerateOptions {
            max_tokens,
            ..GenerateOptions::default()
        },
        ..AgentOptions::default()
    };
    let mut agent = Agent::new(backend, tools, options);
    let mut events = Vec::new();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let t = rt.block_on(agent.run(prompt, &mut |e| events.push(e.clone())));
    (t, events)
}

/// The structure every run must have, whatever the model wrote.
fn check_structure(t: &Transcript, events: &[AgentEvent], tools: &[String]) {
    assert!(!t.turns.is_empty());
    assert!(matches!(events.last(), Some(AgentEvent::Done { .. })));
    // Calls that run concurrently start together; their ends follow in call order.
    let mut open = std::collections::VecDeque::new();
    for e in events {
        match e {
            AgentEvent::ToolStart { id, .. } => open.push_back(id.clone()),
            AgentEvent::ToolEnd { id, .. } => assert_eq!(open.pop_front().as_ref(), Some(id)),
            _ => {}
        }
    }
    assert!(open.is_empty());
    let chunks: String = events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::Chunk { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    let raws: String = t.turns.iter().map(|t| t.raw.as_str()).collect();
    assert_eq!(chunks, raws, "every turn's raw output is kept");
    for turn in &t.turns {
        for c in &turn.calls {
            // Nothing invented: the call's name is in the text the model wrote (or was native).
            assert!(
                c.native || turn.raw.contains(&c.name),
                "call {} not in {:?}",
                c.name,
                turn.raw
            );
            // Dispatched, or refused with a reason.
            match &c.result.failure {
                None => assert!(tools.contains(&c.name)),
                Some(f) => assert!(!f.message.is_empty()),
            }
            assert!(!c.feedback.is_empty());
        }
    }
    let s = &t.stats;
    eprintln!(
        "end: {:?}; turns {}; calls {} ({} failed); prompt {:.0} tok/s; generation {:.1} tok/s; toolmend {:.3} ms = {:.4}% of generation",
        t.end,
        s.turns,
        s.calls,
        s.failed_calls,
        s.prompt_tps().unwrap_or(0.0),
        s.generation_tps().unwrap_or(0.0),
        s.timing.extract_ms + s.timing.dispatch_ms,
        s.timing.overhead_share().unwrap_or(0.0) * 100.0
    );
    for turn in &t.turns {
        eprintln!("turn {} raw: {:?}", turn.turn, turn.raw);
    }
}

#[test]
fn smollm2_runs_whole_loops_without_inventing_calls() {
    let _guard = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let Some(backend) = load("smollm2:135m") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    copy_workspace(dir.path());
    let names = DispatchToolbox::builtin(dir.path())
        .unwrap()
        .defs()
        .into_iter()
        .map(|d| d.name)
        .collect::<Vec<_>>();
    let (t, events) = run(backend, dir.path(), "What is the capital of France?", 2, 48);
    check_structure(&t, &events, &names);
    assert!(t.turns.len() <= 2);
    assert_ne!(t.end, EndReason::BackendError, "{:?}", t.error);
}

#[test]
fn qwen_runs_a_whole_loop_through_real_tool_calls() {
    let _guard = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let Some(backend) = load(models::DEFAULT) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    copy_workspace(dir.path());
    let names = DispatchToolbox::builtin(dir.path())
        .unwrap()
        .defs()
        .into_iter()
        .map(|d| d.name)
        .collect::<Vec<_>>();
    let (t, events) = run(
        backend,
        dir.path(),
        "List the files in this folder, then read the first one.",
        4,
        160,
    );
    check_structure(&t, &events, &names);
    assert_ne!(t.end, EndReason::BackendError, "{:?}", t.error);
    assert!(
        t.stats.calls >= 1,
        "the default model made at least one call"
    );
}
