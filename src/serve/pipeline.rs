//! The recoverer `toolmend serve` uses: toolmend's one path (extract → repair → decode) applied to
//! one choice of an answer.
//!
//! Native calls to a known tool have their arguments repaired; calls to tools the request did not
//! offer are left exactly as the upstream sent them (toolmend invents nothing and drops nothing).

use std::sync::Arc;

use super::recover::{
    CallReport, ChoiceRecoverer, NativeCall, OutCall, Piece, Recover, Rejected, Tools, call_id,
};

/// The recovery pipeline of `toolmend serve`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Pipeline;

impl Recover for Pipeline {
    fn start(&self, tools: Arc<Tools>) -> Box<dyn ChoiceRecoverer> {
        Box::new(PipelineChoice { tools })
    }
}

struct PipelineChoice {
    tools: Arc<Tools>,
}

impl ChoiceRecoverer for PipelineChoice {
    fn push(&mut self, text: &str, out: &mut Vec<Piece>) {
        if !text.is_empty() {
            out.push(Piece::Content(text.to_owned()));
        }
    }

    fn finish(&mut self, natives: Vec<NativeCall>, out: &mut Vec<Piece>) {
        for n in natives {
            out.extend(native(&self.tools, n));
        }
    }
}

/// One native call through repair (and decode, against the tool's schema).
fn native(tools: &Tools, n: NativeCall) -> Vec<Piece> {
    let untouched = |n: NativeCall, changed: bool| OutCall {
        id: n.id.clone().unwrap_or_else(call_id),
        report: CallReport {
            name: n.name.clone(),
            envelope: "native".into(),
            changed,
            ..CallReport::default()
        },
        name: n.name,
        arguments: n.arguments,
    };
    if tools.get(&n.name).is_none() {
        return vec![Piece::Call(untouched(n, false))];
    }
    let text = if n.arguments.trim().is_empty() {
        "{}"
    } else {
        n.arguments.as_str()
    };
    match crate::repair::repair(text) {
        Ok(r) => {
            let fixes = r
                .fixes
                .iter()
                .map(|f| serde_json::to_value(f).unwrap_or_default())
                .collect();
            let arguments = r.text.into_owned();
            let changed = arguments != n.arguments;
            let mut call = untouched(n, changed);
            call.arguments = arguments;
            call.report.fixes = fixes;
            vec![Piece::Call(call)]
        }
        Err(e) => {
            let rejected = Rejected {
                name: n.name.clone(),
                reason: e.to_string(),
            };
            vec![Piece::Call(untouched(n, false)), Piece::Rejected(rejected)]
        }
    }
}
