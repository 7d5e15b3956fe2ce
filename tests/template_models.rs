//! Chat-template rendering with tools, for each known model's real template (read from the GGUF
//! metadata when the model is in the model folder; skipped with a note when it is not) and for the
//! built-in formats. Asserts on structure: where the tools, calls and results land, how turns
//! open and close, and what the prompt ends with.

use serde_json::json;
use toolmend::backend::gguf::GgufMetadata;
use toolmend::backend::models;
use toolmend::backend::template::{
    ChatTemplate, Examples, PromptOptions, ToolPrompt, ToolPromptUsed,
};
use toolmend::backend::{Message, NativeToolCall, Role, ToolDef};

fn tools() -> Vec<ToolDef> {
    vec![
        ToolDef {
            name: "ls".into(),
            description: "List the files in a directory".into(),
            parameters: json!({"type": "object", "properties": {
                "path": {"type": "string", "description": "Directory path, relative to the root"}},
                "required": ["path"]}),
        },
        ToolDef {
            name: "get_weather".into(),
            description: "Get the weather in a city".into(),
            parameters: json!({"type": "object", "properties": {
                "city": {"type": "string"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
                "required": ["city", "unit"]}),
        },
    ]
}

/// A conversation that has been through one tool call: system, user, the model's raw call, the
/// result, and a follow-up question.
fn conversation() -> Vec<Message> {
    let mut tool = Message::new(Role::Tool, "notes.md\ntodo.txt");
    tool.name = Some("ls".into());
    vec![
        Message::new(Role::System, "You help with files."),
        Message::new(Role::User, "What is in this folder?"),
        Message::new(
            Role::Assistant,
            "```json\n{\"name\": \"ls\", \"arguments\": {\"path\": \".\"}}\n```",
        ),
        tool,
        Message::new(Role::User, "And the weather in Paris?"),
    ]
}

/// The template of a known model, from its GGUF metadata; `None` (after a note) when absent.
fn model_template(name: &str) -> Option<ChatTemplate> {
    let m = models::find(name).expect("known model");
    if m.presence() != models::Presence::Present {
        eprintln!(
            "note: {name} not present in {}; skipping (get it with `{}`)",
            models::dir().display(),
            m.fetch_command()
        );
        return None;
    }
    let meta = GgufMetadata::read(&m.path()).expect("readable GGUF metadata");
    let t = ChatTemplate::for_model(
        meta.chat_template(),
        meta.architecture(),
        meta.special_token("bos").unwrap_or(""),
        meta.special_token("eos").unwrap_or(""),
    )
    .expect("template compiles");
    Some(t)
}

/// Positions of `needles` in `hay`, asserting each is present and they come in order.
fn in_order(hay: &str, needles: &[&str]) {
    let mut at = 0;
    for n in needles {
        match hay[at..].find(n) {
            Some(i) => at += i + n.len(),
            None => panic!("{n:?} missing after byte {at} in:\n{hay}"),
        }
    }
}

#[test]
fn qwen_renders_tools_in_its_own_template() {
    let Some(t) = model_template("qwen2.5-coder:0.5b") else {
        return;
    };
    assert_eq!(t.origin(), "gguf");
    assert!(t.supports_tools());
    let r = t
        .render(&conversation(), &tools(), &PromptOptions::default())
        .unwrap();
    assert_eq!(r.tool_prompt, ToolPromptUsed::Template);
    assert_eq!(r.examples, 0);
    assert_eq!(r.stop, ["<tool_response>", "<|im_start|>"]);
    let text = &r.text;
    // Tools as Python-json.dumps lines inside <tools>, in the system turn with our system text.
    in_order(
        text,
        &[
            "<|im_start|>system\nYou help with files.",
            "<tools>\n{\"type\": \"function\", \"function\": {\"name\": \"ls\", \"description\": \"List the files in a directory\", \"parameters\": {\"type\": \"object\"",
            "\n{\"type\": \"function\", \"function\": {\"name\": \"get_weather\"",
            "\n</tools>",
            "<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call><|im_end|>\n",
            "<|im_start|>user\nWhat is in this folder?<|im_end|>\n",
            "<|im_start|>assistant\n```json\n{\"name\": \"ls\"",
            "<|im_start|>user\n<tool_response>\nnotes.md\ntodo.txt\n</tool_response><|im_end|>\n",
            "<|im_start|>user\nAnd the weather in Paris?<|im_end|>\n",
        ],
    );
    assert!(text.ends_with("<|im_start|>assistant\n"));
    assert_eq!(text.matches("<|im_start|>system").count(), 1);
    // No HTML escaping of the schema text.
    assert!(!text.contains("\\u003c"));
}

#[test]
fn qwen_native_calls_render_in_its_envelope_and_examples_are_optional() {
    let Some(t) = model_template("qwen2.5-coder:0.5b") else {
        return;
    };
    let mut call = Message::new(Role::Assistant, "");
    call.tool_calls.push(NativeToolCall {
        id: None,
        name: "ls".into(),
        // Arguments as a string of JSON are rendered as the object they hold.
        arguments: json!("{\"path\": \".\"}"),
    });
    let convo = vec![Message::new(Role::User, "list"), call];
    let r = t
        .render(
            &convo,
            &tools(),
            &PromptOptions {
                tool_prompt: ToolPrompt::Auto,
                examples: Examples::On,
            },
        )
        .unwrap();
    assert_eq!(r.examples, 3);
    in_order(
        &r.text,
        &[
            // Example exchanges come first, as real turns, with calls in the template's envelope.
            "<|im_start|>user\nHi! What can you do?<|im_end|>",
            "<|im_start|>user\nList the files in a directory with path \".\".<|im_end|>\n<|im_start|>assistant\n<tool_call>\n{\"name\": \"ls\", \"arguments\": {\"path\": \".\"}}\n</tool_call><|im_end|>",
            "\"arguments\": {\"city\": \"example\", \"unit\": \"celsius\"}}",
            "<|im_start|>user\nlist<|im_end|>\n<|im_start|>assistant\n<tool_call>\n{\"name\": \"ls\", \"arguments\": {\"path\": \".\"}}\n</tool_call><|im_end|>",
        ],
    );
}

#[test]
fn smollm2_gets_toolmends_prompt_and_example_turns() {
    let Some(t) = model_template("smollm2:135m") else {
        return;
    };
    assert_eq!(t.origin(), "gguf");
    assert!(!t.supports_tools());
    let r = t
        .render(&conversation(), &tools(), &PromptOptions::default())
        .unwrap();
    assert_eq!(r.tool_prompt, ToolPromptUsed::Own);
    assert_eq!(r.examples, 3);
    assert_eq!(r.stop, ["<tool_response>", "<|im_start|>"]);
    in_order(
        &r.text,
        &[
            "<|im_start|>system\nYou help with files.\n\nYou can call tools.",
            "<tool_call>\n{\"name\": \"TOOL_NAME\"",
            "- ls: List the files in a directory Arguments schema: {\"type\": \"object\"",
            "- get_weather: ",
            "<|im_end|>\n<|im_start|>user\nHi! What can you do?<|im_end|>\n<|im_start|>assistant\nHello! I can answer questions and use these tools: ls, get_weather.<|im_end|>",
            "<|im_start|>assistant\n<tool_call>\n{\"name\": \"ls\", \"arguments\": {\"path\": \".\"}}\n</tool_call><|im_end|>",
            "<|im_start|>user\nWhat is in this folder?<|im_end|>",
            // ChatML knows no tool role: the result is a user turn saying whose it is, with no
            // tags for the model to echo (SmolLM2 answered tagged results with tags of its own).
            "<|im_start|>user\nResult of `ls`:\nnotes.md\ntodo.txt<|im_end|>",
        ],
    );
    assert!(!r.text.contains("<|im_start|>tool"));
    assert!(!r.text.contains("<tool_response>"));
    assert!(r.text.ends_with("<|im_start|>assistant\n"));
    // SmolLM2's template adds its default system prompt only when there is none.
    assert!(!r.text.contains("named SmolLM"));
}

#[test]
fn gemma_base_uses_the_builtin_gemma_format() {
    let Some(t) = model_template("gemma3:270m") else {
        return;
    };
    assert_eq!(t.origin(), "builtin gemma");
    let r = t
        .render(&conversation(), &tools(), &PromptOptions::default())
        .unwrap();
    assert_eq!(r.tool_prompt, ToolPromptUsed::Own);
    assert_eq!(r.stop, ["<tool_response>", "<start_of_turn>"]);
    let text = &r.text;
    // The system text is merged into the first user turn; the assistant is `model`; the BOS is
    // left to the tokenizer.
    assert!(text.starts_with("<start_of_turn>user\nYou help with files.\n\nYou can call tools."));
    assert!(!text.contains("<bos>"));
    assert!(!text.contains("<start_of_turn>system"));
    assert!(!text.contains("<start_of_turn>assistant"));
    in_order(
        text,
        &[
            "Hi! What can you do?<end_of_turn>\n<start_of_turn>model\nHello!",
            "<start_of_turn>model\n<tool_call>\n{\"name\": \"ls\"",
            "<start_of_turn>user\nResult of `ls`:\nnotes.md\ntodo.txt<end_of_turn>\n",
        ],
    );
    assert!(text.ends_with("<start_of_turn>model\n"));
    assert_eq!(text.matches("You can call tools.").count(), 1);
}

#[test]
fn without_tools_there_is_no_tool_prompt() {
    let t = ChatTemplate::builtin_chatml();
    let r = t
        .render(
            &[Message::new(Role::User, "hi")],
            &[],
            &PromptOptions::default(),
        )
        .unwrap();
    assert_eq!(r.tool_prompt, ToolPromptUsed::None);
    assert_eq!(
        r.stop,
        ["<|im_start|>"],
        "no tools, no tool results to fake"
    );
    assert_eq!(
        r.text,
        "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"
    );
}

#[test]
fn own_prompt_can_be_forced_on_a_template_with_tools() {
    let src = "{% if tools %}TOOLS{% endif %}{% for m in messages %}[{{ m.role }}]{{ m.content }}{% endfor %}";
    let t = ChatTemplate::new(src, "test", "", "").unwrap();
    assert!(t.supports_tools());
    let opts = PromptOptions {
        tool_prompt: ToolPrompt::Own,
        examples: Examples::Off,
    };
    let r = t
        .render(&[Message::new(Role::User, "hi")], &tools(), &opts)
        .unwrap();
    assert_eq!(r.tool_prompt, ToolPromptUsed::Own);
    assert!(!r.text.contains("TOOLS"));
    assert!(
        r.text
            .starts_with("[system]You are a helpful assistant.\n\nYou can call tools.")
    );
    assert!(r.text.ends_with("[user]hi"));
}

#[test]
fn template_errors_say_what_and_where() {
    let t = ChatTemplate::new(
        "{% if messages[0].role != 'system' %}{{ raise_exception('Conversation must start with a system message') }}{% endif %}",
        "test",
        "",
        "",
    )
    .unwrap();
    let e = t
        .render(
            &[Message::new(Role::User, "hi")],
            &[],
            &PromptOptions::default(),
        )
        .unwrap_err();
    assert!(
        e.to_string().contains("must start with a system message"),
        "{e}"
    );

    let e = ChatTemplate::new("line one\n{% if %}", "test", "", "").unwrap_err();
    assert_eq!(e.line, Some(2), "{e}");
}

#[test]
fn hugging_face_helpers_work() {
    let src = "{{ strftime_now('%Y') | length }} {{ 'a,b'.split(',') | tojson }} {{ {'k': '<x>'} | tojson(indent=2) }} {{ '  x  '.strip() }}";
    let t = ChatTemplate::new(src, "test", "", "").unwrap();
    let r = t.render(&[], &[], &PromptOptions::default()).unwrap();
    assert_eq!(r.text, "4 [\"a\", \"b\"] {\n  \"k\": \"<x>\"\n} x");
}

#[allow(dead_code)]
#[derive(schemars::JsonSchema)]
struct Point {
    x: f64,
    y: f64,
}

#[allow(dead_code)]
#[derive(schemars::JsonSchema)]
enum Color {
    Red,
    Green,
}

#[allow(dead_code)]
#[derive(schemars::JsonSchema)]
#[serde(tag = "kind")]
enum Shape {
    Circle { r: f64 },
    Square { side: f64 },
}

#[allow(dead_code)]
#[derive(schemars::JsonSchema)]
struct DrawArgs {
    at: Point,
    #[schemars(required)]
    color: Option<Color>,
    shape: Shape,
    label: String,
    #[schemars(range(min = 3, max = 9))]
    width: u32,
    points: Vec<Point>,
}

/// The arguments of the example call for the (only) tool in a prompt rendered without native
/// tool support.
fn example_arguments(tool: ToolDef) -> serde_json::Value {
    let r = ChatTemplate::builtin_chatml()
        .render(
            &[Message::new(Role::User, "go")],
            std::slice::from_ref(&tool),
            &PromptOptions::default(),
        )
        .unwrap();
    // The example request is the description stating the example's values (` with n 10, …`).
    let turn = format!(
        "<|im_start|>user\n{} with ",
        tool.description.trim_end_matches('.')
    );
    let at = r.text.find(&turn).expect("example turn") + turn.len();
    let at = r.text[at..].find("<|im_end|>").unwrap() + at;
    let start = r.text[at..].find("<tool_call>\n").unwrap() + at + "<tool_call>\n".len();
    let end = r.text[start..].find("\n</tool_call>").unwrap() + start;
    let call: serde_json::Value = serde_json::from_str(&r.text[start..end]).unwrap();
    assert_eq!(call["name"], tool.name.as_str());
    call["arguments"].clone()
}

#[test]
fn example_calls_are_valid_for_refs_unions_and_all_of() {
    // Regression: the example call followed neither `$ref` nor `anyOf`/`oneOf`/`allOf`, so a
    // nested struct or an `Option<Enum>` got "example" strings, an invalid call the small model
    // then copied.
    let derived = toolmend::schema::schema_for::<DrawArgs>();
    let hand = json!({"$defs": {"Base": {"type": "object", "properties": {"id": {"type": "integer", "minimum": 10}},
                                          "required": ["id"]}},
                      "type": "object",
                      "properties": {
                          "item": {"allOf": [{"$ref": "#/$defs/Base"},
                                             {"properties": {"tag": {"type": "string", "minLength": 12}}, "required": ["tag"]}]},
                          "mode": {"oneOf": [{"type": "null"}, {"type": "string", "enum": ["fast", "slow"]}]},
                          "n": {"$ref": "#/$defs/Base", "description": "a base"},
                          "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "minItems": 2}},
                      "required": ["item", "mode", "n", "pair"]});
    for schema in [derived, hand] {
        let args = example_arguments(ToolDef {
            name: "draw".into(),
            description: "Draw something.".into(),
            parameters: schema.clone(),
        });
        let decoder = toolmend::decode::Decoder::new(&schema).unwrap();
        let raw = args.to_string();
        let decoded = decoder.decode_value(raw.as_str(), &toolmend::decode::Policy::default());
        let decoded = decoded.unwrap_or_else(|e| panic!("{args} for {schema}: {e:?}"));
        assert!(
            decoded.coercions.is_empty() && decoded.fixes.is_empty(),
            "{args}: {:?}",
            decoded.coercions
        );
    }
}
