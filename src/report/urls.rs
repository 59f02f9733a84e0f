//! `report --urls FILE`: absolute URLs (a sitemap export, a sample of a server log) assigned to
//! their hosts by origin, so that each host page says which of them each crawler may fetch and
//! which line decides, the index counts them, and `urls.csv` lists every verdict.
//!
//! The file holds one URL per line; blank lines and lines starting with `#` are skipped. A URL
//! belongs to the host named by its authority (`host`, or `host:port` for a port that is not
//! the scheme's default), compared without case, as host names are named by the inputs
//! ([`super::discover`]). Lines that are not absolute http(s) URLs, and URLs whose host is not in
//! the report, are listed in `urls.csv` with the reason and counted in the run's summary.

use std::collections::HashMap;
use std::sync::Arc;

/// One URL of the list, with the request target a crawler would send for it: the form a
/// partial's `urls-rest.jsonl` holds it in.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct UrlEntry {
    /// The URL as written in the file.
    pub url: String,
    /// Its scheme, lower-cased (`http`, `https`).
    pub scheme: String,
    /// Its request target (path and query, encoded as a client sends them).
    pub target: String,
}

/// One URL of a [`UrlList`], borrowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UrlRef<'a> {
    /// The URL as written in the file.
    pub url: &'a str,
    /// Its scheme, lower-cased (`http`, `https`).
    pub scheme: &'a str,
    /// Its request target (path and query, encoded as a client sends them).
    pub target: &'a str,
}

impl UrlRef<'_> {
    /// An owned copy.
    pub fn to_entry(self) -> UrlEntry {
        UrlEntry {
            url: self.url.to_string(),
            scheme: self.scheme.to_string(),
            target: self.target.to_string(),
        }
    }
}

/// `start..end` of a buffer of [`Data`]; the buffers stay below [`MAX_BYTES`] times the three
/// bytes a percent-encoded byte takes, well within `u32`.
#[derive(Clone, Copy, Debug, Default)]
struct Span(u32, u32);

impl Span {
    /// Appends `s` to `into`; its span there.
    fn push(into: &mut String, s: &str) -> Span {
        let start = into.len();
        into.push_str(s);
        Span(to_u32(start), to_u32(into.len()))
    }

    fn get(self, buf: &str) -> &str {
        buf.get(self.0 as usize..self.1 as usize)
            .unwrap_or_default()
    }
}

/// An offset into a buffer of [`Data`] (they are bounded, see [`Span`]).
fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A URL of the list: spans of the shared buffers, and the index of its authority.
#[derive(Clone, Copy, Debug)]
struct Entry {
    url: Span,
    target: Span,
    authority: u32,
    https: bool,
}

/// Why a line of the list is no URL.
#[derive(Clone, Copy, Debug)]
enum Why {
    /// Its bytes are not UTF-8: the 1-based line number.
    NotUtf8(usize),
    /// One of [`Data::reasons`].
    Reason(u32),
}

/// What the list holds, shared by its settled and unsettled forms: every URL and line as spans
/// of a few buffers instead of strings of their own.
#[derive(Debug, Default)]
struct Data {
    urls: String,
    targets: String,
    entries: Vec<Entry>,
    /// Authorities (`host` or `host:port`), each once.
    authorities: Vec<String>,
    /// Lines that are no URL (shown lossily when not UTF-8), and why.
    lines: String,
    invalid: Vec<(Span, Why)>,
    /// Reasons, each once.
    reasons: Vec<String>,
}

impl Data {
    fn entry(&self, i: u32) -> UrlRef<'_> {
        let e = self.entries[i as usize];
        UrlRef {
            url: e.url.get(&self.urls),
            scheme: if e.https { "https" } else { "http" },
            target: e.target.get(&self.targets),
        }
    }
}

/// Interns `s` in `table` (with `index` of it).
fn intern(table: &mut Vec<String>, index: &mut HashMap<String, u32>, s: &str) -> u32 {
    if let Some(&i) = index.get(s) {
        return i;
    }
    let i = to_u32(table.len());
    table.push(s.to_string());
    index.insert(s.to_string(), i);
    i
}

/// What [`UrlList::settle`] does with the URLs of one authority: the host they go to (an
/// index of the report's hosts that have URLs, with the scheme its fetch record names), and the
/// reason for those set aside (all of them when no host takes the authority).
type Fate<'a> = (Option<(u32, Option<&'a str>)>, u32);

/// The URL list of a run.
#[derive(Clone, Debug, Default)]
pub struct UrlList {
    data: Arc<Data>,
    /// After [`UrlList::settle`]: the URLs of each host of the report, grouped by host (each
    /// in file order), as entries of `data`.
    order: Vec<u32>,
    /// Each host's range of `order`.
    by_host: HashMap<String, (usize, usize)>,
    /// URLs no host takes: (entry, reason), sorted by authority and URL.
    unassigned: Vec<(u32, u32)>,
    /// Reasons of `unassigned`, each once.
    why: Vec<String>,
    /// URLs read in all (valid ones).
    pub total: usize,
    /// FNV-1a 64 ([`super::names::fnv1a`]) of the file's bytes: tells whether two runs read
    /// the same list (the shards of a run must).
    pub digest: u64,
}

/// URLs listed on one host page; every one is in `urls.csv` and `hosts.jsonl`.
pub const MAX_ON_PAGE: usize = 500;

/// Largest URL list read, in bytes (a million URLs are about 100 MB).
pub const MAX_BYTES: u64 = 512 * 1024 * 1024;

/// The key a host is matched by: its name in ASCII (an internationalised name in its punycode
/// form, as URLs carry it), lower-cased, with `:port` when one is given. A name that is not a
/// valid host is kept lower-cased.
pub fn host_key(name: &str) -> String {
    let (host, port) = match name.rsplit_once(':') {
        Some((h, p))
            if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && !h.ends_with(':') =>
        {
            (h, Some(p))
        }
        _ => (name, None),
    };
    let host = url::Host::parse(host)
        .map(|h| h.to_string())
        .unwrap_or_else(|_| host.to_lowercase());
    match port {
        Some(p) => format!("{host}:{p}"),
        None => host,
    }
}

/// Reads a list a piece at a time (see [`UrlList::parse`]), so that its bytes need not be held
/// whole: a line is kept only as long as it is cut by the end of a piece.
#[derive(Default)]
struct Reader {
    data: Data,
    authorities: HashMap<String, u32>,
    reasons: HashMap<String, u32>,
    /// FNV-1a 64 of the bytes so far.
    digest: u64,
    /// Bytes read so far.
    read: u64,
    /// Lines ended so far.
    lines: usize,
    /// The start of a line that the end of the last piece cut.
    carry: Vec<u8>,
}

impl Reader {
    fn new() -> Reader {
        Reader {
            digest: super::names::FNV1A_BASIS,
            ..Reader::default()
        }
    }

    /// Takes the next `piece` of the file.
    fn feed(&mut self, piece: &[u8]) {
        self.digest = super::names::fnv1a_more(self.digest, piece);
        // Only the first MAX_BYTES are read.
        let room = MAX_BYTES.saturating_sub(self.read);
        self.read = self.read.saturating_add(piece.len() as u64);
        let mut rest = &piece[..piece.len().min(usize::try_from(room).unwrap_or(usize::MAX))];
        while let Some(end) = memchr::memchr2(b'\n', b'\r', rest) {
            if self.carry.is_empty() {
                self.line(&rest[..end]);
            } else {
                let mut line = std::mem::take(&mut self.carry);
                line.extend_from_slice(&rest[..end]);
                self.line(&line);
            }
            rest = &rest[end + 1..];
        }
        self.carry.extend_from_slice(rest);
    }

    /// The list read: the last line, then what was read.
    fn finish(mut self) -> UrlList {
        let last = std::mem::take(&mut self.carry);
        self.line(&last);
        let mut data = self.data;
        data.urls.shrink_to_fit();
        data.targets.shrink_to_fit();
        data.entries.shrink_to_fit();
        data.lines.shrink_to_fit();
        data.invalid.shrink_to_fit();
        UrlList {
            total: data.entries.len(),
            data: Arc::new(data),
            digest: self.digest,
            ..UrlList::default()
        }
    }

    /// Takes one line (without its end).
    fn line(&mut self, raw: &[u8]) {
        let n = self.lines;
        self.lines += 1;
        // A byte order mark starts the first line only.
        let raw = if n == 0 {
            raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw)
        } else {
            raw
        };
        let data = &mut self.data;
        let Ok(line) = std::str::from_utf8(raw) else {
            let span = Span::push(&mut data.lines, &String::from_utf8_lossy(raw));
            data.invalid.push((span, Why::NotUtf8(n + 1)));
            return;
        };
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return;
        }
        let parsed = url::Url::parse(line)
            .ok()
            .filter(crate::fetch::is_web_url)
            .and_then(|u| {
                let host = u.host()?.to_string();
                Some((u, host))
            });
        let Some((u, host)) = parsed else {
            let span = Span::push(&mut data.lines, line);
            let why = intern(
                &mut data.reasons,
                &mut self.reasons,
                "not an absolute http or https URL with a host",
            );
            data.invalid.push((span, Why::Reason(why)));
            return;
        };
        let authority = match u.port() {
            Some(p) => format!("{host}:{p}"),
            None => host,
        };
        let authority = intern(&mut data.authorities, &mut self.authorities, &authority);
        let entry = Entry {
            url: Span::push(&mut data.urls, line),
            // The URL parsed has a host: its target is the one `request_target` gives.
            target: Span::push(&mut data.targets, &crate::request::target_of(&u)),
            authority,
            https: u.scheme() == "https",
        };
        data.entries.push(entry);
    }
}

impl UrlList {
    /// Reads the list from the bytes of a file (see the module documentation): a byte order
    /// mark is skipped, lines end at LF, CRLF or a lone CR, and a line that is not UTF-8 is
    /// listed as unusable, not fatal. Only the first [`MAX_BYTES`] are read.
    pub fn parse(bytes: &[u8]) -> UrlList {
        let mut r = Reader::new();
        r.feed(bytes);
        r.finish()
    }

    /// Reads the list from the file at `path`, a piece at a time.
    ///
    /// # Errors
    /// A message when the file cannot be read or is larger than [`MAX_BYTES`].
    pub fn read(path: &std::path::Path) -> Result<UrlList, String> {
        use std::io::Read as _;
        let fail = |e: std::io::Error| format!("--urls {}: {e}", path.display());
        let too_large = || {
            format!(
                "--urls {}: larger than {} MiB; split the list",
                path.display(),
                MAX_BYTES / (1024 * 1024)
            )
        };
        let mut file = std::fs::File::open(path).map_err(fail)?;
        let size = file
            .metadata()
            .ok()
            .filter(std::fs::Metadata::is_file)
            .map(|m| m.len());
        if size.is_some_and(|s| s > MAX_BYTES) {
            return Err(too_large());
        }
        let mut r = Reader::new();
        // The URLs take at most the file's size, and their targets about as much: room for
        // both up front spares copying them as they grow (pages never written take no memory).
        if let Some(size) = size.and_then(|s| usize::try_from(s).ok()) {
            r.data.urls.reserve_exact(size);
            r.data.targets.reserve_exact(size);
        }
        let mut piece = vec![0; 1 << 20];
        loop {
            let n = match file.read(&mut piece) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(fail(e)),
            };
            r.feed(&piece[..n]);
            if r.read > MAX_BYTES {
                return Err(too_large());
            }
        }
        Ok(r.finish())
    }

    /// Gives each URL to the report's host of its origin: `hosts` are the report's host names,
    /// each with the scheme its fetch record names, if any (RFC 9309 §2.3.1: rules bind one
    /// scheme, host and port). A URL of another scheme than its host's, or of a host not in the
    /// report, is set aside with the reason ([`UrlList::unassigned`]).
    pub fn settle(&mut self, hosts: &[(String, Option<String>)]) {
        let known: HashMap<String, (&str, Option<&str>)> = hosts
            .iter()
            .map(|(name, scheme)| (host_key(name), (name.as_str(), scheme.as_deref())))
            .collect();
        let data = &*self.data;
        // Per authority: its host (an index of `names`) and the reason for URLs of another
        // scheme, or the reason for all its URLs.
        let mut names: Vec<&str> = Vec::new();
        let mut why = Vec::new();
        let mut why_index = HashMap::new();
        let not_in_report = intern(&mut why, &mut why_index, "host not in the report");
        let fate: Vec<Fate<'_>> = data
            .authorities
            .iter()
            .map(|authority| match known.get(authority) {
                None => (None, not_in_report),
                Some(&(name, scheme)) => {
                    let host = to_u32(names.len());
                    names.push(name);
                    let reason = format!(
                        "the report has {name} for {} only (rules bind one scheme, host and port)",
                        scheme.unwrap_or_default()
                    );
                    let reason = intern(&mut why, &mut why_index, &reason);
                    (Some((host, scheme)), reason)
                }
            })
            .collect();
        let mut assigned: Vec<(u32, u32)> = Vec::with_capacity(data.entries.len());
        let mut unassigned: Vec<(u32, u32)> = Vec::new();
        for (i, e) in data.entries.iter().enumerate() {
            let (to, reason) = fate[e.authority as usize];
            let scheme = if e.https { "https" } else { "http" };
            match to {
                Some((host, s)) if s.is_none_or(|s| s.eq_ignore_ascii_case(scheme)) => {
                    assigned.push((host, to_u32(i)));
                }
                _ => unassigned.push((to_u32(i), reason)),
            }
        }
        // Grouped by host, each in file order.
        assigned.sort_unstable();
        let mut by_host = HashMap::new();
        let mut start = 0;
        while start < assigned.len() {
            let host = assigned[start].0;
            let end = start + assigned[start..].partition_point(|a| a.0 == host);
            by_host.insert(names[host as usize].to_string(), (start, end));
            start = end;
        }
        let entry = |i: u32| data.entries[i as usize];
        unassigned.sort_by(|a, b| {
            let (x, y) = (entry(a.0), entry(b.0));
            data.authorities[x.authority as usize]
                .cmp(&data.authorities[y.authority as usize])
                .then_with(|| x.url.get(&data.urls).cmp(y.url.get(&data.urls)))
                .then_with(|| a.0.cmp(&b.0))
        });
        self.order = assigned.into_iter().map(|a| a.1).collect();
        self.by_host = by_host;
        self.unassigned = unassigned;
        self.why = why;
    }

    /// The URLs of `host` (as the report names it), in file order, once
    /// [`UrlList::settle`]d: indices for [`UrlList::get`].
    pub fn for_host(&self, host: &str) -> &[u32] {
        self.by_host
            .get(host)
            .and_then(|&(a, b)| self.order.get(a..b))
            .unwrap_or_default()
    }

    /// The URL of index `i` (from [`UrlList::for_host`]).
    pub fn get(&self, i: u32) -> UrlRef<'_> {
        self.data.entry(i)
    }

    /// URLs no host of the report takes: (authority, URL, why), sorted by authority (then by
    /// URL).
    pub fn unassigned(&self) -> impl ExactSizeIterator<Item = (&str, UrlRef<'_>, &str)> {
        self.unassigned.iter().map(|&(i, why)| {
            let e = self.data.entries[i as usize];
            (
                self.data.authorities[e.authority as usize].as_str(),
                self.data.entry(i),
                self.why[why as usize].as_str(),
            )
        })
    }

    /// Lines that could not be used: (line text, why).
    pub fn invalid(&self) -> impl ExactSizeIterator<Item = (&str, std::borrow::Cow<'_, str>)> + '_ {
        self.data.invalid.iter().map(|&(span, why)| {
            let why = match why {
                Why::NotUtf8(n) => format!("line {n} is not UTF-8").into(),
                Why::Reason(r) => self.data.reasons[r as usize].as_str().into(),
            };
            (span.get(&self.data.lines), why)
        })
    }

    /// A settled list that holds only what belongs to no host: URLs no host takes
    /// ([`UrlList::unassigned`], in that order) and lines that are no URL. A merge of partials
    /// writes the end of `urls.csv` from it; the hosts' URLs are in their rows.
    pub fn rest(
        unassigned: Vec<(String, UrlEntry, String)>,
        invalid: Vec<(String, String)>,
        total: usize,
        digest: u64,
    ) -> UrlList {
        let mut data = Data::default();
        let mut authorities = HashMap::new();
        let mut reasons = HashMap::new();
        let mut why = Vec::new();
        let mut why_index = HashMap::new();
        let mut rest = Vec::with_capacity(unassigned.len());
        for (authority, u, reason) in unassigned {
            let authority = intern(&mut data.authorities, &mut authorities, &authority);
            let entry = Entry {
                url: Span::push(&mut data.urls, &u.url),
                target: Span::push(&mut data.targets, &u.target),
                authority,
                https: u.scheme == "https",
            };
            rest.push((
                to_u32(data.entries.len()),
                intern(&mut why, &mut why_index, &reason),
            ));
            data.entries.push(entry);
        }
        for (line, reason) in invalid {
            let span = Span::push(&mut data.lines, &line);
            let reason = intern(&mut data.reasons, &mut reasons, &reason);
            data.invalid.push((span, Why::Reason(reason)));
        }
        UrlList {
            data: Arc::new(data),
            order: Vec::new(),
            by_host: HashMap::new(),
            unassigned: rest,
            why,
            total,
            digest,
        }
    }
}

impl UrlList {
    /// A list of just `urls` (URL and request target), in order, as if settled to one host
    /// named `""`: what a host's row read back from a partial holds.
    fn of_urls(urls: Vec<(String, String)>) -> UrlList {
        let mut data = Data::default();
        for (url, target) in urls {
            let entry = Entry {
                url: Span::push(&mut data.urls, &url),
                target: Span::push(&mut data.targets, &target),
                authority: 0,
                https: false,
            };
            data.entries.push(entry);
        }
        let n = data.entries.len();
        UrlList {
            order: (0..to_u32(n)).collect(),
            by_host: HashMap::from([(String::new(), (0, n))]),
            total: n,
            data: Arc::new(data),
            ..UrlList::default()
        }
    }
}

/// One crawler's verdict on one URL, packed: bits 0–1 the verdict (0 unknown, 1 allowed,
/// 2 disallowed), the rest the deciding line plus one (0: no rule decided). Lines are within
/// the parsing limit, far below the 2³⁰ that fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedCell(u32);

impl PackedCell {
    /// The cell of a verdict (`None`: unknown) and its deciding line.
    pub fn new(allowed: Option<bool>, line: Option<usize>) -> PackedCell {
        let verdict = match allowed {
            None => 0,
            Some(true) => 1,
            Some(false) => 2,
        };
        let line = line.map_or(0, |l| l.saturating_add(1).min((1 << 30) - 1) as u32);
        PackedCell(verdict | line << 2)
    }

    /// Allowed, disallowed, or unknown (`None`).
    pub fn allowed(self) -> Option<bool> {
        match self.0 & 3 {
            1 => Some(true),
            2 => Some(false),
            _ => None,
        }
    }

    /// The deciding line (1-based), when a rule decided.
    pub fn line(self) -> Option<usize> {
        (self.0 >> 2).checked_sub(1).map(|l| l as usize)
    }
}

/// The URLs of `--urls` on one host with every crawler's verdict, held compactly: the URLs as
/// indices of the run's shared [`UrlList`], and the verdicts once per distinct row (crawlers
/// whose groups are the same share one). Written in `hosts.jsonl` as a list of
/// [`super::summary::UrlVerdicts`].
#[derive(Clone, Debug, Default)]
pub struct HostUrls {
    list: Arc<UrlList>,
    /// The host's range of `list.order`.
    range: (usize, usize),
    /// Per crawler of the matrix: its row of `rows`.
    of_crawler: Vec<u32>,
    /// Distinct rows of verdicts, one cell per URL.
    rows: Vec<Vec<PackedCell>>,
    /// URLs some crawler may not fetch.
    blocked: usize,
}

impl HostUrls {
    /// The URLs of `host` in the settled `list`, with the verdicts `rows` (each one cell per
    /// URL of the host, in order), `of_crawler` naming the row of each crawler of the matrix.
    pub fn new(
        list: &Arc<UrlList>,
        host: &str,
        of_crawler: Vec<u32>,
        rows: Vec<Vec<PackedCell>>,
    ) -> HostUrls {
        let range = list.by_host.get(host).copied().unwrap_or_default();
        let n = range.1 - range.0;
        let rows: Vec<Vec<PackedCell>> = rows
            .into_iter()
            .map(|mut r| {
                r.resize(n, PackedCell::new(None, None));
                r
            })
            .collect();
        let of_crawler: Vec<u32> = of_crawler
            .into_iter()
            .filter(|&k| (k as usize) < rows.len())
            .collect();
        // Only the rows some crawler uses count.
        let used: Vec<&Vec<PackedCell>> = {
            let mut seen: Vec<u32> = of_crawler.clone();
            seen.sort_unstable();
            seen.dedup();
            seen.iter().map(|&k| &rows[k as usize]).collect()
        };
        let blocked = (0..n)
            .filter(|&j| used.iter().any(|r| r[j].allowed() == Some(false)))
            .count();
        HostUrls {
            list: Arc::clone(list),
            range,
            of_crawler,
            rows,
            blocked,
        }
    }

    /// URLs on the host.
    pub fn len(&self) -> usize {
        self.range.1 - self.range.0
    }

    /// Whether the host has no URL of the list.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// URLs some crawler of the matrix may not fetch.
    pub fn blocked(&self) -> usize {
        self.blocked
    }

    /// Crawlers of the matrix.
    pub fn crawlers(&self) -> usize {
        self.of_crawler.len()
    }

    /// The `j`-th URL.
    pub fn url(&self, j: usize) -> UrlRef<'_> {
        self.list.get(self.list.order[self.range.0 + j])
    }

    /// The verdict of crawler `i` on the `j`-th URL.
    pub fn cell(&self, j: usize, i: usize) -> PackedCell {
        self.of_crawler
            .get(i)
            .and_then(|&k| self.rows.get(k as usize))
            .and_then(|r| r.get(j))
            .copied()
            .unwrap_or(PackedCell::new(None, None))
    }
}

impl serde::Serialize for HostUrls {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq as _;

        /// One URL as [`super::summary::UrlVerdicts`] writes it.
        #[derive(serde::Serialize)]
        struct Out<'a> {
            url: &'a str,
            target: &'a str,
            allowed: Cells<'a, false>,
            lines: Cells<'a, true>,
        }
        struct Cells<'a, const LINES: bool>(&'a HostUrls, usize);
        impl<const LINES: bool> serde::Serialize for Cells<'_, LINES> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let (urls, j) = (self.0, self.1);
                let mut seq = s.serialize_seq(Some(urls.crawlers()))?;
                for i in 0..urls.crawlers() {
                    let c = urls.cell(j, i);
                    if LINES {
                        seq.serialize_element(&c.line())?;
                    } else {
                        seq.serialize_element(&c.allowed())?;
                    }
                }
                seq.end()
            }
        }
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for j in 0..self.len() {
            let u = self.url(j);
            seq.serialize_element(&Out {
                url: u.url,
                target: u.target,
                allowed: Cells(self, j),
                lines: Cells(self, j),
            })?;
        }
        seq.end()
    }
}

impl<'de> serde::Deserialize<'de> for HostUrls {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<HostUrls, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = HostUrls;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of URLs with their verdicts")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<HostUrls, A::Error> {
                let mut urls = Vec::new();
                let mut rows: Vec<Vec<PackedCell>> = Vec::new();
                while let Some(u) = seq.next_element::<super::summary::UrlVerdicts>()? {
                    if urls.is_empty() {
                        rows = vec![Vec::new(); u.allowed.len()];
                    }
                    if u.allowed.len() != rows.len() || u.lines.len() != rows.len() {
                        return Err(serde::de::Error::custom(
                            "every URL has one verdict and line per crawler",
                        ));
                    }
                    for (row, (&a, &l)) in rows.iter_mut().zip(u.allowed.iter().zip(&u.lines)) {
                        row.push(PackedCell::new(a, l));
                    }
                    urls.push((u.url, u.target));
                }
                let list = Arc::new(UrlList::of_urls(urls));
                let of_crawler = (0..to_u32(rows.len())).collect();
                Ok(HostUrls::new(&list, "", of_crawler, rows))
            }
        }
        d.deserialize_seq(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_go_to_their_hosts_by_origin() {
        let mut list = UrlList::parse(
            "\u{feff}# sitemap export\r\nhttps://Shop.Example/a?b=1\rhttp://shop.example:8080/x\n\
             ftp://shop.example/f\n/relative\nhttps://other.example/caf\u{e9}\n\
             https://b\u{fc}cher.example/p\nhttp://shop.example/plain\n"
                .as_bytes(),
        );
        assert_eq!(list.total, 5);
        assert_eq!(list.invalid().len(), 2);
        let hosts = [
            ("shop.example".to_string(), Some("https".to_string())),
            ("shop.example:8080".to_string(), None),
            ("b\u{fc}cher.example".to_string(), None),
        ];
        list.settle(&hosts);
        let first = |host: &str| list.get(list.for_host(host)[0]).target;
        assert_eq!(first("shop.example"), "/a?b=1");
        assert_eq!(list.for_host("shop.example").len(), 1);
        assert_eq!(first("shop.example:8080"), "/x");
        assert_eq!(first("b\u{fc}cher.example"), "/p");
        let un: Vec<_> = list.unassigned().collect();
        assert_eq!(un.len(), 2);
        assert_eq!(un[0].0, "other.example");
        assert_eq!(un[0].1.target, "/caf%C3%A9");
        assert!(un[1].2.contains("for https only"), "{un:?}");
    }

    #[test]
    fn lines_that_are_not_utf8_are_listed_not_fatal() {
        let list = UrlList::parse(b"https://a.example/\n\xff\xfe\nhttps://a.example/b\n");
        assert_eq!(list.total, 2);
        let invalid: Vec<_> = list.invalid().collect();
        assert_eq!(invalid.len(), 1);
        assert_eq!(invalid[0].1, "line 2 is not UTF-8");
        assert_eq!(host_key("Shop.Example:8080"), "shop.example:8080");
        assert_eq!(host_key("b\u{fc}cher.example"), "xn--bcher-kva.example");
    }
}
