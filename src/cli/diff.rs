//! The `diff` subcommand: what a change to a robots.txt file, or between two audits, does.
//!
//! Two robots.txt files are compared by meaning ([`crate::compare`]); two audits (`report`
//! output directories, or their `hosts.jsonl` files) host by host ([`crate::diff::audit`]).
//! The result is printed as text, JSON, Markdown or GitHub workflow commands
//! ([`crate::diff`]).

use super::inputs::{Input, read};
use super::{EXIT_ERROR, EXIT_FINDINGS, EXIT_OK};
use crate::compare::Asked;
use crate::diff::audit::Audit;
use crate::diff::{FailRule, Format, Target};
use crate::output::escape_control;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `diff`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A known crawler to ask about besides every known one, by product token or name; given
    /// crawlers (with `--agent`) are the ones `--fail-on access` watches instead of the search
    /// crawlers. Repeat for several.
    #[arg(long, short = 'c')]
    pub crawler: Vec<String>,
    /// A product token to ask about as the raw question (the groups naming it, else `*`);
    /// watched by `--fail-on access` like `--crawler`. Repeat for several.
    #[arg(long, short = 'a')]
    pub agent: Vec<String>,
    /// A URL to compare besides `/` and the paths drawn from both files' patterns: absolute or
    /// a path starting with `/`, decided as a browser sends it. Repeat for several.
    #[arg(long, short = 'u')]
    pub url: Vec<String>,
    /// A file of URLs to compare, one per line (blank lines and lines starting with `#` are
    /// skipped).
    #[arg(long)]
    pub urls: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// When to exit with status 1: `access` when a watched crawler (those of `--crawler` and
    /// `--agent`, else every known search crawler) may no longer fetch a `--fail-path` it could
    /// fetch, in either reading; `any` on any verdict change; `never`.
    #[arg(long, value_enum, default_value = "access")]
    pub fail_on: FailOn,
    /// A path `--fail-on access` watches (default `/`); `all` watches every path compared.
    /// Repeat for several.
    #[arg(long)]
    pub fail_path: Vec<String>,
    /// The old version: a robots.txt file (`-` for standard input), a `report` output
    /// directory, or a `hosts.jsonl` file.
    pub old: PathBuf,
    /// The new version, of the same kind as the old one.
    pub new: PathBuf,
}

/// When `diff` exits with status 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    /// A watched crawler loses access to a watched path.
    Access,
    /// Any verdict changes.
    Any,
    /// Never.
    Never,
}

/// A message on standard error, prefixed with the command; a closed standard error is ignored.
fn warn(msg: &str) {
    let _ = writeln!(std::io::stderr(), "robots-explorer diff: {msg}");
}

/// What a path on the command line holds.
enum Kind {
    Robots,
    Audit(PathBuf),
}

fn kind(p: &Path) -> Result<Kind, String> {
    if p.as_os_str() == "-" {
        return Ok(Kind::Robots);
    }
    if p.is_dir() {
        let jsonl = p.join("hosts.jsonl");
        return if jsonl.is_file() {
            Ok(Kind::Audit(jsonl))
        } else {
            Err(format!(
                "{}: a directory, but no `hosts.jsonl` in it: give a robots.txt file, a `report` \
output directory or a hosts.jsonl file",
                p.display()
            ))
        };
    }
    if p.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("jsonl"))
    {
        return Ok(Kind::Audit(p.to_path_buf()));
    }
    Ok(Kind::Robots)
}

/// Runs `diff`; returns the exit status: 0; 1 when `--fail-on` is reached; 2 for usage errors
/// (an unknown `--crawler`, a URL that cannot be decided, inputs of two kinds) and inputs or a
/// `--urls` file that cannot be read.
pub fn run(args: Args) -> u8 {
    match run_inner(&args) {
        Ok(fails) => {
            if fails {
                EXIT_FINDINGS
            } else {
                EXIT_OK
            }
        }
        Err(e) => {
            warn(&escape_control(&e));
            EXIT_ERROR
        }
    }
}

fn run_inner(args: &Args) -> Result<bool, String> {
    let mut watched: Vec<String> = Vec::new();
    let mut extra: Vec<Asked> = Vec::new();
    for name in &args.crawler {
        let c = crate::crawlers::find_by_name(name).ok_or_else(|| {
            let known: Vec<&str> = crate::crawlers::known()
                .iter()
                .map(|c| c.token.as_str())
                .collect();
            format!(
                "`{name}` is not a known crawler; known crawlers: {}. To ask about any product \
token, use `--agent`",
                known.join(", ")
            )
        })?;
        watched.push(c.token.clone());
    }
    for a in &args.agent {
        if a.is_empty() {
            return Err("an empty `--agent` is no product token".to_string());
        }
        if let Some(w) = super::check::agent_warning(a) {
            warn(&format!("warning: {w}"));
        }
        extra.push(Asked::agent(a));
    }
    let fail_paths: Option<Vec<String>> = if args.fail_path.iter().any(|p| p == "all") {
        None
    } else if args.fail_path.is_empty() {
        Some(vec!["/".to_string()])
    } else {
        Some(
            args.fail_path
                .iter()
                .map(|p| target(p).map_err(|e| format!("--fail-path: {e}")))
                .collect::<Result<_, _>>()?,
        )
    };
    let mut paths: Vec<String> = Vec::new();
    for u in &args.url {
        paths.push(target(u).map_err(|e| format!("--url: {e}"))?);
    }
    if let Some(f) = &args.urls {
        paths.extend(read_url_file(f)?);
    }
    let (old_kind, new_kind) = (kind(&args.old)?, kind(&args.new)?);
    let names = [
        args.old.display().to_string(),
        args.new.display().to_string(),
    ];
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let fails = match (old_kind, new_kind) {
        (Kind::Robots, Kind::Robots) => {
            if args.old.as_os_str() == "-" && args.new.as_os_str() == "-" {
                return Err("only one of OLD and NEW can be standard input".to_string());
            }
            let [old, new] = [&args.old, &args.new].map(|p| {
                let input = if p.as_os_str() == "-" {
                    Input::Stdin
                } else {
                    Input::File(p.clone())
                };
                read(&input)
                    .map(|(_, b)| b.parse())
                    .map_err(|(name, e)| format!("{name}: {e}"))
            });
            let (old, new) = (old?, new?);
            // Agents first, then the crawlers named with --crawler are known ones already.
            let asked = crate::compare::crawlers_for(&old, &new, extra.clone());
            watched.extend(extra.iter().map(|a| a.name.clone()));
            let rule = FailRule::new(args.fail_on, watched, fail_paths);
            let diff = crate::compare::compare(&old, &new, &asked, &paths);
            let t = Target {
                old: &names[0],
                new: &names[1],
            };
            let fails = rule.fails(&diff);
            crate::diff::write_files(&mut out, args.format, &t, &diff, &asked, fails)
                .map_err(|e| format!("cannot write the output: {e}"))?;
            fails
        }
        (Kind::Audit(o), Kind::Audit(n)) => {
            if !args.url.is_empty() || args.urls.is_some() || !args.agent.is_empty() {
                warn(
                    "warning: --url, --urls and --agent ask robots.txt files; two audits are \
compared on the crawlers and paths their reports decided",
                );
            }
            let old = Audit::read(&o)?;
            let new = Audit::read(&n)?;
            let diff = crate::diff::audit::compare(&old, &new);
            let rule = FailRule::new(args.fail_on, watched, fail_paths);
            let fails = rule.fails_audit(&diff);
            let t = Target {
                old: &o.display().to_string(),
                new: &n.display().to_string(),
            };
            crate::diff::audit::write(&mut out, args.format, &t, &diff, fails)
                .map_err(|e| format!("cannot write the output: {e}"))?;
            fails
        }
        _ => {
            return Err(format!(
                "{} and {} are not of the same kind: compare two robots.txt files, or two audits \
(`report` output directories or hosts.jsonl files)",
                names[0], names[1]
            ));
        }
    };
    out.flush()
        .map_err(|e| format!("cannot write the output: {e}"))?;
    Ok(fails)
}

/// The request target of a URL typed on the command line.
fn target(u: &str) -> Result<String, String> {
    crate::request::typed_target(u)
        .map_err(|e| format!("the URL `{}` {}", escape_control(u), e.problem))
}

/// The request targets of a `--urls` file: one URL per line (LF or CRLF), a byte order
/// mark skipped, blank lines and `#` comments skipped. Read with the bounded reader; a line
/// that cannot be decided is named on standard error and skipped.
fn read_url_file(path: &Path) -> Result<Vec<String>, String> {
    let b = crate::read::read_path(path).map_err(|e| {
        format!(
            "--urls {}: {}",
            path.display(),
            super::inputs::describe_io(&e)
        )
    })?;
    if b.truncated {
        return Err(format!(
            "--urls {}: larger than {} MiB",
            path.display(),
            crate::read::MAX_READ >> 20
        ));
    }
    let bytes = b.bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&b.bytes);
    let mut out = Vec::new();
    for (n, raw) in bytes.split(|&c| c == b'\n').enumerate() {
        let line = String::from_utf8_lossy(raw);
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match target(line) {
            Ok(t) => out.push(t),
            Err(e) => warn(&format!(
                "warning: --urls {} line {}: {e}; skipped",
                path.display(),
                n + 1
            )),
        }
    }
    Ok(out)
}
