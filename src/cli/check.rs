//! The `check` subcommand: may this crawler fetch these URLs?

use super::inputs::{expand, read};
use super::{EXIT_ERROR, EXIT_OK};
use crate::output::escape_control;
use crate::{Decision, Reading};
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The crawler's product token, e.g. `Googlebot`.
    #[arg(long, short = 'a')]
    pub agent: String,
    /// A URL to decide: absolute (`https://example.com/a?b`) or a path starting with `/`.
    /// Repeat for several.
    #[arg(long, short = 'u', required = true)]
    pub url: Vec<String>,
    /// Reading: `google` (google/robotstxt, the default) or `rfc` (strict RFC 9309).
    #[arg(long, default_value = "google", value_parser = super::parse_reading)]
    pub reading: Reading,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// robots.txt files, or directories walked recursively for `*.txt` files; `-` reads
    /// standard input.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

/// Output format of `check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One line per file and URL.
    Text,
    /// One JSON object per line (JSON Lines).
    Json,
}

/// One decision of `check`, as printed in JSON.
#[derive(Debug, serde::Serialize)]
pub struct CheckResult<'a> {
    /// The file.
    pub file: String,
    /// The URL as given.
    pub url: &'a str,
    /// The crawler's product token.
    pub agent: &'a str,
    /// The reading.
    pub reading: Reading,
    /// Whether the crawler may fetch the URL.
    pub allowed: bool,
    /// The deciding rule, or null.
    pub rule: Option<&'a crate::decide::RuleRef>,
    /// Why (`longest-match`, `allow-on-tie`, `no-matching-rule`, `no-group`,
    /// `robots-txt-always-allowed`).
    pub reason: crate::Reason,
}

/// Runs `check`; returns the exit status (0, or 2 when a path could not be read, the agent is
/// empty, or a URL is neither an absolute URL with a host nor a path starting with `/`). An
/// agent that is not a product token gets a warning on standard error.
pub fn run(args: Args) -> u8 {
    if args.agent.is_empty() {
        eprintln!(
            "robots-explorer check: the agent is empty; give the crawler's product token, e.g. \
`--agent Googlebot`"
        );
        return EXIT_ERROR;
    }
    if let Some(w) = agent_warning(&args.agent) {
        eprintln!("robots-explorer check: warning: {w}");
    }
    let mut bad = false;
    for u in &args.url {
        if let Some(problem) = url_problem(u) {
            eprintln!(
                "robots-explorer check: the URL `{}` {problem}",
                escape_control(u)
            );
            bad = true;
        }
    }
    if bad {
        return EXIT_ERROR;
    }
    let inputs = expand(&args.paths);
    let results: Vec<Result<(String, Vec<Decision>), String>> = inputs
        .par_iter()
        .map(|input| {
            read(input).map(|(name, b)| {
                let robots = b.parse();
                let ds = args
                    .url
                    .iter()
                    .map(|u| robots.decide(args.reading, &args.agent, u))
                    .collect();
                (name, ds)
            })
        })
        .collect();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut status = EXIT_OK;
    for r in results {
        match r {
            Err(e) => {
                eprintln!("robots-explorer check: {e}");
                status = EXIT_ERROR;
            }
            Ok((path, decisions)) => {
                for (url, d) in args.url.iter().zip(&decisions) {
                    let line = match args.format {
                        Format::Text => text_line(&path, url, &args.agent, d),
                        Format::Json => serde_json::to_string(&CheckResult {
                            file: path.clone(),
                            url,
                            agent: &args.agent,
                            reading: d.reading,
                            allowed: d.allowed,
                            rule: d.rule.as_ref(),
                            reason: d.reason,
                        })
                        .expect("serialisable"),
                    };
                    if writeln!(out, "{line}").is_err() {
                        return EXIT_ERROR;
                    }
                }
            }
        }
    }
    if out.flush().is_err() {
        return EXIT_ERROR;
    }
    status
}

/// Whether `c` may appear in a product token (`[A-Za-z_-]`, RFC 9309 §2.2.1).
fn is_token_char(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '-' || c == '_'
}

/// A warning for an agent that is not a product token, saying how each reading compares it
/// with user-agent values; `None` for a product token (or `*`, which is compared as text).
pub fn agent_warning(agent: &str) -> Option<String> {
    if agent.chars().all(is_token_char) {
        return None;
    }
    let lead: String = agent.chars().take_while(|&c| is_token_char(c)).collect();
    // A full User-Agent header such as `Googlebot/2.1 (+http://…)`: suggest its token.
    let rest = &agent[lead.len()..];
    let hint = if lead.is_empty() || !rest.starts_with(['/', ' ', '\t', ';', '(']) {
        String::new()
    } else {
        format!(" To check the crawler whose product token is `{lead}`, give `--agent {lead}`.")
    };
    Some(format!(
        "`{a}` is not a product token (product tokens hold only letters, `-` and `_`). In the \
Google reading the whole agent `{a}` is compared with the leading run of letters, `-` and `_` \
of each user-agent value, so it can never select a group named for it: only `*` groups apply. \
In the RFC 9309 reading whole values are compared (ignoring case), so it selects only groups \
whose user-agent value is exactly `{a}`.{hint}",
        a = escape_control(agent)
    ))
}

/// What is wrong with a `--url` value, or `None` when it can be decided: a path starting with
/// `/`, or an absolute URL with a host (its path, parameters and query are decided).
pub fn url_problem(u: &str) -> Option<String> {
    if u.starts_with('/') {
        return None;
    }
    if u.is_empty() {
        return Some("is empty; give a path starting with `/` or an absolute URL".to_string());
    }
    match url::Url::parse(u) {
        Ok(x) if x.has_host() => None,
        Ok(x) => Some(format!(
            "has the scheme `{}:`, which names no host, so no robots.txt file applies to it; \
give an absolute URL such as `https://example.com/page` or a path starting with `/`",
            x.scheme()
        )),
        Err(url::ParseError::RelativeUrlWithoutBase) => {
            let looks_like_host = u
                .split('/')
                .next()
                .is_some_and(|h| h.contains('.') && !h.contains(' '));
            Some(format!(
                "is neither an absolute URL nor a path starting with `/`{}",
                if looks_like_host {
                    format!(" (did you mean `https://{}`?)", escape_control(u))
                } else {
                    String::new()
                }
            ))
        }
        Err(url::ParseError::EmptyHost) => Some("has no host".to_string()),
        Err(url::ParseError::InvalidPort) => {
            Some("has an invalid port (a port is a number from 0 to 65535)".to_string())
        }
        Err(e) => Some(format!("is not a valid URL: {e}")),
    }
}

fn text_line(path: &str, url: &str, agent: &str, d: &Decision) -> String {
    let verdict = if d.allowed { "ALLOWED" } else { "DISALLOWED" };
    let why = match &d.rule {
        Some(r) => format!(
            "line {}: {}: {}{} ({})",
            r.line,
            r.kind.as_str(),
            r.pattern,
            if r.derived { " [derived]" } else { "" },
            d.reason.phrase()
        ),
        None => d.reason.phrase().to_string(),
    };
    format!(
        "{}\t{}\t{}\t{verdict}\t{}",
        escape_control(path),
        escape_control(url),
        escape_control(agent),
        escape_control(&why)
    )
}
