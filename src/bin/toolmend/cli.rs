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
    /// Repair broken JSON (a file or stdin) into valid JSON.
    Repair(crate::repair::Args),
    /// Measure tool calling on a benchmark (BFCL): record a model's outputs or replay and score them.
    Eval(crate::eval::Args),
}

/// Parses the command line and runs the chosen subcommand.
pub fn run() -> anyhow::Result<ExitCode> {
    let cli = Cli::parse();
    match cli.command {
        Command::Repair(args) => crate::repair::run(&args),
        Command::Eval(args) => crate::eval::run(&args),
    }
}
