//! The `check` subcommand: may this crawler fetch these URLs?

use super::inputs::{expand, in_chunks, read_into};
use super::{EXIT_ERROR, EXIT_FINDINGS, EXIT_OK};
use crate::output::escape_control;
use crate::{Decision, Reading};
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;

/// Inputs decided side by side before their answers are printed.
const CHUNK: usize = 1024;

/// Answers per file (crawlers times URLs) from which files are answered one at a time, each
/// answer printed as it is decided instead of held until its chunk is done.
const STREAM_ANSWERS: usize = 1 << 14;

/// Arguments of `check`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("who").required(true).multiple(true).args(["agent", "crawler"])))]
#[command(group(clap::ArgGroup::new("what").required(true).multiple(true).args(["url", "urls"])))]
pub struct Args {
    /// A product token to ask about, as the raw question: the groups naming it, else `*`.
    /// E.g. `Googlebot`. Repeat for several; each answer says which it is for.
    #[arg(long, short = 'a')]
    pub agent: Vec<String>,
    /// A known crawler, by product token or name (e.g. `Googlebot-Image`, `AdsBot-Google`):
    /// decided with its profile, i.e. the tokens it falls back to and whether it obeys `*`.
    /// Repeat for several; asked after the `--agent` tokens.
    #[arg(long, short = 'c')]
    pub crawler: Vec<String>,
    /// A URL to decide: absolute (`https://example.com/a?b`), scheme-relative
    /// (`//example.com/a`), or a path starting with `/`, typed as a person would; it is decided
    /// as a browser sends it (`/café` as `/caf%C3%A9`, dot segments resolved). Repeat for
    /// several.
    #[arg(long, short = 'u')]
    pub url: Vec<String>,
    /// A file of URLs to decide, one per line, after those of `--url`; `-` reads standard
    /// input. Blank lines and lines starting with `#` are skipped, and surrounding white space
    /// is trimmed.
    #[arg(long, value_name = "FILE")]
    pub urls: Option<PathBuf>,
    /// Reading: `google` (google/robotstxt, the default) or `rfc` (strict RFC 9309).
    #[arg(long, default_value = "google", value_parser = super::parse_reading)]
    pub reading: Reading,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Exit with status 1 when any answer is DISALLOWED (and nothing went wrong: an input that
    /// cannot be read, a URL that cannot be decided or an unknown crawler still give 2), so a
    /// CI step can assert that crawlers may fetch what they should.
    #[arg(long)]
    pub exit_code: bool,
    /// Which files below a directory are read.
    #[command(flatten)]
    pub walk: super::inputs::WalkArgs,
    /// robots.txt files, or directories walked recursively for them (`robots.txt`,
    /// `*.robots.txt`, `<host>.txt`, `<digest>.txt`; see `--include`); `-` reads standard
    /// input.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

/// Output format of `check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One line per file, crawler and URL, tab-separated.
    Text,
    /// One JSON object per line (JSON Lines).
    Json,
    /// CSV with a header row: `file,url,decided,agent,crawler,reading,verdict,line,kind,
    /// pattern,reason,via_token,error`.
    Csv,
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

/// One answer of `check` as a CSV row (the columns of [`Format::Csv`]); empty cells where a
/// value does not apply.
#[derive(Debug, serde::Serialize)]
struct CsvRow<'a> {
    file: &'a str,
    url: &'a str,
    decided: &'a str,
    agent: &'a str,
    crawler: &'a str,
    reading: Reading,
    /// `ALLOWED`, `DISALLOWED` or `ERROR`.
    verdict: &'static str,
    line: Option<usize>,
    kind: &'a str,
    pattern: &'a str,
    reason: Option<crate::Reason>,
    via_token: &'a str,
    error: &'a str,
}

/// A file's name and its answers, per asker and question (`None` for a URL that cannot be
/// decided), or why the file could not be read.
type FileAnswers = Result<(String, Vec<Vec<Option<Decision>>>), (String, String)>;

/// A `--url` value and the request target it is decided as (or why it cannot be), borrowed
/// from [`Questions`].
#[derive(Clone, Copy)]
struct Question<'q> {
    given: &'q str,
    target: Result<&'q str, &'q str>,
}

/// The questions of a run, in order: the `--url` values, then the lines of `--urls`. Their
/// text is kept in three buffers (the URLs as given, the request targets, the problems of those
/// that cannot be decided), each question a pair of spans, so that a list of a million URLs
/// costs little more than its own size.
#[derive(Default)]
struct Questions {
    given: String,
    targets: String,
    problems: String,
    /// Per question: its span of `given`, and its span of `targets` (`Ok`) or of `problems`.
    spans: Vec<(Span, Result<Span, Span>)>,
    /// Questions whose target is known.
    decidable: usize,
}

/// `start..end` of one of the buffers of [`Questions`].
type Span = (usize, usize);

/// Appends `s` to `buf`; its span.
fn push_span(buf: &mut String, s: &str) -> Span {
    let start = buf.len();
    buf.push_str(s);
    (start, buf.len())
}

impl Questions {
    /// The questions of the `--url` values `urls`, then of the lines of the list `text` read
    /// by [`read_url_list`] (kept as it is: its URLs are spans of it); each decided once, here.
    /// `note` is called, in order, for each URL that cannot be decided (with why) and for an
    /// empty URL (with `None`).
    fn new(urls: &[String], text: String, mut note: impl FnMut(&str, Option<&str>)) -> Questions {
        let mut q = Questions {
            targets: String::with_capacity(text.len()),
            given: text,
            ..Questions::default()
        };
        let list_len = q.given.len();
        let mut spans: Vec<Span> = Vec::new();
        for u in urls {
            spans.push(push_span(&mut q.given, u));
        }
        let base = q.given.as_ptr() as usize;
        spans.extend(list_lines(&q.given[..list_len]).map(|l| {
            let start = l.as_ptr() as usize - base;
            (start, start + l.len())
        }));
        for given in spans {
            let u = &q.given[given.0..given.1];
            let target = match crate::request::typed_target(u) {
                Ok(t) => {
                    if u.is_empty() {
                        note(u, None);
                    }
                    q.decidable += 1;
                    Ok(push_span(&mut q.targets, &t))
                }
                Err(e) => {
                    note(u, Some(&e.problem));
                    Err(push_span(&mut q.problems, &e.problem))
                }
            };
            q.spans.push((given, target));
        }
        q.targets.shrink_to_fit();
        q
    }

    fn len(&self) -> usize {
        self.spans.len()
    }

    fn get(&self, i: usize) -> Question<'_> {
        let (g, t) = self.spans[i];
        Question {
            given: &self.given[g.0..g.1],
            target: match t {
                Ok((a, b)) => Ok(&self.targets[a..b]),
                Err((a, b)) => Err(&self.problems[a..b]),
            },
        }
    }

    fn iter(&self) -> impl Iterator<Item = Question<'_>> {
        (0..self.len()).map(|i| self.get(i))
    }

    /// The request targets of the questions that can be decided, in order.
    fn targets(&self) -> impl Iterator<Item = &str> {
        self.iter().filter_map(|q| q.target.ok())
    }
}

/// Who a question is asked for: a product token, or a known crawler with its profile.
struct Asker {
    /// The product token shown in the answers (a crawler's own token).
    agent: String,
    /// The known crawler, for `--crawler`.
    crawler: Option<&'static crate::crawlers::Crawler>,
    /// The tokens of its profile, most specific first.
    tokens: Vec<&'static str>,
}

/// Reads `--urls` whole, from a file or (for `-`) standard input, as text (bytes that are not
/// UTF-8 replaced); [`list_lines`] gives its URLs. The bounded reader of [`crate::read`] is not
/// used: a list of URLs is the user's own input, read whole.
fn read_url_list(path: &std::path::Path) -> Result<String, String> {
    let bytes = if path.as_os_str() == "-" {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut b)
            .map_err(|e| format!("--urls -: {}", super::inputs::describe_io(&e)))?;
        b
    } else {
        std::fs::read(path).map_err(|e| {
            format!(
                "--urls {}: {}",
                path.display(),
                super::inputs::describe_io(&e)
            )
        })?
    };
    // Without a copy when the list is UTF-8.
    Ok(String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// The URLs of a list read by [`read_url_list`]: one per line, blank lines and `#` comments
/// skipped, white space around each trimmed.
fn list_lines(text: &str) -> impl Iterator<Item = &str> {
    text.trim_start_matches('\u{feff}')
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// Runs `check`; returns the exit status: 0; 1 with `--exit-code` when an answer is DISALLOWED;
/// 2 when a path could not be read, a URL could not be decided (the other URLs and files are
/// still answered), `--urls` cannot be read or `--crawler` names no known crawler (2 wins over
/// 1). An empty agent or URL, or an agent that is not a product token, gets a warning on
/// standard error and is answered as google/robotstxt answers it.
pub fn run(args: Args) -> u8 {
    let mut askers: Vec<Asker> = Vec::new();
    for agent in &args.agent {
        if agent.is_empty() {
            warn(
                "warning: the agent is empty, which is no product token: here no group names it, \
so only `*` groups apply (Google's library would also match it against user-agent lines whose \
value holds no token, such as an empty `User-agent:`). Give the crawler's product token, e.g. \
`--agent Googlebot`",
            );
        } else if let Some(w) = agent_warning(agent) {
            warn(&format!("warning: {w}"));
        }
        askers.push(Asker {
            agent: agent.clone(),
            crawler: None,
            tokens: Vec::new(),
        });
    }
    for name in &args.crawler {
        let Some(c) = crate::crawlers::find_by_name(name) else {
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
        };
        if let Some(note) = c.profile_note() {
            warn(&format!("{}: {note}", c.name));
        }
        askers.push(Asker {
            agent: c.token.clone(),
            crawler: Some(c),
            tokens: c.tokens(),
        });
    }
    if args.urls.as_deref().is_some_and(|u| u.as_os_str() == "-")
        && args.paths.iter().any(|p| p.as_os_str() == "-")
    {
        warn("`--urls -` and the path `-` cannot both read standard input");
        return EXIT_ERROR;
    }
    let filter = match args.walk.filter() {
        Ok(f) => f,
        Err(e) => {
            warn(&e);
            return EXIT_ERROR;
        }
    };
    let list = match &args.urls {
        Some(path) => match read_url_list(path) {
            Ok(text) => text,
            Err(e) => {
                warn(&e);
                return EXIT_ERROR;
            }
        },
        None => String::new(),
    };
    let mut status = EXIT_OK;
    let questions = Questions::new(&args.url, list, |u, problem| match problem {
        Some(problem) => {
            warn(&format!("the URL `{}` {problem}", escape_control(u)));
            status = EXIT_ERROR;
        }
        None => warn(
            "warning: an empty URL is decided as `/`, the site's root, as Google's \
library does",
        ),
    });
    let inputs = expand(&args.paths, &filter);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut csv_header = true;
    let mut disallowed = false;
    // `unread`: why the file could not be read, for the `ERROR` answers it gets.
    let mut answer = |out: &mut std::io::BufWriter<std::io::StdoutLock<'_>>,
                      (path, unread): (&str, Option<&str>),
                      asker: &Asker,
                      q: Question<'_>,
                      d: Option<&Decision>|
     -> std::io::Result<()> {
        disallowed |= d.is_some_and(|d| !d.allowed);
        write_answer(
            out,
            (args.format, args.reading),
            (path, unread),
            asker,
            q,
            d,
            &mut csv_header,
        )
    };
    let per_file = askers.len().saturating_mul(questions.len());
    let printed = if per_file >= STREAM_ANSWERS {
        // Many answers per file: one file at a time, each answer printed as it is decided, so
        // that memory does not grow with the answers.
        let mut kept = Kept::default();
        in_chunks(inputs, 1, &mut |chunk| {
            for input in chunk {
                match read_into(input, std::mem::take(&mut kept.bytes)) {
                    Err((name, e)) => {
                        warn(&format!("{name}: {e}"));
                        status = EXIT_ERROR;
                        answer_unreadable(&mut out, (&askers, &questions), &name, &e, &mut answer)?;
                    }
                    Ok((path, b)) => {
                        for asker in &askers {
                            stream_answers(
                                &b.bytes,
                                args.reading,
                                asker,
                                &questions,
                                &mut |q, d| answer(&mut out, (&path, None), asker, q, d.as_ref()),
                            )?;
                        }
                        kept.bytes = b.bytes;
                    }
                }
            }
            Ok(())
        })
    } else {
        // This thread as one of the pool's: with one thread, the files are decided here instead
        // of being handed to another thread while this one waits. (Only when nothing has
        // started the pool yet.)
        let _ = rayon::ThreadPoolBuilder::new()
            .use_current_thread()
            .build_global();
        // A chunk of inputs at a time: the answers of one chunk are printed before the next is
        // read, so memory stays flat however many files (or WARC captures) there are.
        in_chunks(inputs, CHUNK, &mut |chunk| {
            let results: Vec<FileAnswers> = chunk
                .par_iter()
                .map(|input| {
                    Kept::with(|kept| answer_file(input, &askers, &questions, args.reading, kept))
                })
                .collect();
            for r in results {
                match r {
                    Err((name, e)) => {
                        warn(&format!("{name}: {e}"));
                        status = EXIT_ERROR;
                        answer_unreadable(&mut out, (&askers, &questions), &name, &e, &mut answer)?;
                    }
                    Ok((path, answers)) => {
                        for (asker, decisions) in askers.iter().zip(&answers) {
                            for (q, d) in questions.iter().zip(decisions) {
                                answer(&mut out, (&path, None), asker, q, d.as_ref())?;
                            }
                        }
                    }
                }
            }
            Ok(())
        })
    };
    if let Err(e) = printed.and_then(|()| out.flush()) {
        super::inputs::report_write_error("check", &e);
        return EXIT_ERROR;
    }
    if status == EXIT_OK && args.exit_code && disallowed {
        status = EXIT_FINDINGS;
    }
    status
}

/// Writes one answer to `W`: for the file at a path (with why it could not be read, if so),
/// an asker, a question and its decision (`None`: an `ERROR` answer).
type Answer<'a, W> = dyn FnMut(
        &mut W,
        (&str, Option<&str>),
        &Asker,
        Question<'_>,
        Option<&Decision>,
    ) -> std::io::Result<()>
    + 'a;

/// The answer in the output itself for an input that cannot be read (`name`, because `e`):
/// `ERROR` for every question and every asker, handed to `answer` in order, as a URL that
/// cannot be decided gets.
///
/// # Errors
/// Those of `answer` (writing the output).
fn answer_unreadable<W>(
    out: &mut W,
    (askers, questions): (&[Asker], &Questions),
    name: &str,
    e: &str,
    answer: &mut Answer<'_, W>,
) -> std::io::Result<()> {
    let why = format!("the file cannot be read: {e}");
    for asker in askers {
        for q in questions.iter() {
            answer(out, (name, Some(&why)), asker, q, None)?;
        }
    }
    Ok(())
}

/// What a thread keeps from one input to the next: the buffer files are read into, so that it
/// is not allocated (nor grown) again per file. (The decisions keep their working memory on
/// the thread themselves, see [`crate::one_pass::decide_each`].)
#[derive(Default)]
struct Kept {
    bytes: Vec<u8>,
}

thread_local! {
    /// This thread's [`Kept`], for the files decided on the pool's threads.
    static KEPT: std::cell::Cell<Kept> = std::cell::Cell::default();
}

impl Kept {
    /// Calls `f` with this thread's [`Kept`].
    fn with<R>(f: impl FnOnce(&mut Kept) -> R) -> R {
        KEPT.with(|cell| {
            let mut kept = cell.take();
            let r = f(&mut kept);
            cell.set(kept);
            r
        })
    }
}

/// Decides every question for every asker over one input, in one pass over its bytes per
/// asker; nothing past the parsing limit matters, so the bounded prefix [`read_into`] gives
/// decides the same as the whole file. The file is read into `kept`'s buffer.
///
/// # Errors
/// `(name, message)` when the input cannot be read.
fn answer_file(
    input: &super::inputs::Input,
    askers: &[Asker],
    questions: &Questions,
    reading: Reading,
    kept: &mut Kept,
) -> FileAnswers {
    read_into(input, std::mem::take(&mut kept.bytes)).map(|(name, b)| {
        let per_asker = askers
            .iter()
            .map(|a| {
                let mut answers = Vec::with_capacity(questions.len());
                let collected = stream_answers(&b.bytes, reading, a, questions, &mut |_, d| {
                    answers.push(d);
                    Ok(())
                });
                debug_assert!(collected.is_ok(), "collecting answers cannot fail");
                answers
            })
            .collect();
        kept.bytes = b.bytes;
        (name, per_asker)
    })
}

/// Calls `f` with the profile `a` is asked with.
fn with_profile<R>(a: &Asker, f: impl FnOnce(&crate::decide::Profile) -> R) -> R {
    let own = [a.agent.as_str()];
    f(&crate::decide::Profile {
        tokens: if a.crawler.is_some() { &a.tokens } else { &own },
        obeys_global: a.crawler.is_none_or(|c| c.obeys_global),
    })
}

/// Decides every question for `asker` over the robots.txt `bytes` in one pass, handing each
/// answer to `f` as soon as it is made, in the order of the questions (`None` for a URL that
/// cannot be decided). Stops at the first error of `f`.
fn stream_answers(
    bytes: &[u8],
    reading: Reading,
    asker: &Asker,
    questions: &Questions,
    f: &mut dyn FnMut(Question<'_>, Option<Decision>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut next = 0;
    let mut result = Ok(());
    with_profile(asker, |profile| {
        crate::one_pass::decide_each(bytes, reading, profile, questions.targets(), |d| {
            if result.is_err() {
                return;
            }
            // The questions that cannot be decided before this one, then this one.
            let mut d = Some(d);
            while next < questions.len() {
                let q = questions.get(next);
                next += 1;
                let decidable = q.target.is_ok();
                let step = f(q, if decidable { d.take() } else { None });
                if step.is_err() || decidable {
                    result = step;
                    break;
                }
            }
        });
    });
    result?;
    while next < questions.len() {
        f(questions.get(next), None)?;
        next += 1;
    }
    Ok(())
}

/// Writes one answer to `out` as a line of output in `format`, for the file at `path` (with
/// why it could not be read, if so); the first CSV line carries the header row, and
/// `csv_header` is cleared once it has been written.
///
/// # Errors
/// Those of writing to `out`, and the failure of the CSV writer.
fn write_answer(
    out: &mut impl Write,
    (format, reading): (Format, Reading),
    (path, unread): (&str, Option<&str>),
    asker: &Asker,
    q: Question<'_>,
    d: Option<&Decision>,
    csv_header: &mut bool,
) -> std::io::Result<()> {
    let agent = asker.agent.as_str();
    // Why the answer is `ERROR`, for the machine formats.
    let error = || {
        unread.map(str::to_string).or_else(|| {
            q.target
                .err()
                .map(|problem| format!("the URL `{}` {problem}", q.given))
        })
    };
    let line = match format {
        Format::Text => return write_text(out, path, q, agent, d, unread),
        Format::Json => serde_json::to_string(&CheckResult {
            file: path.to_string(),
            url: q.given,
            decided: q.target.ok(),
            agent,
            crawler: asker.crawler.map(|c| c.name.as_str()),
            reading,
            allowed: d.map(|d| d.allowed),
            rule: d.map(|d| d.rule.as_ref()),
            reason: d.map(|d| d.reason),
            via_token: d.and_then(|d| d.via_token.as_deref()),
            error: error().as_deref(),
        })
        .expect("serialisable"),
        Format::Csv => {
            let error = error();
            let rule = d.and_then(|d| d.rule.as_ref());
            let row = CsvRow {
                file: path,
                url: q.given,
                decided: q.target.unwrap_or(""),
                agent,
                crawler: asker.crawler.map_or("", |c| c.name.as_str()),
                reading,
                verdict: match d {
                    None => "ERROR",
                    Some(d) if d.allowed => "ALLOWED",
                    Some(_) => "DISALLOWED",
                },
                line: rule.map(|r| r.line),
                kind: rule.map_or("", |r| r.kind.as_str()),
                pattern: rule.map_or("", |r| r.pattern.as_str()),
                reason: d.map(|d| d.reason),
                via_token: d.and_then(|d| d.via_token.as_deref()).unwrap_or(""),
                error: error.as_deref().unwrap_or(""),
            };
            // One row at a time (the first with the header row), so that rows are written as
            // they are made.
            let mut w = csv::WriterBuilder::new()
                .has_headers(*csv_header)
                .from_writer(Vec::new());
            *csv_header = false;
            let Ok(mut bytes) = w
                .serialize(&row)
                .map_err(|_| ())
                .and_then(|()| w.into_inner().map_err(|_| ()))
            else {
                return Err(std::io::Error::other("the CSV writer failed"));
            };
            if bytes.ends_with(b"\n") {
                bytes.pop();
            }
            String::from_utf8_lossy(&bytes).into_owned()
        }
    };
    writeln!(out, "{line}")
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

/// Writes one answer as a line of text: path, URL (with the request target sent when it
/// differs from the one given beyond dropping the scheme and host), agent, verdict and why,
/// tab-separated, each field through [`escape_control`]. A field is written in pieces, each
/// escaped on its own, which escapes the same as the whole field would be.
fn write_text(
    out: &mut impl Write,
    path: &str,
    q: Question<'_>,
    agent: &str,
    d: Option<&Decision>,
    unread: Option<&str>,
) -> std::io::Result<()> {
    fn put(out: &mut impl Write, s: &str) -> std::io::Result<()> {
        out.write_all(escape_control(s).as_bytes())
    }
    put(out, path)?;
    out.write_all(b"\t")?;
    put(out, q.given)?;
    let Some(d) = d else {
        out.write_all(b"\t")?;
        put(out, agent)?;
        out.write_all(b"\tERROR\t")?;
        match unread {
            Some(why) => put(out, why)?,
            None => {
                out.write_all(b"the URL ")?;
                put(out, q.target.err().unwrap_or(""))?;
            }
        }
        return out.write_all(b"\n");
    };
    if let Ok(t) = q.target
        && t != crate::request::typed_path(q.given)
    {
        out.write_all(b" (sent as ")?;
        put(out, t)?;
        out.write_all(b")")?;
    }
    out.write_all(b"\t")?;
    put(out, agent)?;
    out.write_all(if d.allowed {
        b"\tALLOWED\t"
    } else {
        b"\tDISALLOWED\t"
    })?;
    let reason = d.reason.phrase().as_bytes();
    match &d.rule {
        Some(r) => {
            write!(out, "line {}: {}: ", r.line, r.kind.as_str())?;
            put(out, &r.pattern)?;
            out.write_all(if r.derived { b" [derived] (" } else { b" (" })?;
            out.write_all(reason)?;
            out.write_all(b")")?;
        }
        None => out.write_all(reason)?,
    }
    if let Some(t) = &d.via_token {
        out.write_all(b"; by the ")?;
        put(out, t)?;
        out.write_all(b" group, as no group names ")?;
        put(out, agent)?;
    }
    out.write_all(b"\n")
}
