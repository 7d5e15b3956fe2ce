//! Chat-template rendering: a conversation plus tool definitions → the exact prompt text a model
//! was trained on.
//!
//! A model's own Jinja template (GGUF metadata `tokenizer.chat_template`) is rendered with
//! `minijinja` set up like Hugging Face's `apply_chat_template` (`trim_blocks`, `lstrip_blocks`,
//! Python string and dict methods, `tojson` with Python's `json.dumps` spacing, `raise_exception`,
//! `strftime_now`). When the template knows about tools (Qwen2.5), the tools go into it in the
//! OpenAI shape the template expects. When it does not (SmolLM2's ChatML) or the model has no
//! template at all (Gemma 3 base: llama.cpp's built-in `gemma` format), toolmend writes its own
//! tool prompt into the system turn — the call format is the `<tool_call>` envelope — followed by
//! a few short example exchanges rendered as real turns, and tool results come back as user turns.
//!
//! # Example: render a conversation with a tool
//! ```
//! use toolmend::backend::template::{ChatTemplate, PromptOptions};
//! use toolmend::backend::{Message, Role, ToolDef};
//!
//! let chatml = ChatTemplate::builtin_chatml();
//! let tools = [ToolDef {
//!     name: "ls".into(),
//!     description: "List the files in a directory".into(),
//!     parameters: serde_json::json!({"type": "object", "properties": {"path": {"type": "string"}}}),
//! }];
//! let prompt = chatml.render(&[Message::new(Role::User, "What is here?")], &tools, &PromptOptions::default())?;
//! assert!(prompt.text.contains("<tool_call>"));
//! assert!(prompt.text.ends_with("<|im_start|>assistant\n"));
//! # Ok::<(), toolmend::backend::template::TemplateError>(())
//! ```

use std::fmt::Write as _;

use minijinja::value::Kwargs;
use minijinja::{Environment, ErrorKind, Value};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{Message, Role, ToolDef};

/// Name under which the template is stored in its environment.
const NAME: &str = "chat";
/// Deepest JSON nesting `tojson` writes (serde_json's own parse limit).
const MAX_JSON_DEPTH: usize = 128;

/// llama.cpp's built-in `gemma` format as a Jinja template: the system text is merged into the
/// first user turn, the assistant is called `model`, and `<bos>` is left to the tokenizer.
const GEMMA: &str = "{%- set ns = namespace(system='') -%}
{%- for message in messages -%}
{%- if message.role == 'system' -%}{%- set ns.system = ns.system + message.content -%}
{%- else -%}
{%- set role = 'model' if message.role == 'assistant' else message.role -%}
{{- '<start_of_turn>' + role + '\n' -}}
{%- if ns.system and role != 'model' -%}{{- ns.system + '\n\n' -}}{%- set ns.system = '' -%}{%- endif -%}
{{- message.content | trim + '<end_of_turn>\n' -}}
{%- endif -%}
{%- endfor -%}
{%- if add_generation_prompt -%}{{- '<start_of_turn>model\n' -}}{%- endif -%}";

/// Plain ChatML, the fallback for a model with no template of its own.
const CHATML: &str = "{%- for message in messages -%}
{{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>\n' -}}
{%- endfor -%}
{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\n' -}}{%- endif -%}";

/// A chat template could not be compiled or rendered.
#[derive(Debug, thiserror::Error)]
#[error("chat template {origin}: {message}{}", line.map(|l| format!(" (template line {l})")).unwrap_or_default())]
pub struct TemplateError {
    /// Where the template came from (`gguf`, `builtin gemma`, …).
    pub origin: String,
    /// What went wrong, with minijinja's detail.
    pub message: String,
    /// The template line, when known.
    pub line: Option<usize>,
}

/// Which tool prompt to use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolPrompt {
    /// The template's own tool support when it has one, toolmend's otherwise.
    #[default]
    Auto,
    /// Always toolmend's own tool prompt (`<tool_call>` envelope), even for templates with tools.
    Own,
}

/// Whether to add short example exchanges (as real turns) before the conversation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Examples {
    /// With toolmend's own tool prompt yes, with the template's own tool support no.
    #[default]
    Auto,
    /// Always (when tools are offered).
    On,
    /// Never.
    Off,
}

/// How to render tools into the prompt.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PromptOptions {
    /// Which tool prompt.
    pub tool_prompt: ToolPrompt,
    /// Example exchanges.
    pub examples: Examples,
}

/// Which tool prompt a rendering actually used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolPromptUsed {
    /// No tools were offered.
    None,
    /// The template's own tool support.
    Template,
    /// toolmend's tool prompt in the system turn.
    Own,
}

/// A rendered prompt.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    /// The prompt text, ending with the assistant's generation prompt.
    pub text: String,
    /// Which tool prompt was used.
    pub tool_prompt: ToolPromptUsed,
    /// How many example exchanges were added.
    pub examples: usize,
    /// Text that means the model has left its turn: it writes a tool result (`<tool_response>`)
    /// or opens the next turn (`<|im_start|>`, `<start_of_turn>`, …) itself. Generation should
    /// stop there.
    pub stop: Vec<String>,
}

/// Markers that open a turn in the common chat formats.
const TURN_MARKERS: [&str; 4] = [
    "<|im_start|>",
    "<start_of_turn>",
    "<|start_header_id|>",
    "<|user|>",
];

/// A compiled chat template.
#[derive(Debug)]
pub struct ChatTemplate {
    env: Environment<'static>,
    origin: String,
    supports_tools: bool,
    /// Whether the template itself wraps tool results in `<tool_response>`.
    tool_response_tag: bool,
    bos_token: String,
    eos_token: String,
}

impl ChatTemplate {
    /// Compiles `source` (a Hugging Face Jinja chat template). `origin` names it in errors;
    /// `bos_token` and `eos_token` are the texts the template may refer to.
    ///
    /// # Errors
    /// [`TemplateError`] when the template does not compile.
    pub fn new(
        source: &str,
        origin: impl Into<String>,
        bos_token: impl Into<String>,
        eos_token: impl Into<String>,
    ) -> Result<Self, TemplateError> {
        let origin = origin.into();
        let mut env = Environment::new();
        let syntax = minijinja::syntax::SyntaxConfig::builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .build()
            .map_err(|e| error(&origin, &e))?;
        env.set_syntax(syntax);
        env.set_unknown_method_callback(minijinja_contrib::pycompat::unknown_method_callback);
        minijinja_contrib::add_to_environment(&mut env);
        env.add_filter("tojson", tojson);
        env.add_function("raise_exception", raise_exception);
        env.add_function("strftime_now", strftime_now);
        env.add_template_owned(NAME, source.to_owned())
            .map_err(|e| error(&origin, &e))?;
        Ok(Self {
            env,
            supports_tools: mentions_tools(source),
            tool_response_tag: source.contains("<tool_response>"),
            origin,
            bos_token: bos_token.into(),
            eos_token: eos_token.into(),
        })
    }

    /// llama.cpp's built-in `gemma` format (for Gemma models without a template).
    pub fn builtin_gemma() -> Self {
        // A constant template that compiles: covered by the tests.
        Self::new(GEMMA, "builtin gemma", "<bos>", "<eos>")
            .expect("builtin gemma template compiles")
    }

    /// Plain ChatML (the fallback for other models without a template).
    pub fn builtin_chatml() -> Self {
        // A constant template that compiles: covered by the tests.
        Self::new(CHATML, "builtin chatml", "", "<|im_end|>")
            .expect("builtin chatml template compiles")
    }

    /// The template to use for a model: its own when it has one, else the built-in format for its
    /// architecture (`gemma*` → gemma, anything else → ChatML).
    ///
    /// # Errors
    /// [`TemplateError`] when the model's own template does not compile.
    pub fn for_model(
        own: Option<&str>,
        architecture: Option<&str>,
        bos_token: &str,
        eos_token: &str,
    ) -> Result<Self, TemplateError> {
        match own {
            Some(src) if !src.trim().is_empty() => Self::new(src, "gguf", bos_token, eos_token),
            _ if architecture.is_some_and(|a| a.starts_with("gemma")) => Ok(Self::builtin_gemma()),
            _ => Ok(Self::builtin_chatml()),
        }
    }

    /// Where the template came from (`gguf`, `builtin gemma`, `builtin chatml`).
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// Whether the template renders tool definitions itself.
    pub fn supports_tools(&self) -> bool {
        self.supports_tools
    }

    /// Renders `messages` with `tools` and the assistant's generation prompt.
    ///
    /// # Errors
    /// [`TemplateError`] when the template fails (e.g. it raises on an unsupported role order).
    pub fn render(
        &self,
        messages: &[Message],
        tools: &[ToolDef],
        options: &PromptOptions,
    ) -> Result<Rendered, TemplateError> {
        let used = if tools.is_empty() {
            ToolPromptUsed::None
        } else if self.supports_tools && options.tool_prompt == ToolPrompt::Auto {
            ToolPromptUsed::Template
        } else {
            ToolPromptUsed::Own
        };
        let want_examples = match options.examples {
            Examples::On => used != ToolPromptUsed::None,
            Examples::Off => false,
            Examples::Auto => used == ToolPromptUsed::Own,
        };
        let examples = if want_examples {
            example_turns(tools)
        } else {
            Vec::new()
        };

        let mut convo: Vec<serde_json::Value> = Vec::with_capacity(messages.len() + 8);
        let (system, rest) = match messages.split_first() {
            Some((first, rest)) if first.role == Role::System => (Some(first), rest),
            _ => (None, messages),
        };
        match used {
            ToolPromptUsed::Own => {
                let base = system.map_or("You are a helpful assistant.", |m| m.content.as_str());
                convo.push(json!({"role": "system", "content": own_tool_prompt(base, tools)}));
            }
            _ => {
                if let Some(s) = system {
                    convo.push(self.message_value(s, used));
                }
            }
        }
        let n_examples = examples.len() / 2;
        for m in examples.iter().chain(rest) {
            convo.push(self.message_value(m, used));
        }

        let tools_value = match used {
            ToolPromptUsed::Template => Value::from(minijinja::value::Serde(
                tools
                    .iter()
                    .map(|t| {
                        json!({"type": "function", "function": {
                            "name": t.name, "description": t.description, "parameters": t.parameters}})
                    })
                    .collect::<Vec<_>>(),
            )),
            _ => Value::from(()),
        };
        let tmpl = self
            .env
            .get_template(NAME)
            .map_err(|e| error(&self.origin, &e))?;
        let text = tmpl
            .render(minijinja::context! {
                messages => Value::from(minijinja::value::Serde(&convo)),
                tools => tools_value,
                add_generation_prompt => true,
                bos_token => self.bos_token.as_str(),
                eos_token => self.eos_token.as_str(),
            })
            .map_err(|e| error(&self.origin, &e))?;
        let mut stop = Vec::new();
        let results_tagged = match used {
            ToolPromptUsed::None => false,
            // Results come back untagged, but a model trained on Hermes' format may still
            // write one after its call.
            ToolPromptUsed::Own => true,
            ToolPromptUsed::Template => self.tool_response_tag,
        };
        if results_tagged {
            stop.push("<tool_response>".to_owned());
        }
        stop.extend(
            TURN_MARKERS
                .iter()
                .filter(|m| text.contains(**m))
                .map(|m| (*m).to_owned()),
        );
        Ok(Rendered {
            text,
            tool_prompt: used,
            examples: n_examples,
            stop,
        })
    }

    /// One message in the shape Hugging Face templates expect.
    fn message_value(&self, m: &Message, used: ToolPromptUsed) -> serde_json::Value {
        let own = used != ToolPromptUsed::Template;
        match m.role {
            Role::Tool if own || !self.supports_tools => {
                // Templates without tool support know no `tool` role: results come back as a
                // user turn that says whose result it is. Not in `<tool_response>` tags: models
                // never trained on tools (SmolLM2-135M, Gemma 3 270M) answered a tagged result
                // with a `<tool_response>` of their own, most often the result echoed, where an
                // answer belonged (and the stop at that tag left the reply empty).
                json!({"role": "user", "content": tool_result_turn(m)})
            }
            Role::Tool => {
                let mut v = json!({"role": "tool", "content": m.content});
                if let Some(n) = &m.name {
                    v["name"] = json!(n);
                }
                if let Some(id) = &m.tool_call_id {
                    v["tool_call_id"] = json!(id);
                }
                v
            }
            Role::Assistant if !m.tool_calls.is_empty() => {
                // Calls (native, or found in the text by the agent loop): rendered in the format
                // the prompt asks for, after the text that came with them.
                let text = m.content.trim();
                if own || !self.supports_tools {
                    let calls = m
                        .tool_calls
                        .iter()
                        .map(|c| envelope(&c.name, &arguments_value(&c.arguments)));
                    let all: Vec<String> = (!text.is_empty())
                        .then(|| text.to_owned())
                        .into_iter()
                        .chain(calls)
                        .collect();
                    json!({"role": "assistant", "content": all.join("\n")})
                } else {
                    let calls: Vec<_> = m
                        .tool_calls
                        .iter()
                        .map(|c| {
                            let mut v = json!({"type": "function", "function": {
                                "name": c.name, "arguments": arguments_value(&c.arguments)}});
                            if let Some(id) = &c.id {
                                v["id"] = json!(id);
                            }
                            v
                        })
                        .collect();
                    json!({"role": "assistant", "content": text, "tool_calls": calls})
                }
            }
            // Text without calls is kept verbatim.
            role => json!({"role": role_name(role), "content": m.content}),
        }
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::System => "system",
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::Tool => "tool",
    }
}

/// Arguments as an object: a string holding JSON is parsed, anything else kept as it is.
fn arguments_value(args: &serde_json::Value) -> serde_json::Value {
    match args {
        serde_json::Value::String(s) => serde_json::from_str(s).unwrap_or_else(|_| args.clone()),
        _ => args.clone(),
    }
}

/// The user turn that carries a tool's result `m` for a template without tool support:
/// ``Result of `read`:`` and the output on the lines after it.
fn tool_result_turn(m: &Message) -> String {
    match &m.name {
        Some(name) => format!("Result of `{name}`:\n{}", m.content),
        None => format!("Result:\n{}", m.content),
    }
}

/// One call in toolmend's envelope.
fn envelope(name: &str, args: &serde_json::Value) -> String {
    let call = json!({"name": name, "arguments": args});
    format!(
        "<tool_call>\n{}\n</tool_call>",
        py_json(&call, None, false).unwrap_or_default()
    )
}

/// Whether a template refers to a `tools` variable (and so renders tool definitions itself).
fn mentions_tools(source: &str) -> bool {
    let bytes = source.as_bytes();
    source.match_indices("tools").any(|(i, _)| {
        let before = i.checked_sub(1).map(|j| bytes[j]);
        let after = bytes.get(i + 5).copied();
        let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        !before.is_some_and(ident)
            && !after.is_some_and(ident)
            && !matches!(before, Some(b'<' | b'/'))
    })
}

/// toolmend's tool prompt: the base system text, the call format and each tool's signature.
fn own_tool_prompt(base: &str, tools: &[ToolDef]) -> String {
    let mut s = String::with_capacity(512 + tools.len() * 256);
    s.push_str(base.trim_end());
    s.push_str(
        "\n\nYou can call tools. To call one, reply with only this, and nothing else:\n\
         <tool_call>\n{\"name\": \"TOOL_NAME\", \"arguments\": {ARGUMENTS AS JSON}}\n</tool_call>\n\
         Each result comes back in a message of its own that starts \"Result of `TOOL_NAME`:\". \
         If no tool is needed, answer in plain text.\n\nTools:\n",
    );
    for t in tools {
        let params = py_json(&t.parameters, None, false).unwrap_or_default();
        let _ = writeln!(
            s,
            "- {}: {} Arguments schema: {params}",
            t.name,
            t.description.trim()
        );
    }
    s.truncate(s.trim_end().len());
    s
}

/// A few short example exchanges: one plain-text answer, and one call for each of the first two
/// tools with arguments made from their schemas.
fn example_turns(tools: &[ToolDef]) -> Vec<Message> {
    let mut turns = Vec::new();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    turns.push(Message::new(Role::User, "Hi! What can you do?"));
    turns.push(Message::new(
        Role::Assistant,
        format!(
            "Hello! I can answer questions and use these tools: {}.",
            names.join(", ")
        ),
    ));
    for t in tools.iter().take(2) {
        let arguments = example_value(&t.parameters, &t.parameters, 0);
        let request = t.description.trim().trim_end_matches('.');
        let request = if request.is_empty() {
            format!("Use {}", t.name)
        } else {
            request.to_owned()
        };
        turns.push(Message::new(
            Role::User,
            format!("{request}{}.", stated_values(&arguments)),
        ));
        let mut call = Message::new(Role::Assistant, "");
        call.tool_calls.push(super::NativeToolCall {
            id: None,
            name: t.name.clone(),
            arguments,
        });
        turns.push(call);
    }
    turns
}

/// Longest list of values an example request states (longer lists are cut at a whole value).
const STATED_VALUES_MAX: usize = 160;

/// The example call's argument values as the example request states them (` with path ".",
/// days 3`), so the example shows values taken from the request. Without it a small model learns
/// that argument values come from nowhere and copies the placeholders (Gemma 3 270M wrote
/// `"example"` and `1` for values its question stated in most of the BFCL `simple_python`
/// questions it got wrong). Values are compact JSON, cut at a whole value.
fn stated_values(arguments: &serde_json::Value) -> String {
    let Some(args) = arguments.as_object() else {
        return String::new();
    };
    let mut s = String::new();
    for (k, v) in args {
        let part = format!("{} {k} {v}", if s.is_empty() { " with" } else { "," });
        if s.len() + part.len() > STATED_VALUES_MAX {
            break;
        }
        s.push_str(&part);
    }
    s
}

/// How deep an example value goes (a recursive type must end).
const EXAMPLE_DEPTH: usize = 8;

/// A plausible value for the JSON Schema `schema` (inside `root`, where its `$ref`s resolve): its
/// default, first example or enum value, or a short placeholder of the right type within its
/// bounds; for objects only the required properties (all when none are marked required). A
/// `$ref` is followed and `allOf` parts are merged (see `schema::merge`); of an `anyOf`/`oneOf`
/// the first branch that is not `null` is taken, met with the keywords beside it. The result is
/// meant to be valid: the small model copies it.
fn example_value(
    schema: &serde_json::Value,
    root: &serde_json::Value,
    depth: usize,
) -> serde_json::Value {
    use serde_json::Value as J;
    if depth > EXAMPLE_DEPTH {
        return J::Null;
    }
    if let Some(v) = schema
        .get("default")
        .or_else(|| schema.get("examples").and_then(|e| e.get(0)))
    {
        return v.clone();
    }
    let Some(node) = example_node(schema, root) else {
        return J::Null;
    };
    let schema = &J::Object(node);
    if let Some(v) = schema
        .get("default")
        .or_else(|| schema.get("examples").and_then(|e| e.get(0)))
    {
        return v.clone();
    }
    if let Some(e) = schema.get("enum").and_then(J::as_array)
        && let Some(v) = e.iter().find(|v| !v.is_null()).or(e.first())
    {
        return v.clone();
    }
    if let Some(v) = schema.get("const") {
        return v.clone();
    }
    let num = |k: &str| schema.get(k).and_then(J::as_f64);
    let ty = match schema.get("type") {
        Some(J::String(t)) => t.as_str(),
        Some(J::Array(ts)) => ts
            .iter()
            .filter_map(J::as_str)
            .find(|t| *t != "null")
            .unwrap_or("string"),
        _ if schema.get("properties").is_some() || schema.get("required").is_some() => "object",
        _ if schema.get("items").is_some() || schema.get("prefixItems").is_some() => "array",
        _ => "string",
    };
    match ty {
        "object" => {
            let props = schema.get("properties").and_then(J::as_object);
            let required: Vec<&str> = schema
                .get("required")
                .and_then(J::as_array)
                .map(|r| r.iter().filter_map(J::as_str).collect())
                .unwrap_or_default();
            let mut out = serde_json::Map::new();
            if let Some(props) = props {
                for (k, v) in props {
                    if required.is_empty() || required.contains(&k.as_str()) {
                        out.insert(k.clone(), example_value(v, root, depth + 1));
                    }
                }
            }
            J::Object(out)
        }
        "array" => {
            if let Some(J::Array(prefix)) = schema.get("prefixItems") {
                return J::Array(
                    prefix
                        .iter()
                        .map(|p| example_value(p, root, depth + 1))
                        .collect(),
                );
            }
            let Some(items) = schema.get("items") else {
                return J::Array(Vec::new());
            };
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let count = match (num("minItems"), num("maxItems")) {
                (_, Some(max)) if max < 1.0 => 0,
                (Some(min), _) => (min as usize).clamp(1, 3),
                _ => 1,
            };
            J::Array(vec![example_value(items, root, depth + 1); count])
        }
        "integer" => json!(crate::decode::integer_within(
            num("minimum"),
            num("exclusiveMinimum"),
            num("maximum"),
            num("exclusiveMaximum"),
        )),
        "number" => {
            let lo = num("minimum").or(num("exclusiveMinimum").map(|x| x + 1.0));
            let hi = num("maximum").or(num("exclusiveMaximum").map(|x| x - 1.0));
            let x = match (lo, hi) {
                (Some(a), _) if a > 1.5 => a,
                (_, Some(b)) if b < 1.5 => b,
                _ => 1.5,
            };
            json!(x)
        }
        "boolean" => json!(true),
        "null" => J::Null,
        _ => {
            let hint = schema
                .get("description")
                .and_then(J::as_str)
                .unwrap_or("")
                .to_ascii_lowercase();
            let base = match schema
                .get("format")
                .and_then(J::as_str)
                .and_then(crate::decode::format_sample)
            {
                Some(sample) => sample,
                None if hint.contains("path") || hint.contains("directory") => ".",
                None => "example",
            };
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let s = crate::decode::fit_length(
                base,
                num("minLength").map(|m| m as usize),
                num("maxLength").map(|m| m as usize),
            );
            J::String(s)
        }
    }
}

/// `schema` as one schema to build an example from: its `$ref` resolved and `allOf` parts
/// merged; a union replaced by its first branch that is not `null` (and fits the keywords beside
/// it), merged with them. `None` when the schema accepts nothing or cannot be merged.
fn example_node(
    schema: &serde_json::Value,
    root: &serde_json::Value,
) -> Option<serde_json::Map<String, serde_json::Value>> {
    use crate::schema::merge::{Merger, is_annotation};
    use serde_json::Value as J;
    let mut merger = Merger::new(root, 2 * EXAMPLE_DEPTH);
    let mut node = merger.flatten(schema, "", 0).ok()??;
    // A union inside a union's branch is taken apart again, a bounded number of times.
    for _ in 0..EXAMPLE_DEPTH {
        let Some(key) = ["anyOf", "oneOf"]
            .into_iter()
            .find(|k| node.get(*k).is_some_and(J::is_array))
        else {
            break;
        };
        let Some(J::Array(branches)) = node.remove(key) else {
            break;
        };
        let siblings = J::Object(
            node.iter()
                .filter(|(k, _)| !is_annotation(k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        );
        let is_null = |b: &J| b.get("type").is_some_and(|t| t == "null");
        let mut met = branches
            .iter()
            .filter(|b| !is_null(b))
            .chain(branches.iter().filter(|b| is_null(b)))
            .find_map(|b| merger.meet(b, &siblings, "", 0).ok().flatten())?;
        // The node's annotations (its description, a default) still count.
        for (k, v) in &node {
            if is_annotation(k) {
                met.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        node = met;
    }
    Some(node)
}

#[cold]
fn error(origin: &str, e: &minijinja::Error) -> TemplateError {
    let mut message = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        let _ = write!(message, ": {s}");
        src = s.source();
    }
    TemplateError {
        origin: origin.to_owned(),
        message,
        line: e.line(),
    }
}

/// `raise_exception(msg)`: the template refuses the conversation.
fn raise_exception(msg: String) -> Result<Value, minijinja::Error> {
    Err(minijinja::Error::new(ErrorKind::InvalidOperation, msg))
}

/// `strftime_now(format)`: the current UTC date and time formatted with Python's `strftime`
/// directives (`%d %b %Y` for Llama 3's "Today Date", and the rest `jiff` knows).
fn strftime_now(format: String) -> String {
    strftime(&format, jiff::Timestamp::now())
}

/// Formats `ts` (UTC) with `strftime` directives. A directive `jiff` does not know leaves the
/// format as it is rather than failing the whole prompt.
fn strftime(format: &str, ts: jiff::Timestamp) -> String {
    jiff::fmt::strtime::format(format, ts).unwrap_or_else(|_| format.to_owned())
}

/// `tojson` as Hugging Face defines it: Python's `json.dumps(x, ensure_ascii=False)` — `", "` and
/// `": "` separators, `indent` and `sort_keys` honoured, no HTML escaping (minijinja's built-in
/// `tojson` escapes `<`, `>` and `&`, which would change the prompt the model was trained on).
fn tojson(value: &Value, indent: Option<Value>, kwargs: Kwargs) -> Result<Value, minijinja::Error> {
    let indent = match indent.or(kwargs.get::<Option<Value>>("indent")?) {
        None => None,
        Some(v) if v.is_none() || v.is_undefined() => None,
        Some(v) => Some(usize::try_from(v.as_i64().unwrap_or(2).max(0)).unwrap_or(2)),
    };
    let sort_keys = kwargs.get::<Option<bool>>("sort_keys")?.unwrap_or(false);
    let _ = kwargs.get::<Option<Value>>("ensure_ascii")?;
    let _ = kwargs.get::<Option<Value>>("separators")?;
    kwargs.assert_all_used()?;
    let json = serde_json::to_value(value)
        .map_err(|e| minijinja::Error::new(ErrorKind::BadSerialization, e.to_string()))?;
    let text = py_json(&json, indent, sort_keys).ok_or_else(|| {
        minijinja::Error::new(
            ErrorKind::BadSerialization,
            "value nested too deeply for tojson",
        )
    })?;
    Ok(Value::from_safe_string(text))
}

/// Serialises like Python's `json.dumps(ensure_ascii=False)`; `None` when nested deeper than
/// [`MAX_JSON_DEPTH`].
fn py_json(v: &serde_json::Value, indent: Option<usize>, sort_keys: bool) -> Option<String> {
    let mut out = String::new();
    write_py_json(&mut out, v, indent, sort_keys, 0)?;
    Some(out)
}

fn write_py_json(
    out: &mut String,
    v: &serde_json::Value,
    indent: Option<usize>,
    sort_keys: bool,
    depth: usize,
) -> Option<()> {
    use serde_json::Value as J;
    if depth > MAX_JSON_DEPTH {
        return None;
    }
    let newline = |out: &mut String, level: usize| {
        if let Some(n) = indent {
            out.push('\n');
            out.extend(std::iter::repeat_n(' ', n * level));
        }
    };
    let item_sep = if indent.is_some() { "," } else { ", " };
    match v {
        J::Array(a) if a.is_empty() => out.push_str("[]"),
        J::Object(o) if o.is_empty() => out.push_str("{}"),
        J::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push_str(item_sep);
                }
                newline(out, depth + 1);
                write_py_json(out, x, indent, sort_keys, depth + 1)?;
            }
            newline(out, depth);
            out.push(']');
        }
        J::Object(o) => {
            let mut entries: Vec<_> = o.iter().collect();
            if sort_keys {
                entries.sort_by(|a, b| a.0.cmp(b.0));
            }
            out.push('{');
            for (i, (k, x)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push_str(item_sep);
                }
                newline(out, depth + 1);
                out.push_str(&serde_json::to_string(k).ok()?);
                out.push_str(": ");
                write_py_json(out, x, indent, sort_keys, depth + 1)?;
            }
            newline(out, depth);
            out.push('}');
        }
        other => out.push_str(&serde_json::to_string(other).ok()?),
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn py_json_matches_python_spacing() {
        let v = json!({"a": [1, 2.5, "x<y>&"], "b": {}, "c": []});
        assert_eq!(
            py_json(&v, None, false).unwrap(),
            r#"{"a": [1, 2.5, "x<y>&"], "b": {}, "c": []}"#
        );
        assert_eq!(
            py_json(&json!({"a": [1]}), Some(2), false).unwrap(),
            "{\n  \"a\": [\n    1\n  ]\n}"
        );
        assert_eq!(
            py_json(&json!({"b": 1, "a": 2}), None, true).unwrap(),
            r#"{"a": 2, "b": 1}"#
        );
    }

    /// An assistant turn with calls and text shows both: the text, then each call in the
    /// envelope the prompt asks for (a call with text was rendered as the text alone).
    #[test]
    fn an_assistant_turn_with_text_and_calls_renders_both() {
        let t = ChatTemplate::builtin_chatml();
        let mut turn = Message::new(Role::Assistant, "Let me look.");
        turn.tool_calls.push(crate::backend::NativeToolCall {
            id: Some("call_1".into()),
            name: "ls".into(),
            arguments: json!({"path": "."}),
        });
        let mut result = Message::new(Role::Tool, "a.txt");
        result.tool_call_id = Some("call_1".into());
        result.name = Some("ls".into());
        let tools = [ToolDef {
            name: "ls".into(),
            description: "List a folder.".into(),
            parameters: json!({"type": "object"}),
        }];
        let r = t
            .render(
                &[Message::new(Role::User, "list"), turn, result],
                &tools,
                &PromptOptions::default(),
            )
            .unwrap();
        assert!(
            r.text.contains(
                "<|im_start|>assistant\nLet me look.\n<tool_call>\n{\"name\": \"ls\", \"arguments\": {\"path\": \".\"}}\n</tool_call><|im_end|>"
            ),
            "{}",
            r.text
        );
        // The result as a user turn saying whose it is, with no tags a model could echo.
        assert!(
            r.text
                .contains("<|im_start|>user\nResult of `ls`:\na.txt<|im_end|>"),
            "{}",
            r.text
        );
        assert!(!r.text.contains("<tool_response>"), "{}", r.text);
    }

    #[test]
    fn py_json_refuses_deep_nesting() {
        let mut v = json!(1);
        for _ in 0..200 {
            v = json!([v]);
        }
        assert!(py_json(&v, None, false).is_none());
    }

    #[test]
    fn strftime_formats_a_known_date() {
        // 2024-02-29 13:05:09 UTC, a Thursday.
        let at = |secs| jiff::Timestamp::from_second(secs).unwrap();
        assert_eq!(
            strftime("%d %B %Y %a %H:%M:%S %j %b %%", at(1_709_211_909)),
            "29 February 2024 Thu 13:05:09 060 Feb %"
        );
        assert_eq!(
            strftime("%Y-%m-%d %A %e %y", at(0)),
            "1970-01-01 Thursday  1 70"
        );
        assert_eq!(strftime("%! %d", at(0)), "%! %d");
    }

    #[test]
    fn tools_mention_is_an_identifier() {
        assert!(mentions_tools("{% if tools %}"));
        assert!(mentions_tools("{{ tools | length }}"));
        assert!(!mentions_tools(
            "{{ '<tools>' }} tools_in_user_message {{ '</tools>' }}"
        ));
    }

    #[test]
    fn example_requests_state_the_example_values() {
        assert_eq!(
            stated_values(&json!({"path": ".", "n": 3, "tags": ["a"]})),
            r#" with path ".", n 3, tags ["a"]"#
        );
        assert_eq!(stated_values(&json!({})), "");
        assert_eq!(stated_values(&json!(null)), "");
        // Cut at a whole value.
        let long = stated_values(&json!({"a": "x".repeat(100), "b": "y".repeat(100)}));
        assert!(long.ends_with(&format!("{}\"", "x".repeat(100))), "{long}");
        assert!(long.len() <= STATED_VALUES_MAX);
        let turns = example_turns(&[ToolDef {
            name: "ls".into(),
            description: "List a folder.".into(),
            parameters: json!({"type": "object", "properties": {"path": {"type": "string",
                "description": "Directory path"}}, "required": ["path"]}),
        }]);
        assert_eq!(
            turns[2].content,
            r#"List a folder with path ".""#.to_owned() + "."
        );
    }

    #[test]
    fn example_values_follow_the_schema() {
        let schema = json!({"type": "object", "required": ["path", "unit"], "properties": {
            "path": {"type": "string", "description": "Directory path"},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            "n": {"type": "integer"}}});
        assert_eq!(
            example_value(&schema, &schema, 0),
            json!({"path": ".", "unit": "celsius"})
        );
    }
}
