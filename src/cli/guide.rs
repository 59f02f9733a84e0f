//! The `guide` subcommand.

/// Arguments of `guide`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `guide`; returns the exit status.
pub fn run(_args: Args) -> u8 {
    eprintln!("robots-explorer guide: not available yet");
    super::EXIT_ERROR
}
