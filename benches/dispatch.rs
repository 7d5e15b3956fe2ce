//! Dispatch overhead: a no-op typed tool with valid arguments, through the whole dispatch path
//! (lookup, decode and validation, budget and duplicate bookkeeping, timeout, panic guard,
//! rendering), against the baseline of calling the same tool directly in the same run.
//!
//! `cargo bench --no-default-features --bench dispatch`

use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use toolmend::dispatch::{Dispatcher, Policy};
use toolmend::tools::{
    Annotations, Failure, Output, Registry, Tool, ToolCall, ToolContext, TypedTool, typed,
};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NoopArgs {
    path: String,
    count: u32,
}

struct Noop;

impl TypedTool for Noop {
    type Args = NoopArgs;
    fn name(&self) -> &str {
        "noop"
    }
    fn description(&self) -> &str {
        "Does nothing."
    }
    fn annotations(&self) -> Annotations {
        // Read-only but not idempotent: every call really runs (no memo hit to flatter the number).
        Annotations {
            idempotent: false,
            ..Annotations::READ_ONLY
        }
    }
    async fn run(&self, _ctx: &ToolContext, args: NoopArgs) -> Result<Output, Failure> {
        Ok(Output::text(if args.count > 0 && !args.path.is_empty() {
            "ok"
        } else {
            "zero"
        }))
    }
}

fn args() -> Value {
    json!({"path": "src/main.rs", "count": 3})
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let registry = Registry::new();
    registry.register(typed(Noop)).unwrap();
    let policy = Policy {
        duplicate_limit: u32::MAX,
        ..Policy::default()
    };

    // Check the results before timing anything.
    let mut d = Dispatcher::new(registry.clone(), policy.clone());
    let r = rt.block_on(d.dispatch(ToolCall::new("noop", args())));
    assert!(r.is_ok() && r.output == "ok" && !r.cached, "{r:?}");
    let direct = typed(Noop);
    let ctx = ToolContext::new("call_1");
    let o = rt.block_on(direct.call(&ctx, args())).unwrap();
    assert_eq!(o.text, "ok");

    let mut g = c.benchmark_group("dispatch");
    g.measurement_time(Duration::from_secs(4));
    g.bench_function("baseline_direct_call", |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let start = Instant::now();
                for _ in 0..iters {
                    let o = direct.call(&ctx, args()).await.unwrap();
                    std::hint::black_box(o);
                }
                start.elapsed()
            })
        });
    });
    g.bench_function("noop_typed_valid_args", |b| {
        let mut d = Dispatcher::new(registry.clone(), policy.clone());
        b.iter_custom(|iters| {
            rt.block_on(async {
                let start = Instant::now();
                for _ in 0..iters {
                    let r = d.dispatch(ToolCall::new("noop", args())).await;
                    std::hint::black_box(r);
                }
                start.elapsed()
            })
        });
    });
    g.bench_function("noop_typed_valid_text_args", |b| {
        let mut d = Dispatcher::new(registry.clone(), policy.clone());
        let text = args().to_string();
        b.iter_custom(|iters| {
            rt.block_on(async {
                let start = Instant::now();
                for _ in 0..iters {
                    let call = toolmend::backend::NativeToolCall {
                        id: None,
                        name: "noop".into(),
                        arguments: Value::String(text.clone()),
                    };
                    let r = d.dispatch(call.into()).await;
                    std::hint::black_box(r);
                }
                start.elapsed()
            })
        });
    });
    g.bench_function("noop_typed_valid_args_fresh_dispatcher", |b| {
        b.iter_batched(
            || Dispatcher::new(registry.clone(), Policy::default()),
            |mut d| rt.block_on(d.dispatch(ToolCall::new("noop", args()))),
            BatchSize::SmallInput,
        );
    });
    g.finish();

    // The parts of the path, each alone, to see where the time goes.
    let mut g = c.benchmark_group("dispatch_parts");
    g.measurement_time(Duration::from_secs(2));
    let spec = registry.snapshot().get("noop").unwrap().spec.clone();
    let decoder = toolmend::decode::Decoder::new(&spec.parameters).unwrap();
    let dpolicy = toolmend::decode::Policy::default();
    let a = args();
    assert!(decoder.decode_value(&a, &dpolicy).is_ok());
    g.bench_function("decode_value", |b| {
        b.iter(|| {
            decoder
                .decode_value(std::hint::black_box(&a), &dpolicy)
                .unwrap()
        })
    });
    g.bench_function("canonical_key", |b| {
        b.iter(|| toolmend::tools::canon::canonical(std::hint::black_box(&a)))
    });
    g.bench_function("build_args_value", |b| b.iter(args));
    g.bench_function("timeout_ready_future", |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let start = Instant::now();
                for _ in 0..iters {
                    let r = tokio::time::timeout(Duration::from_secs(30), async { 1 }).await;
                    std::hint::black_box(r.ok());
                }
                start.elapsed()
            })
        });
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
