//! Grammar-constrained generation from the tool schemas: the GBNF from
//! [`toolmend::schema::gbnf`](crate::schema::gbnf) with a root that accepts one call either in the
//! `<tool_call>` envelope or as a bare `{"name": …, "arguments": …}` object.
//!
//! - `strict`: the grammar applies from the first token, so the output is a call.
//! - `lazy`: generation is free until a call marker appears — `<tool_call>`, or `{` followed by
//!   `"name":` (small models often write the call bare or inside a Markdown fence) — and from the
//!   marker on the grammar applies, so the call that follows is well-formed.

use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::sampling::LlamaSampler;

use crate::backend::{BackendError, GrammarMode, ToolDef};
use crate::schema::{Envelope, gbnf};

/// The start rule: one call, in the `<tool_call>` envelope or bare. `call` and `space` are rules
/// of the generated grammar (its call object and its JSON whitespace).
const ROOT: &str = r#"root ::= "<tool_call>" space call space "</tool_call>" | call"#;

/// Where lazy grammars start (regular expressions searched anywhere in the generated text; the
/// grammar is fed the text from the match on).
pub(super) const TRIGGERS: [&str; 2] = ["<tool_call>", r#"\{\s*"name"\s*:"#];

/// The GBNF text for `tools`: the generated grammar with [`ROOT`] as its start rule.
///
/// # Errors
/// [`BackendError::Generation`] when a schema cannot be turned into a grammar.
pub(crate) fn text(tools: &[ToolDef]) -> Result<String, BackendError> {
    let pairs: Vec<(&str, &serde_json::Value)> = tools
        .iter()
        .map(|t| (t.name.as_str(), &t.parameters))
        .collect();
    let g = gbnf(&pairs, &Envelope::json()).map_err(|e| {
        BackendError::Generation(format!(
            "cannot build a grammar from the tool schemas: {e} (use grammar off)"
        ))
    })?;
    let mut out = String::with_capacity(g.text.len() + ROOT.len());
    out.push_str(ROOT);
    out.push('\n');
    for line in g.text.lines().filter(|l| !l.starts_with("root ::=")) {
        out.push_str(line);
        out.push('\n');
    }
    Ok(out)
}

/// A grammar sampler for `mode` (not `Off`).
///
/// # Errors
/// [`BackendError::Generation`] when the grammar cannot be built or llama.cpp refuses it.
pub(super) fn sampler(
    model: &LlamaModel,
    tools: &[ToolDef],
    mode: GrammarMode,
) -> Result<LlamaSampler, BackendError> {
    let text = text(tools)?;
    let refused = |e: &dyn std::fmt::Display| {
        BackendError::Generation(format!(
            "llama.cpp refused the tool grammar: {e} (use grammar off)"
        ))
    };
    match mode {
        GrammarMode::Lazy => {
            let patterns: Vec<String> = TRIGGERS.iter().map(|p| (*p).to_owned()).collect();
            LlamaSampler::grammar_lazy_patterns(model, &text, "root", &patterns, &[])
                .map_err(|e| refused(&e))
        }
        _ => LlamaSampler::grammar(model, &text, "root").map_err(|e| refused(&e)),
    }
}
