//! One report over several machines: `report DIR --shard K/N` writes a *partial* (the pages
//! and rows of one share of the hosts), and `report merge PART... --out SITE` combines the N
//! partials into the site that one `report DIR` run would have written, byte for byte.
//!
//! # Which hosts a shard takes
//!
//! Every shard discovers the whole input ([`super::discover`]), so page names, duplicate host
//! names, skipped entries and the URLs of `--urls` come out as in a single run; only then are
//! the hosts shared out. Host `h` (its name as discovery gives it: lower-cased, with `:port`
//! when the port is not the scheme's default) is in shard
//!
//! ```text
//! fnv1a64(ascii_lowercase(h)) mod N + 1
//! ```
//!
//! where `fnv1a64` is 64-bit FNV-1a ([`super::names::fnv1a`]: offset basis
//! `0xcbf29ce484222325`, prime `0x100000001b3`) over the name's UTF-8 bytes. It depends on the
//! name alone, so it is the same on every machine, platform and run (Rust's default hasher is
//! seeded at random per process and would not be). The hash is taken after discovery, on the
//! host key, so it works for any source of hosts.
//!
//! # The partial
//!
//! A folder (not a site: it has no index and cannot be browsed):
//!
//! - `NOT-A-SITE.txt`: says what the folder is and how to merge it;
//! - `partial.json`: the manifest ([`PartialManifest`], format [`PARTIAL_FORMAT`]): which shard
//!   of how many, the hash, the tool's version, the run's options and `--now`, a digest of what
//!   discovery found (so partials of different inputs are told apart), the number of rows, and
//!   what the files across hosts need of discovery ([`SiteWide`]: skipped entries, duplicate
//!   host names);
//! - `rows.jsonl`: one line per host of the shard, in the run's host order:
//!   `{"i": <place in the host order>, "page": ["hosts/<stem>.html", <bytes>] | null,
//!   "row": <the host's line of hosts.jsonl>}`;
//! - `hosts/<stem>.html`: the shard's host pages, exactly as a single run writes them;
//! - `urls-rest.jsonl` (shard 1, with `--urls`): the URLs no host takes and the lines that are no
//!   URL, one JSON object per line (`{"unassigned": {...}}` or `{"invalid": {...}}`);
//! - `.robots-explorer-site`: the marker of folders this tool writes, so that a later run may
//!   replace the folder as it replaces a site.
//!
//! # Merging
//!
//! [`merge`] reads the manifests and refuses partials that do not belong together (different
//! N, a shard missing or given twice, other options or `--now`, another input, another
//! version of the tool). It then reads the N `rows.jsonl` files side by side, taking the row
//! with the lowest place each time (each file is already in host order: a k-way merge, one row
//! per partial in memory), places each host's page in the site (a hard link, else a copy: the
//! partials are left as they were, so a failed merge can be run again) and gives the rows to
//! the same code that finishes a single run's site ([`super::run`]) a chunk at a time. A row
//! that does not parse, a page that is missing or of another size than recorded, a host in the
//! wrong shard or out of order is an error naming the file.

use super::discover::Discovery;
use super::summary::{HostRow, Totals};
use super::{
    Config, Done, HOST_CHUNK, Output, Pages, Progress, ReportError, RunSummary, SITE_DIRS, Site,
    SiteWide, Writer, names, urls,
};
use crate::output::FailOn;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{BufRead as _, Write as _};
use std::path::{Path, PathBuf};

/// Format id of `partial.json`; a merge reads only partials of this format.
pub const PARTIAL_FORMAT: &str = "robots-explorer/report-partial/1";
/// The manifest of a partial.
pub const MANIFEST: &str = "partial.json";
/// The rows of a partial.
pub const ROWS: &str = "rows.jsonl";
/// What belongs to no host of the `--urls` list (shard 1 only).
pub const URLS_REST: &str = "urls-rest.jsonl";
/// The notice that a partial is not a site.
pub const NOTICE: &str = "NOT-A-SITE.txt";
/// How a host's shard is computed, as the manifest states it.
pub const HASH: &str = "fnv1a-64 of the lower-cased host name, modulo n, plus 1";
/// Largest `partial.json` read, in bytes (it lists the skipped entries of the input).
const MAX_MANIFEST_BYTES: u64 = 256 * 1024 * 1024;

/// A share of a run's hosts: shard `k` of `n`, 1 ≤ `k` ≤ `n` (written `K/N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// Which shard, from 1.
    pub k: u32,
    /// How many shards the run has.
    pub n: u32,
}

impl Shard {
    /// Shard `k` of `n`.
    ///
    /// # Errors
    /// A message unless 1 ≤ `k` ≤ `n`.
    pub fn new(k: u32, n: u32) -> Result<Shard, String> {
        if n == 0 || k == 0 || k > n {
            return Err(format!(
                "shard {k}/{n}: K/N needs 1 ≤ K ≤ N (shards are numbered from 1)"
            ));
        }
        Ok(Shard { k, n })
    }

    /// Whether the host named `host` (as discovery names it) is in this shard.
    pub fn takes(self, host: &str) -> bool {
        shard_of(host, self.n) == self.k
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    /// Reads `K/N`, e.g. `2/8`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let parse = |t: &str| t.trim().parse::<u32>().ok();
        match s.split_once('/').map(|(k, n)| (parse(k), parse(n))) {
            Some((Some(k), Some(n))) => Shard::new(k, n),
            _ => Err(format!(
                "`{s}` is not a shard: write K/N, e.g. 2/8 for the second of eight"
            )),
        }
    }
}

/// The shard (1 to `n`) of the host named `host`: 64-bit FNV-1a of its ASCII-lower-cased name,
/// modulo `n`, plus one (see the module documentation). `n` must not be 0.
pub fn shard_of(host: &str, n: u32) -> u32 {
    let h = names::fnv1a(host.to_ascii_lowercase().as_bytes());
    // The remainder is below `n`, so it fits.
    (h % u64::from(n.max(1))) as u32 + 1
}

/// `partial.json`: what a partial is and what it must share with the other partials of its
/// run (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartialManifest {
    /// [`PARTIAL_FORMAT`].
    pub format: String,
    /// A sentence saying the folder is not a site.
    pub note: String,
    /// The tool that wrote it.
    pub tool: Tool,
    /// Which shard it holds.
    pub shard: ShardEntry,
    /// The run's options: the same in every partial of a run.
    pub options: Options,
    /// What discovery found, in short: the same in every partial of a run.
    pub discovery: DiscoveryDigest,
    /// Rows (hosts) in this partial's `rows.jsonl`.
    pub rows: usize,
    /// What the files across hosts need of discovery: the same in every partial of a run.
    pub site: SiteWide,
}

/// The tool that wrote a partial.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tool {
    /// `robots-explorer`.
    pub name: String,
    /// Its version; a merge takes partials of its own version only.
    pub version: String,
}

/// The shard of a partial, and how hosts are shared out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardEntry {
    /// Which shard, from 1.
    pub k: u32,
    /// Shards in the run.
    pub n: u32,
    /// [`HASH`].
    pub hash: String,
}

/// The options of a run that shape its output, as written in `partial.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// The report's time, RFC 3339 in UTC.
    pub now: String,
    /// `google` or `rfc`.
    pub reading: String,
    /// `--agents` as given (empty: the default crawlers).
    pub agents: Vec<String>,
    /// The paths of `--url`, as request targets.
    pub paths: Vec<String>,
    /// `--pages`: `all`, `problems` or `none`.
    pub pages: String,
    /// `--fail-on`, applied by the merge: `error`, `warning`, `info` or `never`.
    pub fail_on: String,
    /// The lowest severity `hosts.jsonl` and `results.sarif` list.
    pub min_severity: crate::analysis::Severity,
    /// Link to the guide, if any.
    pub guide: Option<String>,
    /// Guide chapters per diagnostic.
    pub diagnostic_guide_links: BTreeMap<String, Vec<(String, String)>>,
    /// The `--urls` list, when given.
    pub urls: Option<UrlsDigest>,
}

/// The `--urls` list of a run, in short.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UrlsDigest {
    /// FNV-1a 64 of the file's bytes, 16 hex digits.
    pub digest: String,
    /// Valid URLs it holds.
    pub total: usize,
}

/// What discovery found, in short.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiscoveryDigest {
    /// Hosts of the whole input.
    pub hosts: usize,
    /// FNV-1a 64 over every host's name and page stem, in host order, 16 hex digits.
    pub digest: String,
}

/// The name clap gives a value of `--pages` or `--fail-on`.
fn value_name<T: clap::ValueEnum>(v: &T) -> String {
    v.to_possible_value()
        .map(|p| p.get_name().to_string())
        .unwrap_or_default()
}

impl Options {
    /// The options of `config`.
    pub fn of(config: &Config) -> Options {
        Options {
            now: super::sidecar::format_time(config.now),
            reading: config.reading.as_str().to_string(),
            agents: config.agents.clone(),
            paths: config.urls.clone(),
            pages: value_name(&config.pages),
            fail_on: value_name(&config.fail_on),
            min_severity: config.min_severity,
            guide: config.guide.clone(),
            diagnostic_guide_links: config.diagnostic_guide_links.clone(),
            urls: config.url_list.as_ref().map(|l| UrlsDigest {
                digest: format!("{:016x}", l.digest),
                total: l.total,
            }),
        }
    }

    /// A configuration with these options, reading `input` and writing `out` (without the URL
    /// list, which a merge takes from shard 1's partial).
    ///
    /// # Errors
    /// A message naming an option that does not read back.
    pub fn config(&self, input: &Path, out: &Path) -> Result<Config, String> {
        use clap::ValueEnum as _;
        let now = super::sidecar::parse_time(&self.now).map_err(|e| format!("now: {e}"))?;
        let mut c = Config::new(input, out, now);
        c.reading = self.reading.parse()?;
        c.agents = self.agents.clone();
        c.urls = self.paths.clone();
        c.pages = Pages::from_str(&self.pages, false).map_err(|e| format!("pages: {e}"))?;
        c.fail_on = FailOn::from_str(&self.fail_on, false).map_err(|e| format!("fail_on: {e}"))?;
        c.min_severity = self.min_severity;
        c.guide = self.guide.clone();
        c.diagnostic_guide_links = self.diagnostic_guide_links.clone();
        Ok(c)
    }
}

/// The digest of what discovery found ([`DiscoveryDigest`]).
///
/// # Errors
/// When the list of hosts cannot be read back.
fn discovery_digest(found: &Discovery) -> std::io::Result<DiscoveryDigest> {
    let mut h = names::FNV1A_BASIS;
    for i in 0..found.hosts.len() {
        h = names::fnv1a_more(h, found.hosts.host(i)?.as_bytes());
        h = names::fnv1a_more(h, b"\0");
        h = names::fnv1a_more(h, found.hosts.page_stem(i)?.as_bytes());
        h = names::fnv1a_more(h, b"\n");
    }
    Ok(DiscoveryDigest {
        hosts: found.hosts.len(),
        digest: format!("{h:016x}"),
    })
}

/// A line of `rows.jsonl`, as written.
#[derive(Serialize)]
struct RowOut<'a> {
    i: usize,
    page: Option<&'a (String, u64)>,
    row: &'a HostRow,
}

/// A line of `rows.jsonl`, as read back.
#[derive(Deserialize)]
struct RowIn {
    i: usize,
    page: Option<(String, u64)>,
    row: HostRow,
}

/// A line of `urls-rest.jsonl`.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum RestLine {
    /// A URL no host of the report takes.
    Unassigned {
        /// Its authority (`host[:port]`).
        authority: String,
        /// The URL.
        url: urls::UrlEntry,
        /// Why no host takes it.
        why: String,
    },
    /// A line that is no URL.
    Invalid {
        /// The line.
        line: String,
        /// Why it is no URL.
        why: String,
    },
}

/// What `NOT-A-SITE.txt` says.
fn notice(shard: Shard) -> String {
    format!(
        "This folder is not a site. It is a partial report: shard {shard} of one report run\n\
         (robots-explorer report DIR --shard K/N), holding the host pages and rows of the hosts\n\
         of this shard only. Combine the {n} partials of the run into the site with\n\n    \
         robots-explorer report merge PART1 PART2 ... --out SITE\n\n\
         partial.json says which run and shard this is; rows.jsonl holds one host per line.\n",
        n = shard.n
    )
}

/// Folders a partial has.
pub(super) const PARTIAL_DIRS: &[&str] = &["hosts"];

/// Runs shard `part` of the run `config` over the hosts `found` into `output` (started with
/// [`PARTIAL_DIRS`]): writes the partial to `config.out` (replacing an earlier partial or site
/// there, as a run replaces a site).
pub(super) fn run_shard(
    config: &Config,
    part: Shard,
    found: &Discovery,
    output: Output,
    progress: &dyn Progress,
) -> Result<RunSummary, ReportError> {
    let ctx = super::run_context(config, found)?;
    let mut places: Vec<usize> = Vec::new();
    for i in 0..found.hosts.len() {
        if part.takes(&found.hosts.host(i).map_err(super::hosts_error)?) {
            places.push(i);
        }
    }
    progress.start(places.len());
    let w = &output.w;
    let path = w.root.join(ROWS);
    let fail = |e: std::io::Error| ReportError::Output(format!("{}: {e}", path.display()));
    let mut rows =
        std::io::BufWriter::with_capacity(1 << 16, std::fs::File::create(&path).map_err(fail)?);
    let mut totals = Totals::default();
    let taken = (places.len(), |k| places[k]);
    super::stream::process_hosts(&found.hosts, taken, &ctx, w, progress, |chunk| {
        for d in chunk {
            if let Some((rel, bytes)) = &d.page {
                w.count(rel, *bytes);
            }
            let line = RowOut {
                i: d.place,
                page: d.page.as_ref(),
                row: &d.row,
            };
            serde_json::to_writer(&mut rows, &line)
                .map_err(|e| ReportError::Output(format!("{}: {e}", path.display())))?;
            rows.write_all(b"\n").map_err(fail)?;
            totals.add(&d.row);
        }
        Ok(())
    })?;
    let file = rows.into_inner().map_err(|e| fail(e.into_error()))?;
    w.count(ROWS, file.metadata().map_or(0, |m| m.len()));
    drop(file);
    if part.k == 1
        && let Some(list) = &ctx.url_list
    {
        write_rest(w, list)?;
    }
    let manifest = PartialManifest {
        format: PARTIAL_FORMAT.to_string(),
        note: format!(
            "Not a site: shard {part} of a report run. `robots-explorer report merge` combines \
             the {} partials of the run into one site.",
            part.n
        ),
        tool: Tool {
            name: env!("CARGO_PKG_NAME").to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
        },
        shard: ShardEntry {
            k: part.k,
            n: part.n,
            hash: HASH.to_string(),
        },
        options: Options::of(config),
        discovery: discovery_digest(found).map_err(super::hosts_error)?,
        rows: places.len(),
        site: SiteWide {
            skipped: found.skipped.clone(),
            duplicates: found.duplicates.clone(),
            warc: found.warc.clone(),
        },
    };
    let mut json = serde_json::to_vec_pretty(&manifest)
        .map_err(|e| ReportError::Output(format!("{MANIFEST}: {e}")))?;
    json.push(b'\n');
    w.write(MANIFEST, &json)?;
    w.write(NOTICE, notice(part).as_bytes())?;
    let (files, bytes) = output.finish()?;
    Ok(RunSummary {
        totals,
        skipped: found.skipped.len(),
        skipped_first: found
            .skipped
            .iter()
            .take(super::SKIPPED_SHOWN)
            .cloned()
            .collect(),
        files,
        bytes,
        failed: false,
        duplicates: Vec::new(),
        warc: None,
        unreadable: Vec::new(),
        urls: None,
        out: config.out.clone(),
        shard: Some((part, found.hosts.len())),
        reading: config.reading,
    })
}

/// Writes [`URLS_REST`]: what of `list` belongs to no host.
fn write_rest(w: &Writer, list: &urls::UrlList) -> Result<(), ReportError> {
    w.write_with(URLS_REST, &mut |out| {
        let unassigned = list.unassigned().map(|(a, u, why)| RestLine::Unassigned {
            authority: a.to_string(),
            url: u.to_entry(),
            why: why.to_string(),
        });
        let invalid = list.invalid().map(|(line, why)| RestLine::Invalid {
            line: line.to_string(),
            why: why.into_owned(),
        });
        for line in unassigned.chain(invalid) {
            serde_json::to_writer(&mut *out, &line)?;
            out.write_all(b"\n")?;
        }
        Ok(())
    })
}

/// A partial being merged.
struct Part {
    dir: PathBuf,
    manifest: PartialManifest,
}

/// An error in a partial (`ReportError::Input`), naming `path`.
fn damaged(path: &Path, what: impl std::fmt::Display) -> ReportError {
    ReportError::Input(format!("{}: {what}", path.display()))
}

/// Reads the manifest of the partial `dir`.
fn open_part(dir: &Path) -> Result<Part, ReportError> {
    use std::io::Read as _;
    let path = dir.join(MANIFEST);
    let mut text = Vec::new();
    match std::fs::File::open(&path) {
        Ok(f) => {
            f.take(MAX_MANIFEST_BYTES + 1)
                .read_to_end(&mut text)
                .map_err(|e| damaged(&path, e))?;
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let what = if dir.join("index.html").is_file() {
                "is a site, not a partial"
            } else {
                "is not a partial (it has no partial.json)"
            };
            return Err(ReportError::Input(format!(
                "{} {what}; report merge takes the folders written by `report DIR --shard K/N`",
                dir.display()
            )));
        }
        Err(e) => return Err(damaged(&path, e)),
    }
    if text.len() as u64 > MAX_MANIFEST_BYTES {
        return Err(damaged(&path, "larger than a manifest can be"));
    }
    let value: serde_json::Value = serde_json::from_slice(&text)
        .map_err(|e| damaged(&path, format!("not JSON ({e}); the partial is damaged")))?;
    let format = value.get("format").and_then(|f| f.as_str()).unwrap_or("");
    if format != PARTIAL_FORMAT {
        return Err(damaged(
            &path,
            format!("format `{format}`; this version reads partials of format `{PARTIAL_FORMAT}`"),
        ));
    }
    let manifest: PartialManifest = serde_json::from_value(value)
        .map_err(|e| damaged(&path, format!("{e}; the partial is damaged")))?;
    let version = env!("CARGO_PKG_VERSION");
    if manifest.tool.version != version {
        return Err(damaged(
            &path,
            format!(
                "written by robots-explorer {}; this is {version}: merge with the version that \
                 wrote the partials",
                manifest.tool.version
            ),
        ));
    }
    if Shard::new(manifest.shard.k, manifest.shard.n).is_err() {
        return Err(damaged(
            &path,
            format!(
                "shard {}/{} is not a shard; the partial is damaged",
                manifest.shard.k, manifest.shard.n
            ),
        ));
    }
    Ok(Part {
        dir: dir.to_path_buf(),
        manifest,
    })
}

/// The first option in which `a` and `b` differ, with both values.
fn option_difference(a: &Options, b: &Options) -> Option<String> {
    let (Ok(serde_json::Value::Object(a)), Ok(serde_json::Value::Object(b))) =
        (serde_json::to_value(a), serde_json::to_value(b))
    else {
        return None;
    };
    a.iter().find(|(k, v)| b.get(*k) != Some(*v)).map(|(k, v)| {
        let other = b.get(k).cloned().unwrap_or(serde_json::Value::Null);
        format!("{k}: {v} against {other}")
    })
}

/// Checks that `parts` are the N partials of one run: the same N, every shard once, the same
/// options, input and version. Returns them in shard order.
fn check_together(mut parts: Vec<Part>) -> Result<Vec<Part>, ReportError> {
    let refuse = |msg: String| Err(ReportError::Input(format!("partials refused: {msg}")));
    parts.sort_by_key(|p| p.manifest.shard.k);
    let first = &parts[0];
    let n = first.manifest.shard.n;
    for p in &parts[1..] {
        let (a, b) = (&first.manifest, &p.manifest);
        if b.shard.n != n {
            return refuse(format!(
                "{} is shard {}/{} but {} is shard {}/{}: they are not of one run",
                first.dir.display(),
                a.shard.k,
                a.shard.n,
                p.dir.display(),
                b.shard.k,
                b.shard.n
            ));
        }
        if b.shard.hash != a.shard.hash {
            return refuse(format!(
                "{} and {} share hosts out differently",
                first.dir.display(),
                p.dir.display()
            ));
        }
        if let Some(diff) = option_difference(&a.options, &b.options) {
            return refuse(format!(
                "{} and {} were run with different options ({diff}); every shard of a run \
                 needs the same options and --now",
                first.dir.display(),
                p.dir.display()
            ));
        }
        if b.discovery != a.discovery || b.site != a.site {
            return refuse(format!(
                "{} and {} were run over different inputs ({} hosts, digest {}, against {} \
                 hosts, digest {}); every shard must read the whole input",
                first.dir.display(),
                p.dir.display(),
                a.discovery.hosts,
                a.discovery.digest,
                b.discovery.hosts,
                b.discovery.digest
            ));
        }
    }
    let given: Vec<u32> = parts.iter().map(|p| p.manifest.shard.k).collect();
    if let Some(w) = given.windows(2).find(|w| w[0] == w[1]) {
        let dirs: Vec<String> = parts
            .iter()
            .filter(|p| p.manifest.shard.k == w[0])
            .map(|p| p.dir.display().to_string())
            .collect();
        return refuse(format!(
            "shard {}/{n} is given twice ({})",
            w[0],
            dirs.join(", ")
        ));
    }
    let missing: Vec<String> = (1..=n)
        .filter(|k| !given.contains(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return refuse(format!(
            "the run has {n} shards; missing: {}",
            missing.join(", ")
        ));
    }
    let rows: usize = parts.iter().map(|p| p.manifest.rows).sum();
    if rows != first.manifest.discovery.hosts {
        return refuse(format!(
            "the partials hold {rows} hosts but the run has {}; a partial is damaged",
            first.manifest.discovery.hosts
        ));
    }
    Ok(parts)
}

/// Reads [`URLS_REST`] of shard 1's partial into a list holding only what belongs to no host.
fn read_rest(part: &Part, digest: &UrlsDigest) -> Result<urls::UrlList, ReportError> {
    let path = part.dir.join(URLS_REST);
    let file = std::fs::File::open(&path).map_err(|e| {
        damaged(
            &path,
            format!("{e}; shard 1 of a run with --urls holds it: the partial is incomplete"),
        )
    })?;
    let mut unassigned = Vec::new();
    let mut invalid = Vec::new();
    for (n, line) in std::io::BufReader::new(file).split(b'\n').enumerate() {
        let line = line.map_err(|e| damaged(&path, e))?;
        match serde_json::from_slice(&line) {
            Ok(RestLine::Unassigned {
                authority,
                url,
                why,
            }) => unassigned.push((authority, url, why)),
            Ok(RestLine::Invalid { line, why }) => invalid.push((line, why)),
            Err(e) => {
                return Err(damaged(
                    &path,
                    format!("line {}: {e}; the partial is damaged", n + 1),
                ));
            }
        }
    }
    let hash = u64::from_str_radix(&digest.digest, 16).unwrap_or_default();
    Ok(urls::UrlList::rest(unassigned, invalid, digest.total, hash))
}

/// The rows of one partial, read one at a time and checked.
struct PartRows<'p> {
    part: &'p Part,
    path: PathBuf,
    lines: std::io::Split<std::io::BufReader<std::fs::File>>,
    line: usize,
    last: Option<usize>,
}

impl<'p> PartRows<'p> {
    fn open(part: &'p Part) -> Result<PartRows<'p>, ReportError> {
        let path = part.dir.join(ROWS);
        let file = std::fs::File::open(&path).map_err(|e| damaged(&path, e))?;
        Ok(PartRows {
            part,
            lines: std::io::BufReader::with_capacity(1 << 16, file).split(b'\n'),
            path,
            line: 0,
            last: None,
        })
    }

    /// The next row, or `None` at the end.
    fn next(&mut self) -> Result<Option<RowIn>, ReportError> {
        let m = &self.part.manifest;
        let Some(line) = self.lines.next() else {
            if self.line != m.rows {
                return Err(damaged(
                    &self.path,
                    format!(
                        "{} rows, but partial.json says {}; the partial is damaged",
                        self.line, m.rows
                    ),
                ));
            }
            return Ok(None);
        };
        self.line += 1;
        let at = |what: String| damaged(&self.path, format!("line {}: {what}", self.line));
        let line = line.map_err(|e| at(e.to_string()))?;
        let r: RowIn = serde_json::from_slice(&line)
            .map_err(|e| at(format!("{e}; the partial is damaged")))?;
        if self.last.is_some_and(|l| r.i <= l) || r.i >= m.discovery.hosts {
            return Err(at(format!(
                "host number {} out of order (after {:?}, of {}); the partial is damaged",
                r.i, self.last, m.discovery.hosts
            )));
        }
        let shard = Shard {
            k: m.shard.k,
            n: m.shard.n,
        };
        if !shard.takes(&r.row.host) {
            return Err(at(format!(
                "host {} is not in shard {shard}; the partial is damaged",
                r.row.host
            )));
        }
        self.last = Some(r.i);
        Ok(Some(r))
    }
}

/// Places the page of row `r` of `part` in the site written by `w`: a hard link to the
/// partial's file, else a copy. Returns its path in the site and size.
fn place_page(
    part: &Part,
    r: &RowIn,
    w: &Writer,
    rows: &Path,
) -> Result<Option<(String, u64)>, ReportError> {
    let Some((rel, bytes)) = &r.page else {
        return Ok(None);
    };
    // The name comes from a file: it must be a page of `hosts/`, nothing else.
    let safe = rel
        .strip_prefix("hosts/")
        .and_then(|s| s.strip_suffix(".html"))
        .is_some_and(|stem| {
            !stem.is_empty()
                && !stem.starts_with('.')
                && !stem.contains(['/', '\\', '\0'])
                && r.row.page.as_deref() == Some(rel.as_str())
        });
    if !safe {
        return Err(damaged(
            rows,
            format!(
                "host {}: page `{rel}` is not its page; the partial is damaged",
                r.row.host
            ),
        ));
    }
    let src = part.dir.join(rel);
    let size = std::fs::metadata(&src)
        .map_err(|e| damaged(&src, format!("{e}; the page of {} is missing", r.row.host)))?
        .len();
    if size != *bytes {
        return Err(damaged(
            &src,
            format!("{size} bytes, but {ROWS} says {bytes}; the partial is damaged"),
        ));
    }
    let dst = w.root.join(rel);
    std::fs::hard_link(&src, &dst)
        .or_else(|_| std::fs::copy(&src, &dst).map(|_| ()))
        .map_err(|e| ReportError::Output(format!("{}: {e}", dst.display())))?;
    Ok(Some((rel.clone(), *bytes)))
}

/// Combines the partials in the folders `parts` (every shard of one run, in any order) into the
/// site `out`: the same bytes as the single run over the whole input (see the module
/// documentation). `out` is replaced as a run replaces it; the partials are left unchanged.
///
/// # Errors
/// [`ReportError::Input`] when a folder is not a partial, the partials do not belong together
/// or one is damaged (each naming the folder or file); [`ReportError::Output`] when the site
/// cannot be written.
pub fn merge(
    parts: &[PathBuf],
    out: &Path,
    progress: &dyn Progress,
) -> Result<RunSummary, ReportError> {
    if parts.is_empty() {
        return Err(ReportError::Usage(
            "report merge needs the folders of the partials".to_string(),
        ));
    }
    let parts = check_together(
        parts
            .iter()
            .map(|p| open_part(p))
            .collect::<Result<_, _>>()?,
    )?;
    let first = &parts[0];
    let m = &first.manifest;
    let mut config = m
        .options
        .config(&first.dir, out)
        .map_err(|e| damaged(&first.dir.join(MANIFEST), e))?;
    if let Some(digest) = &m.options.urls {
        config.url_list = Some(std::sync::Arc::new(read_rest(first, digest)?));
    }
    let inputs: Vec<&Path> = parts.iter().map(|p| p.dir.as_path()).collect();
    let output = Output::start(&inputs, out, SITE_DIRS)?;
    let ctx = super::report_context(&config);
    let mut site = Site::new(&output.w, &ctx, &config)?;
    progress.start(m.discovery.hosts);
    let mut readers: Vec<PartRows> = parts.iter().map(PartRows::open).collect::<Result<_, _>>()?;
    // The next row of each partial; the lowest place goes first.
    let mut heads: Vec<Option<RowIn>> = Vec::with_capacity(readers.len());
    let mut heap = std::collections::BinaryHeap::new();
    for (n, r) in readers.iter_mut().enumerate() {
        let head = r.next()?;
        if let Some(h) = &head {
            heap.push(std::cmp::Reverse((h.i, n)));
        }
        heads.push(head);
    }
    let mut chunk = Vec::with_capacity(HOST_CHUNK);
    let mut next = 0usize;
    while let Some(std::cmp::Reverse((place, n))) = heap.pop() {
        let Some(r) = heads[n].take() else { break };
        if place != next {
            return Err(damaged(
                &readers[n].path,
                format!("host number {next} of the run is in no partial; a partial is damaged"),
            ));
        }
        let page = place_page(&parts[n], &r, &output.w, &readers[n].path)?;
        chunk.push(Done {
            place,
            row: r.row,
            page,
        });
        progress.host_done();
        next += 1;
        if next % HOST_CHUNK == 0 {
            site.add_chunk(std::mem::take(&mut chunk))?;
        }
        heads[n] = readers[n].next()?;
        if let Some(h) = &heads[n] {
            heap.push(std::cmp::Reverse((h.i, n)));
        }
    }
    if !chunk.is_empty() {
        site.add_chunk(chunk)?;
    }
    if next != m.discovery.hosts {
        return Err(ReportError::Input(format!(
            "the partials hold {next} hosts but the run has {}; a partial is damaged",
            m.discovery.hosts
        )));
    }
    let mut summary = site.finish(&m.site, &ctx, &config)?;
    drop(readers);
    (summary.files, summary.bytes) = output.finish()?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_read_and_checked() {
        assert_eq!("2/8".parse::<Shard>(), Ok(Shard { k: 2, n: 8 }));
        assert_eq!(" 1 / 1 ".parse::<Shard>(), Ok(Shard { k: 1, n: 1 }));
        for bad in ["0/2", "3/2", "1/0", "1", "a/b", "1/2/3", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!(Shard { k: 3, n: 4 }.to_string(), "3/4");
    }

    #[test]
    fn the_hash_is_fnv1a_of_the_lower_cased_name() {
        // FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c (the published test vector).
        assert_eq!(names::fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(shard_of("a", 7), (0xaf63_dc4c_8601_ec8c_u64 % 7) as u32 + 1);
        assert_eq!(shard_of("Shop.Example", 5), shard_of("shop.example", 5));
        // Every host is in exactly one shard, for any N.
        for n in 1..6 {
            for host in ["a.example", "b.example:8080", "xn--bcher-kva.example"] {
                let k = shard_of(host, n);
                assert!((1..=n).contains(&k));
                let takers = (1..=n).filter(|&k| Shard { k, n }.takes(host)).count();
                assert_eq!(takers, 1);
            }
        }
    }
}
