//! `toolmend models`: the known models, their sizes, whether each is in the model folder, and the
//! exact command that fetches a missing one.

use std::io::Write;
use std::process::ExitCode;

use toolmend::backend::gguf::GgufMetadata;
use toolmend::backend::models::{self, Presence};

/// Arguments of `toolmend models`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print one JSON object (`{"dir", "models": [...]}`) instead of a table.
    #[arg(long)]
    json: bool,
}

/// What the chat template of a present model does with tools (read from its GGUF metadata).
fn template_kind(path: &std::path::Path) -> String {
    match GgufMetadata::read(path) {
        Ok(meta) => match meta.chat_template() {
            Some(t) if t.contains("tools") => "own template with tools".into(),
            Some(_) => "own template, toolmend tool prompt".into(),
            None => format!(
                "no template: built-in {} format, toolmend tool prompt",
                if meta.architecture().is_some_and(|a| a.starts_with("gemma")) {
                    "gemma"
                } else {
                    "chatml"
                }
            ),
        },
        Err(e) => format!("unreadable: {e}"),
    }
}

/// Runs `toolmend models`.
pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let dir = models::dir();
    let mut out = std::io::stdout().lock();
    let rows: Vec<_> = models::KNOWN
        .iter()
        .map(|m| {
            let presence = m.presence_in(&dir);
            let template =
                (presence == Presence::Present).then(|| template_kind(&dir.join(m.file)));
            (m, presence, template)
        })
        .collect();
    if args.json {
        let list: Vec<_> = rows
            .iter()
            .map(|(m, p, template)| {
                serde_json::json!({
                    "name": m.name,
                    "default": m.name == models::DEFAULT,
                    "file": m.file,
                    "size": m.size,
                    "sha256": m.sha256,
                    "summary": m.summary,
                    "present": *p == Presence::Present,
                    "status": match p {
                        Presence::Present => "present".to_owned(),
                        Presence::WrongSize(n) => format!("wrong size ({n} bytes)"),
                        Presence::Missing => "missing".to_owned(),
                    },
                    "path": dir.join(m.file),
                    "template": template,
                    "fetch": m.fetch_command(),
                })
            })
            .collect();
        writeln!(
            out,
            "{}",
            serde_json::json!({"dir": dir, "env": models::MODELS_ENV, "models": list})
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "models in {} (set {} to change)",
        dir.display(),
        models::MODELS_ENV
    )?;
    for (m, p, template) in &rows {
        #[allow(clippy::cast_precision_loss)]
        let mb = m.size as f64 / 1_000_000.0;
        let default = if m.name == models::DEFAULT {
            " (default)"
        } else {
            ""
        };
        let status = match p {
            Presence::Present => format!("present — {}", template.as_deref().unwrap_or("")),
            Presence::WrongSize(n) => format!(
                "incomplete ({n} of {} bytes) — refetch: {}",
                m.size,
                m.fetch_command()
            ),
            Presence::Missing => format!("missing — fetch: {}", m.fetch_command()),
        };
        writeln!(out, "{:<20} {mb:>6.1} MB  {status}{default}", m.name)?;
        writeln!(out, "{:<20} {}", "", m.summary)?;
    }
    Ok(ExitCode::SUCCESS)
}
