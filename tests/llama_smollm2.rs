//! Real-model tests of the embedded llama.cpp backend with SmolLM2-135M (fast). Skipped with a
//! note when the model is not in the model folder. One model, one thread, tests run one after
//! another on the same loaded backend (llama.cpp is initialised once per process).
//!
//! They assert on structure — events, stop reasons, token counts, the prompt cache — never on
//! the model's wording.
#![cfg(feature = "llama")]

use std::sync::Mutex;

use serde_json::json;
use toolmend::backend::llama::{LlamaBackend, LlamaOptions};
use toolmend::backend::models;
use toolmend::backend::{
    Backend, Control, Event, GenerateOptions, GrammarMode, Message, Request, Role, StopReason,
    ToolDef,
};

/// The tests share one loaded model and run one at a time.
static MODEL: Mutex<Option<LlamaBackend>> = Mutex::new(None);

fn with_model(f: impl FnOnce(&mut LlamaBackend)) {
    let m = models::find("smollm2:135m").unwrap();
    if m.presence() != models::Presence::Present {
        eprintln!(
            "note: smollm2:135m not present; skipping (get it with `{}`)",
            m.fetch_command()
        );
        return;
    }
    let mut guard = MODEL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if guard.is_none() {
        let mut last = 0.0f32;
        let backend = LlamaBackend::load(
            "smollm2:135m",
            LlamaOptions {
                ctx: 2048,
                ..LlamaOptions::default()
            },
            move |p| {
                assert!(p >= last, "progress goes forward");
                last = p;
            },
        )
        .expect("smollm2 loads");
        *guard = Some(backend);
    }
    f(guard.as_mut().unwrap());
}

fn tools() -> Vec<ToolDef> {
    vec![ToolDef {
        name: "ls".into(),
        description: "List the files in a directory".into(),
        parameters: json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}),
    }]
}

fn request(prompt: &str, max_tokens: u32) -> Request {
    Request {
        messages: vec![Message::new(Role::User, prompt)],
        tools: tools(),
        options: GenerateOptions {
            max_tokens,
            ..GenerateOptions::default()
        },
    }
}

fn run(
    backend: &mut LlamaBackend,
    req: &Request,
    mut sink: impl FnMut(&str) -> Control + Send,
) -> (String, toolmend::backend::Stats) {
    let mut text = String::new();
    let mut on_event = |e: Event| match e {
        Event::Chunk(c) => {
            text.push_str(&c);
            sink(&c)
        }
        Event::ToolCall(_) => panic!("llama reports no native calls"),
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let stats = rt
        .block_on(backend.generate(req, &mut on_event))
        .expect("generation works");
    (text, stats)
}

/// Leaves the KV cache holding (almost) nothing of the test prompts, so that two generations
/// start from the same state: llama.cpp's logits differ in the last bits between evaluating a
/// token in a large batch and alone, which can flip a greedy choice.
fn fresh(b: &mut LlamaBackend) {
    let req = Request {
        messages: vec![
            Message::new(Role::System, "Reset."),
            Message::new(Role::User, "x"),
        ],
        tools: Vec::new(),
        options: GenerateOptions {
            max_tokens: 1,
            ..GenerateOptions::default()
        },
    };
    run(b, &req, |_| Control::Continue);
}

#[test]
fn loads_with_its_own_template_and_reports_info() {
    with_model(|b| {
        let info = b.info();
        assert_eq!(info.name, "smollm2:135m");
        assert_eq!(info.template, "gguf");
        assert!(!info.template_tools);
        assert_eq!(info.ctx, 2048);
        assert!(info.load_ms > 0.0);
        assert_eq!(b.name(), "smollm2:135m");
    });
}

#[test]
fn generates_with_tools_until_the_end_or_the_limit() {
    with_model(|b| {
        let req = request("List the files in the current folder.", 48);
        let mut chunks = 0;
        let (text, stats) = run(b, &req, |c| {
            assert!(!c.is_empty());
            chunks += 1;
            Control::Continue
        });
        assert!(
            stats.prompt_tokens > 100,
            "the tool prompt and examples are in the prompt"
        );
        assert!(stats.generated_tokens >= 1 && stats.generated_tokens <= 48);
        assert!(matches!(
            stats.stop,
            StopReason::EndOfGeneration | StopReason::MaxTokens
        ));
        if stats.stop == StopReason::MaxTokens {
            assert_eq!(stats.generated_tokens, 48);
        }
        assert!(chunks >= 1 && !text.is_empty());
        assert!(stats.prompt_ms > 0.0 && stats.generation_ms > 0.0);
        // End-of-generation tokens are not part of the text.
        assert!(!text.contains("<|im_end|>"));
        eprintln!(
            "smollm2:135m, 1 thread: load {:.0} ms; prompt {} tokens in {:.0} ms ({:.1} tok/s, cache {:?}); generated {} tokens in {:.0} ms ({:.1} tok/s)",
            b.info().load_ms,
            stats.prompt_tokens,
            stats.prompt_ms,
            f64::from(b.last_cache_use().evaluated) / (stats.prompt_ms / 1000.0),
            b.last_cache_use(),
            stats.generated_tokens,
            stats.generation_ms,
            f64::from(stats.generated_tokens) / (stats.generation_ms / 1000.0),
        );
    });
}

#[test]
fn the_sink_stops_generation_at_once() {
    with_model(|b| {
        let req = request("Write a long story about a cat.", 200);
        let mut seen = 0;
        let (text, stats) = run(b, &req, |_| {
            seen += 1;
            if seen == 3 {
                Control::Stop
            } else {
                Control::Continue
            }
        });
        assert_eq!(stats.stop, StopReason::Stopped);
        assert_eq!(seen, 3, "no chunk after Stop");
        // Each chunk is at least one token; a token may produce no text on its own (a split
        // character), so there can be a few more tokens than chunks, never fewer.
        assert!(
            stats.generated_tokens >= 3 && stats.generated_tokens < 10,
            "{stats:?}"
        );
        assert!(!text.is_empty());
    });
}

#[test]
fn greedy_generation_is_deterministic_and_the_prompt_cache_is_reused() {
    with_model(|b| {
        let req = request("Say hello.", 16);
        fresh(b);
        let (a, sa) = run(b, &req, |_| Control::Continue);
        fresh(b);
        let (c, _) = run(b, &req, |_| Control::Continue);
        assert_eq!(a, c, "greedy output repeats from the same cache state");
        let (_, sc) = run(b, &req, |_| Control::Continue);
        // The second time the whole prompt but its last token came from the cache.
        let cache = b.last_cache_use();
        assert_eq!(cache.evaluated, 1, "{cache:?}");
        assert_eq!(cache.cached + 1, sc.prompt_tokens);

        // A follow-up turn reuses the shared prefix and evaluates only what is new.
        let mut next = req.clone();
        next.messages.push(Message::new(Role::Assistant, a.clone()));
        next.messages.push(Message::new(Role::User, "Again."));
        let (_, sn) = run(b, &next, |_| Control::Continue);
        let cache = b.last_cache_use();
        assert!(cache.cached >= sa.prompt_tokens - 1, "{cache:?} {sa:?}");
        assert!(cache.evaluated < sn.prompt_tokens / 2, "{cache:?} {sn:?}");
    });
}

#[test]
fn a_prompt_larger_than_the_context_is_refused() {
    with_model(|b| {
        let req = request(&"word ".repeat(3000), 8);
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let mut sink = |_e: Event| Control::Continue;
        let err = rt.block_on(b.generate(&req, &mut sink)).unwrap_err();
        assert!(err.to_string().contains("--ctx"), "{err}");
        // The backend still works afterwards.
        let (_, s) = run(b, &request("Hi", 4), |_| Control::Continue);
        assert!(s.generated_tokens >= 1);
    });
}

#[test]
fn prompt_tokens_counts_what_generation_evaluates() {
    with_model(|b| {
        assert_eq!(b.context_size(), Some(2048));
        // A conversation with a call and a tool result, as the agent sends it.
        let mut assistant = Message::new(Role::Assistant, "");
        assistant.tool_calls = vec![toolmend::backend::NativeToolCall {
            id: Some("call_1".into()),
            name: "ls".into(),
            arguments: json!({"path": "."}),
        }];
        let mut result = Message::new(Role::Tool, "Cargo.toml\nsrc/\nREADME.md — café ☕");
        result.name = Some("ls".into());
        result.tool_call_id = Some("call_1".into());
        let mut req = request("What is here?", 1);
        req.messages.push(assistant);
        req.messages.push(result);
        for r in [request("Hi", 1), req] {
            let counted = b.prompt_tokens(&r).expect("the llama backend counts");
            let (_, stats) = run(b, &r, |_| Control::Continue);
            assert_eq!(counted, stats.prompt_tokens);
        }
        // A request too large is counted the same as the overflow reports it.
        let big = request(&"word ".repeat(3000), 8);
        let counted = b.prompt_tokens(&big).unwrap();
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let mut sink = |_e: Event| Control::Continue;
        match rt.block_on(b.generate(&big, &mut sink)) {
            Err(toolmend::backend::BackendError::ContextOverflow { tokens, context }) => {
                assert_eq!((tokens, context), (counted, 2048));
            }
            other => panic!("expected an overflow, got {other:?}"),
        }
    });
}

#[test]
fn a_full_context_is_told_apart_from_the_token_limit() {
    // Regression: generation ending because the context window filled up was reported as
    // `MaxTokens` ("raise --max-tokens"), which does not help.
    with_model(|b| {
        let prompt = |n: usize| format!("Continue this list forever: {}", "word ".repeat(n));
        let tokens = |b: &mut LlamaBackend, n: usize| {
            fresh(b);
            run(b, &request(&prompt(n), 1), |_| Control::Continue)
                .1
                .prompt_tokens as usize
        };
        // Calibrate how many prompt tokens a word adds, then leave room for 4 new tokens.
        let (p1, p2) = (tokens(b, 1000), tokens(b, 1200));
        let per_word = (p2 - p1) as f64 / 200.0;
        let n = 1000 + ((2048 - 4 - p1) as f64 / per_word) as usize;
        fresh(b);
        let (_, s) = run(b, &request(&prompt(n), 64), |_| Control::Continue);
        let room = 2048 - s.prompt_tokens as usize;
        println!("room {room}: {s:?}");
        assert!(room < 64, "room {room}: the calibration missed");
        if s.stop != StopReason::EndOfGeneration {
            assert_eq!(s.stop, StopReason::ContextFull, "{s:?}");
            assert_eq!(s.generated_tokens as usize, room, "{s:?}");
        }
        // With room to spare, the token limit is the limit.
        fresh(b);
        let (_, s) = run(b, &request("Count from 1 to 100, one per line.", 3), |_| {
            Control::Continue
        });
        assert_eq!(s.stop, StopReason::MaxTokens, "{s:?}");
    });
}

/// The call object in `text`: inside `<tool_call>…</tool_call>`, or the text itself.
fn call_in(text: &str) -> serde_json::Value {
    let t = text.trim();
    let inner = t
        .strip_prefix("<tool_call>")
        .and_then(|r| r.trim_end().strip_suffix("</tool_call>"))
        .unwrap_or(t);
    serde_json::from_str(inner.trim()).unwrap_or_else(|e| panic!("not a call ({e}): {text:?}"))
}

#[test]
fn strict_grammar_makes_the_output_a_call_to_a_known_tool() {
    with_model(|b| {
        let mut req = request("Write a poem about the sea.", 96);
        req.options.grammar = GrammarMode::Strict;
        let (text, stats) = run(b, &req, |_| Control::Continue);
        assert_eq!(stats.stop, StopReason::EndOfGeneration, "{text:?}");
        let call = call_in(&text);
        assert_eq!(call["name"], "ls", "{text}");
        assert!(call["arguments"]["path"].is_string(), "{text}");
    });
}

#[test]
fn lazy_grammar_leaves_text_before_a_marker_alone() {
    with_model(|b| {
        for prompt in ["Hi! Who are you?", "List the files in the folder src."] {
            let free = request(prompt, 64);
            fresh(b);
            let (off, _) = run(b, &free, |_| Control::Continue);
            let mut lazy = free.clone();
            lazy.options.grammar = GrammarMode::Lazy;
            fresh(b);
            let (on, _) = run(b, &lazy, |_| Control::Continue);
            eprintln!("grammar off: {off:?}\ngrammar lazy: {on:?}");
            let marker = ["<tool_call>", "{"]
                .iter()
                .filter_map(|m| off.find(m))
                .min()
                .unwrap_or(off.len());
            // Greedy decoding is the same until a call marker; after it the grammar may differ.
            assert_eq!(
                on[..marker.min(on.len())],
                off[..marker],
                "{off:?} vs {on:?}"
            );
            if marker == off.len() {
                assert_eq!(on, off);
            } else {
                // From the marker on the grammar holds: one well-formed call to a known tool.
                let call = call_in(&on[marker..]);
                assert_eq!(call["name"], "ls", "{on}");
                assert!(call["arguments"].is_object(), "{on}");
            }
        }
    });
}

/// A turn for the answer (the agent's answer-only turn): the output may not open with a call.
/// The same request without the mode opens with `{` — the mask is what changes it.
#[test]
fn an_answer_turn_does_not_open_with_a_call() {
    with_model(|b| {
        let lead = |t: &str| t.trim_start().chars().next();
        let mut req = request(
            "Reply with exactly this JSON and nothing else: {\"path\": \".\"}",
            24,
        );
        req.tools.clear();
        fresh(b);
        let (free, _) = run(b, &req, |_| Control::Continue);
        assert!(
            matches!(lead(&free), Some('{' | '[' | '<' | '`')),
            "the unconstrained reply opens with a call: {free:?}"
        );
        req.options.grammar = GrammarMode::Answer;
        fresh(b);
        let (answer, stats) = run(b, &req, |_| Control::Continue);
        assert!(stats.generated_tokens >= 1);
        assert!(
            !matches!(lead(&answer), Some('{' | '[' | '<' | '`')),
            "{answer:?}"
        );
    });
}

#[test]
fn a_grammar_needs_schemas_it_can_express() {
    with_model(|b| {
        let mut req = request("hi", 8);
        req.tools[0].parameters = json!({"$ref": "#/$defs/missing"});
        req.options.grammar = GrammarMode::Strict;
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let mut sink = |_e: Event| Control::Continue;
        let err = rt.block_on(b.generate(&req, &mut sink)).unwrap_err();
        assert!(err.to_string().contains("grammar off"), "{err}");
    });
}
