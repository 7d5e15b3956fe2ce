//! Argument parsing and subcommand dispatch.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Turn small models' broken tool calls into correct, typed tool calls.
#[derive(Debug, Parser)]
#[command(name = "toolmend", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    // In the order a user meets them: the main job first, then the stages, then measuring.
    /// Run a prompt through a model with tools, rendering each call as it happens.
    Run(crate::run::Args),
    /// Chat with a model and its tools (one prompt per line; the conversation is kept).
    Chat(crate::run::ChatArgs),
    /// Serve an OpenAI-compatible endpoint in front of an upstream runtime, returning repaired
    /// tool calls.
    Serve(crate::serve::Args),
    /// Repair broken JSON (a file or stdin) into valid JSON.
    Repair(crate::repair::Args),
    /// Find the tool calls in model output (any envelope family).
    Extract(crate::extract::Args),
    /// Decode tool-call arguments against a JSON Schema (coercions reported, corrective errors).
    Decode(crate::decode::Args),
    /// Run one tool call through the dispatch path, against the built-in tools.
    Call(crate::call::Args),
    /// List the built-in tools and their argument schemas.
    Tools(crate::tools::Args),
    /// List the known models, their sizes, whether each is present, and how to fetch it.
    Models(crate::models::Args),
    /// Measure tool calling on a benchmark (BFCL): record a model's outputs or replay and score them.
    Eval(crate::eval::Args),
}

/// Parses the command line and runs the chosen subcommand.
pub fn run() -> anyhow::Result<ExitCode> {
    let cli = Cli::parse();
    match cli.command {
        Command::Repair(args) => crate::repair::run(&args),
        Command::Eval(args) => crate::eval::run(&args),
        Command::Decode(args) => crate::decode::run(&args),
        Command::Serve(args) => crate::serve::run(&args),
        Command::Extract(args) => crate::extract::run(&args),
        Command::Call(args) => crate::call::run(&args),
        Command::Tools(args) => crate::tools::run(&args),
        Command::Run(args) => crate::run::run(&args),
        Command::Chat(args) => crate::run::chat(&args),
        Command::Models(args) => crate::models::run(&args),
    }
}
