//! `toolmend tools [--dialect D]`: the built-in tools and their argument schemas as one JSON array
//! on stdout. Without `--dialect`: toolmend's own specs (name, description, parameters,
//! annotations, example). With one: each tool in the provider's shape, and the report of what the
//! conversion dropped or changed on stderr (`--json`: as one JSON line per keyword instead).

use std::io::Write;
use std::process::ExitCode;

use toolmend::schema::Dialect;

/// Arguments of `toolmend tools`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the tools in this provider's dialect.
    #[arg(long, value_enum)]
    dialect: Option<DialectArg>,
    /// Print the dropped-keyword report on stderr as JSON lines.
    #[arg(long)]
    json: bool,
}

/// The dialects on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum DialectArg {
    /// OpenAI `function.parameters`.
    Openai,
    /// OpenAI with `strict: true`.
    OpenaiStrict,
    /// Anthropic `input_schema`.
    Anthropic,
    /// Gemini function declarations.
    Gemini,
    /// Ollama `function.parameters`.
    Ollama,
}

impl DialectArg {
    fn dialect(self) -> Dialect {
        match self {
            Self::Openai => Dialect::OpenAi,
            Self::OpenaiStrict => Dialect::OpenAiStrict,
            Self::Anthropic => Dialect::Anthropic,
            Self::Gemini => Dialect::Gemini,
            Self::Ollama => Dialect::Ollama,
        }
    }
}

/// Runs `toolmend tools`.
pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    // The specs do not depend on the root; any existing directory will do.
    let snap = toolmend::builtin::registry(&std::env::temp_dir())?.snapshot();
    let mut out = std::io::stdout().lock();
    let Some(d) = args.dialect else {
        writeln!(out, "{}", serde_json::to_string_pretty(&snap.specs())?)?;
        return Ok(ExitCode::SUCCESS);
    };
    let exported = snap.export(d.dialect());
    let tools: Vec<_> = exported.iter().map(|e| e.to_provider_json()).collect();
    writeln!(out, "{}", serde_json::to_string_pretty(&tools)?)?;
    for e in &exported {
        for dropped in &e.dropped {
            if args.json {
                let line = serde_json::json!({"tool": e.name, "dropped": dropped});
                eprintln!("{line}");
            } else {
                // The action's wire name (`moved_to_description`), as in the `--json` form.
                let action = serde_json::to_value(dropped.action)?;
                eprintln!(
                    "{}: {} at `{}` {}: {}",
                    e.name,
                    dropped.keyword,
                    dropped.path,
                    action.as_str().unwrap_or("?"),
                    dropped.detail
                );
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
