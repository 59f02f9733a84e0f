//! The `check` subcommand: may this crawler fetch these URLs?

use super::inputs::{expand, read};
use super::{EXIT_ERROR, EXIT_OK};
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

/// Runs `check`; returns the exit status (0, or 2 when a path could not be read or a URL is
/// not absolute and does not start with `/`).
pub fn run(args: Args) -> u8 {
    let bad_urls: Vec<&String> = args.url.iter().filter(|u| !valid_url(u)).collect();
    if !bad_urls.is_empty() {
        for u in bad_urls {
            eprintln!(
                "robots-explorer check: `{u}` is neither an absolute URL nor a path starting with `/`"
            );
        }
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

fn valid_url(u: &str) -> bool {
    u.starts_with('/') || url::Url::parse(u).is_ok_and(|x| x.has_host())
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
    format!("{path}\t{url}\t{agent}\t{verdict}\t{why}")
}
