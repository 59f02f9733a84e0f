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
#[command(group(clap::ArgGroup::new("who").required(true).args(["agent", "crawler"])))]
pub struct Args {
    /// The product token to ask about, as the raw question: the groups naming it, else `*`.
    /// E.g. `Googlebot`.
    #[arg(long, short = 'a')]
    pub agent: Option<String>,
    /// A known crawler, by product token or name (e.g. `Googlebot-Image`, `AdsBot-Google`):
    /// decided with its profile, i.e. the tokens it falls back to and whether it obeys `*`.
    #[arg(long, short = 'c', conflicts_with = "agent")]
    pub crawler: Option<String>,
    /// A URL to decide: absolute (`https://example.com/a?b`) or a path starting with `/`, typed
    /// as a person would; it is decided as a browser sends it (`/café` as `/caf%C3%A9`, dot
    /// segments resolved). Repeat for several.
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

/// One answer of `check`, as printed in JSON.
#[derive(Debug, serde::Serialize)]
pub struct CheckResult<'a> {
    /// The file.
    pub file: String,
    /// The URL as given.
    pub url: &'a str,
    /// The request target decided (path, parameters and query as a client sends them), when
    /// the URL could be decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided: Option<&'a str>,
    /// The crawler's product token (with `--crawler`, its own token).
    pub agent: &'a str,
    /// The known crawler asked about with `--crawler`, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crawler: Option<&'a str>,
    /// The reading.
    pub reading: Reading,
    /// Whether the crawler may fetch the URL; absent when the URL could not be decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed: Option<bool>,
    /// The deciding rule, or null.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<Option<&'a crate::decide::RuleRef>>,
    /// Why (`longest-match`, `allow-on-tie`, `no-matching-rule`, `no-group`,
    /// `robots-txt-always-allowed`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<crate::Reason>,
    /// The product token whose groups applied when a crawler's profile fell back to it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via_token: Option<&'a str>,
    /// Why the URL could not be decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'a str>,
}

/// A file's name and its answers, one per question (`None` for a URL that cannot be decided),
/// or why the file could not be read.
type FileAnswers = Result<(String, Vec<Option<Decision>>), (String, String)>;

/// A `--url` value and the request target it is decided as (or why it cannot be).
struct Question {
    given: String,
    target: Result<String, String>,
}

/// Runs `check`; returns the exit status: 0, or 2 when a path could not be read, a URL could
/// not be decided (the other URLs and files are still answered), or `--crawler` names no known
/// crawler. An empty agent or URL, or an agent that is not a product token, gets a warning on
/// standard error and is answered as google/robotstxt answers it.
pub fn run(args: Args) -> u8 {
    let crawler = match &args.crawler {
        Some(name) => match crate::crawlers::find_by_name(name) {
            Some(c) => Some(c),
            None => {
                let known: Vec<&str> = crate::crawlers::known()
                    .iter()
                    .map(|c| c.token.as_str())
                    .collect();
                warn(&format!(
                    "`{}` is not a known crawler; known crawlers: {}. To ask about any product \
token, use `--agent`",
                    escape_control(name),
                    known.join(", ")
                ));
                return EXIT_ERROR;
            }
        },
        None => None,
    };
    let agent: &str = match (crawler, &args.agent) {
        (Some(c), _) => &c.token,
        (None, Some(a)) => a,
        (None, None) => unreachable!("clap requires --agent or --crawler"),
    };
    if agent.is_empty() {
        warn(
            "warning: the agent is empty, which is no product token: here no group names it, so \
only `*` groups apply (Google's library would also match it against user-agent lines whose value \
holds no token, such as an empty `User-agent:`). Give the crawler's product token, e.g. \
`--agent Googlebot`",
        );
    } else if let Some(w) = agent_warning(agent) {
        warn(&format!("warning: {w}"));
    }
    if let Some(note) = crawler.and_then(|c| c.profile_note()) {
        warn(&format!(
            "{}: {note}",
            crawler.map_or("", |c| c.name.as_str())
        ));
    }
    let tokens: Vec<&str> = match crawler {
        Some(c) => c.tokens(),
        None => vec![agent],
    };
    let profile = crate::decide::Profile {
        tokens: &tokens,
        obeys_global: crawler.is_none_or(|c| c.obeys_global),
    };
    let mut status = EXIT_OK;
    let questions: Vec<Question> = args
        .url
        .iter()
        .map(|u| {
            let target = crate::request::request_target(u).map_err(|e| e.problem);
            match &target {
                Err(problem) => {
                    warn(&format!("the URL `{}` {problem}", escape_control(u)));
                    status = EXIT_ERROR;
                }
                Ok(_) if u.is_empty() => warn(
                    "warning: an empty URL is decided as `/`, the site's root, as Google's \
library does",
                ),
                Ok(_) => {}
            }
            Question {
                given: u.clone(),
                target,
            }
        })
        .collect();
    let targets: Vec<&str> = questions
        .iter()
        .filter_map(|q| q.target.as_deref().ok())
        .collect();
    let inputs = expand(&args.paths);
    let results: Vec<FileAnswers> = inputs
        .par_iter()
        .map(|input| {
            read(input).map(|(name, b)| {
                // One pass over the bytes decides every question; nothing past the parsing
                // limit matters, so a prefix read with a cap on memory decides the same.
                let mut decided =
                    crate::one_pass::decide_many(&b.bytes, args.reading, &profile, &targets)
                        .into_iter();
                let ds = questions
                    .iter()
                    .map(|q| q.target.as_ref().ok().and_then(|_| decided.next()))
                    .collect();
                (name, ds)
            })
        })
        .collect();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for r in results {
        match r {
            Err((name, e)) => {
                warn(&format!("{name}: {e}"));
                status = EXIT_ERROR;
            }
            Ok((path, decisions)) => {
                for (q, d) in questions.iter().zip(&decisions) {
                    let line = match args.format {
                        Format::Text => text_line(&path, q, agent, d.as_ref()),
                        Format::Json => serde_json::to_string(&CheckResult {
                            file: path.clone(),
                            url: &q.given,
                            decided: q.target.as_deref().ok(),
                            agent,
                            crawler: crawler.map(|c| c.name.as_str()),
                            reading: args.reading,
                            allowed: d.as_ref().map(|d| d.allowed),
                            rule: d.as_ref().map(|d| d.rule.as_ref()),
                            reason: d.as_ref().map(|d| d.reason),
                            via_token: d.as_ref().and_then(|d| d.via_token.as_deref()),
                            error: q
                                .target
                                .as_ref()
                                .err()
                                .map(|problem| format!("the URL `{}` {problem}", q.given))
                                .as_deref(),
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

/// A message on standard error, prefixed with the command; a closed standard error is ignored.
fn warn(msg: &str) {
    let _ = writeln!(std::io::stderr(), "robots-explorer check: {msg}");
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

fn text_line(path: &str, q: &Question, agent: &str, d: Option<&Decision>) -> String {
    let Some(d) = d else {
        let problem = q.target.as_ref().err().map_or("", String::as_str);
        return format!(
            "{}\t{}\t{}\tERROR\tthe URL {}",
            escape_control(path),
            escape_control(&q.given),
            escape_control(agent),
            escape_control(problem)
        );
    };
    let verdict = if d.allowed { "ALLOWED" } else { "DISALLOWED" };
    let mut why = match &d.rule {
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
    if let Some(t) = &d.via_token {
        why.push_str(&format!("; by the {t} group, as no group names {agent}"));
    }
    // Show the URL that was decided when it differs from the one given (beyond dropping the
    // scheme and host).
    let url = match q.target.as_deref() {
        Ok(t) if t != crate::request::typed_path(&q.given) => {
            format!("{} (sent as {t})", q.given)
        }
        _ => q.given.clone(),
    };
    format!(
        "{}\t{}\t{}\t{verdict}\t{}",
        escape_control(path),
        escape_control(&url),
        escape_control(agent),
        escape_control(&why)
    )
}
