//! What crosses hosts, gathered as host rows arrive, so that no row stays in memory once it
//! has been written.
//!
//! Rows come in host order, a chunk at a time ([`Sink::add`]). Each row is written at once to
//! `hosts.jsonl` and `summary.csv`, and to `hosts.parquet` a row group at a time; its SARIF
//! results go to one spill file per level; what the index needs of it (an [`IndexEntry`]) goes
//! to one spill file per problem rank ([`rank`]) and into the index's data file. Kept across
//! hosts are only the totals, the statistics ([`super::stats::Stats`]) and, per diagnostic
//! name, counts and the first [`MAX_AFFECTED`] hosts. [`Sink::finish`] writes the index pages
//! (problems first), the statistics page, `summary.json` and `results.sarif` from those.
//!
//! Spill files are anonymous temporary files in the site's temporary folder: they vanish with
//! the process and are never part of the site.

use super::summary::{self, Counts, HostRow, Totals};
use super::{ReportError, Writer};
use crate::analysis::Severity;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{BufRead as _, Seek as _, Write as _};

/// Hosts listed by name on a diagnostic's page; the others are counted (`hosts.jsonl` lists
/// them when the diagnostic is of the report's minimum severity or higher).
pub const MAX_AFFECTED: usize = 1_000;

/// Rows per page of the index.
pub const PAGE_ROWS: usize = 250;

/// Rows per file of the index's data (`assets/hosts-<n>.js`), loaded when the reader searches,
/// filters or sorts.
pub const DATA_ROWS: usize = 10_000;

/// Results `results.sarif` holds at most: GitHub code scanning takes at most 25,000 results
/// per run.
pub const SARIF_MAX_RESULTS: usize = 25_000;

/// Gzipped size `results.sarif` stays under, in bytes: GitHub takes at most 10 MB gzipped; the
/// results stop with room for the rest of the log.
pub const SARIF_MAX_GZIP_BYTES: u64 = 9_500_000;

/// Unreadable inputs named one by one (in the run's summary and as SARIF notifications); past
/// it they are counted.
pub const MAX_UNREADABLE_LISTED: usize = 1_000;

/// How much of a problem a host is, for ordering the index: lower first.
///
/// 0: its robots.txt file or sidecar could not be read; 1: the fetch failed (unreachable, too
/// many redirects, incomplete); 2: a crawler no group names may not fetch `/`; 3: errors;
/// 4: warnings; 5: none of these.
pub fn rank(r: &HostRow) -> u8 {
    rank_of(
        r.read_error.is_some() || r.sidecar_error.is_some(),
        r.outcome,
        r.blocks_everything,
        r.counts,
    )
}

/// [`rank`] from its parts, for a host whose row is not built yet: whether its file or sidecar
/// could not be read, its fetch outcome, whether a crawler no group names may not fetch `/`,
/// and its diagnostic counts in the report's reading.
pub fn rank_of(
    unread: bool,
    outcome: crate::fetch::Outcome,
    blocks_everything: bool,
    counts: Counts,
) -> u8 {
    use crate::fetch::Outcome;
    if unread {
        0
    } else if matches!(
        outcome,
        Outcome::Unreachable | Outcome::TooManyRedirects | Outcome::Incomplete
    ) {
        1
    } else if blocks_everything {
        2
    } else if counts.error > 0 {
        3
    } else if counts.warning > 0 {
        4
    } else {
        5
    }
}

/// Number of problem ranks ([`rank`]).
pub const RANKS: usize = 6;

/// Words for each rank, shown in the index.
pub const RANK_LABELS: [&str; RANKS] = [
    "file not read",
    "fetch failed",
    "* blocked from /",
    "errors",
    "warnings",
    "no problem",
];

/// What the index keeps of one host: enough for its row on a static page and in the data
/// file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct IndexEntry {
    /// Host name.
    pub host: String,
    /// Page stem (`hosts/<stem>.html`); `None` when the host has no page (`--pages`).
    pub stem: Option<String>,
    /// The input path when its name does not say the host.
    pub path: Option<String>,
    /// Why the file or sidecar could not be read.
    pub error: Option<String>,
    /// The robots.txt file could not be read.
    pub unread: bool,
    /// Outcome machine name, or `unread`.
    pub outcome: String,
    /// File size in bytes.
    pub bytes: Option<u64>,
    /// Groups, rules, sitemaps, errors, warnings, infos.
    pub numbers: [usize; 6],
    /// A crawler no group names may not fetch `/`.
    pub blocks: bool,
    /// Per crawler of the matrix: `y` may fetch `/`, `n` may not, `u` unknown.
    pub access: String,
    /// Problem rank ([`rank`]).
    pub rank: u8,
    /// URLs of `--urls` on the host, and those some crawler may not fetch.
    pub urls: [usize; 2],
}

impl IndexEntry {
    /// The entry of `r`.
    pub fn of(r: &HostRow, crawlers: usize) -> IndexEntry {
        let path = r.file.as_ref().or(r.sidecar.as_ref()).filter(|p| {
            let stem = p.rsplit_once('.').map_or(p.as_str(), |(s, _)| s);
            stem != r.host
        });
        let stem = r.page.as_ref().map(|page| {
            page.strip_prefix("hosts/")
                .and_then(|p| p.strip_suffix(".html"))
                .unwrap_or(page)
                .to_string()
        });
        IndexEntry {
            host: r.host.clone(),
            stem,
            path: path.cloned(),
            error: r
                .read_error
                .as_ref()
                .map(|e| format!("not read: {e}"))
                .or_else(|| {
                    r.sidecar_error
                        .as_ref()
                        .map(|e| format!("sidecar not read: {e}"))
                }),
            unread: r.read_error.is_some(),
            outcome: if r.read_error.is_some() {
                "unread".to_string()
            } else {
                r.outcome.as_str().to_string()
            },
            bytes: r.bytes,
            numbers: [
                r.groups,
                r.rules,
                r.sitemaps,
                r.counts.error,
                r.counts.warning,
                r.counts.info,
            ],
            blocks: r.blocks_everything,
            access: (0..crawlers)
                .map(|i| match r.root_allowed(i) {
                    Some(true) => 'y',
                    Some(false) => 'n',
                    None => 'u',
                })
                .collect(),
            rank: rank(r),
            urls: [r.urls.len(), r.urls.blocked()],
        }
    }
}

/// Per diagnostic name: hosts, occurrences, the worst severity, and the first hosts.
#[derive(Debug, Default)]
pub struct Affected {
    /// Hosts with at least one occurrence.
    pub hosts: usize,
    /// Occurrences in all.
    pub occurrences: usize,
    /// The worst severity met.
    pub severity: Option<Severity>,
    /// The first [`MAX_AFFECTED`] hosts: (host, page if any, first lines (at most five),
    /// count).
    pub first: Vec<(String, Option<String>, Vec<usize>, usize)>,
}

/// A spill file of lines.
struct Spill {
    file: std::io::BufWriter<std::fs::File>,
    lines: usize,
}

impl Spill {
    fn new(dir: &std::path::Path) -> Result<Spill, ReportError> {
        let file = tempfile::tempfile_in(dir).map_err(|e| {
            ReportError::Output(format!("a temporary file in {}: {e}", dir.display()))
        })?;
        Ok(Spill {
            file: std::io::BufWriter::with_capacity(1 << 16, file),
            lines: 0,
        })
    }

    fn push(&mut self, line: &[u8]) -> std::io::Result<()> {
        self.file.write_all(line)?;
        self.file.write_all(b"\n")?;
        self.lines += 1;
        Ok(())
    }

    /// The lines written, from the start.
    fn lines(self) -> std::io::Result<impl Iterator<Item = std::io::Result<Vec<u8>>> + 'static> {
        let mut f = self.file.into_inner().map_err(|e| e.into_error())?;
        f.rewind()?;
        let r = std::io::BufReader::with_capacity(1 << 16, f);
        Ok(r.split(b'\n'))
    }
}

/// The crossing-hosts state of a report run (see the module documentation).
pub(crate) struct Sink<'w> {
    w: &'w Writer,
    crawlers: Vec<String>,
    reading: crate::Reading,
    jsonl: std::io::BufWriter<std::fs::File>,
    csv: csv::Writer<std::io::BufWriter<std::fs::File>>,
    /// `urls.csv`, when the run has a URL list.
    urls: Option<csv::Writer<std::io::BufWriter<std::fs::File>>>,
    /// URLs given, URLs of hosts not in the report, lines that are no URL.
    pub url_counts: UrlCounts,
    parquet: super::parquet::HostsParquet,
    /// Results for `results.sarif`: errors, then warnings, then infos.
    sarif_spills: Vec<Spill>,
    /// The lowest severity `hosts.jsonl` and `results.sarif` list ([`super::Config::min_severity`]).
    min_severity: Severity,
    /// Diagnostics of the reading below `min_severity`, left out of `results.sarif`.
    sarif_below: usize,
    ranks: Vec<Spill>,
    data: DataFile,
    /// Totals across hosts.
    pub totals: Totals,
    /// Statistics across hosts.
    pub stats: super::stats::Stats,
    /// Per diagnostic name.
    pub affected: BTreeMap<String, Affected>,
    /// Inputs that could not be read: (path or host, why), the first [`MAX_UNREADABLE_LISTED`].
    pub unreadable: Vec<(String, String)>,
    /// Inputs that could not be read, in all.
    pub unreadable_count: usize,
    /// Diagnostic names met that the catalogue lacks.
    extra_rules: std::collections::BTreeSet<String>,
    /// Rows added.
    rows: usize,
}

/// Opens `rel` in the site for writing.
fn create(w: &Writer, rel: &str) -> Result<std::io::BufWriter<std::fs::File>, ReportError> {
    let path = w.root.join(rel);
    let f = std::fs::File::create(&path)
        .map_err(|e| ReportError::Output(format!("{}: {e}", path.display())))?;
    Ok(std::io::BufWriter::with_capacity(1 << 16, f))
}

fn out_err(rel: &str) -> impl Fn(std::io::Error) -> ReportError + '_ {
    move |e| ReportError::Output(format!("{rel}: {e}"))
}

impl<'w> Sink<'w> {
    /// Opens the streamed outputs of the site written by `w`, for the matrix's `crawlers`;
    /// `hosts.jsonl` and `results.sarif` list the diagnostics of `min_severity` and higher.
    ///
    /// # Errors
    /// [`ReportError::Output`] when a file cannot be created.
    pub(crate) fn new(
        w: &'w Writer,
        crawlers: Vec<String>,
        reading: crate::Reading,
        min_severity: Severity,
        with_urls: bool,
    ) -> Result<Sink<'w>, ReportError> {
        let urls = if with_urls {
            let mut u = csv::Writer::from_writer(create(w, "urls.csv")?);
            u.write_record(["url", "host", "crawler", "verdict", "line", "target"])
                .map_err(|e| ReportError::Output(format!("urls.csv: {e}")))?;
            Some(u)
        } else {
            None
        };
        let jsonl = create(w, "hosts.jsonl")?;
        let mut csv = csv::Writer::from_writer(create(w, "summary.csv")?);
        csv.write_record(summary::csv_header(&crawlers))
            .map_err(|e| ReportError::Output(format!("summary.csv: {e}")))?;
        let parquet = super::parquet::HostsParquet::new(
            std::fs::File::create(w.root.join("hosts.parquet"))
                .map_err(out_err("hosts.parquet"))?,
            &crawlers,
        )
        .map_err(|e| ReportError::Output(format!("hosts.parquet: {e}")))?;
        let spill = || Spill::new(&w.root);
        Ok(Sink {
            w,
            reading,
            jsonl,
            csv,
            urls,
            url_counts: UrlCounts::default(),
            parquet,
            sarif_spills: vec![spill()?, spill()?, spill()?],
            min_severity,
            sarif_below: 0,
            ranks: (0..RANKS).map(|_| spill()).collect::<Result<_, _>>()?,
            data: DataFile::new(crawlers.len()),
            totals: Totals::default(),
            stats: super::stats::Stats::new(&crawlers),
            crawlers,
            affected: BTreeMap::new(),
            unreadable: Vec::new(),
            unreadable_count: 0,
            extra_rules: Default::default(),
            rows: 0,
        })
    }

    /// Takes one host's row (rows come in host order) and lets it go.
    ///
    /// # Errors
    /// [`ReportError::Output`] when an output cannot be written.
    pub fn add(&mut self, mut r: HostRow) -> Result<(), ReportError> {
        self.totals.add(&r);
        self.stats.add(&r);
        self.write_jsonl(&mut r)?;
        self.csv
            .write_record(summary::csv_record(&r, self.crawlers.len()))
            .map_err(|e| ReportError::Output(format!("summary.csv: {e}")))?;
        self.parquet
            .push(&r)
            .map_err(|e| ReportError::Output(format!("hosts.parquet: {e}")))?;
        self.unreadable_inputs(&r);
        self.url_verdicts(&r)?;
        self.sarif_results(&r)?;
        self.diagnostics(&r);
        let entry = IndexEntry::of(&r, self.crawlers.len());
        let line = serde_json::to_vec(&entry).map_err(|e| ReportError::Output(e.to_string()))?;
        self.ranks[usize::from(entry.rank)]
            .push(&line)
            .map_err(out_err("a temporary file"))?;
        self.data.push(&entry);
        if self.data.len() == DATA_ROWS {
            let n = self.rows / DATA_ROWS;
            self.data.write(self.w, n)?;
        }
        self.rows += 1;
        Ok(())
    }

    fn url_verdicts(&mut self, r: &HostRow) -> Result<(), ReportError> {
        let Some(csv) = &mut self.urls else {
            return Ok(());
        };
        self.url_counts.given += r.urls.len();
        self.url_counts.blocked += r.urls.blocked();
        for j in 0..r.urls.len() {
            let u = r.urls.url(j);
            for (i, c) in self.crawlers.iter().enumerate() {
                let cell = r.urls.cell(j, i);
                let verdict = match cell.allowed() {
                    Some(true) => "allowed",
                    Some(false) => "disallowed",
                    None => "unknown",
                };
                let line = cell.line().map(|l| l.to_string());
                csv.write_record(
                    [
                        u.url,
                        r.host.as_str(),
                        c.as_str(),
                        verdict,
                        line.as_deref().unwrap_or(""),
                        u.target,
                    ]
                    .map(summary::defuse_cell),
                )
                .map_err(|e| ReportError::Output(format!("urls.csv: {e}")))?;
            }
        }
        Ok(())
    }

    /// Lists in `urls.csv` the URLs of `list` that no host of the report takes, and the lines
    /// of the list that are no URL.
    ///
    /// # Errors
    /// [`ReportError::Output`] when `urls.csv` cannot be written.
    pub(crate) fn urls_not_in_report(
        &mut self,
        list: &super::urls::UrlList,
    ) -> Result<(), ReportError> {
        let Some(csv) = &mut self.urls else {
            return Ok(());
        };
        let err = |e: csv::Error| ReportError::Output(format!("urls.csv: {e}"));
        for (host, u, why) in list.unassigned() {
            self.url_counts.unassigned += 1;
            csv.write_record([u.url, host, "", why, "", u.target].map(summary::defuse_cell))
                .map_err(err)?;
        }
        for (line, why) in list.invalid() {
            self.url_counts.invalid += 1;
            csv.write_record([line, "", "", &why, "", ""].map(summary::defuse_cell))
                .map_err(err)?;
        }
        Ok(())
    }

    fn unreadable_inputs(&mut self, r: &HostRow) {
        let file = r
            .read_error
            .as_ref()
            .map(|e| (r.file.clone().unwrap_or_else(|| r.host.clone()), e.clone()));
        let sidecar = r.sidecar_error.as_ref().map(|e| {
            (
                r.sidecar.clone().unwrap_or_else(|| r.host.clone()),
                format!("sidecar not read: {e}"),
            )
        });
        for u in file.into_iter().chain(sidecar) {
            self.unreadable_count += 1;
            if self.unreadable.len() < MAX_UNREADABLE_LISTED {
                self.unreadable.push(u);
            }
        }
    }

    /// The row as one line of `hosts.jsonl`, its diagnostics below `min_severity` left out
    /// (its `counts` hold them); `r` is as it was when this returns.
    fn write_jsonl(&mut self, r: &mut HostRow) -> Result<(), ReportError> {
        let min = self.min_severity;
        let listed = (r.diagnostics.iter().any(|d| d.severity < min)).then(|| {
            let kept: Vec<_> = r
                .diagnostics
                .iter()
                .filter(|d| d.severity >= min)
                .cloned()
                .collect();
            std::mem::replace(&mut r.diagnostics, kept)
        });
        let written = serde_json::to_writer(&mut self.jsonl, &*r);
        if let Some(all) = listed {
            r.diagnostics = all;
        }
        written.map_err(|e| ReportError::Output(format!("hosts.jsonl: {e}")))?;
        self.jsonl.write_all(b"\n").map_err(out_err("hosts.jsonl"))
    }

    fn sarif_results(&mut self, r: &HostRow) -> Result<(), ReportError> {
        use crate::output::sarif::{Finding, catalogue_rule, result_value};
        let Some(f) = &r.file else { return Ok(()) };
        let uri = r.file_uri.as_deref().unwrap_or(f);
        for d in &r.diagnostics {
            if crate::analysis::entry(&d.name).is_none() {
                self.extra_rules.insert(d.name.clone());
            }
            if !d.readings.includes(self.reading) {
                continue;
            }
            // Infos stay out of the log by default, as `lint` leaves them out: code scanning
            // shows every result as an alert.
            if d.severity < self.min_severity {
                self.sarif_below += 1;
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
            let rule = catalogue_rule(&d.name);
            let value = result_value(uri, Some(&r.host), &finding, Some("INPUTDIR"), rule);
            let line =
                serde_json::to_vec(&value).map_err(|e| ReportError::Output(e.to_string()))?;
            let level = match d.severity {
                Severity::Error => 0,
                Severity::Warning => 1,
                Severity::Info => 2,
            };
            self.sarif_spills[level]
                .push(&line)
                .map_err(out_err("a temporary file"))?;
        }
        Ok(())
    }

    fn diagnostics(&mut self, r: &HostRow) {
        let mut mine: BTreeMap<&str, (Vec<usize>, usize, Severity)> = BTreeMap::new();
        for d in &r.diagnostics {
            let e = mine.entry(&d.name).or_insert((Vec::new(), 0, d.severity));
            // A line with one finding in each reading is listed once.
            if e.0.len() < 5 && e.0.last() != Some(&d.line) {
                e.0.push(d.line);
            }
            e.1 += 1;
            e.2 = e.2.max(d.severity);
        }
        for (name, (lines, n, severity)) in mine {
            let a = self.affected.entry(name.to_string()).or_default();
            a.hosts += 1;
            a.occurrences += n;
            a.severity = Some(a.severity.map_or(severity, |s| s.max(severity)));
            if a.first.len() < MAX_AFFECTED {
                a.first.push((r.host.clone(), r.page.clone(), lines, n));
            }
        }
    }

    /// Closes the streamed files and writes `results.sarif`. Returns what the index pages,
    /// the statistics and `summary.json` are made from.
    ///
    /// # Errors
    /// [`ReportError::Output`] when an output cannot be written.
    pub fn finish(mut self) -> Result<Finished, ReportError> {
        let notes = self.sarif_notes();
        self.jsonl.flush().map_err(out_err("hosts.jsonl"))?;
        self.w.count(
            "hosts.jsonl",
            self.jsonl.get_ref().metadata().map_or(0, |m| m.len()),
        );
        let csv = self
            .csv
            .into_inner()
            .map_err(|e| ReportError::Output(format!("summary.csv: {e}")))?;
        self.w.count(
            "summary.csv",
            csv.get_ref().metadata().map_or(0, |m| m.len()),
        );
        if let Some(u) = self.urls.take() {
            let f = u
                .into_inner()
                .map_err(|e| ReportError::Output(format!("urls.csv: {e}")))?;
            self.w
                .count("urls.csv", f.get_ref().metadata().map_or(0, |m| m.len()));
        }
        // The Parquet file is finished beside the rest: each takes a few milliseconds that
        // would otherwise wait for the other. It is listed in the manifest after them.
        let parquet = self.parquet;
        let (parquet, rest) = rayon::join(
            || parquet.finish(),
            || {
                if !self.data.is_empty() || self.rows == 0 {
                    let n = self.rows / DATA_ROWS;
                    self.data.write(self.w, n)?;
                }
                write_sarif_log(
                    self.w,
                    std::mem::take(&mut self.sarif_spills),
                    (self.sarif_below, self.min_severity),
                    &self.extra_rules,
                    self.reading,
                    &notes,
                )
            },
        );
        let sarif = rest?;
        let bytes = parquet.map_err(|e| ReportError::Output(format!("hosts.parquet: {e}")))?;
        self.w.count("hosts.parquet", bytes);
        let mut lines = Vec::new();
        for spill in self.ranks {
            lines.push(spill.lines().map_err(out_err("a temporary file"))?);
        }
        Ok(Finished {
            totals: self.totals,
            stats: self.stats,
            affected: self.affected,
            unreadable: self.unreadable,
            sarif,
            urls: self.url_counts,
            pages: self.rows.div_ceil(PAGE_ROWS).max(1),
            data_files: self.rows.div_ceil(DATA_ROWS).max(1),
            index: IndexRows {
                ranks: lines
                    .into_iter()
                    .map(|l| Box::new(l) as Box<dyn Iterator<Item = _> + Send>)
                    .collect(),
            },
        })
    }

    fn sarif_notes(&self) -> Vec<(Option<String>, String)> {
        let mut notes: Vec<(Option<String>, String)> = self
            .unreadable
            .iter()
            .map(|(p, e)| {
                (
                    Some(crate::output::sarif::artifact_uri(p)),
                    format!("{p}: {e}"),
                )
            })
            .collect();
        if self.unreadable_count > self.unreadable.len() {
            notes.push((
                None,
                format!(
                    "{} more inputs could not be read; hosts.jsonl names each",
                    self.unreadable_count - self.unreadable.len()
                ),
            ));
        }
        notes
    }
}

/// Writes `results.sarif` from the spilled results (one spill per level: errors, warnings,
/// infos), errors first, stopping at [`SARIF_MAX_RESULTS`] or [`SARIF_MAX_GZIP_BYTES`]; what is left
/// out is said in a warning notification, and the diagnostics below the report's minimum
/// severity (`below`: how many, and that severity) in a note.
fn write_sarif_log(
    w: &Writer,
    spills: Vec<Spill>,
    below: (usize, Severity),
    extra_rules: &std::collections::BTreeSet<String>,
    reading: crate::Reading,
    notes: &[(Option<String>, String)],
) -> Result<SarifCut, ReportError> {
    use crate::output::sarif::{Options, Writer as Sarif};
    let rel = "results.sarif";
    let total: usize = spills.iter().map(|s| s.lines).sum();
    let options = Options {
        uri_base: Some(("INPUTDIR", "The input directory of the report.")),
        properties: serde_json::json!({ "reading": reading.as_str() }),
        extra_rules: extra_rules.iter().cloned().collect(),
    };
    let mut written = 0usize;
    let mut out = Gauged::new(create(w, rel)?, w.root.join(rel));
    let mut log = Sarif::begin(&mut out, &options).map_err(out_err(rel))?;
    'levels: for spill in spills {
        for line in spill.lines().map_err(out_err("a temporary file"))? {
            let line = line.map_err(out_err("a temporary file"))?;
            if written == SARIF_MAX_RESULTS
                || !out
                    .fits(line.len() as u64, SARIF_MAX_GZIP_BYTES)
                    .map_err(out_err(rel))?
            {
                break 'levels;
            }
            log.raw_result(&mut out, &line).map_err(out_err(rel))?;
            written += 1;
        }
    }
    for (uri, text) in notes {
        log.notification(uri.as_deref(), text);
    }
    let omitted = total - written;
    if omitted > 0 {
        log.warning_notification(&format!(
            "{} of {} results are not in this log, to stay within GitHub code scanning's limits \
             ({} results per run, 10 MB gzipped): errors come first, then warnings, then \
             notes; hosts.jsonl lists every one",
            crate::text::thousands(omitted),
            crate::text::thousands(total),
            crate::text::thousands(SARIF_MAX_RESULTS),
        ));
    }
    let (below, min) = below;
    if below > 0 {
        log.note_notification(&format!(
            "{} below {} left out (the report's --min-severity; by default infos stay out, as \
             `lint` leaves them out): the pages list them, `summary.json` and each host's \
             counts in hosts.jsonl count them, and `report --min-severity info` or `lint \
             --format sarif --min-severity info` writes them",
            crate::text::count(below, "diagnostic", "diagnostics"),
            min.as_str(),
        ));
    }
    log.finish(&mut out).map_err(out_err(rel))?;
    let bytes = out.bytes;
    out.inner.flush().map_err(out_err(rel))?;
    w.count(rel, bytes);
    Ok(SarifCut {
        results: written,
        omitted,
        below_min_severity: below,
    })
}

/// What [`Sink::finish`] hands back.
pub struct Finished {
    /// Totals across hosts.
    pub totals: Totals,
    /// Statistics across hosts.
    pub stats: super::stats::Stats,
    /// Per diagnostic name.
    pub affected: BTreeMap<String, Affected>,
    /// Unreadable inputs, the first [`MAX_UNREADABLE_LISTED`].
    pub unreadable: Vec<(String, String)>,
    /// What `results.sarif` holds and leaves out.
    pub sarif: SarifCut,
    /// The URLs of `--urls`.
    pub urls: UrlCounts,
    /// Pages of the index.
    pub pages: usize,
    /// Files of the index's data.
    pub data_files: usize,
    /// The index's rows, problems first.
    pub index: IndexRows,
}

/// The index's rows in page order: by problem rank ([`rank`]), then host order.
pub struct IndexRows {
    ranks: Vec<Box<dyn Iterator<Item = std::io::Result<Vec<u8>>> + Send>>,
}

impl IndexRows {
    /// The next page of up to [`PAGE_ROWS`] rows; empty when all have been given.
    ///
    /// # Errors
    /// [`ReportError::Output`] when a temporary file cannot be read back.
    pub fn next_page(&mut self) -> Result<Vec<IndexEntry>, ReportError> {
        let mut page = Vec::with_capacity(PAGE_ROWS);
        while page.len() < PAGE_ROWS && !self.ranks.is_empty() {
            match self.ranks[0].next() {
                None => {
                    drop(self.ranks.remove(0));
                }
                Some(line) => {
                    let line = line.map_err(out_err("a temporary file"))?;
                    page.push(
                        serde_json::from_slice(&line)
                            .map_err(|e| ReportError::Output(format!("a temporary file: {e}")))?,
                    );
                }
            }
        }
        Ok(page)
    }
}

/// The URLs of `--urls`: decided for a host of the report (`given`; `blocked` of them for some
/// crawler of the matrix), of a host not in the report, and lines that are no URL.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct UrlCounts {
    /// URLs decided.
    pub given: usize,
    /// Of those, URLs some crawler of the matrix may not fetch.
    pub blocked: usize,
    /// URLs no host of the report takes (another host, or another scheme).
    pub unassigned: usize,
    /// Lines that are no absolute http(s) URL.
    pub invalid: usize,
}

/// Results written to `results.sarif` and results left out for GitHub's limits.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct SarifCut {
    /// Results in the log.
    pub results: usize,
    /// Results left out for GitHub's limits.
    pub omitted: usize,
    /// Diagnostics of the reading below the report's minimum severity, which the log does not
    /// hold ([`super::Config::min_severity`]).
    pub below_min_severity: usize,
}

/// A file writer that counts bytes and how large they would be gzipped, so the SARIF log can
/// stop before GitHub's limit. Deflate never makes data much larger than it is (a block that
/// would grow is stored as it is), so while the bytes written are well under the limit their
/// count bounds the gzipped size and nothing is compressed. Once that bound no longer shows the
/// limit is kept, what the file holds is read back and compressed, and from then on the bytes
/// are compressed as they pass, at the fastest level: it compresses less than the levels
/// uploaders use, so the estimate errs on the large side, at a fraction of their time.
struct Gauged {
    inner: std::io::BufWriter<std::fs::File>,
    path: std::path::PathBuf,
    bytes: u64,
    /// The compressor, once the bytes are compressed.
    gz: Option<flate2::write::GzEncoder<Counter>>,
}

/// Counts the bytes written to it, keeping none.
#[derive(Default)]
struct Counter(u64);

impl std::io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Gauged {
    /// Writes to `inner`, the new file at `path`.
    fn new(inner: std::io::BufWriter<std::fs::File>, path: std::path::PathBuf) -> Gauged {
        Gauged {
            inner,
            path,
            bytes: 0,
            gz: None,
        }
    }

    /// At most how large the bytes written so far would be gzipped: what the compressor has
    /// emitted plus its window (32 KiB), or, before anything is compressed, the bytes written
    /// with room for deflate's stored-block headers (5 bytes per block of at most 64 KiB, 18
    /// for gzip's header and trailer) and more, plus the window.
    fn gzipped(&self) -> u64 {
        match &self.gz {
            Some(gz) => gz.get_ref().0 + 32 * 1024,
            None => self.bytes + self.bytes / 64 + 1024 + 32 * 1024,
        }
    }

    /// Whether `more` bytes can be added while the gzipped size stays within `limit`. Compresses
    /// what the file holds when its size alone no longer answers.
    fn fits(&mut self, more: u64, limit: u64) -> std::io::Result<bool> {
        if self.gzipped() + more <= limit {
            return Ok(true);
        }
        if self.gz.is_none() {
            self.inner.flush()?;
            let mut gz =
                flate2::write::GzEncoder::new(Counter::default(), flate2::Compression::fast());
            let mut written = std::fs::File::open(&self.path)?;
            std::io::copy(&mut written, &mut gz)?;
            self.gz = Some(gz);
        }
        Ok(self.gzipped() + more <= limit)
    }
}

impl std::io::Write for Gauged {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        if let Some(gz) = &mut self.gz {
            gz.write_all(&buf[..n])?;
        }
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The index's data for one file of [`DATA_ROWS`] hosts, by column.
struct DataFile {
    crawlers: usize,
    from: usize,
    host: Vec<String>,
    /// Page stems that differ from the host name: (row, stem; empty: no page).
    stem: Vec<(usize, String)>,
    /// Paths and errors: (row, text).
    path: Vec<(usize, String)>,
    error: Vec<(usize, String)>,
    outcome: String,
    rank: String,
    blocks: String,
    unread: String,
    access: String,
    /// bytes (−1 without a file), the six numbers, then URLs given and blocked, per row.
    numbers: Vec<i64>,
}

impl DataFile {
    fn new(crawlers: usize) -> DataFile {
        DataFile {
            crawlers,
            from: 0,
            host: Vec::new(),
            stem: Vec::new(),
            path: Vec::new(),
            error: Vec::new(),
            outcome: String::new(),
            rank: String::new(),
            blocks: String::new(),
            unread: String::new(),
            access: String::new(),
            numbers: Vec::new(),
        }
    }

    fn len(&self) -> usize {
        self.host.len()
    }

    fn is_empty(&self) -> bool {
        self.host.is_empty()
    }

    fn push(&mut self, e: &IndexEntry) {
        let i = self.len();
        match &e.stem {
            Some(stem) if *stem == e.host => {}
            Some(stem) => self.stem.push((i, stem.clone())),
            None => self.stem.push((i, String::new())),
        }
        if let Some(p) = &e.path {
            self.path.push((i, p.clone()));
        }
        if let Some(x) = &e.error {
            self.error.push((i, x.clone()));
        }
        self.host.push(e.host.clone());
        self.outcome
            .push(char::from(b'0' + outcome_code(&e.outcome) as u8));
        self.rank.push(char::from(b'0' + e.rank));
        self.blocks.push(if e.blocks { '1' } else { '0' });
        // 1: the robots.txt file was not read; 2: only its sidecar was not.
        self.unread.push(if e.unread {
            '1'
        } else if e.error.is_some() {
            '2'
        } else {
            '0'
        });
        self.access.push_str(&e.access);
        self.numbers
            .push(e.bytes.map_or(-1, |b| i64::try_from(b).unwrap_or(i64::MAX)));
        self.numbers.extend(e.numbers.iter().map(|&n| n as i64));
        self.numbers.extend(e.urls.iter().map(|&n| n as i64));
    }

    /// Writes `assets/hosts-<n>.js` and starts the next file.
    fn write(&mut self, w: &Writer, n: usize) -> Result<(), ReportError> {
        w.write_with(&format!("assets/hosts-{n}.js"), &mut |out| {
            self.write_to(out)
        })?;
        let from = self.from + self.len();
        *self = DataFile::new(self.crawlers);
        self.from = from;
        Ok(())
    }

    /// Writes the file: the data as one JSON text given to `JSON.parse` (browsers read a large
    /// JSON text about ten times faster than the same data written as a script's literals),
    /// escaped as a string literal while it is written, so that no copy of it is held.
    fn write_to(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        /// A map from row numbers (as strings, in their order as strings, as `serde_json`
        /// writes a map) to texts.
        struct Sparse<'a>(Vec<(String, &'a str)>);
        impl Serialize for Sparse<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
            }
        }
        fn sparse(v: &[(usize, String)]) -> Sparse<'_> {
            let mut m: Vec<(String, &str)> =
                v.iter().map(|(i, s)| (i.to_string(), s.as_str())).collect();
            m.sort_unstable();
            Sparse(m)
        }
        /// The data, its keys in alphabetical order (the order of a `serde_json` map).
        #[derive(Serialize)]
        struct Data<'a> {
            access: &'a str,
            blocks: &'a str,
            crawlers: usize,
            error: Sparse<'a>,
            from: usize,
            host: &'a [String],
            numbers: &'a [i64],
            outcome: &'a str,
            path: Sparse<'a>,
            rank: &'a str,
            stem: Sparse<'a>,
            unread: &'a str,
        }
        let data = Data {
            access: &self.access,
            blocks: &self.blocks,
            crawlers: self.crawlers,
            error: sparse(&self.error),
            from: self.from,
            host: &self.host,
            numbers: &self.numbers,
            outcome: &self.outcome,
            path: sparse(&self.path),
            rank: &self.rank,
            stem: sparse(&self.stem),
            unread: &self.unread,
        };
        out.write_all(b"robotsExplorerHosts.push(JSON.parse(\"")?;
        serde_json::to_writer(JsonString(&mut *out), &data)?;
        out.write_all(b"\"));\n")
    }
}

/// Writes what it is given escaped as the inside of a JSON string literal, as `serde_json`
/// escapes a string: `"`, `\\` and control characters.
struct JsonString<W>(W);

impl<W: std::io::Write> std::io::Write for JsonString<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut plain = 0;
        for (i, &b) in buf.iter().enumerate() {
            let escaped: &[u8] = match b {
                b'"' => b"\\\"",
                b'\\' => b"\\\\",
                b'\n' => b"\\n",
                b'\r' => b"\\r",
                b'\t' => b"\\t",
                0x08 => b"\\b",
                0x0c => b"\\f",
                0..0x20 => &[],
                _ => continue,
            };
            self.0.write_all(&buf[plain..i])?;
            if escaped.is_empty() {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                self.0.write_all(&[
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX[usize::from(b >> 4)],
                    HEX[usize::from(b & 15)],
                ])?;
            } else {
                self.0.write_all(escaped)?;
            }
            plain = i + 1;
        }
        self.0.write_all(&buf[plain..])?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// Every outcome a host's row can show, as (machine name, label), in the order of their codes
/// ([`outcome_code`]): [`crate::fetch::Outcome::ALL`], then `unread` for a robots.txt file
/// that could not be read.
pub fn outcomes() -> Vec<(&'static str, &'static str)> {
    crate::fetch::Outcome::ALL
        .iter()
        .map(|o| (o.as_str(), o.label()))
        .chain([("unread", "file not read")])
        .collect()
}

/// The label of outcome `name` (see [`outcomes`]).
pub fn outcome_label(name: &str) -> &'static str {
    outcomes()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map_or("file not read", |(_, l)| l)
}

/// The one-digit code of an outcome name in the index's data: its place in
/// [`crate::fetch::Outcome::ALL`], and one past the end for `unread`.
pub fn outcome_code(name: &str) -> usize {
    let all = crate::fetch::Outcome::ALL;
    all.iter()
        .position(|o| o.as_str() == name)
        .unwrap_or(all.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `chunk` to a new [`Gauged`] file while it fits under `limit` (at most `max`
    /// times), and gives the file's bytes and how many chunks went in.
    fn fill_gauged(chunk: &[u8], limit: u64, max: usize) -> (Vec<u8>, usize) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log");
        let file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        let mut g = Gauged::new(file, path.clone());
        let mut n = 0;
        while n < max && g.fits(chunk.len() as u64, limit).unwrap() {
            g.write_all(chunk).unwrap();
            n += 1;
        }
        g.flush().unwrap();
        (std::fs::read(&path).unwrap(), n)
    }

    fn gzip_len(bytes: &[u8]) -> usize {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(bytes).unwrap();
        gz.finish().unwrap().len()
    }

    #[test]
    fn gauged_bytes_stay_within_the_gzipped_limit() {
        // Bytes that do not compress: the file stops near the limit, gzipped below it.
        let noise: Vec<u8> = (1u64..=4096)
            .map(|i| {
                let h = i.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
                (h.wrapping_mul(0xBF58_476D_1CE4_E5B9) >> 56) as u8
            })
            .collect();
        let limit = 400_000;
        let (bytes, n) = fill_gauged(&noise, limit, usize::MAX);
        assert!(gzip_len(&bytes) as u64 <= limit);
        assert!(bytes.len() as u64 > limit - 80_000, "{} bytes", bytes.len());
        assert_eq!(bytes.len(), n * noise.len());
        // Bytes that compress well go far past the limit in size, and are compressed once
        // their size no longer shows that they fit.
        let text = b"{\"ruleId\":\"redundant-rule\",\"level\":\"note\"}\n".repeat(40);
        let (bytes, n) = fill_gauged(&text, limit, 1_000);
        assert_eq!(n, 1_000);
        assert!(bytes.len() as u64 > 4 * limit);
        assert!((gzip_len(&bytes) as u64) < limit);
    }

    #[test]
    fn data_files_are_escaped_as_they_are_written() {
        let mut d = DataFile::new(2);
        d.from = 7;
        let texts = [
            "a\"b",
            "c\\d",
            "e\nf\u{1}\u{1f}\u{7f}",
            "caf\u{e9} \u{2028}",
            "",
        ];
        for i in 0..12 {
            d.host.push(texts[i % texts.len()].to_string());
            d.path.push((i, texts[(i + 1) % texts.len()].to_string()));
            d.access.push_str("yn");
            d.numbers.extend([i as i64, -1]);
        }
        d.stem.push((10, String::new()));
        d.stem.push((2, "x".into()));
        d.error.push((3, "not read: \"x\"".into()));
        d.outcome.push_str("012");
        let mut out = Vec::new();
        d.write_to(&mut out).unwrap();
        // The same data as a `serde_json` value, written whole.
        let sparse = |v: &[(usize, String)]| -> serde_json::Map<String, serde_json::Value> {
            v.iter()
                .map(|(i, s)| (i.to_string(), serde_json::Value::from(s.as_str())))
                .collect()
        };
        let value = serde_json::json!({
            "from": d.from, "crawlers": d.crawlers, "host": d.host, "stem": sparse(&d.stem),
            "path": sparse(&d.path), "error": sparse(&d.error), "outcome": d.outcome,
            "rank": d.rank, "blocks": d.blocks, "unread": d.unread, "access": d.access,
            "numbers": d.numbers,
        });
        let json = serde_json::to_string(&value).unwrap();
        let whole = format!(
            "robotsExplorerHosts.push(JSON.parse({}));\n",
            serde_json::to_string(&json).unwrap()
        );
        assert_eq!(String::from_utf8(out).unwrap(), whole);
    }
}
