//! Read-only calls of one turn run concurrently through the dispatch path; every other call runs
//! alone and in order. Concurrency is shown without timing: the two read-only tools meet at a
//! two-party barrier, which only completes when both calls are running at once (run one after
//! the other, the first would wait until its guard gives up and the call would fail).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use toolmend::agent::{Agent, AgentEvent, AgentOptions, DispatchToolbox, EndReason};
use toolmend::backend::scripted::{ScriptedBackend, ScriptedTurn};
use toolmend::dispatch::{Dispatcher, Policy};
use toolmend::tools::{Annotations, Failure, Output, Registry, ToolContext, TypedTool, typed};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct KeyArgs {
    /// Which entry to look up.
    key: String,
}

/// A read-only lookup that waits for a second lookup to be running at the same time.
struct Meet {
    name: &'static str,
    barrier: Arc<tokio::sync::Barrier>,
    log: Arc<Mutex<Vec<String>>>,
}

impl TypedTool for Meet {
    type Args = KeyArgs;
    fn name(&self) -> &str {
        self.name
    }
    fn description(&self) -> &str {
        "Looks a key up (read-only)."
    }
    fn annotations(&self) -> Annotations {
        Annotations::READ_ONLY
    }
    async fn run(&self, _ctx: &ToolContext, args: KeyArgs) -> Result<Output, Failure> {
        self.log
            .lock()
            .unwrap()
            .push(format!("start {}", self.name));
        let met = tokio::time::timeout(Duration::from_secs(2), self.barrier.wait()).await;
        self.log.lock().unwrap().push(format!("end {}", self.name));
        match met {
            Ok(_) => Ok(Output::text(format!("{}={}", self.name, args.key))),
            Err(_) => Ok(Output::text("ran alone")),
        }
    }
}

/// A tool that changes something: it must run alone, after the lookups before it.
struct Note {
    log: Arc<Mutex<Vec<String>>>,
}

impl TypedTool for Note {
    type Args = KeyArgs;
    fn name(&self) -> &str {
        "note"
    }
    fn description(&self) -> &str {
        "Writes a note (not read-only)."
    }
    async fn run(&self, _ctx: &ToolContext, args: KeyArgs) -> Result<Output, Failure> {
        self.log.lock().unwrap().push("note".into());
        Ok(Output::text(format!("noted {}", args.key)))
    }
}

fn run(turns: Vec<ScriptedTurn>) -> (toolmend::agent::Transcript, Vec<AgentEvent>, Vec<String>) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let barrier = Arc::new(tokio::sync::Barrier::new(2));
    let registry = Registry::new();
    for name in ["left", "right"] {
        registry
            .register(typed(Meet {
                name,
                barrier: barrier.clone(),
                log: log.clone(),
            }))
            .unwrap();
    }
    registry.register(typed(Note { log: log.clone() })).unwrap();
    let tools = DispatchToolbox::new(Dispatcher::new(registry, Policy::default()));
    let mut agent = Agent::new(ScriptedBackend::new(turns), tools, AgentOptions::default());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut events = Vec::new();
    let t = rt.block_on(agent.run("Look both up.", &mut |e| events.push(e.clone())));
    let log = log.lock().unwrap().clone();
    (t, events, log)
}

fn call(name: &str, key: &str) -> String {
    json!({"name": name, "arguments": {"key": key}}).to_string()
}

#[test]
fn read_only_calls_of_one_turn_run_concurrently_and_report_in_call_order() {
    let turn = format!(
        "{}\n{}\n{}",
        call("left", "a"),
        call("right", "b"),
        call("note", "c")
    );
    let (t, events, log) = run(vec![turn.into(), "Done.".into()]);
    assert_eq!(t.end, EndReason::Answered);
    let calls = &t.turns[0].calls;
    let outputs: Vec<&str> = calls.iter().map(|c| c.result.output.as_str()).collect();
    assert_eq!(outputs, ["left=a", "right=b", "noted c"]);
    // Both lookups started before either ended; the note ran after both.
    assert_eq!(
        log[..2].iter().filter(|l| l.starts_with("start")).count(),
        2,
        "{log:?}"
    );
    assert_eq!(log.last().map(String::as_str), Some("note"), "{log:?}");
    // Both ToolStart events come before the first ToolEnd; ends are in call order.
    let order: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::ToolStart { name, .. } => Some(format!("start {name}")),
            AgentEvent::ToolEnd { name, .. } => Some(format!("end {name}")),
            _ => None,
        })
        .collect();
    assert_eq!(
        order,
        [
            "start left",
            "start right",
            "end left",
            "end right",
            "start note",
            "end note"
        ]
    );
}

#[test]
fn a_lookup_alone_in_its_turn_runs_alone() {
    // Without a partner the barrier never completes: the guard gives up, which shows the call
    // was not held back waiting for calls of a later turn.
    let (t, _, log) = run(vec![call("left", "a").into(), "Done.".into()]);
    assert_eq!(t.turns[0].calls[0].result.output, "ran alone");
    assert_eq!(log, ["start left", "end left"]);
}

/// A tool that takes `ms` milliseconds to run.
struct Slow {
    ms: u64,
}

impl TypedTool for Slow {
    type Args = KeyArgs;
    fn name(&self) -> &str {
        "slow"
    }
    fn description(&self) -> &str {
        "Takes its time."
    }
    async fn run(&self, _ctx: &ToolContext, args: KeyArgs) -> Result<Output, Failure> {
        tokio::time::sleep(Duration::from_millis(self.ms)).await;
        Ok(Output::text(args.key))
    }
}

#[test]
fn the_tools_run_time_is_counted_apart_from_toolmends_own_time() {
    let registry = Registry::new();
    registry.register(typed(Slow { ms: 400 })).unwrap();
    let tools = DispatchToolbox::new(Dispatcher::new(registry, Policy::default()));
    let turns: Vec<ScriptedTurn> = vec![call("slow", "a").into(), "Done.".into()];
    let mut agent = Agent::new(ScriptedBackend::new(turns), tools, AgentOptions::default());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let t = rt.block_on(agent.run("Go.", &mut |_| {}));
    assert_eq!(t.end, EndReason::Answered);
    let timing = t.stats.timing;
    assert!(timing.tools_ms >= 400.0, "{timing:?}");
    // Dispatch bookkeeping (lookup, decode, policy, the loop's records) is far below the tool's
    // 400 ms; the bound is loose for a loaded machine.
    assert!(timing.dispatch_ms < 200.0, "{timing:?}");
    assert_eq!(t.turns[0].timing.tools_ms, timing.tools_ms);
}
