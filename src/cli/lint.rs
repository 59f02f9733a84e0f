//! The `lint` subcommand.

/// Arguments of `lint`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `lint`; returns the exit status.
pub fn run(_args: Args) -> u8 {
    eprintln!("robots-explorer lint: not available yet");
    super::EXIT_ERROR
}
