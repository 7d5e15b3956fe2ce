//! `toolmend run` and `toolmend chat`: a model, the built-in file tools (or tools from a file), and
//! the tool loop, with every call rendered as it happens.
//!
//! Rendering (stdout): the model's text as it streams, without its calls (text that may start a
//! call is held back until it is known not to be one), then per call `🔧 name {args}` (`(cut
//! off: not run)` after a call the token limit cut short), and `✓ name (12 ms) short output` or
//! `✗ name: error`. Colours only when stdout is a terminal and `NO_COLOR` is unset. Diagnostics
//! (model loading with a progress bar, the end-of-run summary with tokens per second, toolmend's
//! own share of the time and the tools' run time apart) go to stderr. With `--json`, stdout is
//! the event stream as JSON Lines (see [`toolmend::agent::AgentEvent`]).
//!
//! Exit status of `run`: 0 when the model answered, 1 when the run ended without an answer (turn
//! budget, repeated failing call, empty output, an echo or a refusal instead of an answer, a
//! backend failure mid-run, a conversation that outgrew the context mid-run), 2 for usage or set-up errors (no such model, unreachable
//! server, bad root, a prompt that does not fit the context from the first turn), 130 when
//! Ctrl-C stopped it (the run stops at the next token, starts no further call, and still ends
//! with `Done` and the summary; a second Ctrl-C ends it at once), 141 when stdout went away (a
//! closed pipe: the run stops before any further call).
//!
//! `chat` exits with the status of its last prompt (0 when there was none) at `/exit` or the end
//! of input; Ctrl-C stops the current answer and returns to the prompt (the interrupted prompt is
//! dropped from the conversation), Ctrl-C at the prompt exits with 130. When stdin is not a
//! terminal, the human view echoes each prompt on stdout as `› prompt` before its answer, so a
//! piped transcript shows which answer belongs to which prompt.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use anyhow::Context;
use toolmend::agent::{
    Agent, AgentEvent, AgentOptions, EndReason, Interrupt, RunStats, Toolbox, Transcript,
};
use toolmend::backend::{
    Backend, BackendError, BoxFuture, GenerateOptions, GrammarMode, Request, Sink, Stats,
};

/// Options shared by `run` and `chat`.
#[derive(Debug, Clone, clap::Args)]
pub struct Common {
    /// GGUF file or known short name (`qwen2.5-coder:0.5b`, `smollm2:135m`, `gemma3:270m`),
    /// run embedded through llama.cpp.
    #[arg(long, default_value = "qwen2.5-coder:0.5b", conflicts_with = "ollama")]
    model: String,
    /// Use a model served by Ollama instead of an embedded one.
    #[arg(long, value_name = "MODEL")]
    ollama: Option<String>,
    /// Ollama server URL (loopback unless told otherwise).
    #[arg(long, default_value = "http://127.0.0.1:11434", requires = "ollama")]
    host: String,
    /// Replay recorded model outputs (JSON Lines) instead of running a model: for tests and demos.
    #[arg(long, value_name = "FILE", hide = true, conflicts_with = "ollama")]
    script: Option<PathBuf>,
    /// `builtin` (ls, read, grep, glob, write, edit inside --root), `read-only` (ls, read, grep,
    /// glob), single built-in names, JSON files of command tools: any of them, separated by commas.
    #[arg(long, default_value = "builtin")]
    tools: String,
    /// When to ask before a call of a tool that changes things (write, edit, a command tool not
    /// marked read-only) runs: `auto` asks when stdin is a terminal, `always` asks and reads each
    /// answer as a line of stdin even from a pipe, `never` runs them without asking. Answers: `y`
    /// runs the call, `a` runs it and every later call of that tool, anything else refuses it.
    #[arg(long, value_enum, default_value = "auto")]
    ask: Ask,
    /// Directory the built-in tools work in (nothing outside it is read or written) and command
    /// tools run in.
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// Print the events as JSON Lines instead of the rendered transcript.
    #[arg(long)]
    json: bool,
    /// Most model turns per prompt (at least 1).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..))]
    turns: u32,
    /// Most tokens per model turn (at least 1).
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u32).range(1..))]
    max_tokens: u32,
    /// Sampling temperature (0 = greedy).
    #[arg(long, default_value_t = 0.0, value_parser = parse_temperature)]
    temperature: f32,
    /// Sampling seed.
    #[arg(long, default_value_t = 42)]
    seed: u32,
    /// Grammar-constrained generation from the tool schemas (embedded models): off, lazy, strict.
    #[arg(long, default_value = "off", value_parser = parse_grammar)]
    grammar: GrammarMode,
    /// Generation threads for embedded models (1 holds its speed on a busy machine).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// Context size in tokens (at least 256): the embedded model's, or Ollama's `num_ctx`, sent
    /// with every request. Tool results that would not fit are cut (for Ollama by an estimate of
    /// the tokens: it cannot count them).
    #[arg(long, default_value_t = 4096, value_parser = clap::value_parser!(u32).range(256..))]
    ctx: u32,
    /// A system prompt placed first in the conversation.
    #[arg(long)]
    system: Option<String>,
    /// Tools offered for a request phrased as a question (`Which…?`, `Does…?`, ending in `?`):
    /// `read-only` withholds the tools that change files (write, edit) and refuses their calls,
    /// since a question never needs a file changed; `all` offers every tool.
    #[arg(long, value_enum, default_value = "read-only")]
    questions: Questions,
}

/// Arguments of `toolmend run`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to ask the model.
    prompt: String,
    #[command(flatten)]
    common: Common,
}

/// Arguments of `toolmend chat`.
#[derive(Debug, clap::Args)]
pub struct ChatArgs {
    #[command(flatten)]
    common: Common,
}

fn parse_temperature(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(t) if t.is_finite() && t >= 0.0 => Ok(t),
        _ => Err(format!(
            "{s:?} is no temperature: use a number from 0 (greedy) up"
        )),
    }
}

fn parse_grammar(s: &str) -> Result<GrammarMode, String> {
    match s {
        "off" => Ok(GrammarMode::Off),
        "lazy" => Ok(GrammarMode::Lazy),
        "strict" => Ok(GrammarMode::Strict),
        _ => Err(format!(
            "unknown grammar mode {s:?}: use off, lazy or strict"
        )),
    }
}

/// Arguments of `toolmend eval tasks`.
#[derive(Debug, clap::Args)]
pub struct TasksArgs {
    /// The task file: JSON Lines of {"id", "prompt", "answer_contains"?, "unchanged"?, "files"?, "files_lack"?}
    /// (see `toolmend::eval::tasks`).
    #[arg(long, value_name = "FILE", default_value = "examples/tasks.jsonl")]
    tasks: PathBuf,
    /// The folder every task works on, copied afresh into a temporary folder for each task (the
    /// original is never touched; --root is not used).
    #[arg(long, value_name = "DIR", default_value = "examples/workspace")]
    workspace: PathBuf,
    /// Run only the tasks with these ids (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "ID")]
    only: Vec<String>,
    /// Keep every task's folder and transcript, passed ones too (a failed task's are always
    /// kept), to compare runs.
    #[arg(long)]
    keep: bool,
    #[command(flatten)]
    common: Common,
}

/// Runs `toolmend eval tasks`: each task through the whole tool loop on a fresh copy of the
/// workspace, judged by its checks. One line per task (`--json`: one JSON object per task, then
/// a summary object); exit 0 when every task passed, 1 when one failed, 2 for set-up errors.
pub fn tasks(args: &TasksArgs) -> anyhow::Result<ExitCode> {
    use toolmend::eval::tasks;
    let text = std::fs::read_to_string(&args.tasks)
        .with_context(|| format!("cannot read the task file {}", args.tasks.display()))?;
    let mut list = tasks::load(&text)?;
    if !args.only.is_empty() {
        if let Some(id) = args
            .only
            .iter()
            .find(|id| !list.iter().any(|t| &t.id == *id))
        {
            anyhow::bail!(
                "--only {id:?}: no task has that id in {}",
                args.tasks.display()
            );
        }
        list.retain(|t| args.only.contains(&t.id));
    }
    if !args.workspace.is_dir() {
        anyhow::bail!("--workspace {} is not a folder", args.workspace.display());
    }
    let rt = runtime()?;
    let mut agent: Option<CliAgent> = None;
    let running = Arc::new(AtomicBool::new(true));
    let mut passed = 0usize;
    let mut stdout = std::io::stdout().lock();
    // Each task's folder; removed when the task passed (unless --keep), kept to look at when it
    // failed.
    let base = std::env::temp_dir().join(format!("toolmend-tasks-{}", std::process::id()));
    for (i, task) in list.iter().enumerate() {
        let dir = base.join(&task.id);
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot make the folder {}", dir.display()))?;
        let before = tasks::copy_folder(&args.workspace, &dir)
            .with_context(|| format!("cannot copy {}", args.workspace.display()))?;
        let a = match agent.as_mut() {
            Some(a) => {
                a.set_tools(toolbox(&args.common.tools, &dir, None)?);
                a.reset();
                a
            }
            None => {
                let mut c = args.common.clone();
                c.root.clone_from(&dir);
                c.ask = Ask::Never;
                let Some(a) = setup(&c, &rt, None)? else {
                    return Ok(ExitCode::from(2));
                };
                on_ctrl_c(&rt, a.interrupt_handle(), running.clone());
                agent.insert(a)
            }
        };
        eprintln!("task {}/{}: {}", i + 1, list.len(), task.id);
        let transcript = rt.block_on(a.run(&task.prompt, &mut |_| {}));
        let outcome = tasks::judge(task, &before, &dir, &transcript)?;
        passed += usize::from(outcome.passed);
        // A failed task keeps its folder and, beside it, its transcript (every turn's raw
        // output, every call and what was fed back) to see why; with --keep every task does.
        let transcript_file = dir.with_extension("transcript.json");
        let kept = !outcome.passed || args.keep;
        if !kept {
            let _ = std::fs::remove_dir_all(&dir);
        } else {
            std::fs::write(&transcript_file, serde_json::to_string_pretty(&transcript)?)
                .with_context(|| format!("cannot write {}", transcript_file.display()))?;
        }
        if args.common.json {
            let mut line = serde_json::to_value(&outcome)?;
            if kept {
                line["folder"] = serde_json::Value::String(dir.display().to_string());
                line["transcript"] =
                    serde_json::Value::String(transcript_file.display().to_string());
            }
            writeln!(stdout, "{line}")?;
        } else {
            let calls = format!(
                "{} turn{}, {} call{} ({} failed)",
                outcome.turns,
                if outcome.turns == 1 { "" } else { "s" },
                outcome.calls,
                if outcome.calls == 1 { "" } else { "s" },
                outcome.failed_calls
            );
            if outcome.passed && kept {
                writeln!(
                    stdout,
                    "✓ {} · {calls} (folder kept: {}, transcript: {})",
                    outcome.id,
                    dir.display(),
                    transcript_file.display()
                )?;
            } else if outcome.passed {
                writeln!(stdout, "✓ {} · {calls}", outcome.id)?;
            } else {
                writeln!(
                    stdout,
                    "✗ {} · {calls} · {} (folder kept: {}, transcript: {})",
                    outcome.id,
                    outcome.failures.join("; "),
                    dir.display(),
                    transcript_file.display()
                )?;
            }
        }
        if transcript.end == EndReason::Interrupted {
            break;
        }
    }
    let _ = std::fs::remove_dir(&base); // only when no folder was kept
    if args.common.json {
        writeln!(
            stdout,
            "{}",
            serde_json::json!({"summary": {"tasks": list.len(), "passed": passed}})
        )?;
    } else {
        writeln!(stdout, "{passed} of {} tasks passed", list.len())?;
    }
    Ok(if passed == list.len() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// When `--ask` asks before a tool that changes things runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Ask {
    /// When stdin is a terminal.
    Auto,
    /// Always, reading the answers from stdin.
    Always,
    /// Never: such calls run without asking.
    Never,
}

/// Which tools `--questions` offers for a request phrased as a question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Questions {
    /// Only the tools that change no files.
    ReadOnly,
    /// Every tool.
    All,
}

/// Lines of stdin, read on a thread of their own so that `chat`'s prompts and the answers to
/// `--ask` questions come from one place, in order.
#[derive(Clone)]
struct Input(Arc<Mutex<mpsc::Receiver<std::io::Result<String>>>>);

impl Input {
    fn stdin() -> Self {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::stdin().lock().lines() {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Self(Arc::new(Mutex::new(rx)))
    }

    /// The next line, `None` at the end of input.
    fn next_line(&self) -> Option<std::io::Result<String>> {
        self.0.lock().ok()?.recv().ok()
    }
}

/// Asks on stderr before a call of a tool that changes things runs; the answer is the next line
/// of `input` (`y`/`yes` allows it, `a`/`always` allows it and every later call of that tool;
/// anything else, or the end of input, refuses it).
fn asking(input: Input) -> toolmend::dispatch::Approver {
    // Tools answered `a` (always): not asked about again while this process runs.
    let always: Mutex<std::collections::HashSet<String>> = Mutex::default();
    toolmend::dispatch::Approver::new(move |tool, args| {
        if always.lock().is_ok_and(|a| a.contains(tool)) {
            return true;
        }
        eprint!(
            "allow `{tool}` {}? [y/N/a = always `{tool}`] ",
            short(&args.to_string(), 200)
        );
        let _ = std::io::stderr().flush();
        match input.next_line() {
            Some(Ok(line)) => match line.trim().to_lowercase().as_str() {
                "y" | "yes" => true,
                "a" | "always" => {
                    if let Ok(mut a) = always.lock() {
                        a.insert(tool.to_owned());
                    }
                    true
                }
                _ => false,
            },
            _ => {
                eprintln!();
                false
            }
        }
    })
}

/// Exit status when Ctrl-C stopped a run (128 + SIGINT, as shells report it).
const EXIT_INTERRUPTED: u8 = 130;
/// Exit status when stdout went away (128 + SIGPIPE, as shells report it).
const EXIT_STDOUT_CLOSED: u8 = 141;

/// Runs `toolmend run`.
pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let rt = runtime()?;
    let Some(mut agent) = setup(&args.common, &rt, None)? else {
        return Ok(ExitCode::from(2));
    };
    let interrupt = agent.interrupt_handle();
    let running = Arc::new(AtomicBool::new(true));
    on_ctrl_c(&rt, interrupt.clone(), running);
    let mut render = Render::new(args.common.json, interrupt);
    let transcript = rt.block_on(agent.run(&args.prompt, &mut |e| render.event(e)));
    if let Some(code) = render.finish()? {
        return Ok(code);
    }
    Ok(exit_code(&transcript))
}

/// Handles Ctrl-C: while a prompt runs (`running`), the first one interrupts it and a second
/// ends the process at once; at the prompt of `chat` (not `running`) it ends the process.
fn on_ctrl_c(rt: &tokio::runtime::Runtime, interrupt: Interrupt, running: Arc<AtomicBool>) {
    rt.spawn(async move {
        while tokio::signal::ctrl_c().await.is_ok() {
            if running.load(Ordering::SeqCst) && !interrupt.is_set() {
                interrupt.interrupt();
            } else {
                let _ = std::io::stdout().flush();
                eprintln!();
                std::process::exit(i32::from(EXIT_INTERRUPTED));
            }
        }
    });
}

/// Runs `toolmend chat`: one prompt per line, the conversation kept between prompts.
/// `/reset` starts over, `/history` lists the prompts so far, `/exit` (or end of input) quits.
pub fn chat(args: &ChatArgs) -> anyhow::Result<ExitCode> {
    let rt = runtime()?;
    let input = Input::stdin();
    let Some(mut agent) = setup(&args.common, &rt, Some(input.clone()))? else {
        return Ok(ExitCode::from(2));
    };
    let interrupt = agent.interrupt_handle();
    let running = Arc::new(AtomicBool::new(false));
    on_ctrl_c(&rt, interrupt.clone(), running.clone());
    let interactive = std::io::stdin().is_terminal();
    if interactive {
        eprintln!(
            "toolmend chat with {}: /exit to quit, /reset to start over, /history to list your prompts",
            agent.backend().name()
        );
    }
    let mut prompts: Vec<String> = Vec::new();
    let mut last = ExitCode::SUCCESS;
    loop {
        if interactive {
            eprint!("› ");
            std::io::stderr().flush().ok();
        }
        let Some(line) = input.next_line() else {
            break;
        };
        let line = line.context("cannot read stdin")?;
        let prompt = line.trim();
        match prompt {
            "" => continue,
            "/exit" | "/quit" => break,
            "/reset" => {
                agent.reset();
                prompts.clear();
                eprintln!("(conversation cleared)");
                continue;
            }
            "/history" => {
                for (i, p) in prompts.iter().enumerate() {
                    eprintln!("{:>3}  {p}", i + 1);
                }
                continue;
            }
            _ => {}
        }
        prompts.push(prompt.to_owned());
        let mut render = Render::new(args.common.json, interrupt.clone());
        if !interactive && !args.common.json {
            // Piped: show which prompt the answer that follows belongs to.
            render.prompt(prompt);
        }
        running.store(true, Ordering::SeqCst);
        let transcript = rt.block_on(agent.run(prompt, &mut |e| render.event(e)));
        running.store(false, Ordering::SeqCst);
        if let Some(code) = render.finish()? {
            return Ok(code);
        }
        if transcript.end == EndReason::Interrupted {
            // The answer was stopped; the prompt it belonged to is not kept.
            prompts.pop();
        }
        last = exit_code(&transcript);
    }
    Ok(last)
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

fn exit_code(t: &Transcript) -> ExitCode {
    match t.end {
        EndReason::Answered | EndReason::AnswerCutOff | EndReason::ContextFull => ExitCode::SUCCESS,
        EndReason::Interrupted => ExitCode::from(EXIT_INTERRUPTED),
        // The prompt does not fit before anything was generated: a set-up error (--ctx).
        EndReason::PromptTooLong if t.turns.len() <= 1 => ExitCode::from(2),
        _ => ExitCode::from(1),
    }
}

/// The agent the CLI runs: any backend, any toolbox.
type CliAgent = Agent<AnyBackend, Box<dyn Toolbox>>;

/// Builds the backend and the tools; `None` after printing a set-up error (exit 2). A server
/// backend is asked, before the first turn, whether it answers and has the model. `--ask`
/// answers come from `input` (stdin is read from when none is given and asking is on).
fn setup(
    c: &Common,
    rt: &tokio::runtime::Runtime,
    input: Option<Input>,
) -> anyhow::Result<Option<CliAgent>> {
    let ask = match c.ask {
        Ask::Always => true,
        Ask::Never => false,
        Ask::Auto => std::io::stdin().is_terminal(),
    };
    let approve = ask.then(|| asking(input.unwrap_or_else(Input::stdin)));
    let tools = match toolbox(&c.tools, &c.root, approve) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e:#}");
            return Ok(None);
        }
    };
    let backend = match backend(c, rt) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(None);
        }
    };
    let options = AgentOptions {
        max_turns: c.turns,
        generate: GenerateOptions {
            max_tokens: c.max_tokens,
            temperature: c.temperature,
            seed: c.seed,
            grammar: c.grammar,
        },
        system_prompt: c.system.clone(),
        questions_read_only: c.questions == Questions::ReadOnly,
        // The dispatcher already retries world faults with backoff.
        world_retries: 0,
        ..AgentOptions::default()
    };
    Ok(Some(Agent::new(backend, tools, options)))
}

/// The tools for `--tools`: a comma-separated list of `builtin` (the file tools inside `root`),
/// `read-only` (those that only read), single built-in tool names, and JSON files of command
/// tools (see [`CommandTool`]).
fn toolbox(
    spec: &str,
    root: &std::path::Path,
    approve: Option<toolmend::dispatch::Approver>,
) -> anyhow::Result<Box<dyn Toolbox>> {
    use toolmend::builtin::{NAMES, READ_ONLY};
    use toolmend::dispatch::{Dispatcher, Policy};
    let registry = toolmend::tools::Registry::new();
    let mut builtins: Vec<&str> = Vec::new();
    let mut files = Vec::new();
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part {
            "builtin" => builtins.extend(NAMES),
            "read-only" => builtins.extend(READ_ONLY),
            name if NAMES.contains(&name) => builtins.push(name),
            file => files.push(file),
        }
    }
    if !builtins.is_empty() {
        toolmend::builtin::register_some(&registry, root, |n| builtins.contains(&n))?;
    }
    for part in files {
        let path = std::path::Path::new(part);
        if !path.is_file() {
            anyhow::bail!(
                "--tools {part:?} is neither a built-in tool nor a file: pass `builtin` (all of {}), `read-only` ({}), single names among them, or a JSON file of command tools, separated by commas",
                NAMES.join(" "),
                READ_ONLY.join(" ")
            );
        }
        for tool in CommandTool::load(path, root)? {
            registry
                .insert(std::sync::Arc::new(tool), Some(part.to_owned()))
                .with_context(|| format!("a tool in {part} has an unusable parameter schema"))?;
        }
    }
    if registry.snapshot().is_empty() {
        anyhow::bail!(
            "--tools {spec:?} names no tools: pass `builtin` or a JSON file of command tools"
        );
    }
    Ok(Box::new(toolmend::agent::DispatchToolbox::new(
        Dispatcher::new(
            registry,
            Policy {
                approve,
                ..Policy::default()
            },
        ),
    )))
}

/// A tool run as a program, declared in a JSON file given to `--tools`:
///
/// ```json
/// [{"name": "weather", "description": "Current weather for a city.",
///   "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
///   "command": ["python3", "weather.py"]}]
/// ```
///
/// The decoded, validated arguments arrive as one JSON object on the program's stdin; it runs in
/// `--root`. Exit 0: its stdout is the result. Exit 2: the arguments were wrong (the model's
/// fault; stderr is the message the model sees). Any other exit, or no exit within the time limit
/// (30 s): the world's fault.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CommandTool {
    name: String,
    description: String,
    parameters: serde_json::Value,
    command: Vec<String>,
    #[serde(default)]
    example: Option<serde_json::Value>,
    #[serde(skip)]
    root: PathBuf,
}

impl CommandTool {
    fn load(path: &std::path::Path, root: &std::path::Path) -> anyhow::Result<Vec<Self>> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read tools file {}", path.display()))?;
        let mut tools: Vec<Self> = serde_json::from_str(&text).with_context(|| {
            format!(
                "{} is not a JSON array of tools ({{\"name\", \"description\", \"parameters\", \"command\": [program, args...]}})",
                path.display()
            )
        })?;
        for t in &mut tools {
            if t.command.is_empty() {
                anyhow::bail!(
                    "tool {:?} in {} has an empty command",
                    t.name,
                    path.display()
                );
            }
            t.root = root.to_path_buf();
        }
        Ok(tools)
    }

    /// Runs the program once: the arguments are written to its stdin while its stdout and stderr
    /// are read, each on its own thread, so a program that writes more than a pipe holds (or
    /// writes before it reads) never blocks on a full pipe. It is killed at the time limit; a
    /// program that exits while something it started still holds its output open counts as not
    /// finished. At most [`MAX_STDOUT`] / [`MAX_STDERR`] bytes are kept; the rest is read and
    /// dropped (the dispatcher cuts the result further for the model, with a note).
    fn run_blocking(&self, args: &serde_json::Value) -> Result<String, toolmend::tools::Failure> {
        use std::process::Stdio;
        use toolmend::tools::Failure;
        const LIMIT: std::time::Duration = std::time::Duration::from_secs(30);
        let world = |m: String| Failure::transient(self.name.clone(), m);
        let timeout = || Failure::Timeout {
            tool: self.name.clone(),
            after: LIMIT,
        };
        let mut child = std::process::Command::new(&self.command[0])
            .args(&self.command[1..])
            .current_dir(&self.root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| world(format!("cannot start {:?}: {e}", self.command[0])))?;
        let started = std::time::Instant::now();
        // Not joined: a program that never reads its stdin leaves the writer blocked until the
        // pipe closes (when the program is killed or exits).
        if let Some(mut stdin) = child.stdin.take() {
            let input = args.to_string().into_bytes();
            std::thread::spawn(move || {
                let _ = stdin.write_all(&input);
            });
        }
        let stdout = child
            .stdout
            .take()
            .map(|s| std::thread::spawn(move || read_capped(s, MAX_STDOUT)));
        let stderr = child
            .stderr
            .take()
            .map(|s| std::thread::spawn(move || read_capped(s, MAX_STDERR)));
        let drained = |h: &Option<std::thread::JoinHandle<Vec<u8>>>| {
            h.as_ref().is_none_or(std::thread::JoinHandle::is_finished)
        };
        let mut status = None;
        loop {
            if status.is_none() {
                status = child
                    .try_wait()
                    .map_err(|e| world(format!("cannot wait for the program: {e}")))?;
            }
            if status.is_some() && drained(&stdout) && drained(&stderr) {
                break;
            }
            if started.elapsed() > LIMIT {
                if status.is_none() {
                    let _ = child.kill();
                    let _ = child.wait();
                }
                return Err(timeout());
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let take = |h: Option<std::thread::JoinHandle<Vec<u8>>>| {
            h.and_then(|h| h.join().ok()).unwrap_or_default()
        };
        let stdout = String::from_utf8_lossy(&take(stdout)).into_owned();
        let stderr = String::from_utf8_lossy(&take(stderr)).trim().to_owned();
        match status.and_then(|s| s.code()) {
            Some(0) => Ok(stdout),
            Some(2) => Err(Failure::invalid_args(self.name.clone(), "", stderr)),
            code => Err(world(format!(
                "the program exited with {}: {stderr}",
                code.map_or_else(|| "a signal".to_owned(), |c| format!("status {c}"))
            ))),
        }
    }
}

/// Most bytes of a command tool's stdout kept (the model sees far less: the dispatcher's cap).
const MAX_STDOUT: usize = 1 << 20;
/// Most bytes of a command tool's stderr kept (it becomes an error message).
const MAX_STDERR: usize = 64 << 10;

/// Reads `r` to its end, keeping the first `max` bytes and dropping the rest, so the writer never
/// blocks on a full pipe however much it writes.
fn read_capped(mut r: impl std::io::Read, max: usize) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match r.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let room = max.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    kept
}

impl toolmend::tools::Tool for CommandTool {
    fn spec(&self) -> toolmend::tools::ToolSpec {
        let spec = toolmend::tools::ToolSpec::new(
            self.name.clone(),
            self.description.clone(),
            self.parameters.clone(),
        );
        match &self.example {
            Some(e) => spec.with_example(e.clone()),
            None => spec,
        }
    }

    fn call<'a>(
        &'a self,
        _ctx: &'a toolmend::tools::ToolContext,
        args: serde_json::Value,
    ) -> BoxFuture<'a, Result<toolmend::tools::Output, toolmend::tools::Failure>> {
        let tool = self.clone();
        Box::pin(async move {
            let name = tool.name.clone();
            match tokio::task::spawn_blocking(move || tool.run_blocking(&args)).await {
                Ok(r) => r.map(toolmend::tools::Output::text),
                Err(e) => Err(toolmend::tools::Failure::Panicked {
                    tool: name,
                    message: e.to_string(),
                }),
            }
        })
    }
}

fn backend(c: &Common, rt: &tokio::runtime::Runtime) -> Result<AnyBackend, BackendError> {
    if let Some(path) = &c.script {
        let text = std::fs::read_to_string(path).map_err(|e| {
            BackendError::Unavailable(format!("cannot read script {}: {e}", path.display()))
        })?;
        let b = toolmend::backend::scripted::ScriptedBackend::from_jsonl(&text)
            .map_err(|e| BackendError::Unavailable(e.to_string()))?;
        return Ok(AnyBackend(Box::new(b)));
    }
    if let Some(model) = &c.ollama {
        return ollama(&c.host, model, c.ctx, rt);
    }
    llama(c)
}

#[cfg(feature = "ollama")]
fn ollama(
    host: &str,
    model: &str,
    ctx: u32,
    rt: &tokio::runtime::Runtime,
) -> Result<AnyBackend, BackendError> {
    let b = toolmend::backend::ollama::OllamaBackend::new(host, model)?.with_context(ctx);
    rt.block_on(b.check())?;
    Ok(AnyBackend(Box::new(b)))
}

#[cfg(not(feature = "ollama"))]
fn ollama(
    _host: &str,
    _model: &str,
    _ctx: u32,
    _rt: &tokio::runtime::Runtime,
) -> Result<AnyBackend, BackendError> {
    Err(BackendError::Unavailable(
        "this toolmend was built without the `ollama` feature: rebuild with `--features ollama`"
            .into(),
    ))
}

#[cfg(feature = "llama")]
fn llama(c: &Common) -> Result<AnyBackend, BackendError> {
    use toolmend::backend::llama::{LlamaBackend, LlamaOptions};
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(100),
        indicatif::ProgressDrawTarget::stderr(),
    );
    bar.set_style(
        indicatif::ProgressStyle::with_template("loading {msg} {bar:30} {percent}%")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_message(c.model.clone());
    let progress_bar = bar.clone();
    let options = LlamaOptions {
        ctx: c.ctx,
        threads: c.threads,
        ..LlamaOptions::default()
    };
    let started = std::time::Instant::now();
    let loaded = LlamaBackend::load(&c.model, options, move |p| {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        progress_bar.set_position((p.clamp(0.0, 1.0) * 100.0) as u64);
    });
    bar.finish_and_clear();
    let b = loaded?;
    let info = b.info();
    eprintln!(
        "loaded {} in {:.0} ms ({} template{}, ctx {}, {} thread{})",
        info.name,
        if info.load_ms > 0.0 {
            info.load_ms
        } else {
            toolmend::agent::ms(started.elapsed())
        },
        info.template,
        if info.template_tools {
            " with tools"
        } else {
            ""
        },
        info.ctx,
        c.threads,
        if c.threads == 1 { "" } else { "s" },
    );
    Ok(AnyBackend(Box::new(b)))
}

#[cfg(not(feature = "llama"))]
fn llama(c: &Common) -> Result<AnyBackend, BackendError> {
    Err(BackendError::Unavailable(format!(
        "this toolmend was built without the `llama` feature, so --model {} cannot run: rebuild with default features, or use --ollama MODEL",
        c.model
    )))
}

/// Any backend behind one type.
struct AnyBackend(Box<dyn Backend>);

impl Backend for AnyBackend {
    fn name(&self) -> &str {
        self.0.name()
    }

    fn generate<'a>(
        &'a mut self,
        request: &'a Request,
        sink: &'a mut Sink<'_>,
    ) -> BoxFuture<'a, Result<Stats, BackendError>> {
        self.0.generate(request, sink)
    }

    fn context_size(&self) -> Option<u32> {
        self.0.context_size()
    }

    fn prompt_tokens(&self, request: &Request) -> Option<u32> {
        self.0.prompt_tokens(request)
    }
}

/// Renders events as they happen.
struct Render {
    json: bool,
    color: bool,
    at_line_start: bool,
    error: Option<std::io::Error>,
    /// Set when stdout goes away, so the run stops instead of running more tools unseen.
    interrupt: Interrupt,
}

const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";
const DIM: &str = "\x1b[2m";
const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[33m";
const CYAN: &str = "\x1b[36m";

impl Render {
    fn new(json: bool, interrupt: Interrupt) -> Self {
        let color = !json
            && std::io::stdout().is_terminal()
            && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
        Self {
            json,
            color,
            at_line_start: true,
            error: None,
            interrupt,
        }
    }

    fn paint(&self, code: &str, text: &str) -> String {
        if self.color {
            format!("{code}{text}{RESET}")
        } else {
            text.to_owned()
        }
    }

    /// Echoes a prompt (chat with piped input) so the transcript shows what was asked.
    fn prompt(&mut self, prompt: &str) {
        let line = format!("{} {prompt}\n", self.paint(BOLD, "›"));
        self.write(|_, out| out.write_all(line.as_bytes()));
    }

    fn event(&mut self, e: &AgentEvent) {
        // Diagnostics go to stderr even when stdout has gone away.
        if !self.json {
            match e {
                AgentEvent::Error { message } => {
                    self.write(|this, out| this.newline(out));
                    eprintln!("error: {message}");
                    return;
                }
                AgentEvent::Done { reason, stats, .. } => {
                    self.write(|this, out| this.newline(out));
                    eprintln!("{}", summary(*reason, stats));
                    return;
                }
                _ => {}
            }
        }
        if self.json {
            self.write(|_, out| {
                serde_json::to_writer(&mut *out, e)?;
                out.write_all(b"\n")
            });
        } else {
            self.write(|this, out| this.human(e, out));
        }
    }

    /// Runs `f` on stdout (then flushes) unless an earlier write failed; a failure is kept for
    /// [`Self::finish`] and stops the run: nobody sees what it would do next.
    fn write(
        &mut self,
        f: impl FnOnce(&mut Self, &mut std::io::StdoutLock<'static>) -> std::io::Result<()>,
    ) {
        if self.error.is_some() {
            return;
        }
        let mut out = std::io::stdout().lock();
        if let Err(err) = f(self, &mut out).and_then(|()| out.flush()) {
            self.error = Some(err);
            self.interrupt.interrupt();
        }
    }

    fn newline(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        if !self.at_line_start {
            out.write_all(b"\n")?;
            self.at_line_start = true;
        }
        Ok(())
    }

    fn human(&mut self, e: &AgentEvent, out: &mut impl Write) -> std::io::Result<()> {
        match e {
            // The raw output (calls included) is not shown: `Text` is its part that is no call.
            AgentEvent::Chunk { .. } | AgentEvent::Error { .. } | AgentEvent::Done { .. } => {}
            AgentEvent::Text { text, reasoning } => {
                if self.at_line_start && text.trim().is_empty() {
                    // Blank space around calls (between a call and the next) adds only empty lines.
                    return Ok(());
                }
                if *reasoning {
                    out.write_all(self.paint(DIM, text).as_bytes())?;
                } else {
                    out.write_all(text.as_bytes())?;
                }
                if !text.is_empty() {
                    self.at_line_start = text.ends_with('\n');
                }
            }
            AgentEvent::ToolStart {
                name,
                args,
                cut_off,
                ..
            } => {
                self.newline(out)?;
                let args = serde_json::to_string(args).unwrap_or_default();
                let note = if *cut_off {
                    format!(" {}", self.paint(YELLOW, "(cut off: not run)"))
                } else {
                    String::new()
                };
                writeln!(
                    out,
                    "🔧 {} {}{note}",
                    self.paint(BOLD, name),
                    self.paint(CYAN, &short(&args, 160))
                )?;
            }
            AgentEvent::ToolEnd {
                name,
                result,
                sent,
                duration_ms,
                ..
            } => {
                self.newline(out)?;
                // A call of no tool's name that ran as the tool it meant: `test_ls → ls`.
                let name = match &result.ran_as {
                    Some(tool) => format!("{name} → {tool}"),
                    None => name.clone(),
                };
                match &result.failure {
                    None => {
                        let note = if result.cached {
                            " (earlier result)"
                        } else {
                            ""
                        };
                        writeln!(
                            out,
                            "{} {} ({:.0} ms){note} {}",
                            self.paint(GREEN, "✓"),
                            name,
                            duration_ms,
                            self.paint(DIM, &short(&result.output, 100))
                        )?;
                    }
                    // What the model was told: its next turn answers that message, not
                    // the tool's own (an example grounded in the request, say).
                    Some(f) => writeln!(
                        out,
                        "{} {} {}",
                        self.paint(RED, "✗"),
                        name,
                        self.paint(RED, &short(sent.as_deref().unwrap_or(&f.message), 200))
                    )?,
                }
            }
            AgentEvent::Retry { reason } => {
                self.newline(out)?;
                writeln!(out, "{}", self.paint(YELLOW, &format!("↻ {reason}")))?;
            }
            AgentEvent::Looped { unit, repeats } => {
                self.newline(out)?;
                let unit = short(unit, 60);
                let line = format!(
                    "✂ stopped: the output wrote {unit:?} {repeats} times in a row; only the first counts"
                );
                writeln!(out, "{}", self.paint(YELLOW, &line))?;
            }
            AgentEvent::ContextFit {
                cut,
                removed,
                tokens,
                context,
            } => {
                self.newline(out)?;
                let plural =
                    |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
                let mut did = Vec::new();
                if !removed.is_empty() {
                    did.push(format!(
                        "removed {}",
                        plural(removed.len(), "earlier result")
                    ));
                }
                if !cut.is_empty() {
                    did.push(format!("cut {}", plural(cut.len(), "result")));
                }
                writeln!(
                    out,
                    "{}",
                    self.paint(
                        YELLOW,
                        &format!(
                            "✂ {} to fit the context window: the prompt is now {tokens} of {context} tokens",
                            did.join(" and ")
                        )
                    )
                )?;
            }
        }
        Ok(())
    }

    /// After a run: `Some(exit code)` when stdout went away (the run was stopped for it), an
    /// error for any other failure to write.
    fn finish(self) -> anyhow::Result<Option<ExitCode>> {
        match self.error {
            Some(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                eprintln!("toolmend: stdout was closed, so the run was stopped");
                Ok(Some(ExitCode::from(EXIT_STDOUT_CLOSED)))
            }
            Some(e) => Err(anyhow::Error::new(e).context("cannot write to stdout")),
            None => Ok(None),
        }
    }
}

/// The end-of-run line: how it ended, counts, speeds, toolmend's own time (extraction, repair,
/// decode and dispatch bookkeeping) as a share of generation time, and the tools' run time apart
/// (it is neither the model's nor toolmend's).
fn summary(reason: EndReason, s: &RunStats) -> String {
    let mut line = format!(
        "— {} · {} turn{} · {} call{} ({} failed)",
        reason.describe(),
        s.turns,
        if s.turns == 1 { "" } else { "s" },
        s.calls,
        if s.calls == 1 { "" } else { "s" },
        s.failed_calls
    );
    if let Some(tps) = s.prompt_tps() {
        line.push_str(&format!(" · prompt {tps:.0} tok/s"));
    }
    if let Some(tps) = s.generation_tps() {
        line.push_str(&format!(" · generation {tps:.1} tok/s"));
    }
    // A share of a generation that produced nothing (a failed load, an empty turn) means
    // nothing.
    if let Some(share) = s.timing.overhead_share().filter(|_| s.generated_tokens > 0) {
        line.push_str(&format!(
            " · toolmend {:.2} ms = {:.3}% of generation",
            s.timing.extract_ms + s.timing.dispatch_ms,
            share * 100.0
        ));
    }
    if s.calls > 0 {
        line.push_str(&format!(" · tools {:.0} ms", s.timing.tools_ms));
    }
    line
}

/// The first line of `text`, cut to `max` characters, with a note of what was left out.
fn short(text: &str, max: usize) -> String {
    let text = text.trim();
    let lines = text.lines().count();
    let first = text.lines().next().unwrap_or("");
    let mut out: String = first.chars().take(max).collect();
    if first.chars().count() > max {
        out.push('…');
    }
    if lines > 1 {
        out.push_str(&format!(" (+{} lines)", lines - 1));
    }
    out
}
