//! `toolmend eval bfcl`: record a model's raw outputs on the BFCL data, or replay recordings and
//! score them under the `strict`, `extract` and `full` parsers.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use toolmend::eval::data::{self, DEFAULT_CATEGORIES_ARG};
use toolmend::eval::parse::{self, FullPolicy, ParserKind, StrictFormat};
use toolmend::eval::record::{self, Recorder, RunSettings};
use toolmend::eval::report::{self, DataSet};
use toolmend::eval::score;

/// Arguments of `toolmend eval`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    bench: Bench,
}

#[derive(Debug, clap::Subcommand)]
enum Bench {
    /// The Berkeley Function Calling Leaderboard (BFCL v4) single-turn categories.
    Bfcl(BfclArgs),
    /// Agent tasks: prompts run through the whole tool loop on a fresh copy of a folder, judged
    /// by the answer and by the folder afterwards.
    Tasks(crate::run::TasksArgs),
}

/// Arguments of `toolmend eval bfcl`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("mode").required(true).args(["record", "replay"])))]
pub struct BfclArgs {
    /// The BFCL data folder (default: $TOOLMEND_BFCL_DATA, else ~/.cache/toolmend/bfcl/data, where
    /// scripts/fetch-bfcl puts it).
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// Record: the model, a known short name (qwen2.5-coder:0.5b, smollm2:135m, …) or a .gguf path.
    #[arg(long, value_name = "NAME|PATH.gguf", conflicts_with = "ollama")]
    model: Option<String>,
    /// Record: an Ollama model instead of the embedded one.
    #[arg(long, value_name = "MODEL")]
    ollama: Option<String>,
    /// Record: the Ollama server (default http://127.0.0.1:11434).
    #[arg(long, value_name = "URL", env = "OLLAMA_HOST")]
    ollama_host: Option<String>,
    /// Comma-separated categories.
    #[arg(long, value_delimiter = ',', default_value = DEFAULT_CATEGORIES_ARG)]
    categories: Vec<String>,
    /// Record at most N questions per category.
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Skip the first K questions of each category.
    #[arg(long, value_name = "K", default_value_t = 0)]
    offset: usize,
    /// Record raw outputs, appending to DIR/<model>.jsonl (ids already there are skipped).
    #[arg(long, value_name = "DIR")]
    record: Option<PathBuf>,
    /// Score every *.jsonl in DIR (or one .jsonl file) without a model.
    #[arg(long, value_name = "DIR")]
    replay: Option<PathBuf>,
    /// Replay: print one JSON object per recording instead of Markdown.
    #[arg(long)]
    json: bool,
    /// Replay: include per-question results (with --json).
    #[arg(long)]
    details: bool,
    /// Full parser: rename a call to an unknown function whose arguments fit exactly one offered
    /// function (a riskier repair, reported separately).
    #[arg(long)]
    rename_by_arguments: bool,
    /// Record: most tokens generated per question.
    #[arg(long, default_value_t = 384)]
    max_tokens: u32,
    /// Record: sampling seed (sampling is greedy).
    #[arg(long, default_value_t = 42)]
    seed: u32,
    /// Record: the envelope the model's template documents, for the strict parser (default: from
    /// the template when the backend exposes it, else guessed from the model name).
    #[arg(long, value_enum)]
    strict_format: Option<StrictFormatArg>,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum StrictFormatArg {
    ToolCallTags,
    BareJson,
}

/// Runs `toolmend eval`.
pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    match &args.bench {
        Bench::Tasks(a) => crate::run::tasks(a),
        Bench::Bfcl(a) => {
            if let Some(dir) = &a.replay {
                replay(a, dir)
            } else if let Some(dir) = &a.record {
                record_run(a, dir)
            } else {
                anyhow::bail!("give --record DIR or --replay DIR")
            }
        }
    }
}

fn replay(a: &BfclArgs, path: &Path) -> anyhow::Result<ExitCode> {
    let data_dir = data::locate(a.data.as_deref())?;
    let files = if path.is_file() {
        vec![path.to_path_buf()]
    } else {
        record::list_files(path)?
    };
    if files.is_empty() {
        eprintln!("no *.jsonl recordings in {}", path.display());
        return Ok(ExitCode::from(1));
    }
    let policy = FullPolicy {
        rename_by_arguments: a.rename_by_arguments,
    };
    let mut data = DataSet::new(&data_dir);
    let mut out = std::io::stdout().lock();
    for file in files {
        let lines = record::read_file(&file)?;
        let r = report::score_run(&lines, &mut data, policy, a.details)
            .with_context(|| format!("scoring {}", file.display()))?;
        if a.json {
            writeln!(out, "{}", serde_json::to_string(&r)?)?;
        } else {
            write!(out, "{}", report::markdown(&r))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn record_run(a: &BfclArgs, dir: &Path) -> anyhow::Result<ExitCode> {
    let data_dir = data::locate(a.data.as_deref())?;
    let mut questions = Vec::new();
    let mut categories = Vec::new();
    for name in &a.categories {
        let c = data::load_category(&data_dir, name)?;
        let end = a
            .limit
            .map_or(c.questions.len(), |l| (a.offset + l).min(c.questions.len()));
        questions.extend(
            c.questions
                .iter()
                .skip(a.offset)
                .take(end.saturating_sub(a.offset))
                .cloned(),
        );
        categories.push(c);
    }
    let (mut backend, model, model_file, detected) = open_backend(a)?;
    let strict_format = match a.strict_format {
        Some(StrictFormatArg::ToolCallTags) => StrictFormat::ToolCallTags,
        Some(StrictFormatArg::BareJson) => StrictFormat::BareJson,
        None => detected,
    };
    let settings = RunSettings {
        model: model.clone(),
        model_file,
        strict_format,
        options: toolmend::backend::GenerateOptions {
            max_tokens: a.max_tokens,
            temperature: 0.0,
            seed: a.seed,
            grammar: toolmend::backend::GrammarMode::Off,
        },
    };
    let path = dir.join(record::file_name(&model));
    let mut recorder = Recorder::open(&path)?;
    let todo: Vec<_> = questions.iter().filter(|q| !recorder.has(&q.id)).collect();
    eprintln!(
        "recording {} of {} questions into {} ({} already recorded)",
        todo.len(),
        questions.len(),
        path.display(),
        questions.len() - todo.len()
    );
    let interrupted = Arc::new(AtomicBool::new(false));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    {
        let flag = interrupted.clone();
        runtime.spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                flag.store(true, Ordering::SeqCst);
                eprintln!(
                    "\ninterrupted: stopping after the current question (recorded lines are kept)"
                );
            }
        });
    }
    let bar = indicatif::ProgressBar::new(todo.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} {elapsed_precise} eta {eta} {msg}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let (mut scored, mut correct) = (0u32, 0u32);
    for q in todo {
        if interrupted.load(Ordering::SeqCst) {
            break;
        }
        let line = runtime.block_on(record::generate_one(backend.as_mut(), q, &settings))?;
        recorder.append(&line)?;
        let cat = categories.iter().find(|c| c.name == q.category);
        let truth = cat
            .and_then(|c| c.answers.get(&q.id))
            .map_or(&[][..], Vec::as_slice);
        let parsed = parse::parse(
            ParserKind::Full,
            &line.output,
            strict_format,
            &q.functions,
            FullPolicy::default(),
        );
        scored += 1;
        if score::check(&q.category, &q.functions, &parsed.calls, truth).is_ok() {
            correct += 1;
        }
        bar.set_message(format!(
            "full {:.1}% of {scored}",
            f64::from(correct) * 100.0 / f64::from(scored)
        ));
        bar.inc(1);
    }
    bar.finish();
    eprintln!(
        "{} questions recorded in {}",
        recorder.len(),
        path.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The backend for `--model` / `--ollama`: the backend, its short name, its model file and the
/// envelope its template documents.
type Opened = (
    Box<dyn toolmend::backend::Backend>,
    String,
    Option<String>,
    StrictFormat,
);

fn open_backend(a: &BfclArgs) -> anyhow::Result<Opened> {
    if let Some(model) = &a.ollama {
        return open_ollama(a, model);
    }
    open_llama(a)
}

#[cfg(feature = "ollama")]
fn open_ollama(a: &BfclArgs, model: &str) -> anyhow::Result<Opened> {
    use toolmend::backend::ollama::{DEFAULT_HOST, OllamaBackend};
    let host = a
        .ollama_host
        .clone()
        .unwrap_or_else(|| DEFAULT_HOST.to_owned());
    let backend = OllamaBackend::new(&host, model)?;
    // Ollama parses the template's envelope itself and returns `tool_calls`: that is strict.
    Ok((
        Box::new(backend),
        format!("ollama-{model}"),
        None,
        StrictFormat::Native,
    ))
}

#[cfg(not(feature = "ollama"))]
fn open_ollama(_: &BfclArgs, _: &str) -> anyhow::Result<Opened> {
    anyhow::bail!(
        "--ollama needs the Ollama backend: build with the default features (feature `ollama`)"
    )
}

#[cfg(feature = "llama")]
fn open_llama(a: &BfclArgs) -> anyhow::Result<Opened> {
    use toolmend::backend::llama::{LlamaBackend, LlamaOptions};
    let model = a.model.as_deref().unwrap_or("qwen2.5-coder:0.5b");
    // Every question starts from an empty KV cache: greedy output then depends only on the
    // question, so a resumed recording continues exactly as an uninterrupted one would.
    let options = LlamaOptions {
        prompt_cache: false,
        ..LlamaOptions::default()
    };
    let backend =
        LlamaBackend::load(model, options, |_| {}).with_context(|| format!("loading {model}"))?;
    let info = backend.info().clone();
    // A template with its own tool support documents `<tool_call>` blocks (Qwen2.5, Hermes);
    // without it toolmend's own tool prompt asks for a bare JSON call.
    let strict = if info.template_tools {
        StrictFormat::ToolCallTags
    } else {
        StrictFormat::BareJson
    };
    eprintln!(
        "loaded {} ({}; template: {}, tool support in the template: {}) in {:.0} ms",
        info.name,
        info.path.display(),
        info.template,
        info.template_tools,
        info.load_ms
    );
    let file = info
        .path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned());
    Ok((Box::new(backend), info.name, file, strict))
}

#[cfg(not(feature = "llama"))]
fn open_llama(_: &BfclArgs) -> anyhow::Result<Opened> {
    anyhow::bail!(
        "recording with --model needs the embedded llama backend: build with the default features (feature `llama`){}",
        if cfg!(feature = "ollama") {
            ", or use --ollama MODEL"
        } else {
            ""
        }
    )
}
