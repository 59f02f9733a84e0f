//! Machine output of a report: `summary.json`, `summary.csv` and `results.sarif`.
//!
//! # `summary.json`
//!
//! One JSON object (schema id `robots-explorer/report-summary/1`):
//!
//! ```text
//! {
//!   "schema": "robots-explorer/report-summary/1",
//!   "tool": {"name": "robots-explorer", "version": "0.1.0"},
//!   "generated_at": "2026-10-21T09:00:00Z",   // the report's time (--now)
//!   "reading": "google",                       // reading of decisions and counts: google | rfc
//!   "crawlers": ["Googlebot", …],             // product tokens, in matrix order
//!   "totals": {
//!     "hosts": 19, "unread": 0,                // hosts, and files (robots.txt or sidecar) not read
//!     "outcomes": {"successful": 13, "unavailable": 2, …},
//!     "error": 40, "warning": 31, "info": 12,  // diagnostics in the reading
//!     "blocks_everything": 3
//!   },
//!   "hosts": [ HostRow … ],                   // sorted by host name, then input path
//!   "skipped": [{"path": "…", "reason": "…"}] // entries of the input not read
//! }
//! ```
//!
//! Each host ([`HostRow`]):
//!
//! ```text
//! {
//!   "host": "shop.example", "page": "hosts/shop.example.html",
//!   "file": "shop.example.txt" | null, "sidecar": "shop.example.yaml" | null,
//!   "file_uri": "shop.example.txt" | null, "sidecar_uri": "shop.example.yaml" | null,
//!   "read_error": null | "…", "sidecar_error": null | "…",
//!   "outcome": "successful" | "unavailable" | "unreachable" | "too-many-redirects" | "incomplete" | "not-recorded",
//!   "status": 200 | null, "fetch_error": null | "timeout",
//!   "effect": "follow-file" | "follow-cached-copy" | "allow-all" | "disallow-all" | "unknown",  // in the reading
//!   "effect_rfc": …, "effect_google": …,
//!   "cache_age_seconds": 90000 | null,     // null also when the fetch time is after --now
//!   "bytes": 1024 | null, "encoding": "UTF-8" | null,
//!   "lines": 40, "groups": 3, "rules": 21, "sitemaps": 3,
//!   "counts": {"error": 0, "warning": 1, "info": 2},
//!   "blocks_everything": false,                // a crawler without a group of its own may not fetch "/"
//!   "paths": ["/", "/cart/", …],
//!   "decisions": [{"crawler": "Googlebot", "allowed": [true, false, …], "lines": [null, 7, …]}],
//!   "diagnostics": [{"name": "empty-disallow", "severity": "info", "line": 3, "column": 1,
//!                    "end_line": 3, "end_column": 10, "readings": "both", "message": "…",
//!                    "reference": "RFC 9309 §2.2.2"}]
//! }
//! ```
//!
//! `decisions[i].allowed[j]` is the verdict for crawler `i` on `paths[j]` (null: unknown) with
//! the fetch outcome applied; `lines[j]` the 1-based deciding line, or null when no rule
//! decided. Diagnostics are those of both readings; `counts` only those of the reading.
//! `sidecar_error` is set when the sidecar cannot be used at all (not YAML, wrong types, not
//! UTF-8, over 1 MiB, a status outside 100–599). Lesser sidecar problems (a time after --now,
//! a `url` that is not http(s) or not `/robots.txt`, `error` beside `status`) are shown on the
//! host page only. A 2xx status without a `.txt` file is outcome `incomplete`.
//!
//! # `summary.csv`
//!
//! One header row, then one row per host: `host, page, file, sidecar, outcome, status, effect,
//! cache_age_seconds, bytes, encoding, lines, groups, rules, sitemaps, errors, warnings, infos,
//! blocks_everything, read_error, file_uri`, then one column per crawler named `root:<token>` holding
//! `allowed`, `disallowed` or empty: whether it may fetch `/`. A cell (header included) that
//! starts with `=`, `+`, `-`, `@`, a tab or a carriage return is written with a leading `'`, so
//! spreadsheets show it as text instead of running it as a formula.
//!
//! # `results.sarif`
//!
//! SARIF 2.1.0: one run, one rule per diagnostic name of the catalogue, one result per
//! diagnostic that applies in the reading. Locations are relative to the input directory
//! (`uriBaseId` `INPUTDIR`); columns count Unicode code points; `endLine` is given only when it
//! differs from `startLine`. Each result's `properties` hold the `host` and the `readings` it
//! applies in; the reference a rule's results cite is said once, in the rule's
//! `properties.reference`, and repeated on a result only where it differs. Files that could not
//! be read are tool execution notifications.

use super::discover::Skipped;
use crate::Reading;
use crate::analysis::{self, Readings, Severity};
use crate::fetch::Outcome;
use serde::Serialize;
use serde_json::json;
use std::collections::BTreeMap;
use std::io::Write as _;

/// Diagnostic counts by severity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Errors.
    pub error: usize,
    /// Warnings.
    pub warning: usize,
    /// Info.
    pub info: usize,
}

/// One crawler's decisions across the host's paths.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CrawlerDecisions {
    /// Product token.
    pub crawler: String,
    /// Verdict per path (null: unknown).
    pub allowed: Vec<Option<bool>>,
    /// Deciding line per path (1-based; null when no rule decided).
    pub lines: Vec<Option<usize>>,
}

/// A diagnostic as kept in the row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RowDiagnostic {
    /// Name.
    pub name: String,
    /// Severity.
    pub severity: Severity,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (characters).
    pub column: usize,
    /// 1-based end line.
    pub end_line: usize,
    /// 1-based end column (characters).
    pub end_column: usize,
    /// Readings it applies to.
    pub readings: Readings,
    /// Message.
    pub message: String,
    /// Reference.
    pub reference: String,
}

/// What the index and the machine outputs keep of one host.
#[derive(Clone, Debug, Serialize)]
pub struct HostRow {
    /// Host name.
    pub host: String,
    /// The host page, relative to the report's root.
    pub page: String,
    /// The robots.txt file, relative to the input directory.
    pub file: Option<String>,
    /// The sidecar, relative to the input directory.
    pub sidecar: Option<String>,
    /// `file` as a relative URI reference that keeps every byte of the name: `file` is for
    /// display and replaces bytes that are not UTF-8 with U+FFFD, this one percent-encodes them
    /// (and every other byte outside `[A-Za-z0-9/._~-]`), so the file can be found again.
    pub file_uri: Option<String>,
    /// `sidecar` in the same lossless form.
    pub sidecar_uri: Option<String>,
    /// Why the file could not be read.
    pub read_error: Option<String>,
    /// Why the sidecar could not be read.
    pub sidecar_error: Option<String>,
    /// Fetch outcome.
    pub outcome: Outcome,
    /// Final HTTP status.
    pub status: Option<u16>,
    /// Network error.
    pub fetch_error: Option<String>,
    /// Effect in the reading.
    pub effect: &'static str,
    /// Effect under RFC 9309.
    pub effect_rfc: &'static str,
    /// Effect following Google's documentation.
    pub effect_google: &'static str,
    /// Cache age of the rules in use, in seconds, at the report's time.
    pub cache_age_seconds: Option<i64>,
    /// File size in bytes.
    pub bytes: Option<u64>,
    /// Encoding label.
    pub encoding: Option<&'static str>,
    /// Lines within the parsing limit.
    pub lines: usize,
    /// Groups in the reading.
    pub groups: usize,
    /// Rules in the reading.
    pub rules: usize,
    /// Sitemaps in the reading.
    pub sitemaps: usize,
    /// Diagnostics in the reading, by severity.
    pub counts: Counts,
    /// A crawler without a group of its own may not fetch `/`.
    pub blocks_everything: bool,
    /// Paths of the matrix.
    pub paths: Vec<String>,
    /// Decisions per crawler.
    pub decisions: Vec<CrawlerDecisions>,
    /// All diagnostics (both readings).
    pub diagnostics: Vec<RowDiagnostic>,
}

impl HostRow {
    /// Whether `/` is allowed for crawler number `i` (null: unknown).
    pub fn root_allowed(&self, i: usize) -> Option<bool> {
        self.decisions
            .get(i)
            .and_then(|d| d.allowed.first().copied().flatten())
    }
}

/// Totals across hosts.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Totals {
    /// Hosts.
    pub hosts: usize,
    /// Files that could not be read.
    pub unread: usize,
    /// Hosts per outcome.
    pub outcomes: BTreeMap<&'static str, usize>,
    /// Errors in the reading.
    pub error: usize,
    /// Warnings in the reading.
    pub warning: usize,
    /// Info in the reading.
    pub info: usize,
    /// Hosts that block everything.
    pub blocks_everything: usize,
}

impl Totals {
    /// Sums the rows.
    pub fn of(rows: &[HostRow]) -> Totals {
        let mut t = Totals {
            hosts: rows.len(),
            ..Totals::default()
        };
        for o in Outcome::ALL {
            t.outcomes.insert(o.as_str(), 0);
        }
        for r in rows {
            if r.read_error.is_some() {
                t.unread += 1;
            }
            *t.outcomes.entry(r.outcome.as_str()).or_default() += 1;
            t.error += r.counts.error;
            t.warning += r.counts.warning;
            t.info += r.counts.info;
            if r.blocks_everything {
                t.blocks_everything += 1;
            }
        }
        t
    }
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

/// The whole `summary.json`.
#[derive(Serialize)]
struct Summary<'a> {
    schema: &'static str,
    tool: Tool,
    generated_at: &'a str,
    reading: Reading,
    crawlers: &'a [String],
    totals: &'a Totals,
    hosts: &'a [HostRow],
    skipped: &'a [Skipped],
}

/// The schema id written into `summary.json`.
pub const SCHEMA: &str = "robots-explorer/report-summary/1";

/// Writes `summary.json`: keys in a fixed order, indented, with each host and each skipped
/// entry on one line of its own, streamed into `out`.
///
/// # Errors
/// Errors of `out`.
pub fn write_summary_json(
    out: &mut dyn std::io::Write,
    rows: &[HostRow],
    totals: &Totals,
    skipped: &[Skipped],
    crawlers: &[String],
    reading: Reading,
    now: &str,
) -> std::io::Result<()> {
    let s = Summary {
        schema: SCHEMA,
        tool: Tool {
            name: "robots-explorer",
            version: env!("CARGO_PKG_VERSION"),
        },
        generated_at: now,
        reading,
        crawlers,
        totals,
        hosts: &[],
        skipped: &[],
    };
    let head = serde_json::to_string_pretty(&s)?;
    // The head ends with `"hosts": [],\n  "skipped": []\n}`; the lists are written one element
    // per line in their place.
    let cut = head
        .rfind("\"hosts\": []")
        .expect("the summary has a hosts list");
    // serde_json makes many small writes: buffer them here rather than through `dyn Write`.
    let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
    out.write_all(&head.as_bytes()[..cut])?;
    fn list<W: std::io::Write, T: Serialize>(out: &mut W, items: &[T]) -> std::io::Result<()> {
        if items.is_empty() {
            return out.write_all(b"[]");
        }
        out.write_all(b"[")?;
        for (i, item) in items.iter().enumerate() {
            out.write_all(if i == 0 { b"\n    " } else { b",\n    " })?;
            serde_json::to_writer(&mut *out, item)?;
        }
        out.write_all(b"\n  ]")
    }
    out.write_all(b"\"hosts\": ")?;
    list(&mut out, rows)?;
    out.write_all(b",\n  \"skipped\": ")?;
    list(&mut out, skipped)?;
    out.write_all(b"\n}\n")?;
    out.flush()
}

/// Serialises `summary.csv`.
///
/// # Errors
/// Only on a failure of the CSV writer (which writes to memory).
pub fn summary_csv(rows: &[HostRow], crawlers: &[String]) -> Result<Vec<u8>, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header: Vec<String> = [
        "host",
        "page",
        "file",
        "sidecar",
        "outcome",
        "status",
        "effect",
        "cache_age_seconds",
        "bytes",
        "encoding",
        "lines",
        "groups",
        "rules",
        "sitemaps",
        "errors",
        "warnings",
        "infos",
        "blocks_everything",
        "read_error",
        "file_uri",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    header.extend(crawlers.iter().map(|c| format!("root:{c}")));
    w.write_record(header.iter().map(|c| defuse_cell(c)))?;
    let opt = |v: Option<String>| v.unwrap_or_default();
    for r in rows {
        let mut rec = vec![
            r.host.clone(),
            r.page.clone(),
            opt(r.file.clone()),
            opt(r.sidecar.clone()),
            r.outcome.as_str().to_string(),
            opt(r.status.map(|s| s.to_string())),
            r.effect.to_string(),
            opt(r.cache_age_seconds.map(|s| s.to_string())),
            opt(r.bytes.map(|s| s.to_string())),
            r.encoding.unwrap_or("").to_string(),
            r.lines.to_string(),
            r.groups.to_string(),
            r.rules.to_string(),
            r.sitemaps.to_string(),
            r.counts.error.to_string(),
            r.counts.warning.to_string(),
            r.counts.info.to_string(),
            r.blocks_everything.to_string(),
            opt(r.read_error.clone()),
            opt(r.file_uri.clone()),
        ];
        for i in 0..crawlers.len() {
            rec.push(
                match r.root_allowed(i) {
                    Some(true) => "allowed",
                    Some(false) => "disallowed",
                    None => "",
                }
                .to_string(),
            );
        }
        w.write_record(rec.iter().map(|c| defuse_cell(c)))?;
    }
    w.into_inner().map_err(|e| e.into_error().into())
}

/// A CSV cell that a spreadsheet will not run as a formula: text starting with `=`, `+`, `-`,
/// `@`, a tab or a carriage return gets a leading `'` (OWASP's advice on CSV injection). Host
/// names, paths and error texts come from the input, so any of them may start that way.
fn defuse_cell(cell: &str) -> String {
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{cell}")
    } else {
        cell.to_string()
    }
}

/// Writes `results.sarif` (SARIF 2.1.0) for the diagnostics that apply in `reading`, streaming
/// the results into `out` (compact JSON: SARIF logs are read by tools).
///
/// # Errors
/// Errors of `out`.
pub fn write_sarif(
    out: &mut dyn std::io::Write,
    rows: &[HostRow],
    reading: Reading,
) -> std::io::Result<()> {
    use crate::output::sarif::{Finding, Options, Writer};
    let mut extra: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    for r in rows {
        for d in &r.diagnostics {
            if analysis::entry(&d.name).is_none() {
                extra.insert(d.name.as_str());
            }
        }
    }
    let options = Options {
        uri_base: Some(("INPUTDIR", "The input directory of the report.")),
        properties: json!({ "reading": reading.as_str() }),
        extra_rules: extra.into_iter().map(str::to_string).collect(),
    };
    // serde_json makes many small writes: buffer them here rather than through `dyn Write`.
    let mut buf = std::io::BufWriter::with_capacity(1 << 16, out);
    let mut w = Writer::begin(&mut buf, &options)?;
    for r in rows {
        let Some(f) = &r.file else { continue };
        let uri = r.file_uri.as_deref().unwrap_or(f);
        if let Some(e) = &r.read_error {
            w.notification(Some(uri), &format!("{f}: {e}"));
        }
        for d in &r.diagnostics {
            if !d.readings.includes(reading) {
                continue;
            }
            let finding = Finding {
                name: &d.name,
                severity: d.severity,
                message: &d.message,
                suggestion: None,
                fix: None,
                line: d.line,
                column: d.column,
                end_line: d.end_line,
                end_column: d.end_column,
                readings: d.readings,
                reference: &d.reference,
            };
            w.result(&mut buf, uri, Some(&r.host), &finding)?;
        }
    }
    w.finish(&mut buf)
}
