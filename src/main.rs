//! The `robots-explorer` command line: one subcommand per job, each in `cli/`.

use clap::Parser;
use robots_explorer::cli::{Cli, Command};
use std::process::ExitCode;

/// The allocator: mimalloc (see [`robots_explorer::allocator`]).
#[global_allocator]
static ALLOCATOR: robots_explorer::allocator::Mimalloc = robots_explorer::allocator::Mimalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Check(args) => robots_explorer::cli::check::run(args),
        Command::Diff(args) => robots_explorer::cli::diff::run(args),
        Command::Lint(args) => robots_explorer::cli::lint::run(args),
        Command::Explain(args) => robots_explorer::cli::explain::run(args),
        Command::Report(args) => robots_explorer::cli::report::run(args),
        Command::Guide(args) => robots_explorer::cli::guide::run(args),
        Command::Build(args) => robots_explorer::cli::build::run(args),
    };
    ExitCode::from(code)
}
