//! The audit site: a directory of robots.txt files (and optional YAML sidecars) → static pages.
//!
//! The pipeline, one module per stage:
//!
//! 1. [`discover`]: walk the input directory, pair files with [`sidecar`]s, name the pages
//!    safely ([`names`]).
//! 2. [`host`]: per host, a chunk of hosts at a time in parallel (rayon): read, parse, analyse,
//!    judge the fetch ([`fetch`]), decide (the matrix, and the URLs of `--urls`, [`urls`]),
//!    render the page ([`pages`]; `--pages` may leave it out) and write it at once.
//! 3. [`sink`]: each host's [`summary::HostRow`] goes, in host order, to `hosts.jsonl`,
//!    `summary.csv`, `hosts.parquet` ([`parquet`]), `urls.csv`, spill files for SARIF and the
//!    index, the index's data files, and the statistics ([`stats`]); then it is let go.
//! 4. Across hosts: the index pages (problems first, [`sink::PAGE_ROWS`] hosts each), the
//!    statistics page, one page per diagnostic, the shared page of fetch results,
//!    `summary.json` and `results.sarif` ([`summary`]).
//! 5. The site is written into a temporary folder beside the output and moved into place at the
//!    end, replacing the previous site, so a failed run never leaves a half-written site. The
//!    temporary folder records the run's process id ([`RUN_MARKER`]); a later run removes such
//!    folders left by interrupted runs ([`sweep_stale`]), and the command line removes its own
//!    on SIGINT or SIGTERM.
//!
//! The same input and the same `now` give byte-identical output.
//!
//! With [`Config::shard`] a run stops after stage 2 for one share of the hosts and writes a
//! partial instead; [`merge`] feeds the rows of every shard's partial, in host order, to the
//! stages 3 to 5 a single run goes through, so the site is the same ([`shard`]).
//!
//! Site layout: `index.html` and `index/<n>.html` (the index's pages), `hosts/<host>.html`,
//! `statistics.html`, `fetch.html`, `reading.html`, `diagnostics/index.html`, `diagnostics/<name>.html`,
//! `assets/site.css`, `assets/report.js`, `assets/hosts-<n>.js` (the index's data, loaded when
//! the reader searches or sorts), `summary.json`, `hosts.jsonl`, `hosts.parquet`, `summary.csv`,
//! `statistics.json`, `results.sarif`, `urls.csv` (with `--urls`), and `.robots-explorer-site`
//! (a marker listing every file the run wrote: a later run replaces the folder only when it
//! holds nothing else).

pub mod discover;
pub mod host;
pub mod names;
pub mod pages;
pub mod parquet;
pub mod shard;
pub mod sidecar;
pub mod single;
pub mod sink;
pub mod stats;
mod stream;
pub mod summary;
pub mod urls;

use crate::Reading;
use crate::analysis::{self, Severity};
use crate::html::{self, Html, SITE_CSS};
use crate::output::FailOn;
use crate::text::{count, noun, thousands};
use host::{Agent, Context};
use rayon::prelude::*;
pub use shard::{Shard, merge};
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use summary::{HostRow, Totals};
use time::OffsetDateTime;

/// The report's script (progressive enhancement: sorting and filtering the index).
pub const REPORT_JS: &str = include_str!("../../templates/assets/report.js");
/// Name of the marker file that identifies a folder written by this command.
pub const MARKER: &str = ".robots-explorer-site";
/// Prefix of the temporary folder a run writes its site into, beside `--out`.
pub const TMP_PREFIX: &str = ".robots-explorer-tmp-";
/// Prefix of the folder an earlier site is moved to while the new one takes its place.
pub const OLD_PREFIX: &str = ".robots-explorer-old-";
/// Name of the file inside a temporary folder that records the run writing it: `pid <n>`,
/// `started <Unix seconds>` and, where the machine's name is known, `host <name>`, one per line
/// (the process id says whether the run is alive only on the machine that runs it: shards on
/// several machines may write beside each other on a shared file system). It is removed before
/// the site is moved into place.
pub const RUN_MARKER: &str = ".robots-explorer-run";
/// A temporary folder whose run cannot be shown to be alive is swept after this many seconds.
pub const STALE_AFTER_SECONDS: u64 = 30 * 60;

/// The temporary folder of the run in progress, for a signal handler to remove
/// ([`remove_current_temp`]). Held locked while the new site is moved into place.
static CURRENT_TMP: std::sync::Mutex<Option<PathBuf>> = std::sync::Mutex::new(None);

fn set_current_temp(path: Option<PathBuf>) {
    let mut g = CURRENT_TMP.lock().unwrap_or_else(|e| e.into_inner());
    *g = path;
}

/// Removes the temporary folder of the run in progress, if any. Meant for a signal handler
/// (SIGINT, SIGTERM): it waits while a finished site is being moved into place, so it never
/// removes half of a swap. Returns whether a folder was removed.
pub fn remove_current_temp() -> bool {
    let mut g = CURRENT_TMP.lock().unwrap_or_else(|e| e.into_inner());
    let Some(path) = g.take() else {
        return false;
    };
    // Worker threads may still be adding files: try a few times.
    for _ in 0..5 {
        if std::fs::remove_dir_all(&path).is_ok() || !path.exists() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    false
}

/// This machine's name (Linux `/proc/sys/kernel/hostname`), where it can be read.
fn machine_name() -> Option<String> {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// Whether the process `pid` is gone: `Some(true)` or `Some(false)` where the operating system
/// lets us tell (Linux `/proc`), `None` elsewhere.
fn process_gone(pid: u32) -> Option<bool> {
    let proc_root = Path::new("/proc");
    if !proc_root.join("self").exists() {
        return None;
    }
    Some(!proc_root.join(pid.to_string()).exists())
}

/// Removes what interrupted runs left beside `out` in `parent`: folders named
/// [`TMP_PREFIX`]`*` holding a [`RUN_MARKER`] whose process is gone (looked up only when the
/// marker names this machine, or none) or that are older than
/// [`STALE_AFTER_SECONDS`], and folders named [`OLD_PREFIX`]`*` holding a site [`MARKER`].
/// Anything else, however named, is left alone. Returns the folders removed.
pub fn sweep_stale(parent: &Path) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    let Ok(entries) = std::fs::read_dir(parent) else {
        return removed;
    };
    let now = std::time::SystemTime::now();
    let this_machine = machine_name();
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let path = e.path();
        if !e.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let stale = if name.starts_with(TMP_PREFIX) {
            let Ok(text) = std::fs::read_to_string(path.join(RUN_MARKER)) else {
                continue;
            };
            let field = |key: &str| {
                text.lines()
                    .find_map(|l| l.strip_prefix(key))
                    .and_then(|v| v.trim().parse::<u64>().ok())
            };
            let pid = field("pid ").and_then(|p| u32::try_from(p).ok());
            let age = field("started ").and_then(|t| {
                now.duration_since(std::time::UNIX_EPOCH)
                    .ok()
                    .map(|n| n.as_secs().saturating_sub(t))
            });
            // A process id is looked up only on the machine that wrote it (a marker without a
            // `host` line is taken as this machine's).
            let here = text
                .lines()
                .find_map(|l| l.strip_prefix("host "))
                .is_none_or(|h| Some(h.trim()) == this_machine.as_deref());
            let gone = here && pid.and_then(process_gone) == Some(true);
            let old = age.is_none_or(|a| a > STALE_AFTER_SECONDS);
            pid != Some(std::process::id()) && (gone || old)
        } else if name.starts_with(OLD_PREFIX) {
            path.join(MARKER).is_file()
        } else {
            false
        };
        if stale && std::fs::remove_dir_all(&path).is_ok() {
            removed.push(path);
        }
    }
    removed
}

/// Which hosts get a page of their own (`--pages`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Pages {
    /// Every host.
    #[default]
    All,
    /// Hosts with a problem: a file not read, a failed fetch, `*` blocked from `/`, errors or
    /// warnings (see [`sink::rank`]).
    Problems,
    /// None: the index, statistics, diagnostics and machine output only.
    None,
}

impl Pages {
    /// Whether a host of problem rank `rank` ([`sink::rank`]) gets a page.
    pub fn wants(self, rank: u8) -> bool {
        match self {
            Pages::All => true,
            Pages::Problems => usize::from(rank) < sink::RANKS - 1,
            Pages::None => false,
        }
    }
}

/// Options of a report run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The input directory.
    pub input: PathBuf,
    /// The output directory (replaced as a whole).
    pub out: PathBuf,
    /// Product tokens of the matrices; empty: the known crawlers' default matrix.
    pub agents: Vec<String>,
    /// Extra paths for the matrices (each starting with `/`).
    pub urls: Vec<String>,
    /// Reading of decisions, counts, the index and SARIF.
    pub reading: Reading,
    /// The report's time, for cache ages.
    pub now: OffsetDateTime,
    /// When findings fail the run.
    pub fail_on: FailOn,
    /// The lowest severity `hosts.jsonl` and `results.sarif` list one by one; lower ones are
    /// counted (default [`Severity::Warning`], as `lint` reports by default).
    pub min_severity: Severity,
    /// Link from the report's root to the guide (e.g. `guide/index.html`), if there is one.
    pub guide: Option<String>,
    /// Guide chapters explaining each diagnostic: name → [(title, link from the report's root)].
    pub diagnostic_guide_links: BTreeMap<String, Vec<(String, String)>>,
    /// Which hosts get a page.
    pub pages: Pages,
    /// URLs to decide for their hosts (`--urls`).
    pub url_list: Option<std::sync::Arc<urls::UrlList>>,
    /// Which files of the input directory are read (`--include`, `--exclude`).
    pub filter: crate::select::WalkFilter,
    /// Process only this shard's hosts and write a partial instead of a site (`--shard K/N`,
    /// see [`shard`]).
    pub shard: Option<Shard>,
    /// Whether the pages may rely on their scripts: the compact runs of long listings are then
    /// packed (see [`html::ListingOptions::packed_runs`]). Default `true`; `false` for
    /// `--single-file`, which leaves scripts out.
    pub scripts: bool,
}

impl Config {
    /// A configuration with defaults: Google reading, default crawlers, no extra paths,
    /// `fail_on` never, no guide.
    pub fn new(input: impl Into<PathBuf>, out: impl Into<PathBuf>, now: OffsetDateTime) -> Config {
        Config {
            input: input.into(),
            out: out.into(),
            agents: Vec::new(),
            urls: Vec::new(),
            reading: Reading::Google,
            now,
            fail_on: FailOn::Never,
            min_severity: Severity::Warning,
            guide: None,
            diagnostic_guide_links: BTreeMap::new(),
            pages: Pages::All,
            url_list: None,
            filter: crate::select::WalkFilter::default(),
            shard: None,
            scripts: true,
        }
    }
}

/// Receives progress while hosts are processed (for a progress bar).
pub trait Progress: Sync {
    /// Called once with the number of hosts.
    fn start(&self, hosts: usize);
    /// Called after each host.
    fn host_done(&self);
}

/// A [`Progress`] that does nothing.
pub struct NoProgress;

impl Progress for NoProgress {
    fn start(&self, _: usize) {}
    fn host_done(&self) {}
}

/// Skipped entries a run's summary names ([`RunSummary::skipped_first`]).
pub const SKIPPED_SHOWN: usize = 3;

/// What a run produced.
#[derive(Clone, Debug)]
pub struct RunSummary {
    /// Totals across hosts.
    pub totals: Totals,
    /// Entries of the input not read.
    pub skipped: usize,
    /// The first [`SKIPPED_SHOWN`] of them, for the command line to name (all are in
    /// `summary.json`).
    pub skipped_first: Vec<discover::Skipped>,
    /// Files written.
    pub files: usize,
    /// Bytes written.
    pub bytes: u64,
    /// Whether `fail_on` was reached.
    pub failed: bool,
    /// Host names given by several inputs; only the first input of each is reported.
    pub duplicates: Vec<discover::Duplicate>,
    /// What the WARC inputs held, when there were any.
    pub warc: Option<crate::warc::Counts>,
    /// Input files that could not be read (robots.txt files and sidecars): (path relative to
    /// the input directory, why), in host order, the first [`sink::MAX_UNREADABLE_LISTED`].
    /// Each also counts in `totals.unread`, which counts them all.
    pub unreadable: Vec<(String, String)>,
    /// The URLs of `--urls`, when given.
    pub urls: Option<sink::UrlCounts>,
    /// The output directory.
    pub out: PathBuf,
    /// For a shard's run ([`Config::shard`]): the shard, and the hosts of the whole input (the
    /// totals are the shard's; `duplicates` and `unreadable` are left to the merge, which
    /// names them once).
    pub shard: Option<(Shard, usize)>,
    /// The reading of the counts.
    pub reading: Reading,
}

/// Why a run could not complete.
#[derive(Debug)]
pub enum ReportError {
    /// The input directory cannot be read.
    Input(String),
    /// The output cannot be written.
    Output(String),
    /// A usage error (e.g. an unknown option value).
    Usage(String),
}

impl std::fmt::Display for ReportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReportError::Input(s) => write!(f, "input: {s}"),
            ReportError::Output(s) => write!(f, "output: {s}"),
            ReportError::Usage(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for ReportError {}

/// Counts files and bytes written.
pub(crate) struct Writer {
    root: PathBuf,
    files: std::sync::atomic::AtomicUsize,
    bytes: std::sync::atomic::AtomicU64,
    /// The manifest: a line per file written, in the order written, streamed to
    /// [`MANIFEST_PART`] (a million host pages are a million lines) and renamed to the marker
    /// when the site is complete.
    manifest: std::sync::Mutex<Manifest>,
}

/// Where the manifest grows while the site is written (renamed to [`MARKER`] at the end).
const MANIFEST_PART: &str = ".robots-explorer-site.part";

/// The manifest being written, and its first error (reported when it is finished).
struct Manifest {
    out: std::io::BufWriter<std::fs::File>,
    error: Option<std::io::Error>,
}

impl Manifest {
    /// Starts the manifest in `root` with its first line.
    fn create(root: &Path) -> Result<Manifest, ReportError> {
        let path = root.join(MANIFEST_PART);
        let mut out = std::fs::File::create(&path)
            .map(std::io::BufWriter::new)
            .map_err(|e| ReportError::Output(format!("{}: {e}", path.display())))?;
        let error = writeln!(out, "{MARKER_HEAD}").err();
        Ok(Manifest { out, error })
    }
}

impl Writer {
    fn write(&self, rel: &str, data: &[u8]) -> Result<(), ReportError> {
        let path = self.root.join(rel);
        std::fs::write(&path, data)
            .map_err(|e| ReportError::Output(format!("{}: {e}", path.display())))?;
        self.count(rel, data.len() as u64);
        Ok(())
    }
    fn write_with(
        &self,
        rel: &str,
        body: &mut dyn FnMut(&mut dyn std::io::Write) -> std::io::Result<()>,
    ) -> Result<(), ReportError> {
        let path = self.root.join(rel);
        let res = std::fs::File::create(&path).and_then(|f| {
            let mut out = Counting {
                inner: std::io::BufWriter::with_capacity(256 * 1024, f),
                bytes: 0,
            };
            body(&mut out)?;
            std::io::Write::flush(&mut out)?;
            Ok(out.bytes)
        });
        match res {
            Ok(bytes) => {
                self.count(rel, bytes);
                Ok(())
            }
            Err(e) => Err(ReportError::Output(format!("{}: {e}", path.display()))),
        }
    }
    fn count(&self, rel: &str, bytes: u64) {
        {
            let mut m = self.manifest.lock().unwrap_or_else(|e| e.into_inner());
            if m.error.is_none() {
                m.error = writeln!(m.out, "file {rel}").err();
            }
        }
        self.files
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.bytes
            .fetch_add(bytes, std::sync::atomic::Ordering::Relaxed);
    }
}

/// A file created when the first byte is written to it.
struct LazyFile<'p> {
    path: &'p Path,
    file: Option<std::io::BufWriter<std::fs::File>>,
}

impl std::io::Write for LazyFile<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let file = match &mut self.file {
            Some(f) => f,
            None => self.file.insert(std::io::BufWriter::with_capacity(
                256 * 1024,
                std::fs::File::create(self.path)?,
            )),
        };
        file.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.file.as_mut().map_or(Ok(()), std::io::Write::flush)
    }
}

/// An `io::Write` that counts the bytes passing through.
struct Counting<W> {
    inner: W,
    bytes: u64,
}

impl<W: std::io::Write> std::io::Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// First line of the marker file.
const MARKER_HEAD: &str =
    "This folder was written by robots-explorer report; the next run replaces the files below.";

/// Ends the manifest ([`Writer::manifest`]) and makes it the marker file: a line of
/// explanation, then `file <relative path>` for every file the run wrote (`/`-separated, in the
/// order written), the marker itself excluded.
/// Returns the marker's size in bytes.
fn finish_marker(w: Writer) -> Result<u64, ReportError> {
    let m = w.manifest.into_inner().unwrap_or_else(|e| e.into_inner());
    let part = w.root.join(MANIFEST_PART);
    let fail = |e: std::io::Error| ReportError::Output(format!("{}: {e}", part.display()));
    if let Some(e) = m.error {
        return Err(fail(e));
    }
    let file = m.out.into_inner().map_err(|e| fail(e.into_error()))?;
    let size = file.metadata().map_err(fail)?.len();
    drop(file);
    std::fs::rename(&part, w.root.join(MARKER)).map_err(fail)?;
    Ok(size)
}

/// Whether `rel` (`/`-separated) fits the site layout of versions that wrote no manifest.
fn in_layout(rel: &str) -> bool {
    const TOP: &[&str] = &[
        "index.html",
        "summary.json",
        "summary.csv",
        "results.sarif",
        "assets/site.css",
        "assets/report.js",
    ];
    TOP.contains(&rel)
        || ["hosts/", "diagnostics/"].iter().any(|d| {
            rel.strip_prefix(d)
                .is_some_and(|n| n.ends_with(".html") && !n.contains('/'))
        })
}

/// The entries of a site folder `out` that the site's marker does not account for: files not
/// in its manifest (or, for a marker without one, not in the site layout) and folders that
/// hold none of those files. Relative, `/`-separated, sorted.
fn foreign_entries(out: &Path) -> Result<Vec<String>, ReportError> {
    use std::io::BufRead as _;
    let marker = out.join(MARKER);
    let fail = |e: std::io::Error| ReportError::Output(format!("{}: {e}", marker.display()));
    // The manifest of a million-host site is a million lines: it is read line by line into
    // 64-bit hashes of the files listed and of the folders holding them.
    let mut files: rustc_hash::FxHashSet<u64> = Default::default();
    let mut folders: rustc_hash::FxHashSet<u64> = Default::default();
    let reader = std::io::BufReader::new(std::fs::File::open(&marker).map_err(fail)?);
    for line in reader.split(b'\n') {
        let line = line.map_err(fail)?;
        let Some(rel) = line.strip_prefix(b"file ") else {
            continue;
        };
        files.insert(names::fnv1a(rel));
        for (i, &b) in rel.iter().enumerate() {
            if b == b'/' {
                folders.insert(names::fnv1a(&rel[..i]));
            }
        }
    }
    let listed = !files.is_empty();
    let known = |rel: &str| {
        if listed {
            files.contains(&names::fnv1a(rel.as_bytes()))
        } else {
            in_layout(rel)
        }
    };
    let mut foreign = Vec::new();
    for e in walkdir::WalkDir::new(out).min_depth(1).sort_by_file_name() {
        let e = e.map_err(|e| ReportError::Output(format!("{}: {e}", out.display())))?;
        let rel = e
            .path()
            .strip_prefix(out)
            .unwrap_or(e.path())
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/");
        if rel == MARKER {
            continue;
        }
        let ok = if e.file_type().is_dir() {
            if listed {
                folders.contains(&names::fnv1a(rel.as_bytes()))
            } else {
                matches!(rel.as_str(), "hosts" | "diagnostics" | "assets")
            }
        } else {
            known(&rel)
        };
        if !ok {
            foreign.push(rel);
        }
    }
    Ok(foreign)
}

/// Checks that `out` may be replaced: it does not exist, is an empty folder, or holds a site
/// written before (the marker file) and nothing else (every file is in the marker's manifest);
/// and it is neither one of the `inputs` nor above one.
fn check_out(inputs: &[&Path], out: &Path) -> Result<(), ReportError> {
    let canon_in = inputs
        .iter()
        .map(|i| {
            std::fs::canonicalize(i)
                .map_err(|e| ReportError::Input(format!("{}: {e}", i.display())))
        })
        .collect::<Result<Vec<_>, _>>()?;
    match std::fs::symlink_metadata(out) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(ReportError::Output(format!("{}: {e}", out.display()))),
        Ok(m) if m.file_type().is_symlink() => Err(ReportError::Output(format!(
            "{} is a symbolic link{}; the site replaces its output folder as a whole, so give the \
             folder itself, not a link to it",
            out.display(),
            std::fs::read_link(out)
                .map(|t| format!(" (to {})", t.display()))
                .unwrap_or_default()
        ))),
        Ok(m) if !m.is_dir() => Err(ReportError::Output(format!(
            "{} exists and is not a folder",
            out.display()
        ))),
        Ok(_) => {
            let canon_out =
                std::fs::canonicalize(out).map_err(|e| ReportError::Output(e.to_string()))?;
            if canon_in.iter().any(|i| i.starts_with(&canon_out)) {
                return Err(ReportError::Output(format!(
                    "{} holds the input; choose another output folder",
                    out.display()
                )));
            }
            let empty = std::fs::read_dir(out)
                .map_err(|e| ReportError::Output(format!("{}: {e}", out.display())))?
                .next()
                .is_none();
            if empty {
                return Ok(());
            }
            if !out.join(MARKER).is_file() {
                return Err(ReportError::Output(format!(
                    "{} exists, is not empty and was not written by this command; refusing to replace it",
                    out.display()
                )));
            }
            let foreign = foreign_entries(out)?;
            if foreign.is_empty() {
                return Ok(());
            }
            let shown: Vec<&str> = foreign.iter().take(5).map(String::as_str).collect();
            let more = if foreign.len() > 5 {
                format!(" and {} more", foreign.len() - 5)
            } else {
                String::new()
            };
            Err(ReportError::Output(format!(
                "{} holds {} not written by this command ({}{more}); replacing the folder would \
                 delete {}. Move or remove {}, or choose another --out",
                out.display(),
                count(foreign.len(), "entry", "entries"),
                shown.join(", "),
                if foreign.len() == 1 { "it" } else { "them" },
                if foreign.len() == 1 { "it" } else { "them" },
            )))
        }
    }
}

/// Moves the finished site `tmp` to `out`, replacing an earlier site.
fn swap_into_place(tmp: tempfile::TempDir, out: &Path, parent: &Path) -> Result<(), ReportError> {
    let tmp_path = tmp.keep();
    let fail = |e: std::io::Error, what: &str| {
        ReportError::Output(format!("{what} {}: {e}", out.display()))
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&tmp_path, std::fs::Permissions::from_mode(0o755));
    }
    if out.exists() {
        let old = tempfile::Builder::new()
            .prefix(OLD_PREFIX)
            .tempdir_in(parent)
            .map_err(|e| fail(e, "cannot make room beside"))?;
        let old_path = old.keep();
        // The empty folder is replaced by the old site.
        std::fs::remove_dir(&old_path).map_err(|e| fail(e, "cannot make room beside"))?;
        std::fs::rename(out, &old_path).map_err(|e| fail(e, "cannot move aside"))?;
        if let Err(e) = std::fs::rename(&tmp_path, out) {
            let _ = std::fs::rename(&old_path, out);
            let _ = std::fs::remove_dir_all(&tmp_path);
            return Err(fail(e, "cannot move the new site to"));
        }
        let _ = std::fs::remove_dir_all(&old_path);
    } else if let Err(e) = std::fs::rename(&tmp_path, out) {
        let _ = std::fs::remove_dir_all(&tmp_path);
        return Err(fail(e, "cannot move the new site to"));
    }
    Ok(())
}

/// Builds the site, or with [`Config::shard`] the partial of one shard ([`shard`]). Problems
/// with single input files become rows; only problems with the input directory as a whole or
/// with the output are errors.
///
/// A run is "process every host, then finish the site": the hosts go through
/// [`write_host_pages`] a chunk at a time and their rows into a [`Site`], which writes the
/// files across hosts at the end. [`merge`] feeds the same [`Site`] from partials instead, so
/// both write the same bytes.
///
/// # Errors
/// [`ReportError::Input`] when the input directory cannot be walked or holds no hosts,
/// [`ReportError::Output`]
/// when the site cannot be written or moved into place.
pub fn run(config: &Config, progress: &dyn Progress) -> Result<RunSummary, ReportError> {
    let dirs = if config.shard.is_some() {
        shard::PARTIAL_DIRS
    } else {
        SITE_DIRS
    };
    let output = Output::start(&[&config.input], &config.out, dirs)?;
    // What WARC inputs give is spilled to anonymous files in the run's temporary folder.
    let mut found = discover_hosts(&config.input, &config.filter, output.tmp.path())?;
    if let Some(part) = config.shard {
        return shard::run_shard(config, part, &found, output, progress);
    }
    let ctx = run_context(config, &found)?;
    let wide = SiteWide {
        skipped: std::mem::take(&mut found.skipped),
        duplicates: std::mem::take(&mut found.duplicates),
        warc: found.warc.clone(),
    };
    progress.start(found.hosts.len());
    let mut site = Site::new(&output.w, &ctx, config)?;
    // The hosts' pages are written side by side, and their rows go to the sink in host order,
    // a chunk at a time, while the next hosts are processed.
    let every = (found.hosts.len(), |k| k);
    stream::process_hosts(&found.hosts, every, &ctx, &output.w, progress, |done| {
        site.add_chunk(done)
    })?;
    let mut summary = site.finish(&wide, &ctx, config)?;
    (summary.files, summary.bytes) = output.finish()?;
    Ok(summary)
}

/// Folders every site has.
const SITE_DIRS: &[&str] = &["hosts", "diagnostics", "assets"];

/// One host processed: its place in the run's host order (the order of
/// [`discover::Discovery::hosts`]), its row, and its page in the output (path relative to the
/// output's root, size in bytes) when it has one.
pub(crate) struct Done {
    pub(crate) place: usize,
    pub(crate) row: HostRow,
    pub(crate) page: Option<(String, u64)>,
}

/// What the files across hosts need of discovery besides the hosts: the same for every shard of
/// a run, so a partial carries it ([`shard`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SiteWide {
    /// Entries of the input not read.
    pub skipped: Vec<discover::Skipped>,
    /// Host names given by several inputs; only the first input of each is reported.
    pub duplicates: Vec<discover::Duplicate>,
    /// What the WARC inputs held, when there were any.
    #[serde(default)]
    pub warc: Option<crate::warc::Counts>,
}

/// Clears the signal handler's folder ([`CURRENT_TMP`]) when dropped, however a run ends.
struct Forget;

impl Drop for Forget {
    fn drop(&mut self) {
        set_current_temp(None);
    }
}

/// The folder a run writes: a temporary folder beside `out`, marked as this run's, moved into
/// place by [`Output::finish`]; dropped unfinished (an error), it is removed.
struct Output {
    /// Declared first, so dropped before the folder is removed.
    _forget: Forget,
    w: Writer,
    tmp: tempfile::TempDir,
    parent: PathBuf,
    out: PathBuf,
}

impl Output {
    /// Checks that `out` may be replaced and holds none of `inputs` ([`check_out`]), sweeps
    /// what interrupted runs left beside it, and starts the temporary folder with the folders
    /// `dirs` and the manifest.
    fn start(inputs: &[&Path], out: &Path, dirs: &[&str]) -> Result<Output, ReportError> {
        check_out(inputs, out)?;
        let (parent, tmp) = start_output(out)?;
        // Whatever happens next, the folder is no longer this run's to clean up once the run
        // returns (the TempDir removes it on error; a finished folder has been moved).
        let forget = Forget;
        for d in dirs {
            std::fs::create_dir(tmp.path().join(d))
                .map_err(|e| ReportError::Output(format!("{d}: {e}")))?;
        }
        let w = Writer {
            root: tmp.path().to_path_buf(),
            files: Default::default(),
            bytes: Default::default(),
            manifest: std::sync::Mutex::new(Manifest::create(tmp.path())?),
        };
        Ok(Output {
            _forget: forget,
            w,
            tmp,
            parent,
            out: out.to_path_buf(),
        })
    }

    /// Ends the manifest as the marker and moves the folder to `out`, replacing what was
    /// there. Returns the files and bytes written, the marker included.
    fn finish(self) -> Result<(usize, u64), ReportError> {
        let Output {
            _forget,
            w,
            tmp,
            parent,
            out,
        } = self;
        // The marker counts as a file of the site, as it did when written whole.
        let files = w.files.load(std::sync::atomic::Ordering::Relaxed) + 1;
        let bytes = w.bytes.load(std::sync::atomic::Ordering::Relaxed) + finish_marker(w)?;
        std::fs::remove_file(tmp.path().join(RUN_MARKER))
            .map_err(|e| ReportError::Output(format!("{}: {e}", tmp.path().display())))?;
        // A signal handler waits for the swap to finish (see `remove_current_temp`).
        let mut current = CURRENT_TMP.lock().unwrap_or_else(|e| e.into_inner());
        swap_into_place(tmp, &out, &parent)?;
        *current = None;
        Ok((files, bytes))
    }
}

/// The files across hosts, shared by a single run ([`run`]) and a merge ([`merge`]): the rows
/// go to the sink a chunk at a time, in host order, then [`Site::finish`] writes the index,
/// statistics, diagnostic pages and `summary.json` and moves the site into place.
struct Site<'w> {
    w: &'w Writer,
    sink: sink::Sink<'w>,
}

impl<'w> Site<'w> {
    fn new(w: &'w Writer, ctx: &Context, config: &Config) -> Result<Site<'w>, ReportError> {
        let crawler_tokens: Vec<String> = ctx.agents.iter().map(|a| a.token.clone()).collect();
        let sink = sink::Sink::new(
            w,
            crawler_tokens,
            config.reading,
            config.min_severity,
            config.url_list.is_some(),
        )?;
        Ok(Site { w, sink })
    }

    /// Takes the hosts of one chunk: the [`HOST_CHUNK`] places `c·HOST_CHUNK..` of the host
    /// order (fewer in the last chunk), in order. Their pages, already written, are listed in
    /// the manifest first, then their rows go to the sink; the manifest is thus the same
    /// whichever way the pages were made.
    fn add_chunk(&mut self, done: Vec<Done>) -> Result<(), ReportError> {
        for d in &done {
            if let Some((rel, bytes)) = &d.page {
                self.w.count(rel, *bytes);
            }
        }
        for d in done {
            self.sink.add(d.row)?;
        }
        Ok(())
    }

    /// Writes the files across hosts and decides whether `fail_on` is reached. The summary's
    /// files and bytes are left at 0 for [`Output::finish`], which moves the site into place.
    fn finish(
        mut self,
        wide: &SiteWide,
        ctx: &Context,
        config: &Config,
    ) -> Result<RunSummary, ReportError> {
        if let Some(list) = &ctx.url_list {
            self.sink.urls_not_in_report(list)?;
        }
        let finished = self.sink.finish()?;
        let urls = config.url_list.is_some().then_some(finished.urls);
        let (totals, unreadable) = write_site_files(self.w, finished, wide, ctx, config)?;
        // Inputs not reported because another gives the same host name are errors of the run.
        let dup_inputs: usize = wide.duplicates.iter().map(|d| d.inputs.len() - 1).sum();
        // So are damaged WARC records.
        let corrupt = wide.warc.as_ref().map_or(0, |w| w.corrupt);
        let errors = totals.error + totals.unread + dup_inputs + corrupt;
        let failed = config.fail_on.fails(errors, totals.warning, totals.info);
        Ok(RunSummary {
            totals,
            skipped: wide.skipped.len(),
            skipped_first: wide.skipped.iter().take(SKIPPED_SHOWN).cloned().collect(),
            files: 0,
            bytes: 0,
            failed,
            duplicates: wide.duplicates.clone(),
            warc: wide.warc.clone(),
            unreadable,
            urls,
            out: config.out.clone(),
            shard: None,
            reading: config.reading,
        })
    }
}

/// The hosts of the input directory (what WARC files give kept in temporary files in `tmp`);
/// an error when it holds none.
fn discover_hosts(
    input: &Path,
    filter: &crate::select::WalkFilter,
    tmp: &Path,
) -> Result<discover::Discovery, ReportError> {
    let found = discover::discover(input, filter, tmp)
        .map_err(|e| ReportError::Input(format!("{}: {e}", input.display())))?;
    if !found.hosts.is_empty() {
        return Ok(found);
    }
    let skipped = if found.skipped.is_empty() {
        String::new()
    } else {
        format!(
            " ({} skipped, e.g. {}: {})",
            count(found.skipped.len(), "entry", "entries"),
            found.skipped[0].path,
            found.skipped[0].reason
        )
    };
    Err(ReportError::Input(format!(
        "{} holds no hosts{skipped}: nothing named <host>.txt, <host>/robots.txt, \
         <digest>.txt or <host>.yaml, and no robots.txt capture in a .warc or .warc.gz file \
         (hidden entries are not read; --include reads other names); no site was written",
        input.display()
    )))
}

/// Creates the temporary folder the site is built in, beside `out`, marked as this run's (and
/// removes stale ones of earlier runs). Returns the folder that holds `out`, and the temporary
/// folder.
fn start_output(out: &Path) -> Result<(PathBuf, tempfile::TempDir), ReportError> {
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent)
        .map_err(|e| ReportError::Output(format!("{}: {e}", parent.display())))?;
    sweep_stale(&parent);
    let tmp = tempfile::Builder::new()
        .prefix(TMP_PREFIX)
        .tempdir_in(&parent)
        .map_err(|e| ReportError::Output(format!("{}: {e}", parent.display())))?;
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let host = machine_name()
        .map(|h| format!("host {h}\n"))
        .unwrap_or_default();
    std::fs::write(
        tmp.path().join(RUN_MARKER),
        format!("pid {}\nstarted {started}\n{host}", std::process::id()),
    )
    .map_err(|e| ReportError::Output(format!("{}: {e}", tmp.path().display())))?;
    set_current_temp(Some(tmp.path().to_path_buf()));
    Ok((parent, tmp))
}

/// What every page of the run shares: the crawlers and paths of the matrices, the reading, the
/// report's time and the link to the guide.
fn report_context(config: &Config) -> Context {
    let agents: Vec<Agent> = if config.agents.is_empty() {
        crate::crawlers::default_matrix()
            .iter()
            .map(|c| Agent::from_token(&c.token))
            .collect()
    } else {
        config.agents.iter().map(|t| Agent::from_token(t)).collect()
    };
    Context {
        agents,
        urls: config.urls.clone(),
        reading: config.reading,
        now: config.now,
        guide: config.guide.clone(),
        pages: config.pages,
        url_list: config.url_list.clone(),
        scripts: config.scripts,
        min_severity: config.min_severity,
    }
}

/// The context of a run over `found` ([`report_context`]), with the URLs of `--urls` given to
/// their hosts: each URL goes to the host of its origin, by the scheme its fetch record names.
/// Every host of the input takes part, also in a shard, so each shard assigns as a whole run
/// does.
///
/// # Errors
/// [`ReportError::Input`] when the list of hosts cannot be read back.
fn run_context(config: &Config, found: &discover::Discovery) -> Result<Context, ReportError> {
    let mut ctx = report_context(config);
    if let Some(list) = &config.url_list {
        let hosts: Vec<(String, Option<String>)> = (0..found.hosts.len())
            .map(|i| {
                Ok((
                    found.hosts.host(i)?,
                    found.hosts.scheme(i)?.map(str::to_string),
                ))
            })
            .collect::<std::io::Result<_>>()
            .map_err(hosts_error)?;
        let mut list = (**list).clone();
        list.settle(&hosts);
        ctx.url_list = Some(std::sync::Arc::new(list));
    }
    Ok(ctx)
}

/// The error of a run whose list of hosts cannot be read back.
fn hosts_error(e: std::io::Error) -> ReportError {
    ReportError::Input(format!("the list of hosts: {e}"))
}

/// What `hosts.jsonl` and `results.sarif` list at the lowest severity `min`, in words:
/// "errors", "errors and warnings" or "every diagnostic".
pub fn listed_severities(min: Severity) -> &'static str {
    match min {
        Severity::Error => "errors",
        Severity::Warning => "errors and warnings",
        Severity::Info => "every diagnostic",
    }
}

/// Hosts processed side by side before their rows go to the sink: enough to keep every core
/// busy, few enough that memory stays flat whatever the number of hosts. It also groups the
/// pages and rows in the manifest ([`Site::add_chunk`]), so a merge groups by it too.
const HOST_CHUNK: usize = 512;

/// Writes what spans the hosts (assets, the index pages, the statistics, the diagnostic pages,
/// `summary.json`); the marker that lists every file of the site is finished after it
/// ([`finish_marker`]). Returns the totals and the inputs that could not be read (the first [`sink::MAX_UNREADABLE_LISTED`]).
fn write_site_files(
    w: &Writer,
    mut finished: sink::Finished,
    wide: &SiteWide,
    ctx: &Context,
    config: &Config,
) -> Result<(Totals, Vec<(String, String)>), ReportError> {
    let now = sidecar::format_time(config.now);
    let crawler_tokens: Vec<String> = ctx.agents.iter().map(|a| a.token.clone()).collect();
    let totals = &finished.totals;
    let (index, rendered) = rayon::join(
        || {
            let pages = (finished.pages, finished.data_files);
            write_index(
                w,
                &mut finished.index,
                pages,
                totals,
                &finished.affected,
                wide,
                ctx,
            )
        },
        || other_pages(&finished.stats, totals, &finished.affected, ctx, config),
    );
    index?;
    // Written after the index, in a fixed order, so the manifest lists them alike every run.
    for (rel, bytes) in rendered? {
        w.write(&rel, &bytes)?;
    }
    let totals = finished.totals.clone();
    w.write_with("summary.json", &mut |out| {
        summary::write_summary_json(
            out,
            &totals,
            &wide.skipped,
            &crawler_tokens,
            config.reading,
            config.min_severity,
            &now,
            finished.sarif,
            config.url_list.is_some().then_some(finished.urls),
            wide.warc.as_ref(),
        )
    })?;
    Ok((totals, std::mem::take(&mut finished.unreadable)))
}

/// Writes the assets and the `pages_total` pages of the index, whose rows `index` gives in
/// order, and whose data is split into `data_files` files.
fn write_index(
    w: &Writer,
    index: &mut sink::IndexRows,
    (pages_total, data_files): (usize, usize),
    totals: &Totals,
    affected: &BTreeMap<String, sink::Affected>,
    wide: &SiteWide,
    ctx: &Context,
) -> Result<(), ReportError> {
    w.write("assets/site.css", SITE_CSS.as_bytes())?;
    w.write("assets/report.js", REPORT_JS.as_bytes())?;
    w.write(
        "assets/tester.js",
        crate::html::tester::tester_script().as_bytes(),
    )?;
    w.write(
        "assets/engine.js",
        crate::html::tester::engine_script().as_bytes(),
    )?;
    let head = index_head(totals, affected, wide);
    for number in 1..=pages_total {
        let rows = index.next_page()?;
        let rel = if number == 1 {
            "index.html".to_string()
        } else {
            format!("index/{number}.html")
        };
        if number == 2 {
            std::fs::create_dir_all(w.root.join("index"))
                .map_err(|e| ReportError::Output(format!("index: {e}")))?;
        }
        let html = index_page(&head, &rows, number, pages_total, data_files, ctx);
        w.write(&rel, html.as_bytes())?;
    }
    Ok(())
}

/// The site's other pages across hosts, as (path in the site, bytes), in the order they are
/// written: `statistics.json`, the fetch, reading and statistics pages, then the pages of the
/// diagnostics.
fn other_pages(
    stats: &stats::Stats,
    totals: &Totals,
    affected: &BTreeMap<String, sink::Affected>,
    ctx: &Context,
    config: &Config,
) -> Result<Vec<(String, Vec<u8>)>, ReportError> {
    let mut out = Vec::new();
    let stats_json = stats.json(totals, affected, config.reading);
    let mut json = serde_json::to_vec_pretty(&stats_json)
        .map_err(|e| ReportError::Output(format!("statistics.json: {e}")))?;
    json.push(b'\n');
    out.push(("statistics.json".to_string(), json));
    let fetch = pages::FetchPage {
        layout: pages::Layout::new("", ctx, "Fetch results · robots.txt audit"),
        rows: pages::semantics_rows(None),
    };
    out.push(("fetch.html".to_string(), pages::render(&fetch).into_bytes()));
    let reading = pages::ReadingPage {
        layout: pages::Layout::new("", ctx, "How to read a host page · robots.txt audit"),
        crawlers: ctx
            .agents
            .iter()
            .map(|a| pages::MatrixCrawler {
                token: Html::text(&a.token),
                purpose: Html::text(&a.purpose),
                profile: Html::text(&a.profile_note),
            })
            .collect(),
    };
    out.push((
        "reading.html".to_string(),
        pages::render(&reading).into_bytes(),
    ));
    let page = pages::StatisticsPage {
        layout: pages::Layout::new("", ctx, "Statistics · robots.txt audit"),
        hosts: thousands(totals.hosts),
        sections: stats.sections(totals, affected),
    };
    out.push((
        "statistics.html".to_string(),
        pages::render(&page).into_bytes(),
    ));
    for (name, html) in diagnostic_pages(affected, ctx, config) {
        out.push((format!("diagnostics/{name}.html"), html.into_bytes()));
    }
    Ok(out)
}

/// What the first page of the index shows above the table.
struct IndexHead {
    cards: Vec<pages::Card>,
    outcomes: Vec<pages::Card>,
    top: Vec<(Html, usize, &'static str)>,
    skipped: Vec<(Html, Html)>,
    agent_totals: Vec<String>,
}

fn index_head(
    totals: &Totals,
    affected: &BTreeMap<String, sink::Affected>,
    found: &SiteWide,
) -> IndexHead {
    // Card labels agree in number with their values.
    let n = |value: usize, one: &'static str, many: &'static str| pages::Card {
        value: thousands(value),
        label: noun(value, one, many),
    };
    let mut cards = vec![
        n(totals.hosts, "host", "hosts"),
        n(totals.unread, "file not readable", "files not readable"),
        n(totals.error, "error", "errors"),
        n(totals.warning, "warning", "warnings"),
        n(totals.info, "info", "info"),
        n(
            totals.blocks_everything,
            "host where * is blocked from / (a crawler no group names may not fetch /)",
            "hosts where * is blocked from / (a crawler no group names may not fetch /)",
        ),
    ];
    if let Some(w) = &found.warc {
        cards.push(n(
            w.captures as usize,
            "robots.txt capture in WARC files",
            "robots.txt captures in WARC files",
        ));
        cards.push(n(
            w.skipped_records as usize,
            "WARC record that is not a robots.txt capture (skipped)",
            "WARC records that are not robots.txt captures (skipped)",
        ));
        if w.corrupt > 0 {
            cards.push(n(
                w.corrupt,
                "damaged WARC record (see skipped entries)",
                "damaged WARC records (see skipped entries)",
            ));
        }
    }
    if !found.duplicates.is_empty() {
        // Inputs left out because another input gives the same host (listed under "skipped").
        cards.push(n(
            found.duplicates.len(),
            "host name given by several files (only the first is reported; see skipped entries)",
            "host names given by several files (only the first of each is reported; see skipped \
             entries)",
        ));
    }
    let outcomes = crate::fetch::Outcome::ALL
        .iter()
        .map(|o| pages::Card {
            value: thousands(totals.outcomes.get(o.as_str()).copied().unwrap_or(0)),
            label: o.label(),
        })
        .collect();
    let mut top: Vec<(&str, usize, Severity)> = affected
        .iter()
        .map(|(n, a)| (n.as_str(), a.hosts, a.severity.unwrap_or(Severity::Info)))
        .collect();
    // Errors first, then warnings, then infos; the most frequent first within a severity.
    top.sort_by(|a, b| b.2.cmp(&a.2).then(b.1.cmp(&a.1)).then(a.0.cmp(b.0)));
    top.truncate(10);
    IndexHead {
        cards,
        outcomes,
        top: top
            .into_iter()
            .map(|(n, c, s)| (Html::text(n), c, s.as_str()))
            .collect(),
        skipped: found
            .skipped
            .iter()
            .map(|s| (Html::text(&s.path), Html::text(&s.reason)))
            .collect(),
        agent_totals: totals.root_allowed.iter().map(|n| thousands(*n)).collect(),
    }
}

/// Page `number` (1-based) of `pages` of the index, holding `entries`.
fn index_page(
    head: &IndexHead,
    entries: &[sink::IndexEntry],
    number: usize,
    pages_total: usize,
    data_files: usize,
    ctx: &Context,
) -> String {
    let root = if number == 1 { "" } else { "../" };
    let rows = entries
        .iter()
        .map(|e| {
            let access = e
                .access
                .chars()
                .map(|c| {
                    pages::Mini::of(match c {
                        'y' => Some(true),
                        'n' => Some(false),
                        _ => None,
                    })
                })
                .collect();
            let outcome_label = sink::outcome_label(&e.outcome);
            pages::IndexRow {
                host: Html::text(&e.host),
                href: e
                    .stem
                    .as_ref()
                    .map(|stem| Html::text(&format!("{root}hosts/{stem}.html"))),
                path: e.path.as_ref().map(|p| Html::text(p)),
                error: e.error.as_ref().map(|x| Html::text(x)),
                unread: e.unread,
                outcome: Html::text(&e.outcome),
                outcome_label,
                bytes: e.bytes.map(|b| thousands(b as usize)).unwrap_or_default(),
                groups: e.numbers[0],
                rules: e.numbers[1],
                sitemaps: e.numbers[2],
                errors: e.numbers[3],
                warnings: e.numbers[4],
                infos: e.numbers[5],
                blocks: e.blocks,
                problem: sink::RANK_LABELS[usize::from(e.rank).min(sink::RANKS - 1)],
                urls_given: if e.urls[0] > 0 {
                    thousands(e.urls[0])
                } else {
                    String::new()
                },
                urls_blocked: if e.urls[1] > 0 {
                    thousands(e.urls[1])
                } else {
                    String::new()
                },
                access,
            }
        })
        .collect();
    let href = |n: usize| {
        if n == 1 {
            format!("{root}index.html")
        } else {
            format!("{root}index/{n}.html")
        }
    };
    // Links to the first, last and nearby pages.
    let mut pager: Vec<pages::PageLink> = Vec::new();
    let mut last = 0;
    for n in 1..=pages_total {
        let near = n == 1 || n == pages_total || n.abs_diff(number) <= 2;
        if !near {
            continue;
        }
        if n > last + 1 {
            pager.push(pages::PageLink {
                number: None,
                href: Html::text(""),
                current: false,
            });
        }
        pager.push(pages::PageLink {
            number: Some(n),
            href: Html::text(&href(n)),
            current: n == number,
        });
        last = n;
    }
    let first_row = (number - 1) * sink::PAGE_ROWS + 1;
    let mut layout = pages::Layout::new(
        root,
        ctx,
        &if number == 1 {
            "robots.txt audit".to_string()
        } else {
            format!("Hosts, page {number} · robots.txt audit")
        },
    );
    layout.script = true;
    // The totals and lists above the table are on the first page only.
    fn on_first<T: Clone>(number: usize, v: &[T]) -> Vec<T> {
        if number == 1 { v.to_vec() } else { Vec::new() }
    }
    let page = pages::IndexPage {
        layout,
        first: number == 1,
        cards: on_first(number, &head.cards),
        outcomes: on_first(number, &head.outcomes),
        agents: ctx.agents.iter().map(|a| Html::text(&a.token)).collect(),
        agent_totals: head.agent_totals.clone(),
        rows,
        top: on_first(number, &head.top),
        skipped: on_first(number, &head.skipped),
        reading_label: ctx.reading.label(),
        number,
        pages: pages_total,
        first_row: thousands(first_row),
        last_row: thousands(first_row + entries.len().saturating_sub(1)),
        hosts: head
            .cards
            .first()
            .map(|c| c.value.clone())
            .unwrap_or_default(),
        prev: (number > 1).then(|| Html::text(&href(number - 1))),
        next: (number < pages_total).then(|| Html::text(&href(number + 1))),
        pager,
        data_files,
        rank_labels: sink::RANK_LABELS.iter().map(|l| Html::text(l)).collect(),
        has_urls: ctx.url_list.is_some(),
        listed: listed_severities(ctx.min_severity),
        outcome_names: sink::outcomes(),
    };
    pages::render(&page)
}

/// Renders the diagnostics index and one page per diagnostic name (the catalogue's, plus any
/// name found that the catalogue lacks). Returns (file stem, HTML) pairs.
fn diagnostic_pages(
    affected: &BTreeMap<String, sink::Affected>,
    ctx: &Context,
    config: &Config,
) -> Vec<(String, String)> {
    let mut names: Vec<String> = analysis::catalogue()
        .iter()
        .map(|e| e.name.to_string())
        .collect();
    for n in affected.keys() {
        if !names.iter().any(|x| x == n) {
            names.push(n.to_string());
        }
    }
    let none = sink::Affected::default();
    // Side by side: each page analyses its example.
    let (entries, mut out): (Vec<pages::DiagEntry>, Vec<(String, String)>) = names
        .par_iter()
        .map(|name| {
            let a = affected.get(name.as_str()).unwrap_or(&none);
            diagnostic_page(name, a, ctx, config)
        })
        .unzip();
    let index = pages::DiagnosticsIndex {
        layout: pages::Layout::new("../", ctx, "Diagnostics"),
        entries,
    };
    out.push(("index".to_string(), pages::render(&index)));
    out
}

/// The page of diagnostic `name`, found as `a` says, as its entry in the diagnostics index and
/// (file stem, HTML).
fn diagnostic_page(
    name: &str,
    a: &sink::Affected,
    ctx: &Context,
    config: &Config,
) -> (pages::DiagEntry, (String, String)) {
    let entry = analysis::entry(name);
    let hosts: Vec<pages::Affected> = a
        .first
        .iter()
        .map(|(host, page, lines, count)| {
            let page = page.as_ref().map(|p| format!("../{p}"));
            pages::Affected {
                host: Html::text(host),
                href: page.as_ref().map(|p| Html::text(p)),
                lines: lines
                    .iter()
                    .map(|l| (*l, page.as_ref().map(|p| Html::text(&format!("{p}#L{l}")))))
                    .collect(),
                count: *count,
            }
        })
        .collect();
    let example = entry.filter(|e| !e.example.is_empty()).map(|e| {
        let robots = crate::RobotsTxt::parse(e.example.as_bytes());
        let an = analysis::analyze(&robots);
        let opts = html::ListingOptions {
            id_prefix: "ex".into(),
            diagnostic_href: Some("{name}.html".into()),
            reading: ctx.reading,
            caption: Some(format!("An example that triggers {name}")),
            ..html::ListingOptions::default()
        };
        Html(html::listing(&robots, &an, &opts))
    });
    let catalogued = entry.map(|e| e.severity);
    let severity = catalogued.or(a.severity).unwrap_or(Severity::Info).as_str();
    // Whether the occurrences found are of the minimum severity or higher.
    let in_jsonl = a.severity.or(catalogued).unwrap_or(Severity::Info) >= config.min_severity;
    let summary_text = entry.map_or("Not documented in the catalogue of this version.", |e| {
        e.summary
    });
    let guide = config
        .diagnostic_guide_links
        .get(name)
        .map(|v| {
            v.iter()
                .map(|(t, h)| (Html::text(t), Html::text(&format!("../{h}"))))
                .collect()
        })
        .unwrap_or_default();
    let page = pages::DiagnosticPage {
        layout: pages::Layout::new("../", ctx, &format!("{name} · diagnostics")),
        name: Html::text(name),
        severity,
        summary: Html::text(summary_text),
        what: entry.map(|e| pages::markdown(e.what)).unwrap_or_default(),
        why: entry.map(|e| pages::markdown(e.why)).unwrap_or_default(),
        example,
        fix: entry.map(|e| pages::markdown(e.fix)).unwrap_or_default(),
        references: entry
            .map(|e| {
                e.references
                    .iter()
                    .map(|(l, u)| (Html::text(l), Html::text(u)))
                    .collect()
            })
            .unwrap_or_default(),
        guide,
        occurrences: a.occurrences,
        documented: entry.is_some(),
        hosts,
        hosts_total: a.hosts,
        in_jsonl,
    };
    (
        pages::DiagEntry {
            name: Html::text(name),
            href: Html::text(&format!("{}.html", html::url_component(name))),
            severity,
            summary: Html::text(summary_text),
            hosts: a.hosts,
            occurrences: a.occurrences,
        },
        (names::slug(name), pages::render(&page)),
    )
}

/// The report's default time: `SOURCE_DATE_EPOCH` (Unix seconds) when set and valid, else the
/// current time.
///
/// # Errors
/// A message when `SOURCE_DATE_EPOCH` is set but is not an integer in range.
pub fn default_now() -> Result<OffsetDateTime, String> {
    match std::env::var("SOURCE_DATE_EPOCH") {
        Ok(s) if !s.trim().is_empty() => s
            .trim()
            .parse::<i64>()
            .ok()
            .and_then(|n| OffsetDateTime::from_unix_timestamp(n).ok())
            .ok_or_else(|| format!("SOURCE_DATE_EPOCH=`{s}` is not a Unix time in seconds")),
        _ => Ok(OffsetDateTime::now_utc()),
    }
}
