//! The dispatch path end to end: every failure kind, the retry budget, timeouts, panics,
//! parallel versus exclusive ordering, memo invalidation, duplicate detection, registry snapshots,
//! and native versus extracted calls producing identical results.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use toolmend::backend::NativeToolCall;
use toolmend::dispatch::{Dispatcher, Policy};
use toolmend::tools::{
    Annotations, BoxFuture, Effect, Failure, FailureKind, Fault, Output, OutputFormat, Registry,
    Tool, ToolCall, ToolContext, ToolResult, ToolSpec, TypedTool, typed,
};

/// A scriptable tool: what it does is a closure of (args, attempt).
type Behaviour = dyn Fn(Value, u32) -> BoxFuture<'static, Result<Output, Failure>> + Send + Sync;

struct Probe {
    spec: ToolSpec,
    runs: Arc<AtomicU32>,
    behaviour: Arc<Behaviour>,
}

impl Tool for Probe {
    fn spec(&self) -> ToolSpec {
        self.spec.clone()
    }
    fn call<'a>(
        &'a self,
        ctx: &'a ToolContext,
        args: Value,
    ) -> BoxFuture<'a, Result<Output, Failure>> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        (self.behaviour)(args, ctx.attempt)
    }
}

fn object_schema() -> Value {
    json!({"type": "object", "properties": {"path": {"type": "string"}, "n": {"type": "integer"}}})
}

fn probe(
    name: &str,
    annotations: Annotations,
    behaviour: impl Fn(Value, u32) -> BoxFuture<'static, Result<Output, Failure>>
    + Send
    + Sync
    + 'static,
) -> (Probe, Arc<AtomicU32>) {
    let runs = Arc::new(AtomicU32::new(0));
    let spec = ToolSpec::new(name, format!("test tool {name}"), object_schema())
        .with_annotations(annotations)
        .with_example(json!({"path": "a.txt"}));
    (
        Probe {
            spec,
            runs: Arc::clone(&runs),
            behaviour: Arc::new(behaviour),
        },
        runs,
    )
}

fn ok_text(
    text: &'static str,
) -> impl Fn(Value, u32) -> BoxFuture<'static, Result<Output, Failure>> {
    move |_, _| Box::pin(async move { Ok(Output::text(text)) })
}

fn fast_policy() -> Policy {
    Policy {
        backoff: Duration::from_millis(1),
        ..Policy::default()
    }
}

fn kind(r: &ToolResult) -> Option<FailureKind> {
    r.failure.as_ref().map(Failure::kind)
}

// ---------- model's fault ----------

#[tokio::test]
async fn unknown_tool_lists_known_tools_and_one_example_and_never_runs() {
    let registry = Registry::new();
    let (ls, _) = probe("ls", Annotations::READ_ONLY, ok_text("a.txt"));
    let (read, read_runs) = probe("read", Annotations::READ_ONLY, ok_text("x"));
    registry.register(ls).unwrap();
    registry.register(read).unwrap();
    let mut d = Dispatcher::new(registry, fast_policy());
    let r = d
        .dispatch(ToolCall::new("receive", json!({"path": "a.txt"})))
        .await;
    assert_eq!(kind(&r), Some(FailureKind::UnknownTool));
    assert_eq!(r.failure.as_ref().unwrap().fault(), Fault::Model);
    assert!(r.output.contains("`receive`"), "{}", r.output);
    assert!(r.output.contains("ls, read"), "{}", r.output);
    assert!(
        r.output.contains(r#""arguments":{"path":"a.txt"}"#),
        "{}",
        r.output
    );
    assert_eq!(read_runs.load(Ordering::SeqCst), 0);
    assert_eq!(r.attempts, 0);
}

#[tokio::test]
async fn an_unknown_name_runs_the_read_only_tool_it_clearly_means_unless_the_policy_says_no() {
    let registry = Registry::new();
    let (ls, ls_runs) = probe("ls", Annotations::READ_ONLY, ok_text("a.txt"));
    let (read, read_runs) = probe("read", Annotations::READ_ONLY, ok_text("x"));
    let (write, write_runs) = probe("write", Annotations::default(), ok_text("written"));
    registry.register(ls).unwrap();
    registry.register(read).unwrap();
    registry.register(write).unwrap();
    // Both read-only tools take `{"path"}`: the name's word says which (`test_ls`).
    let mut d = Dispatcher::new(registry.clone(), fast_policy());
    let r = d
        .dispatch(ToolCall::new("test_ls", json!({"path": "docs"})))
        .await;
    assert!(r.is_ok(), "{}", r.output);
    assert_eq!(
        (r.name.as_str(), r.called_as.as_deref()),
        ("ls", Some("test_ls"))
    );
    // With `name`, the call that ran, which the model never wrote.
    assert_eq!(r.ran_with, Some(json!({"path": "docs"})));
    assert_eq!(
        r.output,
        "(No tool is named `test_ls`; this is the result of `ls` with the arguments you sent.)\na.txt"
    );
    assert_eq!(ls_runs.load(Ordering::SeqCst), 1);
    // A name with no sign among several fits, and a name meaning a tool that writes, do not run.
    for name in ["receive", "write_file", "notes write"] {
        let r = d
            .dispatch(ToolCall::new(name, json!({"path": "b.txt"})))
            .await;
        assert_eq!(kind(&r), Some(FailureKind::UnknownTool), "{name}");
        assert_eq!((r.called_as, r.ran_with), (None, None));
    }
    assert_eq!(read_runs.load(Ordering::SeqCst), 0);
    assert_eq!(write_runs.load(Ordering::SeqCst), 0);
    // With the policy off, an unknown name never runs anything.
    let mut d = Dispatcher::new(
        registry,
        Policy {
            run_meant_read_only: false,
            ..fast_policy()
        },
    );
    let r = d
        .dispatch(ToolCall::new("test_ls", json!({"path": "docs"})))
        .await;
    assert_eq!(kind(&r), Some(FailureKind::UnknownTool));
    assert_eq!(ls_runs.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn malformed_text_arguments_get_a_corrective_message_with_an_example() {
    let registry = Registry::new();
    let (t, runs) = probe("read", Annotations::READ_ONLY, ok_text("x"));
    registry.register(t).unwrap();
    let mut d = Dispatcher::new(registry, fast_policy());
    let native = NativeToolCall {
        id: Some("c1".into()),
        name: "read".into(),
        arguments: json!("the file a.txt please"),
    };
    let r = d.dispatch(native.into()).await;
    assert_eq!(kind(&r), Some(FailureKind::Malformed));
    assert!(r.output.contains("A valid call looks like"), "{}", r.output);
    assert_eq!(r.call_id, "c1");
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn invalid_arguments_name_the_field_and_show_a_valid_call() {
    let registry = Registry::new();
    let (t, runs) = probe("read", Annotations::READ_ONLY, ok_text("x"));
    registry.register(t).unwrap();
    let mut d = Dispatcher::new(registry, fast_policy());
    let r = d
        .dispatch(ToolCall::new("read", json!({"n": "five"})))
        .await;
    assert_eq!(kind(&r), Some(FailureKind::InvalidArgs));
    // Named as a field, never as a pointer a small model would take for a path.
    assert!(
        r.output
            .starts_with("invalid arguments for `read`, field `n`: "),
        "{}",
        r.output
    );
    assert!(!r.output.contains("/n"), "{}", r.output);
    // The structured failure keeps the pointer.
    assert!(
        matches!(r.failure, Some(Failure::InvalidArgs { ref pointer, .. }) if pointer == "/n"),
        "{:?}",
        r.failure
    );
    // decode's corrective message: "five" gives no integer to derive, so it says what is
    // needed instead of inventing one (a made-up `1` would be copied and run), and shows the
    // tool author's example call.
    assert!(
        r.output.contains(
            r#"- field `n`: expected an integer, received "five". Fix: send "n" as an integer"#
        ),
        "{}",
        r.output
    );
    assert!(!r.output.contains("Corrected arguments"), "{}", r.output);
    assert!(r.output.contains("A valid call looks like"), "{}", r.output);
    let r = d.dispatch(ToolCall::new("read", json!([1, 2]))).await;
    assert_eq!(kind(&r), Some(FailureKind::InvalidArgs));
    assert!(r.output.contains("expected an object"), "{}", r.output);
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct AddArgs {
    a: i64,
    b: i64,
}

struct Add;

impl TypedTool for Add {
    type Args = AddArgs;
    fn name(&self) -> &str {
        "add"
    }
    fn description(&self) -> &str {
        "Adds two integers."
    }
    fn annotations(&self) -> Annotations {
        Annotations::READ_ONLY
    }
    fn example(&self) -> Option<Value> {
        Some(json!({"a": 1, "b": 2}))
    }
    async fn run(&self, _ctx: &ToolContext, args: AddArgs) -> Result<Output, Failure> {
        Ok(Output::text((args.a + args.b).to_string()).with_data(json!(args.a + args.b)))
    }
}

#[tokio::test]
async fn typed_tool_gets_repaired_and_validated_arguments() {
    let registry = Registry::new();
    registry.register(typed(Add)).unwrap();
    let spec = registry.snapshot().get("add").unwrap().spec.clone();
    assert_eq!(spec.parameters["required"], json!(["a", "b"]));
    let mut d = Dispatcher::new(registry, fast_policy());
    let r = d
        .dispatch(
            NativeToolCall {
                id: None,
                name: "add".into(),
                arguments: json!(r#"{"a": 2, "b": 3}"#),
            }
            .into(),
        )
        .await;
    assert_eq!(r.output, "5");
    assert_eq!(r.data, json!(5));
    let r = d.dispatch(ToolCall::new("add", json!({"a": 2}))).await;
    assert_eq!(kind(&r), Some(FailureKind::InvalidArgs));
    // The missing `b` is described, never filled with an invented value.
    assert!(
        r.output.contains(r#"Fix: add "b" with the value you mean"#),
        "{}",
        r.output
    );
    assert!(!r.output.contains("Corrected arguments"), "{}", r.output);
}

// ---------- retry budget ----------

/// A dispatcher with one `read` tool that fails with the model's fault for the path `missing`
/// and reads any other, under a retry budget of `retry_budget`; and the tool's run count.
fn read_dispatcher(annotations: Annotations, retry_budget: u32) -> (Dispatcher, Arc<AtomicU32>) {
    let registry = Registry::new();
    let (t, runs) = probe("read", annotations, |args, _| {
        Box::pin(async move {
            if args["path"] == "missing" {
                Err(Failure::invalid_args("read", "/path", "no such file"))
            } else {
                Ok(Output::text("content"))
            }
        })
    });
    registry.register(t).unwrap();
    let policy = Policy {
        retry_budget,
        duplicate_limit: 100,
        ..fast_policy()
    };
    (Dispatcher::new(registry, policy), runs)
}

#[tokio::test]
async fn retry_budget_is_keyed_by_tool_and_canonical_args_and_resets_on_success() {
    let (mut d, runs) = read_dispatcher(Annotations::default(), 2);
    let bad = || ToolCall::new("read", json!({"path": "missing", "n": 1}));
    // Same canonical args with the keys in another order.
    let bad_reordered: Value = serde_json::from_str(r#"{"n": 1, "path": "missing"}"#).unwrap();
    assert_eq!(
        kind(&d.dispatch(bad()).await),
        Some(FailureKind::InvalidArgs)
    );
    assert_eq!(
        kind(&d.dispatch(ToolCall::new("read", bad_reordered)).await),
        Some(FailureKind::InvalidArgs)
    );
    let r = d.dispatch(bad()).await;
    assert_eq!(kind(&r), Some(FailureKind::BudgetExhausted));
    assert!(r.ends_turn());
    assert_eq!(
        runs.load(Ordering::SeqCst),
        2,
        "an exhausted call is not run"
    );
    // Other arguments have their own budget.
    assert!(
        d.dispatch(ToolCall::new("read", json!({"path": "ok"})))
            .await
            .is_ok()
    );
    // The success reset the tool's budgets.
    assert_eq!(
        kind(&d.dispatch(bad()).await),
        Some(FailureKind::InvalidArgs)
    );
}

#[tokio::test]
async fn a_spent_budget_skips_the_rest_of_a_concurrent_batch() {
    // Regression: in a batch of read-only calls, the calls after a `BudgetExhausted` still ran.
    let (mut d, runs) = read_dispatcher(Annotations::READ_ONLY, 1);
    let bad = || ToolCall::new("read", json!({"path": "missing"}));
    assert_eq!(
        kind(&d.dispatch(bad()).await),
        Some(FailureKind::InvalidArgs)
    );
    let results = d
        .dispatch_turn(vec![
            bad(),
            ToolCall::new("read", json!({"path": "a"})),
            ToolCall::new("read", json!({"path": "b"})),
        ])
        .await;
    let kinds: Vec<_> = results.iter().map(kind).collect();
    assert_eq!(
        kinds,
        [
            Some(FailureKind::BudgetExhausted),
            Some(FailureKind::Skipped),
            Some(FailureKind::Skipped)
        ]
    );
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn unknown_tool_calls_have_a_budget_too() {
    let mut d = Dispatcher::new(
        Registry::new(),
        Policy {
            retry_budget: 1,
            ..fast_policy()
        },
    );
    let call = || ToolCall::new("receive", json!({}));
    assert_eq!(
        kind(&d.dispatch(call()).await),
        Some(FailureKind::UnknownTool)
    );
    assert_eq!(
        kind(&d.dispatch(call()).await),
        Some(FailureKind::BudgetExhausted)
    );
}

// ---------- world's fault ----------

#[tokio::test]
async fn transient_failures_are_retried_with_backoff_and_not_blamed_on_the_model() {
    let registry = Registry::new();
    let (t, runs) = probe("fetch", Annotations::READ_ONLY, |_, attempt| {
        Box::pin(async move {
            if attempt < 3 {
                Err(Failure::transient("fetch", "connection reset"))
            } else {
                Ok(Output::text("done"))
            }
        })
    });
    registry.register(t).unwrap();
    let mut d = Dispatcher::new(registry, fast_policy());
    let r = d.dispatch(ToolCall::new("fetch", json!({}))).await;
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(r.attempts, 3);
    assert_eq!(runs.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn persistent_world_failure_says_it_is_not_the_models_fault_and_costs_no_budget() {
    let registry = Registry::new();
    let (t, runs) = probe("fetch", Annotations::READ_ONLY, |_, _| {
        Box::pin(async { Err(Failure::transient("fetch", "disk busy")) })
    });
    registry.register(t).unwrap();
    let policy = Policy {
        retry_budget: 1,
        duplicate_limit: 100,
        ..fast_policy()
    };
    let mut d = Dispatcher::new(registry, policy);
    for _ in 0..3 {
        let r = d.dispatch(ToolCall::new("fetch", json!({}))).await;
        assert_eq!(kind(&r), Some(FailureKind::Transient));
        assert_eq!(r.failure.as_ref().unwrap().fault(), Fault::World);
        assert!(r.output.contains("Your call was fine"), "{}", r.output);
        assert_eq!(r.attempts, 3);
    }
    assert_eq!(runs.load(Ordering::SeqCst), 9);
}

#[tokio::test]
async fn non_idempotent_tools_are_not_retried() {
    let registry = Registry::new();
    let (t, runs) = probe("send", Annotations::default(), |_, _| {
        Box::pin(async { Err(Failure::transient("send", "timeout from server")) })
    });
    registry.register(t).unwrap();
    let mut d = Dispatcher::new(registry, fast_policy());
    let r = d.dispatch(ToolCall::new("send", json!({}))).await;
    assert_eq!(kind(&r), Some(FailureKind::Transient));
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn slow_tools_time_out() {
    let registry = Registry::new();
    let (t, _) = probe("slow", Annotations::default(), |_, _| {
        Box::pin(async {
            tokio::time::sleep(Duration::from_secs(30)).await;
            Ok(Output::text("late"))
        })
    });
    let mut t = t;
    t.spec = t.spec.with_timeout(Duration::from_millis(20));
    registry.register(t).unwrap();
    let mut d = Dispatcher::new(registry, fast_policy());
    let r = d.dispatch(ToolCall::new("slow", json!({}))).await;
    assert_eq!(kind(&r), Some(FailureKind::Timeout));
    assert_eq!(r.failure.as_ref().unwrap().fault(), Fault::World);
    assert!(
        r.output.contains("did not finish within 0.02s"),
        "{}",
        r.output
    );
}

#[tokio::test]
async fn default_timeout_applies_when_the_tool_sets_none() {
    let registry = Registry::new();
    let (t, runs) = probe("slow", Annotations::READ_ONLY, |_, _| {
        Box::pin(async {
            tokio::time::sleep(Duration::from_secs(30)).await;
            Ok(Output::text("late"))
        })
    });
    registry.register(t).unwrap();
    let policy = Policy {
        default_timeout: Duration::from_millis(10),
        world_retries: 1,
        ..fast_policy()
    };
    let mut d = Dispatcher::new(registry, policy);
    let r = d.dispatch(ToolCall::new("slow", json!({}))).await;
    assert_eq!(kind(&r), Some(FailureKind::Timeout));
    assert_eq!((r.attempts, runs.load(Ordering::SeqCst)), (2, 2));
}

struct PanicsBeforeFuture;

impl Tool for PanicsBeforeFuture {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new("boom_sync", "panics", json!({"type": "object"}))
    }
    fn call<'a>(&'a self, _: &'a ToolContext, _: Value) -> BoxFuture<'a, Result<Output, Failure>> {
        panic!("sync boom")
    }
}

#[tokio::test]
async fn panics_are_caught_in_the_call_and_in_the_future() {
    let registry = Registry::new();
    let (t, _) = probe("boom", Annotations::default(), |args, _| {
        Box::pin(async move {
            if args.is_object() {
                panic!("async boom");
            }
            Ok(Output::text("unreachable"))
        })
    });
    registry.register(t).unwrap();
    registry.register(PanicsBeforeFuture).unwrap();
    let mut d = Dispatcher::new(registry, fast_policy());
    let r = d.dispatch(ToolCall::new("boom", json!({}))).await;
    assert_eq!(kind(&r), Some(FailureKind::Panicked));
    assert!(r.output.contains("async boom"), "{}", r.output);
    assert!(r.output.contains("not in your call"), "{}", r.output);
    let r = d.dispatch(ToolCall::new("boom_sync", json!({}))).await;
    assert_eq!(kind(&r), Some(FailureKind::Panicked));
    assert!(r.output.contains("sync boom"), "{}", r.output);
    // The dispatcher is still usable.
    let r = d.dispatch(ToolCall::new("nothing", json!({}))).await;
    assert_eq!(kind(&r), Some(FailureKind::UnknownTool));
}

// ---------- policy ----------

#[tokio::test]
async fn denied_ends_the_turn_and_later_calls_are_skipped_but_answered() {
    let registry = Registry::new();
    let (w, w_runs) = probe("write", Annotations::default(), |_, _| {
        Box::pin(async { Ok(Output::text("written")) })
    });
    let (r, r_runs) = probe("read", Annotations::READ_ONLY, ok_text("content"));
    registry.register(w).unwrap();
    registry.register(r).unwrap();
    let policy = Policy {
        read_only: true,
        ..fast_policy()
    };
    let mut d = Dispatcher::new(registry, policy);
    let results = d
        .dispatch_turn(vec![
            ToolCall::new("read", json!({"path": "a"})).with_id("1"),
            ToolCall::new("write", json!({"path": "a"})).with_id("2"),
            ToolCall::new("read", json!({"path": "b"})).with_id("3"),
        ])
        .await;
    let kinds: Vec<_> = results.iter().map(kind).collect();
    assert_eq!(
        kinds,
        [None, Some(FailureKind::Denied), Some(FailureKind::Skipped)]
    );
    let ids: Vec<_> = results.iter().map(|r| r.call_id.as_str()).collect();
    assert_eq!(ids, ["1", "2", "3"]);
    assert!(
        results[1].output.contains("read-only"),
        "{}",
        results[1].output
    );
    assert!(
        results[2].output.contains("`write` (2) ended this turn"),
        "{}",
        results[2].output
    );
    assert_eq!(w_runs.load(Ordering::SeqCst), 0);
    assert_eq!(r_runs.load(Ordering::SeqCst), 1);
}

// ---------- ordering ----------

type Log = Arc<Mutex<Vec<String>>>;

fn logging(
    name: &'static str,
    log: &Log,
) -> impl Fn(Value, u32) -> BoxFuture<'static, Result<Output, Failure>> + use<> {
    let log = Arc::clone(log);
    move |args, _| {
        let log = Arc::clone(&log);
        Box::pin(async move {
            let tag = format!("{name}{}", args["n"]);
            log.lock().unwrap().push(format!("start {tag}"));
            tokio::time::sleep(Duration::from_millis(30)).await;
            log.lock().unwrap().push(format!("end {tag}"));
            Ok(Output::text(tag))
        })
    }
}

#[tokio::test]
async fn read_only_calls_run_in_parallel_and_the_others_alone_in_order() {
    let log: Log = Arc::default();
    let registry = Registry::new();
    let (r, _) = probe("r", Annotations::READ_ONLY, logging("r", &log));
    let (w, _) = probe("w", Annotations::default(), logging("w", &log));
    registry.register(r).unwrap();
    registry.register(w).unwrap();
    let mut d = Dispatcher::new(registry, fast_policy());
    let calls = vec![
        ToolCall::new("r", json!({"n": 1})),
        ToolCall::new("r", json!({"n": 2})),
        ToolCall::new("w", json!({"n": 3})),
        ToolCall::new("w", json!({"n": 4})),
        ToolCall::new("r", json!({"n": 5})),
        ToolCall::new("r", json!({"n": 6})),
    ];
    let results = d.dispatch_turn(calls).await;
    let outputs: Vec<_> = results.iter().map(|r| r.output.as_str()).collect();
    assert_eq!(outputs, ["r1", "r2", "w3", "w4", "r5", "r6"]);
    let log = log.lock().unwrap().clone();
    let pos = |s: &str| log.iter().position(|l| l == s).unwrap();
    // r1 and r2 overlap.
    assert!(pos("start r2") < pos("end r1"), "{log:?}");
    // w3 starts after both reads end, w4 after w3 ends, r5/r6 after w4 ends and overlap.
    assert!(
        pos("end r1") < pos("start w3") && pos("end r2") < pos("start w3"),
        "{log:?}"
    );
    assert!(pos("end w3") < pos("start w4"), "{log:?}");
    assert!(pos("end w4") < pos("start r5"), "{log:?}");
    assert!(pos("start r6") < pos("end r5"), "{log:?}");
}

// ---------- memo and duplicates ----------

fn reader(
    runs_tag: &'static str,
) -> impl Fn(Value, u32) -> BoxFuture<'static, Result<Output, Failure>> {
    move |args, _| {
        Box::pin(async move {
            let path = args["path"].as_str().unwrap_or("").to_string();
            Ok(Output::text(format!("{runs_tag} {path}"))
                .reading(PathBuf::from(format!("/r/{path}"))))
        })
    }
}

fn writer() -> impl Fn(Value, u32) -> BoxFuture<'static, Result<Output, Failure>> {
    |args, _| {
        Box::pin(async move {
            let path = args["path"].as_str().unwrap_or("").to_string();
            Ok(Output::text("ok").with_effect(Effect::FileWritten {
                path: PathBuf::from(format!("/r/{path}")),
                bytes: 1,
            }))
        })
    }
}

#[tokio::test]
async fn pure_repeats_come_from_the_memo_and_the_third_is_a_duplicate() {
    let registry = Registry::new();
    let (ls, runs) = probe("ls", Annotations::READ_ONLY, reader("listing"));
    registry.register(ls).unwrap();
    let mut d = Dispatcher::new(registry, fast_policy());
    let call = || ToolCall::new("ls", json!({"path": "src"}));
    let first = d.dispatch(call()).await;
    assert!(first.is_ok() && !first.cached);
    let second = d.dispatch(call()).await;
    assert!(second.is_ok() && second.cached);
    assert_eq!(second.output, first.output);
    assert_eq!(second.attempts, 0);
    let third = d.dispatch(call()).await;
    assert_eq!(kind(&third), Some(FailureKind::Duplicate));
    assert!(
        third.output.starts_with("duplicate call"),
        "{}",
        third.output
    );
    assert!(
        third.output.contains("listing src"),
        "the earlier result is shown: {}",
        third.output
    );
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn an_effect_on_the_same_path_invalidates_the_memo_and_the_duplicate_count() {
    let registry = Registry::new();
    let (read, read_runs) = probe("read", Annotations::READ_ONLY, reader("content of"));
    let (write, _) = probe("write", Annotations::default(), writer());
    registry.register(read).unwrap();
    registry.register(write).unwrap();
    let mut d = Dispatcher::new(registry, fast_policy());
    let read_a = || ToolCall::new("read", json!({"path": "a"}));
    let read_b = || ToolCall::new("read", json!({"path": "b"}));
    d.dispatch(read_a()).await;
    d.dispatch(read_b()).await;
    assert!(d.dispatch(read_a()).await.cached);
    assert_eq!(read_runs.load(Ordering::SeqCst), 2);
    let w = d
        .dispatch(ToolCall::new("write", json!({"path": "a"})))
        .await;
    assert_eq!(w.effects.len(), 1);
    // `a` is read again for real, and is no longer a duplicate; `b` still comes from the memo.
    let again = d.dispatch(read_a()).await;
    assert!(again.is_ok() && !again.cached, "{again:?}");
    assert_eq!(read_runs.load(Ordering::SeqCst), 3);
    assert!(d.dispatch(read_b()).await.cached);
    assert_eq!(read_runs.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn a_tool_that_changes_things_without_reporting_effects_clears_the_memo() {
    let registry = Registry::new();
    let (read, read_runs) = probe("read", Annotations::READ_ONLY, reader("content of"));
    let (mystery, _) = probe("mystery", Annotations::default(), ok_text("did something"));
    registry.register(read).unwrap();
    registry.register(mystery).unwrap();
    let mut d = Dispatcher::new(registry, fast_policy());
    d.dispatch(ToolCall::new("read", json!({"path": "a"})))
        .await;
    d.dispatch(ToolCall::new("mystery", json!({}))).await;
    assert!(
        !d.dispatch(ToolCall::new("read", json!({"path": "a"})))
            .await
            .cached
    );
    assert_eq!(read_runs.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn identical_writes_are_duplicates_on_the_third_call() {
    // An idempotent write made twice changes nothing the second time: the third is a duplicate.
    // So is any change when the policy lets identical changes run again.
    let idempotent = Annotations {
        idempotent: true,
        ..Annotations::default()
    };
    for (annotations, rerun) in [(idempotent, false), (Annotations::default(), true)] {
        let registry = Registry::new();
        let (write, runs) = probe("write", annotations, writer());
        registry.register(write).unwrap();
        let policy = Policy {
            rerun_identical_changes: rerun,
            ..fast_policy()
        };
        let mut d = Dispatcher::new(registry, policy);
        let call = || ToolCall::new("write", json!({"path": "a"}));
        assert!(d.dispatch(call()).await.is_ok());
        assert!(d.dispatch(call()).await.is_ok());
        assert_eq!(
            kind(&d.dispatch(call()).await),
            Some(FailureKind::Duplicate)
        );
        assert_eq!(runs.load(Ordering::SeqCst), 2);
    }
}

#[tokio::test]
async fn an_identical_change_that_is_not_idempotent_runs_once() {
    let registry = Registry::new();
    let (append, runs) = probe("append", Annotations::default(), writer());
    let (mystery, _) = probe("mystery", Annotations::default(), ok_text("did something"));
    registry.register(append).unwrap();
    registry.register(mystery).unwrap();
    let mut d = Dispatcher::new(registry, fast_policy());
    let call = || ToolCall::new("append", json!({"path": "a"}));
    let first = d.dispatch(call()).await;
    assert!(first.is_ok());
    let again = d.dispatch(call()).await;
    assert_eq!(kind(&again), Some(FailureKind::AlreadyDone));
    assert_eq!(again.failure.as_ref().unwrap().fault(), Fault::Model);
    assert!(again.output.contains(&first.output), "{}", again.output);
    assert!(again.output.contains("not run again"), "{}", again.output);
    // A different call (another path) runs; so does the same one once something changed in a
    // way nobody can tell (an effect without a path).
    assert!(
        d.dispatch(ToolCall::new("append", json!({"path": "b"})))
            .await
            .is_ok()
    );
    assert_eq!(
        kind(&d.dispatch(call()).await),
        Some(FailureKind::AlreadyDone)
    );
    assert!(
        d.dispatch(ToolCall::new("mystery", json!({})))
            .await
            .is_ok()
    );
    assert!(d.dispatch(call()).await.is_ok());
    assert_eq!(runs.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn a_new_task_forgets_the_calls_of_the_last() {
    let registry = Registry::new();
    let (append, runs) = probe("append", Annotations::default(), writer());
    registry.register(append).unwrap();
    let mut d = Dispatcher::new(registry, fast_policy());
    let call = || ToolCall::new("append", json!({"path": "a"}));
    assert!(d.dispatch(call()).await.is_ok());
    assert_eq!(
        kind(&d.dispatch(call()).await),
        Some(FailureKind::AlreadyDone)
    );
    d.begin_task();
    assert!(d.dispatch(call()).await.is_ok());
    assert_eq!(runs.load(Ordering::SeqCst), 2);
}

// ---------- output ----------

#[tokio::test]
async fn output_is_capped_with_a_note_and_lists_render_as_json_on_request() {
    let registry = Registry::new();
    let (big, _) = probe("big", Annotations::READ_ONLY, |_, _| {
        Box::pin(async { Ok(Output::text("0123456789\n".repeat(100))) })
    });
    let (list, _) = probe("list", Annotations::READ_ONLY, |_, _| {
        Box::pin(async { Ok(Output::list("a.txt\nb.txt", json!(["a.txt", "b.txt"]))) })
    });
    registry.register(big).unwrap();
    registry.register(list).unwrap();
    let policy = Policy {
        max_output_bytes: 100,
        ..fast_policy()
    };
    let mut d = Dispatcher::new(registry.clone(), policy.clone());
    let r = d.dispatch(ToolCall::new("big", json!({}))).await;
    assert!(r.truncated);
    assert!(r.output.starts_with("0123456789\n"));
    assert!(
        r.output
            .contains("[output truncated: showing the first 99 of 1100 bytes"),
        "{}",
        r.output
    );
    let r = d.dispatch(ToolCall::new("list", json!({}))).await;
    assert_eq!(r.output, "a.txt\nb.txt");
    let mut d = Dispatcher::new(
        registry,
        Policy {
            format: OutputFormat::Json,
            ..policy
        },
    );
    let r = d.dispatch(ToolCall::new("list", json!({}))).await;
    assert_eq!(r.output, r#"["a.txt","b.txt"]"#);
}

// ---------- registry ----------

/// Small models lean towards the first tool listed: in name order that was `edit`, which
/// Qwen2.5-Coder-0.5B called to answer questions (`toolmend eval tasks`). Tools are offered
/// read-only first, then the others, each group in name order; `names()` stays in name order.
#[test]
fn registry_offers_read_only_tools_first_in_a_stable_order() {
    let dir = tempfile::tempdir().unwrap();
    let registry = toolmend::builtin::registry(dir.path()).unwrap();
    let (extra, _) = probe("aardvark", Annotations::default(), ok_text("x"));
    registry.register(extra).unwrap();
    let offered: Vec<String> = registry
        .snapshot()
        .defs()
        .into_iter()
        .map(|d| d.name)
        .collect();
    assert_eq!(
        offered,
        ["glob", "grep", "ls", "read", "aardvark", "edit", "write"]
    );
    assert_eq!(
        registry.snapshot().names(),
        ["aardvark", "edit", "glob", "grep", "ls", "read", "write"]
    );
}

#[tokio::test]
async fn registry_last_registration_wins_providers_clear_and_snapshots_are_per_turn() {
    let registry = Registry::new();
    let (a1, _) = probe("alpha", Annotations::READ_ONLY, ok_text("first"));
    let (a2, _) = probe("alpha", Annotations::READ_ONLY, ok_text("second"));
    let (m1, _) = probe("mcp_one", Annotations::READ_ONLY, ok_text("one"));
    let (m2, _) = probe("mcp_two", Annotations::READ_ONLY, ok_text("two"));
    registry.register(a1).unwrap();
    registry.register_from("mcp", m2).unwrap();
    registry.register_from("mcp", m1).unwrap();
    registry.register(a2).unwrap();
    assert_eq!(registry.snapshot().names(), ["alpha", "mcp_one", "mcp_two"]);

    let mut d = Dispatcher::new(registry.clone(), fast_policy());
    assert_eq!(
        d.dispatch(ToolCall::new("alpha", json!({}))).await.output,
        "second"
    );

    let before = registry.snapshot();
    assert_eq!(registry.clear_provider("mcp"), 2);
    assert_eq!(registry.snapshot().names(), ["alpha"]);
    assert_eq!(before.len(), 3, "a snapshot does not change");

    // A tool registered between turns is callable on the next turn.
    let (late, _) = probe("late", Annotations::READ_ONLY, ok_text("here"));
    d.registry().register(late).unwrap();
    assert_eq!(
        d.dispatch(ToolCall::new("late", json!({}))).await.output,
        "here"
    );
    assert!(registry.remove("late"));
    assert!(!registry.remove("late"));
}

#[test]
fn a_broken_schema_is_refused_at_registration() {
    let registry = Registry::new();
    let (mut t, _) = probe("bad", Annotations::default(), ok_text("x"));
    t.spec.parameters = json!({"type": 12});
    let err = registry.register(t).unwrap_err();
    assert!(err.to_string().contains("`bad`"), "{err}");
}

// ---------- native versus extracted ----------

#[tokio::test]
async fn native_and_extracted_calls_produce_identical_results() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "alpha\nbeta\n").unwrap();
    // Argument text as the model wrote it: valid, broken (single quotes, a string for a number,
    // a missing brace), a missing file, a sandbox escape, a wrong type.
    let cases = [
        (r#"{"path": "notes.txt", "start_line": 2}"#, None),
        (r#"{'path': 'notes.txt', 'start_line': '2'}"#, None),
        (r#"{"path": "notes.txt", "end_line": 1"#, None),
        (r#"{"path": "nope.txt"}"#, Some(FailureKind::InvalidArgs)),
        (r#"{"path": "/etc/passwd"}"#, Some(FailureKind::Denied)),
        (r#"{"path": 5}"#, Some(FailureKind::InvalidArgs)),
    ];
    let opts = toolmend::extract::Options::new();
    for (args, want) in cases {
        // A backend's native tool_calls entry, arguments as a JSON string.
        let native: NativeToolCall = serde_json::from_value(json!({
            "id": "call_7", "name": "read", "arguments": args
        }))
        .unwrap();
        // The same call written in the model's text, found by the extractor.
        let text = format!(
            "Let me look.\n<tool_call>\n{{\"name\": \"read\", \"arguments\": {args}}}\n</tool_call>"
        );
        let extraction = toolmend::extract::extract(&text, &opts);
        assert_eq!(extraction.calls.len(), 1, "{text}");
        let extracted = ToolCall::from(&extraction.calls[0]).with_id("call_7");
        assert!(matches!(
            extracted.source,
            toolmend::tools::CallSource::Extracted { .. }
        ));

        let registry = || toolmend::builtin::registry(dir.path()).unwrap();
        let mut a = Dispatcher::new(registry(), fast_policy());
        let mut b = Dispatcher::new(registry(), fast_policy());
        let mut ra = a.dispatch(native.into()).await;
        let mut rb = b.dispatch(extracted).await;
        // Wall time is the only field allowed to differ.
        ra.duration = Duration::ZERO;
        rb.duration = Duration::ZERO;
        assert_eq!(ra, rb, "for {args}");
        assert_eq!(kind(&ra), want, "for {args}: {}", ra.output);
    }
}

#[test]
fn registry_exports_every_dialect_in_the_stable_order() {
    let registry = Registry::new();
    registry.register(typed(Add)).unwrap();
    let (t, _) = probe("zeta", Annotations::READ_ONLY, ok_text("z"));
    registry.register(t).unwrap();
    let snap = registry.snapshot();
    for d in toolmend::schema::Dialect::ALL {
        let exported = snap.export(d);
        let names: Vec<_> = exported.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["add", "zeta"], "{d:?}");
        assert_eq!(exported[0].parameters["type"], "object", "{d:?}");
        let provider = exported[0].to_provider_json();
        assert!(provider.to_string().contains("Adds two integers."), "{d:?}");
    }
    let infos = snap.tool_infos();
    assert_eq!(infos[0].name, "add");
    assert_eq!(infos[0].parameters["required"], json!(["a", "b"]));
}

#[tokio::test]
async fn null_as_text_means_no_arguments() {
    // Regression: `null` as a value meant `{}`, the text "null" was rejected.
    for args in [json!("null"), json!(" null "), Value::Null] {
        let registry = Registry::new();
        let (t, runs) = probe("read", Annotations::READ_ONLY, ok_text("x"));
        registry.register(t).unwrap();
        let mut d = Dispatcher::new(registry, fast_policy());
        let r = d.dispatch(ToolCall::new("read", args.clone())).await;
        assert_eq!(kind(&r), None, "{args}: {}", r.output);
        assert_eq!(runs.load(Ordering::SeqCst), 1);
    }
}

// ---------- approval ----------

#[tokio::test]
async fn the_approver_is_asked_with_decoded_arguments_before_a_tool_that_changes_things() {
    let registry = Registry::new();
    let (send, send_runs) = probe("send", Annotations::default(), ok_text("sent"));
    let (read, read_runs) = probe("read", Annotations::READ_ONLY, ok_text("x"));
    registry.register(send).unwrap();
    registry.register(read).unwrap();
    let asked: Arc<Mutex<Vec<(String, Value)>>> = Arc::default();
    let log = Arc::clone(&asked);
    let mut d = Dispatcher::new(
        registry,
        Policy {
            approve: Some(toolmend::dispatch::Approver::new(move |tool, args| {
                log.lock().unwrap().push((tool.to_owned(), args.clone()));
                args["n"] == json!(1)
            })),
            ..fast_policy()
        },
    );
    // Refused: not run, a policy failure, not charged against the model's budget.
    for _ in 0..4 {
        let r = d
            .dispatch(ToolCall::new("send", json!({"path": "a", "n": 2})))
            .await;
        assert_eq!(kind(&r), Some(FailureKind::Denied), "{}", r.output);
        assert_eq!(r.failure.as_ref().unwrap().fault(), Fault::Policy);
        assert!(
            r.output.contains("the user did not allow this call"),
            "{}",
            r.output
        );
    }
    assert_eq!(send_runs.load(Ordering::SeqCst), 0);
    // Allowed, and asked with the decoded arguments ("1" coerced to 1 by the schema).
    let r = d
        .dispatch(ToolCall::new("send", json!({"path": "a", "n": "1"})))
        .await;
    assert!(r.failure.is_none(), "{}", r.output);
    assert_eq!(send_runs.load(Ordering::SeqCst), 1);
    assert_eq!(
        asked.lock().unwrap().last().unwrap().1,
        json!({"path": "a", "n": 1})
    );
    // Read-only tools and calls that fail to decode are never asked about.
    let before = asked.lock().unwrap().len();
    d.dispatch(ToolCall::new("read", json!({"path": "a"})))
        .await;
    d.dispatch(ToolCall::new("send", json!({"path": 5, "n": "many"})))
        .await;
    assert_eq!(asked.lock().unwrap().len(), before);
    assert_eq!(read_runs.load(Ordering::SeqCst), 1);
}
