//! The `toolmend` command-line interface. All logic lives in [`cli`]; this file only reports errors.

mod call;
mod cli;
mod decode;
mod eval;
mod extract;
mod io;
mod models;
mod repair;
mod run;
mod serve;
mod tools;

use std::process::ExitCode;

fn main() -> ExitCode {
    match cli::run() {
        Ok(code) => code,
        Err(err) if io::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            for cause in err.chain().skip(1) {
                eprintln!("caused by: {cause}");
            }
            ExitCode::from(2)
        }
    }
}
