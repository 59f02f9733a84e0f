//! Machine output of a report: `summary.json`, `hosts.jsonl`, `summary.csv` and
//! `results.sarif` (`hosts.parquet` is [`super::parquet`], `statistics.json`
//! [`super::stats`], `urls.csv` [`super::urls`]).
//!
//! # `summary.json`
//!
//! One JSON object (schema id `robots-explorer/report-summary/3`): the run and its totals, and
//! where the per-host tables are.
//!
//! ```text
//! {
//!   "schema": "robots-explorer/report-summary/3",
//!   "tool": {"name": "robots-explorer", "version": "0.1.0"},
//!   "generated_at": "2026-10-21T09:00:00Z",   // the report's time (--now)
//!   "reading": "google",                       // reading of decisions and counts: google | rfc
//!   "min_severity": "warning",                 // --min-severity: hosts.jsonl and results.sarif
//!                                              // list diagnostics of it and higher
//!   "crawlers": ["Googlebot", …],             // product tokens, in matrix order
//!   "totals": {
//!     "hosts": 19, "unread": 0,                // hosts, and files (robots.txt or sidecar) not read
//!     "outcomes": {"successful": 13, "unavailable": 2, …},
//!     "error": 40, "warning": 31, "info": 12,  // diagnostics in the reading
//!     "blocks_everything": 3,
//!     "root_allowed": [15, 13, …]              // per crawler: hosts that let it fetch "/"
//!   },
//!   "files": {"hosts_jsonl": "hosts.jsonl", "hosts_parquet": "hosts.parquet",
//!             "hosts_csv": "summary.csv", "statistics": "statistics.json", "sarif": "results.sarif",
//!             "urls_csv": "urls.csv"},                                    // urls_csv: only with --urls
//!   "sarif": {"results": 51, "omitted": 0, "below_min_severity": 12},  // results in results.sarif,
//!                                              // left out (limits), and below min_severity
//!   "urls": {"given": 4, "blocked": 3, "unassigned": 1, "invalid": 1},  // only with --urls
//!   "skipped": [{"path": "…", "reason": "…"}] // entries of the input not read
//! }
//! ```
//!
//! # `hosts.jsonl`
//!
//! One JSON object per line and per host ([`HostRow`]), in host order, written as hosts
//! finish:
//!
//! ```text
//! {
//!   "host": "shop.example", "page": "hosts/shop.example.html" | null,   // null: --pages left it out
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
//!   "user_agents": ["*", "googlebot"],         // product tokens the groups name, lower-cased
//!   "ai_crawlers": {"GPTBot": "blocked" | "partly" | "open" | "unknown", …},
//!   "readings_differ": false,                  // the readings decide a matrix cell differently
//!   "urls": [{"url": "…", "target": "/a?b", "allowed": [true, …], "lines": [7, …]}],  // with --urls
//!   "paths": ["/", "/cart/", …],
//!   "decisions": [{"crawlers": ["Googlebot", "bingbot", …], "verdicts": "yn?…", "lines": [null, 7, …]}],
//!   "diagnostics": [{"name": "empty-disallow", "severity": "info", "line": 3, "column": 5,
//!                    "end_line": 4, "end_column": 10, "readings": "google", "message": "…",
//!                    "reference": "RFC 9309 §2.2.2"}]   // defaults left out: see below
//! }
//! ```
//!
//! `decisions` has one entry per run of consecutive crawlers (in the order of `summary.json`'s
//! `crawlers`) that decide every path alike (same verdicts, same deciding lines): the entries'
//! `crawlers`, one after the other, are the matrix's crawlers in order.
//! `verdicts` has one character per path: `verdicts[j]` is the verdict on `paths[j]` with the
//! fetch outcome applied, `y` allowed, `n` disallowed, `?` unknown; `lines[j]` the 1-based
//! deciding line, or null when no rule decided. `urls[k].allowed[i]` is the verdict for crawler
//! `i` of `summary.json`'s `crawlers` on URL `k` (null: unknown). `ai_crawlers` maps each known
//! AI crawler's product token to its access (see [`Access`]). A diagnostic leaves out the fields
//! that hold their default: `column` 1, `end_line` equal to `line`, `readings` `both`, and
//! `reference` when it is the first reference of the name's catalogue entry (the rule's
//! `properties.reference` in `results.sarif`). Diagnostics are those of both readings of the
//! report's `min_severity` and higher (`--min-severity`, default `warning`: infos are counted,
//! not listed); `counts` are every diagnostic of the reading. `sidecar_error` is set when the sidecar cannot be used
//! at all (not YAML, wrong types, not UTF-8, over 1 MiB, a status outside 100–599). Lesser
//! sidecar problems (a time after --now, a `url` that is not http(s) or not `/robots.txt`,
//! `error` beside `status`) are shown on the host page only. A 2xx status without a `.txt` file
//! is outcome `incomplete`.
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
//! be read are tool execution notifications (the first thousand, then a count). The log stays
//! within GitHub code scanning's limits: at most 25,000 results and under 10 MB gzipped, errors
//! first, then warnings, then notes; what is left out is said in a warning notification and
//! counted in `summary.json` (`sarif.omitted`); `hosts.jsonl` lists every one. Diagnostics below
//! the report's `min_severity` (infos, by default) are counted in a note-level notification and
//! in `sarif.below_min_severity`.

use super::discover::Skipped;
use crate::Reading;
use crate::analysis::{Readings, Severity};
use crate::fetch::Outcome;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write as _;

/// Diagnostic counts by severity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Errors.
    pub error: usize,
    /// Warnings.
    pub warning: usize,
    /// Info.
    pub info: usize,
}

/// One crawler's decisions across the host's paths.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrawlerDecisions {
    /// Product token.
    pub crawler: String,
    /// Verdict per path (null: unknown).
    pub allowed: Vec<Option<bool>>,
    /// Deciding line per path (1-based; null when no rule decided).
    pub lines: Vec<Option<usize>>,
}

/// A diagnostic as kept in the row. In `hosts.jsonl` the fields that hold their default are left
/// out (see [`RowDiagnosticWire`]); reading a row fills them in again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "RowDiagnosticWire", into = "RowDiagnosticWire")]
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

/// A [`RowDiagnostic`] as `hosts.jsonl` writes it: `column` is left out when 1, `end_line` when
/// it is `line`, `readings` when `both`, and `reference` when it is the first reference of the
/// name's catalogue entry (the one `results.sarif` gives its rule). Rows that spell every field
/// out, as earlier versions wrote them, read the same.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowDiagnosticWire {
    /// Name.
    pub name: String,
    /// Severity.
    pub severity: Severity,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (characters); `None`: 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// 1-based end line; `None`: `line`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<usize>,
    /// 1-based end column (characters).
    pub end_column: usize,
    /// Readings it applies to; `None`: both.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readings: Option<Readings>,
    /// Message.
    pub message: String,
    /// Reference; `None`: the name's default reference ([`default_reference`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
}

/// The reference a diagnostic of `name` cites unless it says otherwise: the label of the first
/// reference of its catalogue entry; empty for a name the catalogue does not know.
pub fn default_reference(name: &str) -> &'static str {
    crate::analysis::entry(name).map_or("", |e| e.reference_label())
}

impl From<RowDiagnostic> for RowDiagnosticWire {
    fn from(d: RowDiagnostic) -> Self {
        let reference = (d.reference != default_reference(&d.name)).then_some(d.reference);
        RowDiagnosticWire {
            column: (d.column != 1).then_some(d.column),
            end_line: (d.end_line != d.line).then_some(d.end_line),
            readings: (d.readings != Readings::Both).then_some(d.readings),
            reference,
            name: d.name,
            severity: d.severity,
            line: d.line,
            end_column: d.end_column,
            message: d.message,
        }
    }
}

impl From<RowDiagnosticWire> for RowDiagnostic {
    fn from(d: RowDiagnosticWire) -> Self {
        RowDiagnostic {
            reference: d
                .reference
                .unwrap_or_else(|| default_reference(&d.name).to_string()),
            column: d.column.unwrap_or(1),
            end_line: d.end_line.unwrap_or(d.line),
            readings: d.readings.unwrap_or(Readings::Both),
            name: d.name,
            severity: d.severity,
            line: d.line,
            end_column: d.end_column,
            message: d.message,
        }
    }
}

/// How far a host shuts out one crawler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Access {
    /// It may not fetch `/`.
    Blocked,
    /// It may fetch `/`, but a disallow rule of its groups shuts it out of some paths.
    Partly,
    /// No rule shuts it out of anything (or the outcome allows everything).
    Open,
    /// The fetch record does not say.
    Unknown,
}

impl Access {
    /// Every value, in order.
    pub const ALL: [Access; 4] = [
        Access::Blocked,
        Access::Partly,
        Access::Open,
        Access::Unknown,
    ];

    /// Machine name.
    pub fn as_str(self) -> &'static str {
        match self {
            Access::Blocked => "blocked",
            Access::Partly => "partly",
            Access::Open => "open",
            Access::Unknown => "unknown",
        }
    }

    /// Words for tables, e.g. `blocked from /`.
    pub fn label(self) -> &'static str {
        match self {
            Access::Blocked => "blocked from /",
            Access::Partly => "partly blocked",
            Access::Open => "not blocked",
            Access::Unknown => "unknown",
        }
    }
}

/// One URL of `--urls`: per crawler of the matrix (in order), whether it may fetch it, with
/// the fetch outcome applied, and the deciding line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UrlVerdicts {
    /// The URL as given.
    pub url: String,
    /// Its request target (path and query as sent).
    pub target: String,
    /// Per crawler: allowed (null: unknown).
    pub allowed: Vec<Option<bool>>,
    /// Per crawler: the deciding line (1-based; null when no rule decided).
    pub lines: Vec<Option<usize>>,
}

impl UrlVerdicts {
    /// Whether some crawler of the matrix may not fetch it.
    pub fn blocked_for_some(&self) -> bool {
        self.allowed.contains(&Some(false))
    }
}

/// One known AI crawler's [`Access`] to a host.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiAccess {
    /// Its product token.
    pub crawler: String,
    /// How far it is shut out.
    pub access: Access,
}

/// A name from one of the tool's own fixed lists (an effect's machine name, an encoding's
/// label). Spelled as an alias so that the derived `Deserialize` of [`HostRow`] does not borrow
/// from its input, as serde does for every field written `&str`; such fields are read back
/// through the list instead (`effect_name`, `encoding_label`).
pub type StaticName = &'static str;

/// What the index and the machine outputs keep of one host.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct HostRow {
    /// Host name.
    pub host: String,
    /// The host page, relative to the report's root; `None` when `--pages` left it out.
    pub page: Option<String>,
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
    #[serde(deserialize_with = "effect_name")]
    pub effect: StaticName,
    /// Effect under RFC 9309.
    #[serde(deserialize_with = "effect_name")]
    pub effect_rfc: StaticName,
    /// Effect following Google's documentation.
    #[serde(deserialize_with = "effect_name")]
    pub effect_google: StaticName,
    /// Cache age of the rules in use, in seconds, at the report's time.
    pub cache_age_seconds: Option<i64>,
    /// File size in bytes.
    pub bytes: Option<u64>,
    /// Encoding label.
    #[serde(deserialize_with = "encoding_label")]
    pub encoding: Option<StaticName>,
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
    /// Product tokens the groups name (lower-cased, sorted; `*` for the global group).
    pub user_agents: Vec<String>,
    /// How far each known AI crawler is shut out; written as one object from product token to
    /// [`Access`] (see [`ai_map`]).
    #[serde(with = "ai_map")]
    pub ai_crawlers: Vec<AiAccess>,
    /// Whether the two readings decide differently anywhere in the matrix, or treat the fetch
    /// outcome differently.
    pub readings_differ: bool,
    /// The URLs of `--urls` on this host, with each crawler's verdict.
    #[serde(default, skip_serializing_if = "super::urls::HostUrls::is_empty")]
    pub urls: super::urls::HostUrls,
    /// Paths of the matrix.
    pub paths: Vec<String>,
    /// Decisions per crawler; written with consecutive crawlers that decide every path alike in
    /// one entry (see [`shared_decisions`]).
    #[serde(with = "shared_decisions")]
    pub decisions: Vec<CrawlerDecisions>,
    /// All diagnostics (both readings).
    pub diagnostics: Vec<RowDiagnostic>,
    /// For a host read from WARC files with more than one capture: its captures, oldest first
    /// (the last decides the row; at most [`crate::warc::MAX_TIMELINE`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub captures: Vec<crate::warc::TimelineEntry>,
}

/// `ai_crawlers` in `hosts.jsonl`: one JSON object from product token to access
/// (`{"GPTBot": "blocked", …}`), in the order of [`crate::crawlers::known`].
pub mod ai_map {
    use super::{Access, AiAccess};
    use serde::ser::SerializeMap as _;

    /// Writes the entries as one object, in order.
    ///
    /// # Errors
    /// Those of the serializer.
    pub fn serialize<S: serde::Serializer>(v: &[AiAccess], s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(v.len()))?;
        for a in v {
            m.serialize_entry(&a.crawler, &a.access)?;
        }
        m.end()
    }

    /// Reads the object back, in the order written.
    ///
    /// # Errors
    /// When the value is not an object of accesses.
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<AiAccess>, D::Error> {
        struct Entries;
        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = Vec<AiAccess>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object from product token to access")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> Result<Self::Value, A::Error> {
                let mut v = Vec::new();
                while let Some((crawler, access)) = m.next_entry::<String, Access>()? {
                    v.push(AiAccess { crawler, access });
                }
                Ok(v)
            }
        }
        d.deserialize_map(Entries)
    }
}

/// `decisions` in `hosts.jsonl`: consecutive crawlers of the matrix that decide every path
/// alike (same verdicts, same deciding lines) share one entry, `{"crawlers": […], "verdicts":
/// "yn?", "lines": […]}`, so that the entries, read in order, give the crawlers in matrix order.
/// `verdicts` has one character per path: `y` allowed, `n` disallowed, `?` unknown.
pub mod shared_decisions {
    use super::CrawlerDecisions;
    use serde::{Deserialize, Serialize};

    /// One entry: the crawlers and their common decisions.
    #[derive(Serialize, Deserialize)]
    struct Shared<'a> {
        #[serde(borrow)]
        crawlers: Vec<std::borrow::Cow<'a, str>>,
        verdicts: String,
        lines: std::borrow::Cow<'a, [Option<usize>]>,
    }

    /// The character of a verdict.
    fn verdict_char(v: Option<bool>) -> char {
        match v {
            Some(true) => 'y',
            Some(false) => 'n',
            None => '?',
        }
    }

    /// The verdict a character of `verdicts` stands for (`None`: not a verdict character).
    pub fn verdict(c: char) -> Option<Option<bool>> {
        match c {
            'y' => Some(Some(true)),
            'n' => Some(Some(false)),
            '?' => Some(None),
            _ => None,
        }
    }

    /// Writes the decisions, crawlers that decide alike in one entry.
    ///
    /// # Errors
    /// Those of the serializer.
    pub fn serialize<S: serde::Serializer>(
        v: &[CrawlerDecisions],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let mut out: Vec<(Shared<'_>, &CrawlerDecisions)> = Vec::new();
        for d in v {
            match out
                .last_mut()
                .filter(|(_, f)| f.allowed == d.allowed && f.lines == d.lines)
            {
                Some((e, _)) => e.crawlers.push(d.crawler.as_str().into()),
                None => out.push((
                    Shared {
                        crawlers: vec![d.crawler.as_str().into()],
                        verdicts: d.allowed.iter().map(|&a| verdict_char(a)).collect(),
                        lines: d.lines.as_slice().into(),
                    },
                    d,
                )),
            }
        }
        s.collect_seq(out.iter().map(|(e, _)| e))
    }

    /// Reads the entries back, one [`CrawlerDecisions`] per crawler, in matrix order.
    ///
    /// # Errors
    /// When an entry is malformed or a verdict is not `y`, `n` or `?`.
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<CrawlerDecisions>, D::Error> {
        let mut v = Vec::new();
        for e in Vec::<Shared<'de>>::deserialize(d)? {
            let allowed = e
                .verdicts
                .chars()
                .map(|c| {
                    verdict(c).ok_or_else(|| serde::de::Error::custom(format!("verdict `{c}`")))
                })
                .collect::<Result<Vec<_>, _>>()?;
            for c in e.crawlers {
                v.push(CrawlerDecisions {
                    crawler: c.into_owned(),
                    allowed: allowed.clone(),
                    lines: e.lines.to_vec(),
                });
            }
        }
        Ok(v)
    }
}

/// Reads an effect's machine name ([`crate::fetch::Effect::as_str`]) back as that name.
fn effect_name<'de, D: serde::Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    crate::fetch::Effect::deserialize(d).map(crate::fetch::Effect::as_str)
}

/// Reads an encoding's label ([`crate::decode::Encoding::label`]) back as that label.
fn encoding_label<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<&'static str>, D::Error> {
    let Some(label) = Option::<String>::deserialize(d)? else {
        return Ok(None);
    };
    crate::decode::Encoding::from_label(&label)
        .map(|e| Some(e.label()))
        .ok_or_else(|| serde::de::Error::custom(format!("unknown encoding label `{label}`")))
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
    /// Per crawler of the matrix: hosts that let it fetch `/`.
    pub root_allowed: Vec<usize>,
}

impl Totals {
    /// Adds one host's row.
    pub fn add(&mut self, r: &HostRow) {
        if self.outcomes.is_empty() {
            for o in Outcome::ALL {
                self.outcomes.insert(o.as_str(), 0);
            }
        }
        self.hosts += 1;
        if r.read_error.is_some() {
            self.unread += 1;
        }
        // A sidecar that cannot be read or makes no sense is a file not read, like a robots.txt
        // file that cannot be read: it counts as an error of the run.
        if r.sidecar_error.is_some() {
            self.unread += 1;
        }
        *self.outcomes.entry(r.outcome.as_str()).or_default() += 1;
        self.error += r.counts.error;
        self.warning += r.counts.warning;
        self.info += r.counts.info;
        if r.blocks_everything {
            self.blocks_everything += 1;
        }
        if self.root_allowed.len() < r.decisions.len() {
            self.root_allowed.resize(r.decisions.len(), 0);
        }
        for (i, n) in self.root_allowed.iter_mut().enumerate() {
            *n += usize::from(r.root_allowed(i) == Some(true));
        }
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
    min_severity: Severity,
    crawlers: &'a [String],
    totals: &'a Totals,
    files: Files,
    sarif: super::sink::SarifCut,
    #[serde(skip_serializing_if = "Option::is_none")]
    urls: Option<super::sink::UrlCounts>,
    /// What the WARC inputs held, when there were any.
    #[serde(skip_serializing_if = "Option::is_none")]
    warc: Option<&'a crate::warc::Counts>,
    skipped: &'a [Skipped],
}

/// Where the per-host tables and the statistics are, relative to `summary.json`.
#[derive(Serialize)]
struct Files {
    hosts_jsonl: &'static str,
    hosts_parquet: &'static str,
    hosts_csv: &'static str,
    statistics: &'static str,
    sarif: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    urls_csv: Option<&'static str>,
}

/// The schema id written into `summary.json`.
pub const SCHEMA: &str = "robots-explorer/report-summary/3";

/// Writes `summary.json`: keys in a fixed order, indented, each skipped entry on one line of
/// its own, streamed into `out`. The hosts are in `hosts.jsonl` (one [`HostRow`] per line) and
/// `hosts.parquet`; `summary.json` points to them.
///
/// # Errors
/// Errors of `out`.
#[allow(clippy::too_many_arguments)]
pub fn write_summary_json(
    out: &mut dyn std::io::Write,
    totals: &Totals,
    skipped: &[Skipped],
    crawlers: &[String],
    reading: Reading,
    min_severity: Severity,
    now: &str,
    sarif: super::sink::SarifCut,
    urls: Option<super::sink::UrlCounts>,
    warc: Option<&crate::warc::Counts>,
) -> std::io::Result<()> {
    let s = Summary {
        schema: SCHEMA,
        tool: Tool {
            name: "robots-explorer",
            version: env!("CARGO_PKG_VERSION"),
        },
        generated_at: now,
        reading,
        min_severity,
        crawlers,
        totals,
        files: Files {
            hosts_jsonl: "hosts.jsonl",
            hosts_parquet: "hosts.parquet",
            hosts_csv: "summary.csv",
            statistics: "statistics.json",
            sarif: "results.sarif",
            urls_csv: urls.map(|_| "urls.csv"),
        },
        sarif,
        urls,
        warc,
        skipped: &[],
    };
    let head = serde_json::to_string_pretty(&s)?;
    // The head ends with `"skipped": []\n}`; the list is written one element per line in its
    // place.
    let cut = head
        .rfind("\"skipped\": []")
        .expect("the summary has a skipped list");
    let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
    out.write_all(&head.as_bytes()[..cut])?;
    out.write_all(b"\"skipped\": ")?;
    if skipped.is_empty() {
        out.write_all(b"[]")?;
    } else {
        out.write_all(b"[")?;
        for (i, item) in skipped.iter().enumerate() {
            out.write_all(if i == 0 { b"\n    " } else { b",\n    " })?;
            serde_json::to_writer(&mut out, item)?;
        }
        out.write_all(b"\n  ]")?;
    }
    out.write_all(b"\n}\n")?;
    out.flush()
}

/// The header row of `summary.csv` (see the module documentation), cells made safe.
pub fn csv_header(crawlers: &[String]) -> Vec<String> {
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
    header.iter().map(|c| defuse_cell(c)).collect()
}

/// One host's row of `summary.csv`, cells made safe, for a matrix of `crawlers` crawlers.
pub fn csv_record(r: &HostRow, crawlers: usize) -> Vec<String> {
    let opt = |v: Option<String>| v.unwrap_or_default();
    let mut rec = vec![
        r.host.clone(),
        opt(r.page.clone()),
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
    for i in 0..crawlers {
        rec.push(
            match r.root_allowed(i) {
                Some(true) => "allowed",
                Some(false) => "disallowed",
                None => "",
            }
            .to_string(),
        );
    }
    rec.iter().map(|c| defuse_cell(c)).collect()
}

/// A CSV cell that a spreadsheet will not run as a formula: text starting with `=`, `+`, `-`,
/// `@`, a tab or a carriage return gets a leading `'` (OWASP's advice on CSV injection). Host
/// names, paths and error texts come from the input, so any of them may start that way.
pub fn defuse_cell(cell: &str) -> String {
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{cell}")
    } else {
        cell.to_string()
    }
}
