//! The `report` subcommand.

/// Arguments of `report`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `report`; returns the exit status.
pub fn run(_args: Args) -> u8 {
    eprintln!("robots-explorer report: not available yet");
    super::EXIT_ERROR
}
