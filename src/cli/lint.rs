//! The `lint` subcommand: diagnostics for robots.txt files, for people and for CI.
//!
//! Files are read and analysed in parallel (rayon) and printed in a stable order: the order of
//! the paths given, and sorted by name within each directory. A file that cannot be read is
//! reported on standard error and the run goes on.
//!
//! What is listed: the diagnostics that apply in the reading, selected by `--select` (all by
//! default), not ignored by `--ignore`, the configuration file's `ignore` or its
//! `per-path-ignores` for the file, nor by a suppression comment in the file itself
//! (`# robots-explorer: ignore[name]`, see [`crate::analysis::analyze`]), of `--min-severity`
//! and higher.

use super::config::Config;
use super::inputs::{Input, WalkArgs, expand, in_chunks, read, uri};
use super::{EXIT_ERROR, EXIT_FINDINGS, EXIT_OK};
use crate::analysis::{Severity, diagnose_when};
use crate::output::{FailOn, FixesShown, Format, LintedFile, printer};
use crate::select::{Globs, WalkFilter};
use crate::{Reading, RobotsTxt};
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `lint`. Flags left out take their value from `robots-explorer.toml` (see
/// [`super::config`]), else the default given here.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Reading: `google` (google/robotstxt, the default) or `rfc` (strict RFC 9309). Only
    /// diagnostics that apply in this reading are reported.
    #[arg(long, value_parser = super::parse_reading)]
    pub reading: Option<Reading>,
    /// Output format [default: text].
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Report diagnostics of this severity and higher. The default, `warning`, shows what a
    /// site owner should act on; infos (true, but nothing to change: duplicate or redundant
    /// rules, documented non-standard tokens, fields only some crawlers read) need `info`. The
    /// text summary says how many were not shown. With `--select` the default is `info`: what
    /// is selected is shown.
    #[arg(long, value_enum)]
    pub min_severity: Option<MinSeverity>,
    /// Exit with status 1 when a diagnostic of this severity or higher is reported
    /// [default: error].
    #[arg(long, value_enum)]
    pub fail_on: Option<FailOn>,
    /// Report only these diagnostics: names (`redundant-rule`), severities (`error`,
    /// `warning`, `info`) or `all`; comma-separated or repeated. Replaces `select` of the
    /// configuration file.
    #[arg(long, value_delimiter = ',', value_name = "NAME|SEVERITY")]
    pub select: Vec<String>,
    /// Never report these diagnostics: names or severities, comma-separated or repeated. Adds
    /// to `ignore` of the configuration file.
    #[arg(long, value_delimiter = ',', value_name = "NAME|SEVERITY")]
    pub ignore: Vec<String>,
    /// Print how many findings of each name were reported, most frequent first, instead of
    /// the findings (JSON with `--format json`).
    #[arg(long)]
    pub statistics: bool,
    /// Write the output to this file instead of standard output.
    #[arg(long, short = 'o', value_name = "PATH")]
    pub output_file: Option<PathBuf>,
    /// The configuration file to use instead of the `robots-explorer.toml` found in the working
    /// directory or a folder above it.
    #[arg(long, value_name = "PATH", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,
    /// Use no configuration file.
    #[arg(long)]
    pub no_config: bool,
    /// Which files below a directory are read.
    #[command(flatten)]
    pub walk: WalkArgs,
    /// robots.txt files, or directories walked recursively for them (`robots.txt`,
    /// `*.robots.txt`, `<host>.txt`, `<digest>.txt`; see `--include`); `-` reads standard
    /// input.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

/// The lowest severity `lint` reports (also the `min-severity` setting).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
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

/// One entry of `--select` or `--ignore`: every diagnostic, a severity, or a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// `all`.
    All,
    /// `error`, `warning` or `info`.
    Severity(Severity),
    /// A name of the catalogue.
    Name(&'static str),
}

impl Rule {
    /// Reads a name, a severity or `all`.
    ///
    /// # Errors
    /// A message for a word that is none of them, with the closest name when one is close.
    pub fn parse(word: &str) -> Result<Rule, String> {
        let w = word.trim();
        match w {
            "all" => return Ok(Rule::All),
            "error" => return Ok(Rule::Severity(Severity::Error)),
            "warning" => return Ok(Rule::Severity(Severity::Warning)),
            "info" => return Ok(Rule::Severity(Severity::Info)),
            _ => {}
        }
        if let Some(e) = crate::analysis::entry(w) {
            return Ok(Rule::Name(e.name));
        }
        let candidates = crate::analysis::catalogue()
            .iter()
            .map(|e| e.name)
            .chain(["all", "error", "warning", "info"]);
        let hint = match crate::analysis::closest(w, candidates) {
            Some(c) => format!("; did you mean `{c}`?"),
            None => String::new(),
        };
        Err(format!(
            "`{}` is not a diagnostic name, a severity or `all`{hint} (`robots-explorer explain` \
lists the names)",
            crate::output::escape_control(w)
        ))
    }

    /// Whether the rule covers diagnostic `d`.
    pub fn covers(self, d: &crate::analysis::Diagnostic) -> bool {
        match self {
            Rule::All => true,
            Rule::Severity(s) => d.severity() == s,
            Rule::Name(n) => d.name == n,
        }
    }
}

/// Reads a list of rules.
///
/// # Errors
/// The first word that is not a rule, with `what` (the flag or setting) named.
pub fn parse_rules(words: &[String], what: &str) -> Result<Vec<Rule>, String> {
    words
        .iter()
        .filter(|w| !w.trim().is_empty())
        .map(|w| Rule::parse(w).map_err(|e| format!("{what}: {e}")))
        .collect()
}

/// Which diagnostics `lint` lists: those selected (all when `select` is `None`), not ignored,
/// of severity `min` and higher.
#[derive(Clone, Debug)]
pub struct Selection {
    /// `--select`: `None` selects everything.
    pub select: Option<Vec<Rule>>,
    /// `--ignore` and the configuration's `ignore`.
    pub ignore: Vec<Rule>,
    /// The lowest severity listed.
    pub min: Severity,
}

impl Selection {
    /// Everything of severity `min` and higher.
    pub fn at_least(min: Severity) -> Selection {
        Selection {
            select: None,
            ignore: Vec::new(),
            min,
        }
    }

    /// Whether `d` is selected and not ignored (whatever its severity); `extra` are further
    /// ignores (the per-path ones of the file).
    fn chosen(&self, d: &crate::analysis::Diagnostic, extra: &[Rule]) -> bool {
        self.select
            .as_ref()
            .is_none_or(|s| s.iter().any(|r| r.covers(d)))
            && !self.ignore.iter().chain(extra).any(|r| r.covers(d))
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
    lint_selected(
        path,
        robots,
        reading,
        &Selection::at_least(min),
        &[],
        (FixesShown::All, FixesShown::All),
    )
}

/// Lints a parsed file: the diagnostics that apply in `reading` and that `selection` lists,
/// less those `extra` ignores. Selected findings below the selection's severity are counted in
/// [`LintedFile::hidden`]; findings not selected or ignored are not counted. Of the findings
/// listed, the fixes are checked and the source lines kept where `shown` (fixes, lines) says
/// the printer shows them.
pub fn lint_selected(
    path: &str,
    robots: &RobotsTxt,
    reading: Reading,
    selection: &Selection,
    extra: &[Rule],
    shown: (FixesShown, FixesShown),
) -> LintedFile {
    let (fixes, lines) = shown;
    let mut hidden = 0;
    let chosen = |d: &crate::analysis::Diagnostic| {
        d.readings.includes(reading) && selection.chosen(d, extra)
    };
    let listed = |d: &crate::analysis::Diagnostic| chosen(d) && d.severity() >= selection.min;
    let diagnostics = diagnose_when(robots, |found| {
        let mut shown = fixes
            .mask(found.iter().filter(|d| listed(d)).map(|d| d.name))
            .into_iter();
        found
            .iter()
            .map(|d| listed(d) && shown.next().unwrap_or(false))
            .collect()
    })
    .into_iter()
    .filter(|d| chosen(d))
    .filter(|d| {
        let shown = d.severity() >= selection.min;
        hidden += usize::from(!shown);
        shown
    })
    .collect();
    let mut f = LintedFile::with_lines(path, robots, diagnostics, lines);
    f.hidden = hidden;
    f
}

/// Everything a run of `lint` needs, from the flags and the configuration file.
struct Settings {
    reading: Reading,
    format: Format,
    fail_on: FailOn,
    selection: Selection,
    /// Per-path ignores: globs relative to `base`, and what they ignore.
    per_path: Vec<(Globs, Vec<Rule>)>,
    base: PathBuf,
    filter: WalkFilter,
}

impl Settings {
    fn resolve(args: &Args) -> Result<Settings, String> {
        let config = if args.no_config {
            Config::default()
        } else {
            let path = match &args.config {
                Some(p) => Some(p.clone()),
                None => std::env::current_dir()
                    .ok()
                    .and_then(|d| super::config::find(&d)),
            };
            match path {
                Some(p) => super::config::load(&p)?,
                None => Config::default(),
            }
        };
        let reading = match (&args.reading, &config.reading) {
            (Some(r), _) => *r,
            (None, Some(r)) => super::parse_reading(r).map_err(|e| format!("reading: {e}"))?,
            (None, None) => Reading::Google,
        };
        let select = if !args.select.is_empty() {
            Some(parse_rules(&args.select, "--select")?)
        } else {
            match &config.select {
                Some(s) => Some(parse_rules(s, "select")?),
                None => None,
            }
        };
        let mut ignore = parse_rules(&config.ignore, "ignore")?;
        ignore.extend(parse_rules(&args.ignore, "--ignore")?);
        let min = match args.min_severity.or(config.min_severity) {
            Some(m) => m.severity(),
            None if select.is_some() => Severity::Info,
            None => Severity::Warning,
        };
        let mut per_path = Vec::new();
        for (glob, rules) in &config.per_path_ignores {
            let what = format!("per-path-ignores `{glob}`");
            let globs = Globs::new(std::slice::from_ref(glob), &what)?
                .ok_or_else(|| format!("{what}: empty glob"))?;
            per_path.push((globs, parse_rules(rules, &what)?));
        }
        let walk = if args.walk.include.is_empty() && args.walk.exclude.is_empty() {
            WalkArgs {
                include: config.include.clone(),
                exclude: config.exclude.clone(),
            }
        } else {
            args.walk.clone()
        };
        Ok(Settings {
            reading,
            format: args.format.or(config.format).unwrap_or(Format::Text),
            fail_on: args.fail_on.or(config.fail_on).unwrap_or(FailOn::Error),
            selection: Selection {
                select,
                ignore,
                min,
            },
            per_path,
            base: config.dir,
            filter: walk.filter()?,
        })
    }

    /// The per-path ignores that apply to `input`.
    fn extra_ignores(&self, input: &Input) -> Vec<Rule> {
        let Input::File(p) = input else {
            return Vec::new();
        };
        if self.per_path.is_empty() {
            return Vec::new();
        }
        let abs = std::path::absolute(p).unwrap_or_else(|_| p.clone());
        let rel = abs.strip_prefix(&self.base).unwrap_or(p);
        self.per_path
            .iter()
            .filter(|(g, _)| g.matches(rel))
            .flat_map(|(_, r)| r.iter().copied())
            .collect()
    }
}

/// Bytes of output gathered before each write: a corpus lints to megabytes, and this takes a
/// system call per 64 KiB rather than per 8 KiB.
const OUT_BUFFER: usize = 64 << 10;

/// Inputs linted at once: enough to keep every core busy, few enough that memory stays flat
/// whatever the number of files.
const CHUNK: usize = 256;

/// Runs `lint`; returns the exit status: 0, 1 when a diagnostic reaches `--fail-on`, 2 for a
/// usage error (an unknown name in `--select`, a bad configuration file or glob), when a path
/// could not be read or the output could not be written. Files are linted in parallel, a chunk
/// at a time, and printed in input order as each chunk finishes; an input that cannot be read
/// is printed as such (and named on standard error) and the others are still linted.
pub fn run(args: Args) -> u8 {
    let settings = match Settings::resolve(&args) {
        Ok(s) => s,
        Err(e) => {
            crate::eprintln_lossy!("robots-explorer lint: {e}");
            return EXIT_ERROR;
        }
    };
    let inputs = expand(&args.paths, &settings.filter);
    if let Some(path) = &args.output_file
        && let Some(input) = super::inputs::clobbered_input(path, &inputs)
    {
        crate::eprintln_lossy!(
            "robots-explorer lint: --output-file {} is one of the files to lint ({}); writing \
             the findings there would replace the file before it is read. Choose another \
             output file",
            path.display(),
            input.display()
        );
        return EXIT_ERROR;
    }
    let format = settings.format;
    let stdout = std::io::stdout();
    let choice = anstream::AutoStream::choice(&stdout);
    let color = matches!(format, Format::Text | Format::Concise)
        && !args.statistics
        && args.output_file.is_none()
        && choice != anstream::ColorChoice::Never;
    let mut p: Box<dyn crate::output::Printer> = if args.statistics {
        Box::new(crate::output::statistics::StatisticsPrinter::new(
            format == Format::Json,
        ))
    } else {
        printer(format, color)
    };
    let shown = (p.fixes_shown(), p.lines_shown());
    let mut status = EXIT_OK;
    let mut worst: Option<crate::analysis::Severity> = None;
    // This thread as one of the pool's: with one thread, the files are linted here instead of
    // being handed to another thread while this one waits. (Only when nothing has started the
    // pool yet.)
    let _ = rayon::ThreadPoolBuilder::new()
        .use_current_thread()
        .build_global();
    let lint_all = |out: &mut dyn Write| -> std::io::Result<()> {
        p.begin(out)?;
        in_chunks::<std::io::Error>(inputs, CHUNK, &mut |chunk| {
            let files: Vec<LintedFile> = chunk
                .par_iter()
                .map(|input| {
                    let mut f = match read(input) {
                        Ok((name, b)) => lint_selected(
                            &name,
                            &b.parse(),
                            settings.reading,
                            &settings.selection,
                            &settings.extra_ignores(input),
                            shown,
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
            Ok(())
        })?;
        p.finish(out)
    };
    let printed = if let Some(path) = &args.output_file {
        match std::fs::File::create(path) {
            Ok(file) => {
                let mut out = std::io::BufWriter::with_capacity(OUT_BUFFER, file);
                lint_all(&mut out).and_then(|()| out.flush())
            }
            Err(e) => {
                crate::eprintln_lossy!(
                    "robots-explorer lint: --output-file {}: {}",
                    path.display(),
                    super::inputs::describe_io(&e)
                );
                return EXIT_ERROR;
            }
        }
    } else if color {
        // Through anstream, which also enables ANSI colours on Windows consoles.
        let mut out = std::io::BufWriter::with_capacity(
            OUT_BUFFER,
            anstream::AutoStream::new(stdout.lock(), choice),
        );
        lint_all(&mut out).and_then(|()| out.flush())
    } else {
        let mut out = std::io::BufWriter::with_capacity(OUT_BUFFER, stdout.lock());
        lint_all(&mut out).and_then(|()| out.flush())
    };
    if let Err(e) = printed {
        match &args.output_file {
            Some(path) => crate::eprintln_lossy!(
                "robots-explorer lint: {}: {}",
                path.display(),
                super::inputs::describe_io(&e)
            ),
            None => super::inputs::report_write_error("lint", &e),
        }
        return EXIT_ERROR;
    }
    if status == EXIT_OK
        && let Some(t) = settings.fail_on.threshold()
        && worst.is_some_and(|s| s >= t)
    {
        status = EXIT_FINDINGS;
    }
    status
}
