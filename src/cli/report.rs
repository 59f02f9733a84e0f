//! The `report` subcommand: an audit site from a directory of robots.txt files; with
//! `--shard K/N` one shard's partial of it, and `report merge PART... --out SITE` the site from
//! the partials of every shard (see [`crate::report::shard`]).
//!
//! Exit status: 0; 1 when `--fail-on` is reached; 2 for usage errors, an input directory that
//! cannot be walked or holds no hosts, or an output that cannot be written. A file that cannot
//! be read is a row of the report, not an error of the run. Interrupted by SIGINT or SIGTERM (or SIGHUP), the
//! run removes its temporary folder and exits with 128 plus the signal number (130, 143, 129).

use super::{EXIT_ERROR, EXIT_FINDINGS, EXIT_OK};
use crate::Reading;
use crate::output::FailOn;
use crate::report::{self, Config, Progress};
use crate::text::{count, thousands};
use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `report`.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Args {
    /// `report merge`: the site from the partials of `--shard` runs.
    #[command(subcommand)]
    pub command: Option<Sub>,
    /// The input directory: `<host>.txt` (or `<digest>.txt`, `<host>.robots.txt`) files and
    /// `<host>/robots.txt` files at any depth, each with an optional YAML sidecar
    /// (`<host>.yaml`, `<host>/robots.yaml`), or a sidecar alone, and `.warc` / `.warc.gz` files
    /// of robots.txt captures; or one WARC file. `--include` reads other names.
    #[arg(required = true)]
    pub input: Option<PathBuf>,
    /// Process only shard K of N (1 ≤ K ≤ N): the hosts whose name's FNV-1a 64 hash modulo N
    /// is K − 1. Writes a partial to `--out`, not a site; `report merge` combines the N partials
    /// into the site one run would write. Discovery still reads the whole input.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<report::Shard>,
    /// The output folder; replaced as a whole when the run succeeds.
    #[arg(long, short = 'o', default_value = "site")]
    pub out: PathBuf,
    /// Write the audit as one self-contained HTML file instead of a site: the index, then
    /// each host's page and the diagnostic pages they link to as sections, the stylesheet
    /// inline, no scripts, nothing referred to beside it (for attaching to a CI run). At most
    /// 50 hosts.
    #[arg(long, value_name = "PATH", conflicts_with_all = ["out", "shard"])]
    pub single_file: Option<PathBuf>,
    /// Which files of the input directory are read.
    #[command(flatten)]
    pub walk: super::inputs::WalkArgs,
    /// Crawlers of the decision matrices: product tokens separated by commas, or a file with one
    /// token per line (`#` starts a comment). Default: the known search and AI crawlers.
    #[arg(long)]
    pub agents: Option<String>,
    /// A path (starting with `/`) or absolute URL to add to every decision matrix. Repeat for
    /// several.
    #[arg(long = "url", short = 'u')]
    pub urls: Vec<String>,
    /// Reading of decisions, counts, the index and SARIF: `google` (default) or `rfc`.
    #[arg(long, default_value = "google", value_parser = super::parse_reading)]
    pub reading: Reading,
    /// Exit with status 1 when a diagnostic of this severity or higher is found (files that
    /// cannot be read, robots.txt files and sidecars alike, count as errors).
    #[arg(long, value_enum, default_value = "never")]
    pub fail_on: FailOn,
    /// The lowest severity `hosts.jsonl` and `results.sarif` list one by one. The default,
    /// `warning`, is `lint`'s: infos (true, but nothing to change) are counted in each host's
    /// `counts` and in `summary.json`, and shown on the host and diagnostic pages; `info`
    /// lists them too.
    #[arg(long, value_enum, default_value = "warning")]
    pub min_severity: super::lint::MinSeverity,
    /// A file of absolute URLs, one per line (a sitemap export, a log sample): each goes to
    /// its host by origin, and every host page, the index and `urls.csv` say which crawlers may
    /// fetch them and which line decides. `#` starts a comment line.
    #[arg(long = "urls", value_name = "FILE")]
    pub url_file: Option<PathBuf>,
    /// Which hosts get a page of their own: `all`, `problems` (a file not read, a failed
    /// fetch, `*` blocked from `/`, errors or warnings) or `none`. The index, statistics,
    /// diagnostic pages and machine output cover every host either way.
    #[arg(long, value_enum, default_value = "all")]
    pub pages: report::Pages,
    /// The time cache ages are computed at (RFC 3339). Default: `SOURCE_DATE_EPOCH` when set,
    /// else the current time.
    #[arg(long)]
    pub now: Option<String>,
    /// No progress bar and no summary line.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Subcommands of `report`.
#[derive(Debug, clap::Subcommand)]
pub enum Sub {
    /// Combine the partials of `report DIR --shard K/N` runs (every K of one N, the same
    /// options and `--now`) into one site, byte-identical to a single run over DIR.
    Merge(MergeArgs),
}

/// Arguments of `report merge`.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The partials' folders, one per shard, in any order.
    #[arg(required = true, value_name = "PART")]
    pub parts: Vec<PathBuf>,
    /// The site's folder; replaced as a whole when the merge succeeds.
    #[arg(long, short = 'o', default_value = "site")]
    pub out: PathBuf,
    /// No progress bar and no summary line.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Reads `--agents`. A value that contains a path separator or names an existing path is a
/// file of tokens (one per line, `#` starts a comment, blank lines are skipped); anything else
/// is a comma-separated list. Tokens are trimmed; duplicates (ignoring case) are dropped.
///
/// # Errors
/// A message when the value looks like a path but cannot be read as a text file (missing, a
/// directory, not UTF-8), when a list holds an empty token (`a,,b`, a trailing comma), or when
/// no token is given.
pub fn parse_agents(value: &str) -> Result<Vec<String>, String> {
    let path = std::path::Path::new(value);
    let looks_like_path =
        value.contains('/') || value.contains(std::path::MAIN_SEPARATOR) || path.exists();
    let tokens: Vec<String> = if looks_like_path {
        let text = std::fs::read_to_string(path).map_err(|e| {
            format!(
                "--agents `{value}` looks like a file of crawler tokens but cannot be read: {e}"
            )
        })?;
        text.lines()
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect()
    } else {
        let parts: Vec<&str> = value.split(',').map(str::trim).collect();
        if let Some(i) = parts.iter().position(|p| p.is_empty()) {
            return Err(format!(
                "--agents `{value}`: token {} of {} is empty; separate product tokens with single \
                 commas",
                i + 1,
                parts.len()
            ));
        }
        parts.into_iter().map(str::to_string).collect()
    };
    if tokens.is_empty() {
        return Err(format!("--agents `{value}` names no crawler"));
    }
    let mut seen = std::collections::BTreeSet::new();
    Ok(tokens
        .into_iter()
        .filter(|t| seen.insert(t.to_ascii_lowercase()))
        .collect())
}

/// Whether `token` is a product token as RFC 9309 §2.2.1 defines it: `[A-Za-z_-]+`.
pub fn is_product_token(token: &str) -> bool {
    !token.is_empty()
        && token
            .bytes()
            .all(|b| b.is_ascii_alphabetic() || b == b'-' || b == b'_')
}

/// Warnings for `--agents` tokens that are not product tokens. They are kept, but in Google's
/// reading a user-agent line is cut at its first character outside `[A-Za-z_-]`, so a crawler
/// token with digits, spaces or `/` never equals a named group and always falls to `*`. The
/// first [`AGENT_WARNINGS_SHOWN`] such tokens get a warning each; one more warning counts and
/// names the rest, so a long list gives a few lines, not one per token.
pub fn agent_warnings(tokens: &[String]) -> Vec<String> {
    let odd: Vec<&String> = tokens.iter().filter(|t| !is_product_token(t)).collect();
    let mut out: Vec<String> = odd
        .iter()
        .take(AGENT_WARNINGS_SHOWN)
        .map(|t| {
            if *t == "*" {
                return "--agents: `*` is not a crawler's product token; the column shows what a \
                        crawler that no group names may fetch (it follows the `*` groups)"
                    .to_string();
            }
            format!(
                "--agents: `{t}` is not a product token (RFC 9309 §2.2.1 allows only letters, `_` \
                 and `-`); it is kept, but in the Google reading no group can name it: Google cuts \
                 each user-agent line at its first other character (`User-agent: {t}` reads as \
                 `{}`), so this crawler always gets the `*` group",
                t.split(|c: char| !(c.is_ascii_alphabetic() || c == '-' || c == '_'))
                    .next()
                    .unwrap_or("")
            )
        })
        .collect();
    if odd.len() > AGENT_WARNINGS_SHOWN {
        let rest = &odd[AGENT_WARNINGS_SHOWN..];
        let named: Vec<String> = rest.iter().take(5).map(|t| format!("`{t}`")).collect();
        out.push(format!(
            "--agents: {} more {} not product tokens, kept alike ({}{})",
            thousands(rest.len()),
            if rest.len() == 1 { "is" } else { "are" },
            named.join(", "),
            if rest.len() > named.len() {
                ", …"
            } else {
                ""
            }
        ));
    }
    out
}

/// `--agents` tokens outside the product-token grammar that get a warning of their own.
pub const AGENT_WARNINGS_SHOWN: usize = 5;

/// Reads a `--url` value as the request target a client sends for it (see
/// [`crate::request::typed_target`]): `/café` gives `/caf%C3%A9`, an absolute or scheme-relative
/// URL its path and query.
///
/// # Errors
/// A message naming the value and what is wrong with it.
pub fn parse_url(value: &str) -> Result<String, String> {
    crate::request::typed_target(value).map_err(|e| format!("--url `{value}` {e}"))
}

/// On Unix, removes the run's temporary folder when SIGINT, SIGTERM or SIGHUP arrives, then
/// exits with 128 plus the signal number. Elsewhere the next run sweeps what is left
/// ([`report::sweep_stale`]).
fn install_signal_cleanup() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(sig) = signals.forever().next() {
                report::remove_current_temp();
                std::process::exit(128 + sig);
            }
        });
    }
}

struct Bar(indicatif::ProgressBar);

impl Progress for Bar {
    fn start(&self, hosts: usize) {
        self.0.set_length(hosts as u64);
    }
    fn host_done(&self) {
        self.0.inc(1);
    }
}

/// Runs `report` (or `report merge`); returns the exit status.
pub fn run(args: Args) -> u8 {
    let started = Instant::now();
    if let Some(Sub::Merge(m)) = args.command {
        install_signal_cleanup();
        let result = with_progress(m.quiet, &|p| report::merge(&m.parts, &m.out, p));
        return finish("report merge", result, m.quiet, started, None);
    }
    let fail = |msg: String| {
        crate::eprintln_lossy!("robots-explorer report: {msg}");
        EXIT_ERROR
    };
    let Some(input) = &args.input else {
        return fail("the input directory is missing".to_string());
    };
    let now = match &args.now {
        Some(s) => match report::sidecar::parse_time(s) {
            Ok(t) => t,
            Err(e) => return fail(format!("--now: {e}")),
        },
        None => match report::default_now() {
            Ok(t) => t,
            Err(e) => return fail(e),
        },
    };
    let agents = match args.agents.as_deref().map(parse_agents).transpose() {
        Ok(a) => a.unwrap_or_default(),
        Err(e) => return fail(e),
    };
    for w in agent_warnings(&agents) {
        crate::eprintln_lossy!("robots-explorer report: warning: {w}");
    }
    let mut urls = Vec::new();
    for u in &args.urls {
        match parse_url(u) {
            Ok(p) => urls.push(p),
            Err(e) => return fail(e),
        }
    }
    let filter = match args.walk.filter() {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    // A single file is put together from a site built in a temporary folder.
    let single_dir = match &args.single_file {
        None => None,
        Some(path) => {
            if writes_into_input(path, input) {
                return fail(format!(
                    "--single-file {} is inside the input {}: the page would replace or join \
                     the files it is made from; write it somewhere else",
                    path.display(),
                    input.display()
                ));
            }
            match report::discover::discover(input, &filter, &std::env::temp_dir()) {
                Ok(d) if d.hosts.len() > report::single::MAX_HOSTS => {
                    return fail(format!(
                        "--single-file {}: the input holds {} hosts, more than the {} a single \
                         file is made for; write a site with --out instead",
                        path.display(),
                        thousands(d.hosts.len()),
                        report::single::MAX_HOSTS
                    ));
                }
                // Other problems with the input are reported by the run itself.
                _ => {}
            }
            match tempfile::tempdir() {
                Ok(d) => Some(d),
                Err(e) => return fail(format!("--single-file: a temporary folder: {e}")),
            }
        }
    };
    let out = match &single_dir {
        Some(d) => d.path().join("site"),
        None => args.out.clone(),
    };
    let mut config = Config::new(input, &out, now);
    config.filter = filter;
    config.shard = args.shard;
    config.agents = agents;
    config.urls = urls;
    config.reading = args.reading;
    config.fail_on = args.fail_on;
    config.min_severity = args.min_severity.severity();
    config.scripts = args.single_file.is_none();
    config.pages = args.pages;
    if let Some(f) = &args.url_file {
        match report::urls::UrlList::read(f) {
            Ok(list) => config.url_list = Some(std::sync::Arc::new(list)),
            Err(e) => {
                eprintln!("robots-explorer report: {e}");
                return EXIT_ERROR;
            }
        }
    }

    install_signal_cleanup();
    let result = with_progress(args.quiet, &|p| report::run(&config, p));
    let written = match (&args.single_file, &result) {
        (Some(path), Ok(_)) => {
            let html = match report::single::assemble(&out) {
                Ok(h) => h,
                Err(e) => return fail(format!("--single-file: {e}")),
            };
            if let Err(e) = std::fs::write(path, html.as_bytes()) {
                return fail(format!("--single-file {}: {e}", path.display()));
            }
            Some(format!(
                "{} (one file, {:.1} MB)",
                path.display(),
                html.len() as f64 / 1e6
            ))
        }
        _ => None,
    };
    finish("report", result, args.quiet, started, written)
}

/// Runs `job` with a progress bar on a terminal (unless `quiet`), else without.
fn with_progress(
    quiet: bool,
    job: &dyn Fn(&dyn Progress) -> Result<report::RunSummary, report::ReportError>,
) -> Result<report::RunSummary, report::ReportError> {
    if quiet || !std::io::stderr().is_terminal() {
        return job(&report::NoProgress);
    }
    let pb = indicatif::ProgressBar::new(0);
    pb.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {human_pos}/{human_len} hosts, {per_sec}, {elapsed} elapsed, {eta} left",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let bar = Bar(pb);
    let r = job(&bar);
    bar.0.finish_and_clear();
    r
}

/// Reports the end of a run or merge named `what` on the terminal; returns the exit status.
/// Whether `output` (a file, which need not exist yet) is the file `input` or lies inside the
/// folder `input`, with symbolic links and `..` resolved as far as the paths exist.
fn writes_into_input(output: &std::path::Path, input: &std::path::Path) -> bool {
    let Ok(input) = std::fs::canonicalize(input) else {
        return false;
    };
    let resolved = std::fs::canonicalize(output).ok().or_else(|| {
        let parent = match output.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => std::path::Path::new("."),
        };
        Some(
            std::fs::canonicalize(parent)
                .ok()?
                .join(output.file_name()?),
        )
    });
    resolved.is_some_and(|o| o.starts_with(&input))
}

/// `written` says what was written when it is not the site (`--single-file`).
fn finish(
    what: &str,
    result: Result<report::RunSummary, report::ReportError>,
    quiet: bool,
    started: Instant,
    written: Option<String>,
) -> u8 {
    let summary = match result {
        Ok(s) => s,
        Err(e) => {
            crate::eprintln_lossy!("robots-explorer {what}: {e}");
            return EXIT_ERROR;
        }
    };
    // Errors are shown even with --quiet.
    for d in &summary.duplicates {
        crate::eprintln_lossy!(
            "robots-explorer {what}: error: {} files give the host {} (host names are \
             case-insensitive); only {} is reported, not {}",
            d.inputs.len(),
            d.host,
            d.inputs[0],
            d.inputs[1..].join(", ")
        );
    }
    for (path, why) in &summary.unreadable {
        crate::eprintln_lossy!("robots-explorer {what}: {path}: {why}");
    }
    if !quiet && summary.skipped > 0 {
        let named: Vec<String> = summary
            .skipped_first
            .iter()
            .map(|s| format!("{} ({})", s.path, s.reason))
            .collect();
        crate::eprintln_lossy!(
            "robots-explorer {what}: {} skipped: {}{} (summary.json lists every one)",
            count(summary.skipped, "entry", "entries"),
            named.join("; "),
            if summary.skipped > named.len() {
                "; …"
            } else {
                ""
            }
        );
    }
    if !quiet {
        let t = &summary.totals;
        let unread = if t.unread > 0 {
            format!(" ({} not readable)", count(t.unread, "file", "files"))
        } else {
            String::new()
        };
        let skipped = if summary.skipped > 0 {
            format!(", {} skipped", count(summary.skipped, "entry", "entries"))
        } else {
            String::new()
        };
        let (hosts, kind) = match summary.shard {
            Some((shard, all)) => (
                format!(
                    "shard {shard}: {} of {}",
                    count(t.hosts, "host", "hosts"),
                    thousands(all)
                ),
                " (a partial, not a site: combine the partials with report merge)",
            ),
            None => (count(t.hosts, "host", "hosts"), ""),
        };
        let written = written.unwrap_or_else(|| {
            format!(
                "{}{kind} ({}, {:.1} MB)",
                summary.out.display(),
                count(summary.files, "file", "files"),
                summary.bytes as f64 / 1e6
            )
        });
        crate::println_lossy!(
            "report: {hosts}{unread}{skipped}; {}, {}, {} info ({} reading) → {written} in {:.2} s",
            count(t.error, "error", "errors"),
            count(t.warning, "warning", "warnings"),
            thousands(t.info),
            summary.reading.label(),
            started.elapsed().as_secs_f64()
        );
        if let Some(w) = &summary.warc {
            crate::println_lossy!(
                "warc: {} read, {}: {} robots.txt captures, {} not robots.txt captures (skipped), \
                 {} damaged",
                count(w.files, "file", "files"),
                count(w.records as usize, "record", "records"),
                thousands(w.captures as usize),
                thousands(w.skipped_records as usize),
                thousands(w.corrupt)
            );
        }
        if let Some(u) = &summary.urls {
            crate::println_lossy!(
                "urls: {} decided ({} blocked for some crawler), {} for no host of the report, {} \
                 not an absolute http(s) URL; every one is in urls.csv",
                count(u.given, "URL", "URLs"),
                thousands(u.blocked),
                thousands(u.unassigned),
                count(u.invalid, "line", "lines"),
            );
        }
    }
    if summary.failed {
        EXIT_FINDINGS
    } else {
        EXIT_OK
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_from_a_list_or_a_file() {
        assert_eq!(
            parse_agents("GPTBot, Googlebot,gptbot").unwrap(),
            vec!["GPTBot", "Googlebot"]
        );
        let f = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(f.path(), "# crawlers\nBingbot\n\nCCBot # AI\n").unwrap();
        assert_eq!(
            parse_agents(f.path().to_str().unwrap()).unwrap(),
            vec!["Bingbot", "CCBot"]
        );
        assert!(parse_agents(" , ").is_err());
        assert!(
            parse_agents("GPTBot,,CCBot")
                .unwrap_err()
                .contains("token 2 of 3")
        );
        assert!(parse_agents("GPTBot,").is_err());
        // Looks like a path: read as a file, or an error; never a crawler named like the path.
        let e = parse_agents("/nonexistent/agents.txt").unwrap_err();
        assert!(e.contains("cannot be read"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let e = parse_agents(dir.path().to_str().unwrap()).unwrap_err();
        assert!(e.contains("cannot be read"), "{e}");
        let e = parse_agents("agents/list").unwrap_err();
        assert!(e.contains("cannot be read"), "{e}");
    }

    #[test]
    fn tokens_outside_the_grammar_are_kept_with_a_warning() {
        let tokens = parse_agents("MJ12bot, Googlebot, Bing bot").unwrap();
        assert_eq!(tokens, vec!["MJ12bot", "Googlebot", "Bing bot"]);
        let w = agent_warnings(&tokens);
        assert_eq!(w.len(), 2);
        assert!(
            w[0].contains("`MJ12bot`") && w[0].contains("reads as `MJ`"),
            "{}",
            w[0]
        );
        assert!(w[1].contains("`Bing bot`"));
        assert!(agent_warnings(&["Google-Extended".into(), "a_b".into()]).is_empty());
        let star = agent_warnings(&["*".into()]);
        assert!(star[0].contains("no group names"), "{}", star[0]);
        // A long list: a warning for each of the first few, then one for the rest.
        let many: Vec<String> = (0..5_000).map(|i| format!("bot{i}")).collect();
        let w = agent_warnings(&many);
        assert_eq!(w.len(), AGENT_WARNINGS_SHOWN + 1);
        assert!(w[0].contains("`bot0`"));
        assert!(
            w[AGENT_WARNINGS_SHOWN].contains("4,995 more are not product tokens")
                && w[AGENT_WARNINGS_SHOWN].contains("`bot5`, `bot6`"),
            "{}",
            w[AGENT_WARNINGS_SHOWN]
        );
    }

    #[test]
    fn urls_become_paths() {
        assert_eq!(parse_url("/a?b").unwrap(), "/a?b");
        assert_eq!(parse_url("https://x.example/p/q?r=1").unwrap(), "/p/q?r=1");
        assert!(parse_url("relative/path").is_err());
        assert_eq!(parse_url("/café").unwrap(), "/caf%C3%A9");
    }
}
