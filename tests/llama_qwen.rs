//! Real-model test of the embedded llama.cpp backend with the default model, Qwen2.5-Coder-0.5B
//! (its own Jinja template, with tools). Skipped with a note when the model is absent. One
//! thread. Asserts on structure, and prints load time and prompt / generation speed to stderr
//! (`cargo test --test llama_qwen -- --nocapture`).
#![cfg(feature = "llama")]

use serde_json::json;
use toolmend::backend::llama::{LlamaBackend, LlamaOptions};
use toolmend::backend::models;
use toolmend::backend::template::ToolPromptUsed;
use toolmend::backend::{
    Backend, Control, Event, GenerateOptions, Message, Request, Role, StopReason, ToolDef,
};

fn tools() -> Vec<ToolDef> {
    vec![
        ToolDef {
            name: "ls".into(),
            description: "List the files in a directory".into(),
            parameters: json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}),
        },
        ToolDef {
            name: "read".into(),
            description: "Read a text file".into(),
            parameters: json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}),
        },
    ]
}

#[test]
fn qwen_generates_with_its_own_template_and_stops_when_the_sink_has_a_call() {
    let m = models::find("qwen2.5-coder:0.5b").unwrap();
    if m.presence() != models::Presence::Present {
        eprintln!(
            "note: qwen2.5-coder:0.5b not present; skipping (get it with `{}`)",
            m.fetch_command()
        );
        return;
    }
    let mut b = LlamaBackend::load(m.name, LlamaOptions::default(), |_| {}).expect("qwen loads");
    let info = b.info().clone();
    assert_eq!(info.template, "gguf");
    assert!(info.template_tools);
    assert_eq!(info.ctx, 4096);

    let req = Request {
        messages: vec![Message::new(
            Role::User,
            "List the files in this folder, then read the first one.",
        )],
        tools: tools(),
        options: GenerateOptions {
            max_tokens: 96,
            ..GenerateOptions::default()
        },
    };
    assert_eq!(
        b.render(&req).unwrap().tool_prompt,
        ToolPromptUsed::Template
    );

    // The sink stops as soon as it has seen a balanced JSON object (what the agent does with its
    // stream extractor), so generation must end right there.
    let mut text = String::new();
    let mut depth = 0i32;
    let mut opened = false;
    let mut sink = |e: Event| {
        let Event::Chunk(c) = e else {
            panic!("no native calls from llama")
        };
        text.push_str(&c);
        for ch in c.chars() {
            match ch {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        if opened && depth == 0 {
            Control::Stop
        } else {
            Control::Continue
        }
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let stats = rt
        .block_on(b.generate(&req, &mut sink))
        .expect("generation works");
    assert!(
        stats.prompt_tokens > 150,
        "tools are in the prompt: {stats:?}"
    );
    assert!(stats.generated_tokens >= 1 && stats.generated_tokens <= 96);
    if opened && depth == 0 {
        assert_eq!(stats.stop, StopReason::Stopped, "{text:?}");
        assert!(text.trim_end().ends_with('}'), "{text:?}");
    } else {
        assert!(matches!(
            stats.stop,
            StopReason::EndOfGeneration | StopReason::MaxTokens
        ));
    }
    let prompt_tps = f64::from(stats.prompt_tokens) / (stats.prompt_ms / 1000.0);
    let gen_tps = f64::from(stats.generated_tokens) / (stats.generation_ms / 1000.0);
    eprintln!(
        "qwen2.5-coder:0.5b, 1 thread: load {:.0} ms; prompt {} tokens in {:.0} ms ({prompt_tps:.1} tok/s); generated {} tokens in {:.0} ms ({gen_tps:.1} tok/s); stop {:?}\noutput: {text:?}",
        info.load_ms,
        stats.prompt_tokens,
        stats.prompt_ms,
        stats.generated_tokens,
        stats.generation_ms,
        stats.stop
    );
}
