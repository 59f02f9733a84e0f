//! Command-line interface: argument definitions (clap) and one module per subcommand.
//!
//! Exit status, for every subcommand: 0 on success, 1 when `--fail-on` is reached (lint,
//! report, diff) or, with `--exit-code`, when `check` answers DISALLOWED, 2 for usage or I/O
//! errors.

use clap::{Parser, Subcommand};

pub mod build;
pub mod check;
pub mod config;
pub mod diff;
pub mod explain;
pub mod guide;
pub mod inputs;
pub mod lint;
pub mod report;

/// Exit status: success.
pub const EXIT_OK: u8 = 0;
/// Exit status: a finding reached `--fail-on`.
pub const EXIT_FINDINGS: u8 = 1;
/// Exit status: usage or I/O error.
pub const EXIT_ERROR: u8 = 2;

/// Read, match, lint and explain robots.txt files.
#[derive(Debug, Parser)]
#[command(name = "robots-explorer", version, about, long_about = None)]
pub struct Cli {
    /// The job to run.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Decide whether a crawler may fetch URLs, for each robots.txt file given.
    Check(check::Args),
    /// Compare two robots.txt files (or two audits): verdicts, rules, groups, diagnostics and
    /// sitemaps that change.
    Diff(diff::Args),
    /// Report diagnostics for robots.txt files (text, concise, JSON, SARIF, GitHub annotations,
    /// JUnit XML or GitLab Code Quality).
    Lint(lint::Args),
    /// Print a diagnostic's documentation (without a name: list every diagnostic).
    Explain(explain::Args),
    /// Build an audit site from a directory of robots.txt files (and optional YAML sidecars).
    Report(report::Args),
    /// Build the guide from Markdown chapters.
    Guide(guide::Args),
    /// Build the demo audit site of `fixtures/hosts/` and the guide into one site.
    Build(build::Args),
}

/// Which reading to apply (`google` or `rfc`).
pub fn parse_reading(s: &str) -> Result<crate::Reading, String> {
    s.parse()
}
