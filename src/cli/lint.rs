//! The `lint` subcommand: diagnostics for robots.txt files, for people and for CI.
//!
//! Files are read and analysed in parallel (rayon) and printed in a stable order: the order of
//! the paths given, and sorted by name within each directory. A file that cannot be read is
//! reported on standard error and the run goes on.

use super::inputs::{expand, read};
use super::{EXIT_ERROR, EXIT_FINDINGS, EXIT_OK};
use crate::analysis::{Severity, analyze};
use crate::output::{Format, LintedFile, printer};
use crate::{Reading, RobotsTxt};
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `lint`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Reading: `google` (google/robotstxt, the default) or `rfc` (strict RFC 9309). Only
    /// diagnostics that apply in this reading are reported.
    #[arg(long, default_value = "google", value_parser = super::parse_reading)]
    pub reading: Reading,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Exit with status 1 when a diagnostic of this severity or higher is reported.
    #[arg(long, value_enum, default_value = "error")]
    pub fail_on: FailOn,
    /// robots.txt files, or directories walked recursively for `*.txt` files; `-` reads
    /// standard input.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

/// The severity from which `lint` exits with status 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    /// Errors only.
    Error,
    /// Warnings and errors.
    Warning,
    /// Anything.
    Info,
    /// Never fail because of diagnostics.
    Never,
}

impl FailOn {
    /// The lowest severity that fails the run, if any.
    pub fn threshold(self) -> Option<Severity> {
        match self {
            FailOn::Error => Some(Severity::Error),
            FailOn::Warning => Some(Severity::Warning),
            FailOn::Info => Some(Severity::Info),
            FailOn::Never => None,
        }
    }
}

/// Lints one file's bytes: the diagnostics that apply in `reading`.
pub fn lint_bytes(path: &str, bytes: &[u8], reading: Reading) -> LintedFile {
    lint_parsed(path, &RobotsTxt::parse(bytes), reading)
}

/// Lints a parsed file (for instance the start of a large file, see [`crate::read`]): the
/// diagnostics that apply in `reading`.
pub fn lint_parsed(path: &str, robots: &RobotsTxt, reading: Reading) -> LintedFile {
    let diagnostics = analyze(robots)
        .diagnostics
        .into_iter()
        .filter(|d| d.readings.includes(reading))
        .collect();
    LintedFile::new(path, robots, diagnostics)
}

/// Runs `lint`; returns the exit status: 0, 1 when a diagnostic reaches `--fail-on`, 2 when a
/// path could not be read or the output could not be written.
pub fn run(args: Args) -> u8 {
    let inputs = expand(&args.paths);
    let results: Vec<Result<LintedFile, String>> = inputs
        .par_iter()
        .map(|input| read(input).map(|(name, b)| lint_parsed(&name, &b.parse(), args.reading)))
        .collect();
    let mut status = EXIT_OK;
    let mut files = Vec::with_capacity(results.len());
    for r in results {
        match r {
            Ok(f) => files.push(f),
            Err(e) => {
                eprintln!("robots-explorer lint: {e}");
                status = EXIT_ERROR;
            }
        }
    }
    let stdout = std::io::stdout();
    let choice = anstream::AutoStream::choice(&stdout);
    let color = args.format == Format::Text && choice != anstream::ColorChoice::Never;
    let printed = if color {
        // Through anstream, which also enables ANSI colours on Windows consoles.
        let mut out = std::io::BufWriter::new(anstream::AutoStream::new(stdout.lock(), choice));
        printer(args.format, true)
            .print(&files, &mut out)
            .and_then(|()| out.flush())
    } else {
        let mut out = std::io::BufWriter::new(stdout.lock());
        printer(args.format, false)
            .print(&files, &mut out)
            .and_then(|()| out.flush())
    };
    if printed.is_err() {
        return EXIT_ERROR;
    }
    if status == EXIT_OK
        && let Some(t) = args.fail_on.threshold()
        && files
            .iter()
            .any(|f| f.max_severity().is_some_and(|s| s >= t))
    {
        status = EXIT_FINDINGS;
    }
    status
}
