//! The `build` subcommand.

/// Arguments of `build`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `build`; returns the exit status.
pub fn run(_args: Args) -> u8 {
    eprintln!("robots-explorer build: not available yet");
    super::EXIT_ERROR
}
