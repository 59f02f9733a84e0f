//! The `lint` subcommand: diagnostics for robots.txt files, for people and for CI.
//!
//! Files are read and analysed in parallel (rayon) and printed in a stable order: the order of
//! the paths given, and sorted by name within each directory. A file that cannot be read is
//! reported on standard error and the run goes on.

use super::inputs::{expand, read, uri};
use super::{EXIT_ERROR, EXIT_FINDINGS, EXIT_OK};
use crate::analysis::{Severity, diagnose};
use crate::output::{FailOn, Format, LintedFile, printer};
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
    /// Report diagnostics of this severity and higher. The default, `warning`, shows what a
    /// site owner should act on; infos (true, but nothing to change: duplicate or redundant
    /// rules, documented non-standard tokens, fields only some crawlers read) need `info`. The
    /// text summary says how many were not shown.
    #[arg(long, value_enum, default_value = "warning")]
    pub min_severity: MinSeverity,
    /// Exit with status 1 when a diagnostic of this severity or higher is reported.
    #[arg(long, value_enum, default_value = "error")]
    pub fail_on: FailOn,
    /// robots.txt files, or directories walked recursively for `*.txt` files; `-` reads
    /// standard input.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

/// The lowest severity `lint` reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MinSeverity {
    /// Errors only.
    Error,
    /// Warnings and errors (the default).
    Warning,
    /// Everything, infos included.
    Info,
}

impl MinSeverity {
    /// As a [`Severity`].
    pub fn severity(self) -> Severity {
        match self {
            MinSeverity::Error => Severity::Error,
            MinSeverity::Warning => Severity::Warning,
            MinSeverity::Info => Severity::Info,
        }
    }
}

/// Lints one file's bytes: the diagnostics that apply in `reading`, of severity `min` and
/// higher (the others are counted in [`LintedFile::hidden`]).
pub fn lint_bytes(path: &str, bytes: &[u8], reading: Reading, min: Severity) -> LintedFile {
    lint_parsed(path, &RobotsTxt::parse(bytes), reading, min)
}

/// Lints a parsed file (for instance the start of a large file, see [`crate::read`]): the
/// diagnostics that apply in `reading`, of severity `min` and higher (the others are counted in
/// [`LintedFile::hidden`]).
pub fn lint_parsed(path: &str, robots: &RobotsTxt, reading: Reading, min: Severity) -> LintedFile {
    let mut hidden = 0;
    let diagnostics = diagnose(robots)
        .into_iter()
        .filter(|d| d.readings.includes(reading))
        .filter(|d| {
            let shown = d.severity() >= min;
            hidden += usize::from(!shown);
            shown
        })
        .collect();
    let mut f = LintedFile::new(path, robots, diagnostics);
    f.hidden = hidden;
    f
}

/// Inputs linted at once: enough to keep every core busy, few enough that memory stays flat
/// whatever the number of files.
const CHUNK: usize = 256;

/// Runs `lint`; returns the exit status: 0, 1 when a diagnostic reaches `--fail-on`, 2 when a
/// path could not be read or the output could not be written. Files are linted in parallel,
/// a chunk at a time, and printed in input order as each chunk finishes; an input that cannot be
/// read is printed as such (and named on standard error) and the others are still linted.
pub fn run(args: Args) -> u8 {
    let inputs = expand(&args.paths);
    let stdout = std::io::stdout();
    let choice = anstream::AutoStream::choice(&stdout);
    let color = args.format == Format::Text && choice != anstream::ColorChoice::Never;
    let mut p = printer(args.format, color);
    let mut status = EXIT_OK;
    let mut worst: Option<crate::analysis::Severity> = None;
    let mut lint_all = |out: &mut dyn Write| -> std::io::Result<()> {
        p.begin(out)?;
        for chunk in inputs.chunks(CHUNK) {
            let files: Vec<LintedFile> = chunk
                .par_iter()
                .map(|input| {
                    let mut f = match read(input) {
                        Ok((name, b)) => lint_parsed(
                            &name,
                            &b.parse(),
                            args.reading,
                            args.min_severity.severity(),
                        ),
                        Err((name, e)) => LintedFile::unreadable(name, e),
                    };
                    f.uri = uri(input);
                    f
                })
                .collect();
            for f in &files {
                if let Some(e) = &f.error {
                    crate::eprintln_lossy!("robots-explorer lint: {}: {e}", f.path);
                    status = EXIT_ERROR;
                }
                worst = worst.max(f.max_severity());
                p.file(f, out)?;
            }
        }
        p.finish(out)
    };
    let printed = if color {
        // Through anstream, which also enables ANSI colours on Windows consoles.
        let mut out = std::io::BufWriter::new(anstream::AutoStream::new(stdout.lock(), choice));
        lint_all(&mut out).and_then(|()| out.flush())
    } else {
        let mut out = std::io::BufWriter::new(stdout.lock());
        lint_all(&mut out).and_then(|()| out.flush())
    };
    if printed.is_err() {
        return EXIT_ERROR;
    }
    if status == EXIT_OK
        && let Some(t) = args.fail_on.threshold()
        && worst.is_some_and(|s| s >= t)
    {
        status = EXIT_FINDINGS;
    }
    status
}
