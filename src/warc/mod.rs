//! robots.txt captures in WARC files: what `report`, `lint` and `check` read from `.warc` and
//! `.warc.gz` files.
//!
//! **Why a reader of our own.** The `warc` crate (0.4, the one maintained Rust WARC library) was
//! examined first and not used: its streaming reader grows the header buffer without bound
//! (`read_until` on hostile input), a damaged record leaves the stream at an unknown position
//! with no way to resume, its gzip support decodes the whole file as one multi-member stream
//! (libflate) so that neither the member offsets (needed to read a capture again) nor the member
//! at fault are known, and it brings chrono, nom, uuid 0.8 and a second deflate implementation.
//! The format itself is small (a version line, header fields, a block of known length), so
//! [`reader`] reads it in about three hundred lines, bounded, with `flate2` (already used here)
//! for gzip members; the HTTP header block is parsed by `httparse` ([`http`]).
//!
//! **Two passes.** [`scan`] reads a file once and keeps, per robots.txt capture, only compact
//! metadata ([`Capture`]: URL, time, status, `Location` of redirects, where the record lies);
//! every other record is counted and skipped. [`collect`] scans files in parallel (rayon),
//! assembles the redirect chains and groups them by host ([`HostCaptures`]). When a host is
//! processed, [`fetch`] reads its captures' records again by offset (a gzip member per record
//! can be read on its own) and builds the same fetch record a YAML sidecar gives
//! ([`crate::fetch::sidecar::Sidecar`]), so the outcome, the redirect chain and the cache age
//! come from [`crate::fetch::assess`] exactly as for sidecars.
//!
//! **What is a capture.** A `response` record whose `WARC-Target-URI` is an http(s) URL with
//! the path `/robots.txt`; a `revisit` record of such a URL (its payload is the earlier
//! response it refers to, by `WARC-Refers-To-Target-URI` and `-Date` or by payload digest, when
//! that response is in the same file); and a `request` of such a URL that no response answers
//! (no response recorded: the fetch got no answer, taken as a network error). A redirect is a
//! capture of its own; a chain follows each `Location` to the capture of that URL nearest in
//! time, for at most [`crate::fetch::REDIRECT_HOPS`] + 1 hops. A chain starts at a capture that
//! no other capture redirects to, and its start URL names the host, as a sidecar's `url` does
//! (`host`, with `:port` when not the scheme's default).

pub mod http;
pub mod reader;

use crate::fetch::sidecar::{Redirect, Sidecar, format_time, parse_time};
use rayon::prelude::*;
use reader::{Corrupt, Event, Header, Location};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The error recorded for a request that no response answers.
pub const NO_RESPONSE: &str = "no response recorded";

/// Most captures of one host whose records are read again for its timeline (the latest ones).
pub const MAX_TIMELINE: usize = 20;
/// Most rule lines listed as added or removed between two captures.
pub const MAX_RULE_CHANGES: usize = 12;

/// Whether `p` is named like a WARC file: `.warc` or `.warc.gz` (ignoring case).
pub fn is_warc_name(p: &Path) -> bool {
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    name.ends_with(".warc") || name.ends_with(".warc.gz")
}

/// What kind of record a capture comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A `response` record.
    Response,
    /// A `revisit` record: the payload is an earlier response's.
    Revisit,
    /// A `request` record that no response answers.
    NoResponse,
}

/// One robots.txt capture: the compact metadata the first pass keeps.
#[derive(Clone, Debug)]
pub struct Capture {
    /// Index of the WARC file in [`Collection::files`].
    pub file: u32,
    /// Where the record lies in the file.
    pub at: Location,
    /// Where the payload lies: the record itself for a response, the response a revisit refers
    /// to, `None` when it is not in the file (or there is none).
    pub payload: Option<Location>,
    /// The kind of record.
    pub kind: Kind,
    /// `WARC-Target-URI`, as the `url` crate serialises it.
    pub url: Box<str>,
    /// `WARC-Date` in Unix seconds, when it parses as RFC 3339.
    pub time: Option<i64>,
    /// `WARC-Date` as written, when it does not parse.
    pub date_raw: Option<Box<str>>,
    /// The HTTP status (none for a request without a response, or a revisit without one).
    pub status: Option<u16>,
    /// `Location` of a 3xx answer, as written.
    pub location: Option<Box<str>>,
}

impl Capture {
    /// `WARC-Date` as RFC 3339 in UTC (or as written when it did not parse).
    pub fn date(&self) -> String {
        match (self.time, &self.date_raw) {
            (Some(t), _) => time::OffsetDateTime::from_unix_timestamp(t)
                .map(format_time)
                .unwrap_or_else(|_| t.to_string()),
            (None, Some(d)) => d.to_string(),
            (None, None) => String::new(),
        }
    }

    /// The readable name of the capture: `FILE#URL@DATE`.
    pub fn name(&self, file: &str) -> String {
        format!("{file}#{}@{}", self.url, self.date())
    }
}

/// What one scan of a file found.
#[derive(Debug, Default)]
pub struct FileScan {
    /// The robots.txt captures, in file order.
    pub captures: Vec<Capture>,
    /// Records read.
    pub records: u64,
    /// Records that are not robots.txt captures (counted and skipped).
    pub other: u64,
    /// Damaged records and members.
    pub corrupt: Vec<Corrupt>,
}

/// The parts of a record header a capture needs.
fn target_of(h: &Header) -> Option<url::Url> {
    let raw = h.get("WARC-Target-URI")?;
    let raw = raw.trim().trim_start_matches('<').trim_end_matches('>');
    let u = url::Url::parse(raw).ok()?;
    (crate::fetch::is_web_url(&u) && u.path() == "/robots.txt").then_some(u)
}

fn date_of(h: &Header) -> (Option<i64>, Option<Box<str>>) {
    match h.get("WARC-Date") {
        Some(d) => match parse_time(d) {
            Ok(t) => (Some(t.unix_timestamp()), None),
            Err(_) => (None, Some(d.into())),
        },
        None => (None, None),
    }
}

/// A 128-bit hash of `parts` (each followed by a NUL byte, so that part boundaries count):
/// what the scan keeps of record ids, digests and (URL, date) pairs, which it only compares.
/// Two different values share a key with a probability of about 2⁻¹²⁸ per pair.
fn key(parts: &[&str]) -> u128 {
    let mut bytes = Vec::with_capacity(parts.iter().map(|p| p.len() + 1).sum());
    for p in parts {
        bytes.extend_from_slice(p.as_bytes());
        bytes.push(0);
    }
    twox_hash::XxHash3_128::oneshot(&bytes)
}

/// Seconds within which a response is taken to answer a request of the same URL that names no
/// record it belongs with (`WARC-Concurrent-To`).
const ANSWER_WINDOW: i64 = 600;

/// Reads the WARC file at `path` once (index `file` in the collection) and keeps its robots.txt
/// captures' metadata; revisits are resolved and unanswered requests found within the file.
///
/// # Errors
/// The I/O error of opening or reading the file; damaged records are in [`FileScan::corrupt`].
pub fn scan(path: &Path, file: u32) -> std::io::Result<FileScan> {
    // Record ids, digests and (URL, date) pairs are only compared, so the scan keeps a 128-bit
    // hash of each instead of the text (see [`key`]).
    struct Request {
        url: Box<str>,
        at: Location,
        time: Option<i64>,
        date_raw: Option<Box<str>>,
        id: Option<u128>,
        concurrent: Option<u128>,
    }
    let mut out = FileScan::default();
    // Requests not yet answered: by record id, and those without one. A response that names a
    // request as concurrent answers it at once, so the scan holds few of them.
    let mut pending: rustc_hash::FxHashMap<u128, Request> = Default::default();
    let mut requests: Vec<Request> = Vec::new();
    // Record ids of robots.txt responses and the records they name as concurrent.
    let mut linked: rustc_hash::FxHashSet<u128> = Default::default();
    // Per response: (digest, refers-to key) for revisit resolution.
    let mut by_digest: rustc_hash::FxHashMap<u128, usize> = Default::default();
    let mut by_url_date: rustc_hash::FxHashMap<u128, usize> = Default::default();
    // Per revisit: its index, payload digest, and the response it names (URL, date).
    type Revisit = (usize, Option<u128>, Option<u128>);
    let mut revisits: Vec<Revisit> = Vec::new();
    reader::scan(path, &mut |e| match e {
        Event::Corrupt(c) => out.corrupt.push(c),
        Event::Record(at, h, block) => {
            out.records += 1;
            let kind = h.record_type();
            let Some(url) = target_of(h)
                .filter(|_| matches!(kind.as_str(), "response" | "revisit" | "request"))
            else {
                out.other += 1;
                return;
            };
            let url: Box<str> = url.as_str().into();
            let (time, date_raw) = date_of(h);
            if kind == "request" {
                let r = Request {
                    url,
                    at,
                    time,
                    date_raw,
                    id: h.get("WARC-Record-ID").map(|v| key(&[v])),
                    concurrent: h.get("WARC-Concurrent-To").map(|v| key(&[v])),
                };
                match r.id {
                    Some(id) if !pending.contains_key(&id) => {
                        pending.insert(id, r);
                    }
                    _ => requests.push(r),
                }
                return;
            }
            if let Some(v) = h.get("WARC-Record-ID") {
                linked.insert(key(&[v]));
            }
            if let Some(v) = h.get("WARC-Concurrent-To") {
                let k = key(&[v]);
                // A request read earlier is answered now; one read later finds the key in
                // `linked`.
                pending.remove(&k);
                linked.insert(k);
            }
            let http =
                if kind == "revisit" && h.get("Content-Length").is_some_and(|l| l.trim() == "0") {
                    None
                } else {
                    match http::read_head(block) {
                        Ok((head, _)) => Some(head),
                        Err(_) if kind == "revisit" => None,
                        Err(m) => {
                            out.corrupt.push(Corrupt {
                                offset: at.offset,
                                message: format!("{url}: {m}"),
                            });
                            return;
                        }
                    }
                };
            let status = http.as_ref().map(|h| h.status);
            let location = http
                .as_ref()
                .filter(|h| (300..400).contains(&h.status))
                .and_then(|h| h.location.as_deref())
                .map(Box::from);
            let (kind, payload) = if kind == "response" {
                let i = out.captures.len();
                if let Some(d) = h.get("WARC-Payload-Digest") {
                    by_digest.entry(key(&[d])).or_insert(i);
                }
                if let Some(d) = h.get("WARC-Date") {
                    by_url_date.entry(key(&[&url, d])).or_insert(i);
                }
                (Kind::Response, Some(at))
            } else {
                let refers = h.get("WARC-Refers-To-Target-URI").and_then(|u| {
                    let u = url::Url::parse(u.trim_matches(|c| c == '<' || c == '>')).ok()?;
                    Some(key(&[u.as_str(), h.get("WARC-Refers-To-Date")?]))
                });
                revisits.push((
                    out.captures.len(),
                    h.get("WARC-Payload-Digest").map(|d| key(&[d])),
                    refers,
                ));
                (Kind::Revisit, None)
            };
            out.captures.push(Capture {
                file,
                at,
                payload,
                kind,
                url,
                time,
                date_raw,
                status,
                location,
            });
        }
    })?;
    // A revisit's payload is the earlier response it names.
    for (i, digest, refers) in revisits {
        let found = refers
            .and_then(|k| by_url_date.get(&k).copied())
            .or_else(|| digest.and_then(|d| by_digest.get(&d).copied()))
            .filter(|&j| j < i);
        if let Some(j) = found {
            out.captures[i].payload = Some(out.captures[j].at);
            // A revisit that records no HTTP answer of its own repeats the earlier one's.
            if out.captures[i].status.is_none() {
                out.captures[i].status = out.captures[j].status;
            }
        }
    }
    // Requests that no response answers.
    // (URL, time) of every capture, sorted: a URL's times are a run found by binary search.
    let mut answered_times: Vec<(&str, Option<i64>)> =
        out.captures.iter().map(|c| (&*c.url, c.time)).collect();
    answered_times.sort_unstable();
    let times_of = |u: &str| {
        let lo = answered_times.partition_point(|(v, _)| *v < u);
        let hi = lo + answered_times[lo..].partition_point(|(v, _)| *v == u);
        answered_times[lo..hi].iter().map(|(_, t)| t)
    };
    let mut missing = Vec::new();
    for r in requests.into_iter().chain(pending.into_values()) {
        let by_link = r.id.is_some_and(|id| linked.contains(&id))
            || r.concurrent.is_some_and(|c| linked.contains(&c));
        let by_time = times_of(&r.url).any(|t| match (t, r.time) {
            (Some(t), Some(rt)) => (rt - 1..=rt + ANSWER_WINDOW).contains(t),
            _ => true,
        });
        if !by_link && !by_time {
            missing.push(Capture {
                file,
                at: r.at,
                payload: None,
                kind: Kind::NoResponse,
                url: r.url,
                time: r.time,
                date_raw: r.date_raw,
                status: None,
                location: None,
            });
        }
    }
    if !missing.is_empty() {
        out.captures.extend(missing);
        out.captures.sort_by_key(|c| c.at);
    }
    Ok(out)
}

/// A WARC file of a collection.
#[derive(Clone, Debug)]
pub struct WarcFile {
    /// Its path, to read it again.
    pub path: PathBuf,
    /// Its name for display: relative to the input directory (or as given).
    pub rel: String,
}

/// The captures of one host: its chains, oldest first (by the start's `WARC-Date`; the last
/// decides the host's row).
#[derive(Clone, Debug)]
pub struct HostCaptures {
    /// The host name, as a sidecar's `url` gives it: `host[:port]`, lower-cased.
    pub host: String,
    /// The scheme of the latest chain's start URL (`http` or `https`).
    pub scheme: &'static str,
    /// The chains: each the start capture, then the capture each redirect led to.
    pub chains: Vec<Vec<Capture>>,
    /// The WARC files the captures lie in (shared by every host of the collection).
    pub files: Arc<Vec<WarcFile>>,
}

impl HostCaptures {
    /// The chain that decides the host's row: the latest.
    pub fn latest(&self) -> &[Capture] {
        self.chains.last().map_or(&[], Vec::as_slice)
    }

    /// The readable name of the deciding capture (`FILE#URL@DATE`).
    pub fn name(&self) -> String {
        match self.latest().first() {
            Some(c) => c.name(&self.files[c.file as usize].rel),
            None => self.host.clone(),
        }
    }

    /// The WARC file of the deciding capture.
    pub fn file(&self) -> Option<&WarcFile> {
        self.latest().first().map(|c| &self.files[c.file as usize])
    }
}

/// Counts over the WARC files of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    /// WARC files read.
    pub files: usize,
    /// Records read.
    pub records: u64,
    /// robots.txt captures (responses, revisits, requests without a response).
    pub captures: u64,
    /// Records that are not robots.txt captures, counted and skipped.
    pub skipped_records: u64,
    /// Damaged records or gzip members.
    pub corrupt: usize,
}

/// The captures of a set of WARC files, grouped by host.
#[derive(Debug, Default)]
pub struct Collection {
    /// The hosts, sorted by name.
    pub hosts: Vec<HostCaptures>,
    /// Counts.
    pub counts: Counts,
    /// Damaged records: the file's display name, offset and message; and files that could not
    /// be read (offset 0, the I/O error).
    pub corrupt: Vec<(String, Corrupt)>,
}

/// Scans `files` in parallel, assembles redirect chains across them and groups the chains by
/// host (see the module documentation).
pub fn collect(files: Vec<WarcFile>) -> Collection {
    let scans: Vec<std::io::Result<FileScan>> = files
        .par_iter()
        .enumerate()
        .map(|(i, f)| scan(&f.path, i as u32))
        .collect();
    let mut counts = Counts {
        files: files.len(),
        ..Counts::default()
    };
    let mut corrupt = Vec::new();
    let mut captures = Vec::new();
    for (f, s) in files.iter().zip(scans) {
        match s {
            Ok(s) => {
                counts.records += s.records;
                counts.skipped_records += s.other;
                corrupt.extend(s.corrupt.into_iter().map(|c| (f.rel.clone(), c)));
                captures.extend(s.captures);
            }
            Err(e) => corrupt.push((
                f.rel.clone(),
                Corrupt {
                    offset: 0,
                    message: format!("the file could not be read: {e}"),
                },
            )),
        }
    }
    counts.captures = captures.len() as u64;
    counts.corrupt = corrupt.len();
    let files = Arc::new(files);
    let hosts = group(captures, &files);
    Collection {
        hosts,
        counts,
        corrupt,
    }
}

/// The capture each capture's redirect leads to (index), if captured.
fn redirect_targets(captures: &[Capture]) -> Vec<Option<u32>> {
    // Capture indexes sorted by URL: the captures of one URL are a run found by binary search.
    let mut by_url: Vec<u32> = (0..captures.len() as u32).collect();
    by_url.sort_unstable_by(|&i, &j| captures[i as usize].url.cmp(&captures[j as usize].url));
    let of_url = |u: &str| -> &[u32] {
        let lo = by_url.partition_point(|&i| &*captures[i as usize].url < u);
        let hi = lo + by_url[lo..].partition_point(|&i| &*captures[i as usize].url == u);
        &by_url[lo..hi]
    };
    captures
        .iter()
        .map(|c| {
            let loc = c.location.as_deref()?;
            let base = url::Url::parse(&c.url).ok()?;
            let target = base.join(loc).ok()?;
            let candidates = of_url(target.as_str());
            // The nearest in time at or after this capture, else the nearest before it.
            let t = c.time.unwrap_or(i64::MIN);
            let after = candidates
                .iter()
                .filter(|&&j| captures[j as usize].time.unwrap_or(i64::MIN) >= t)
                .min_by_key(|&&j| (captures[j as usize].time, captures[j as usize].at));
            let before = candidates
                .iter()
                .max_by_key(|&&j| (captures[j as usize].time, captures[j as usize].at));
            after.or(before).copied()
        })
        .collect()
}

/// Assembles chains and groups them by host.
///
/// Chains are kept as runs of one flat list of capture indexes while they are assembled, and
/// each capture moves into its host's chain (it is copied only when several chains reach it),
/// so the grouping needs a few bytes per capture beyond the captures themselves.
fn group(captures: Vec<Capture>, files: &Arc<Vec<WarcFile>>) -> Vec<HostCaptures> {
    let next = redirect_targets(&captures);
    let mut targeted = vec![false; captures.len()];
    for (i, n) in next.iter().enumerate() {
        if let Some(j) = *n
            && j as usize != i
        {
            targeted[j as usize] = true;
        }
    }
    // The chains: `flat[ends[k-1]..ends[k]]` is chain k.
    let mut flat: Vec<u32> = Vec::with_capacity(captures.len());
    let mut ends: Vec<u32> = Vec::new();
    let mut reached = vec![false; captures.len()];
    let mut add_chain = |start: usize, flat: &mut Vec<u32>, reached: &mut Vec<bool>| {
        let begin = flat.len();
        flat.push(start as u32);
        let mut cur = start;
        while flat.len() - begin <= crate::fetch::REDIRECT_HOPS + 1 {
            match next[cur] {
                Some(j) => {
                    flat.push(j);
                    cur = j as usize;
                }
                None => break,
            }
        }
        for &j in &flat[begin..] {
            reached[j as usize] = true;
        }
        ends.push(flat.len() as u32);
    };
    for (i, &is_target) in targeted.iter().enumerate() {
        if !is_target {
            add_chain(i, &mut flat, &mut reached);
        }
    }
    // Captures only reached from one another (a loop): each unreached one starts a chain.
    for i in 0..captures.len() {
        if !reached[i] {
            add_chain(i, &mut flat, &mut reached);
        }
    }
    drop(reached);
    drop(targeted);
    let chain = |k: usize| -> &[u32] {
        let begin = if k == 0 { 0 } else { ends[k - 1] as usize };
        &flat[begin..ends[k] as usize]
    };
    // Chains with a host, ordered by host, then by the start's date, file and place.
    let mut keyed: Vec<(String, usize)> = (0..ends.len())
        .filter_map(|k| {
            Some((
                crate::fetch::host_name(
                    &url::Url::parse(&captures[chain(k)[0] as usize].url).ok()?,
                )?,
                k,
            ))
        })
        .collect();
    keyed.sort_by(|(ha, a), (hb, b)| {
        let key = |k: usize| {
            let s = &captures[chain(k)[0] as usize];
            (s.time, s.file, s.at)
        };
        ha.cmp(hb).then_with(|| key(*a).cmp(&key(*b)))
    });
    // How many chains hold each capture: the last use takes it, earlier ones copy it.
    let mut uses = vec![0u8; captures.len()];
    for (_, k) in &keyed {
        for &j in chain(*k) {
            uses[j as usize] = uses[j as usize].saturating_add(1);
        }
    }
    let mut slots: Vec<Option<Capture>> = captures.into_iter().map(Some).collect();
    let mut take = |j: u32| -> Capture {
        let j = j as usize;
        uses[j] = uses[j].saturating_sub(1);
        if uses[j] == 0 {
            slots[j].take()
        } else {
            slots[j].clone()
        }
        .expect("a capture is taken after its last use only")
    };
    let mut hosts: Vec<HostCaptures> = Vec::new();
    let mut i = 0;
    while i < keyed.len() {
        let mut end = i + 1;
        while end < keyed.len() && keyed[end].0 == keyed[i].0 {
            end += 1;
        }
        let chains: Vec<Vec<Capture>> = keyed[i..end]
            .iter()
            .map(|(_, k)| chain(*k).iter().map(|&j| take(j)).collect())
            .collect();
        let scheme = chains.last().and_then(|c| c.first()).map_or("http", |c| {
            if c.url.starts_with("https:") {
                "https"
            } else {
                "http"
            }
        });
        hosts.push(HostCaptures {
            host: std::mem::take(&mut keyed[i].0),
            scheme,
            chains,
            files: files.clone(),
        });
        i = end;
    }
    hosts
}

/// What the record of a capture holds, read again.
#[derive(Debug, Default)]
struct Reread {
    content_type: Option<String>,
    truncated: Option<String>,
    digest: Option<String>,
    body: Option<Result<crate::read::Bounded, String>>,
}

/// Reads the capture's record again: its header fields and, with `body`, the decoded payload
/// (for a revisit, the payload of the response it refers to).
fn reread(files: &[WarcFile], c: &Capture, body: bool) -> Result<Reread, String> {
    let path = &files[c.file as usize].path;
    if c.kind == Kind::NoResponse {
        return Ok(Reread::default());
    }
    let mut out = reader::read_at(path, c.at, |h, block| {
        let mut r = Reread {
            truncated: h.get("WARC-Truncated").map(str::to_string),
            digest: h.get("WARC-Payload-Digest").map(str::to_string),
            ..Reread::default()
        };
        if let Ok((head, start)) = http::read_head(block) {
            r.content_type = head.content_type.clone();
            if body && c.kind == Kind::Response {
                r.body = Some(http::read_body(&head, start, block));
            }
        }
        r
    })?;
    if body && c.kind == Kind::Revisit {
        out.body = Some(match c.payload {
            None => Err(
                "the revisit record refers to a payload that is not in this WARC file, \
                         so the body is not available"
                    .to_string(),
            ),
            Some(p) => reader::read_at(path, p, |_, block| {
                let (head, start) = http::read_head(block)?;
                if out.content_type.is_none() {
                    out.content_type = head.content_type.clone();
                }
                http::read_body(&head, start, block)
            })
            .and_then(|r| r),
        });
    }
    Ok(out)
}

/// One capture of a host's timeline.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TimelineEntry {
    /// `WARC-Date` of the chain's start (RFC 3339).
    pub date: String,
    /// The final status (none: no response).
    pub status: Option<u16>,
    /// Redirects followed.
    pub redirects: usize,
    /// Bytes of the decoded body of the final answer, when read.
    pub bytes: Option<u64>,
    /// `WARC-Payload-Digest` of the final answer.
    pub digest: Option<String>,
    /// Rule lines added since the capture before (`user-agent list: allow|disallow pattern`).
    #[serde(skip)]
    pub added: Vec<String>,
    /// Rule lines removed since the capture before.
    #[serde(skip)]
    pub removed: Vec<String>,
    /// Rule changes beyond those listed.
    #[serde(skip)]
    pub more_changes: usize,
}

/// A host's fetch, read from its captures.
#[derive(Debug)]
pub struct Fetched {
    /// The fetch record of the latest chain, as a sidecar would give it.
    pub sidecar: Sidecar,
    /// The body of the latest chain's final answer when it is a 2xx (or the error reading it).
    pub body: Option<Result<crate::read::Bounded, String>>,
    /// Notes on the capture (a truncated record, a revisit whose payload is missing).
    pub notes: Vec<String>,
    /// The captures, oldest first (at most [`MAX_TIMELINE`], the latest).
    pub timeline: Vec<TimelineEntry>,
    /// Captures left out of the timeline (older ones).
    pub older: usize,
}

/// The rule lines of a file, in the reading, as `agents: kind pattern`.
fn rule_lines(b: &crate::read::Bounded, reading: crate::Reading) -> Vec<String> {
    let robots = b.parse();
    let policy = robots.policy(reading);
    let mut out = Vec::new();
    for g in &policy.groups {
        let agents: Vec<String> = g
            .user_agents
            .iter()
            .map(|u| robots.text(u.value).into_owned())
            .collect();
        let agents = agents.join(", ");
        for r in g.rules.iter().filter(|r| !r.derived) {
            let kind = match r.kind {
                crate::groups::RuleKind::Allow => "allow",
                crate::groups::RuleKind::Disallow => "disallow",
            };
            out.push(format!("{agents}: {kind} {}", robots.text(r.value)));
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Reads a host's captures again: the fetch record and body of the latest chain, and the
/// timeline of its captures with the rules added and removed between consecutive ones (in
/// `reading`).
pub fn fetch(h: &HostCaptures, reading: crate::Reading) -> Fetched {
    let mut notes = Vec::new();
    let chain = h.latest();
    let mut sidecar = Sidecar::default();
    let mut body = None;
    if let (Some(start), Some(last)) = (chain.first(), chain.last()) {
        sidecar.url = Some(start.url.to_string());
        sidecar.fetched_at = Some(start.date()).filter(|d| !d.is_empty());
        sidecar.redirects = chain[..chain.len() - 1]
            .iter()
            .map(|c| Redirect {
                status: c.status,
                location: c.location.as_deref().map(str::to_string),
            })
            .collect();
        if last.kind == Kind::NoResponse {
            sidecar.error = Some(NO_RESPONSE.to_string());
        } else {
            sidecar.status = last.status.filter(|s| (100..=599).contains(s));
        }
        let wants_body = sidecar.status.is_some_and(|s| (200..300).contains(&s));
        match reread(&h.files, last, wants_body) {
            Ok(r) => {
                sidecar.content_type = r.content_type;
                if let Some(t) = r.truncated {
                    notes.push(format!(
                        "The WARC record of the final answer is marked truncated \
                         (WARC-Truncated: {t}): the crawler kept only part of the body, so rules \
                         past the cut are missing."
                    ));
                }
                body = r.body;
                if last.kind == Kind::Revisit && last.payload.is_none() {
                    // Not a failure to read: the capture only points to a payload elsewhere.
                    notes.push(
                        "The capture is a revisit record whose payload (an earlier response) is \
                         not in this WARC file, so the body is not available."
                            .into(),
                    );
                    body = None;
                }
            }
            Err(e) => notes.push(format!("The WARC record could not be read again: {e}.")),
        }
    }
    // The timeline: the latest chains, each final answer read again.
    let older = h.chains.len().saturating_sub(MAX_TIMELINE);
    let mut timeline = Vec::new();
    let mut prev: Option<Vec<String>> = None;
    if h.chains.len() > 1 {
        for c in &h.chains[older..] {
            let (Some(start), Some(last)) = (c.first(), c.last()) else {
                continue;
            };
            let status = if last.kind == Kind::NoResponse {
                None
            } else {
                last.status
            };
            let ok = status.is_some_and(|s| (200..300).contains(&s));
            let r = reread(&h.files, last, ok).unwrap_or_default();
            let body = r.body.and_then(Result::ok);
            let rules = body.as_ref().map(|b| rule_lines(b, reading));
            let mut e = TimelineEntry {
                date: start.date(),
                status,
                redirects: c.len() - 1,
                bytes: body
                    .as_ref()
                    .map(|b| b.size.unwrap_or(b.bytes.len() as u64)),
                digest: r.digest,
                added: Vec::new(),
                removed: Vec::new(),
                more_changes: 0,
            };
            if let (Some(before), Some(now)) = (&prev, &rules) {
                let added: Vec<String> = now
                    .iter()
                    .filter(|l| before.binary_search(l).is_err())
                    .cloned()
                    .collect();
                let removed: Vec<String> = before
                    .iter()
                    .filter(|l| now.binary_search(l).is_err())
                    .cloned()
                    .collect();
                let total = added.len() + removed.len();
                e.added = added.into_iter().take(MAX_RULE_CHANGES).collect();
                e.removed = removed
                    .into_iter()
                    .take(MAX_RULE_CHANGES - e.added.len().min(MAX_RULE_CHANGES))
                    .collect();
                e.more_changes = total - e.added.len() - e.removed.len();
            }
            if rules.is_some() {
                prev = rules;
            }
            timeline.push(e);
        }
    }
    Fetched {
        sidecar,
        body,
        notes,
        timeline,
        older,
    }
}

/// A capture as `lint` and `check` read it: a name and where its payload is.
#[derive(Clone, Debug)]
pub struct CaptureInput {
    /// The WARC file.
    pub path: PathBuf,
    /// `FILE#URL@DATE`.
    pub name: String,
    /// Where the payload's record is (the response, or the one a revisit refers to).
    pub payload: Location,
}

impl CaptureInput {
    /// Reads the capture's body (decoded, bounded as every input is).
    ///
    /// # Errors
    /// A message when the record cannot be read again or its body does not decode.
    pub fn read(&self) -> Result<crate::read::Bounded, String> {
        reader::read_at(&self.path, self.payload, |_, block| {
            let (head, start) = http::read_head(block)?;
            http::read_body(&head, start, block)
        })
        .and_then(|r| r)
    }
}

/// The inputs `lint` and `check` take from a WARC file: every successful (2xx) robots.txt
/// capture whose body is in the file, in file order, and an error for each damaged record
/// (`FILE@OFFSET`), or one error when the file holds no such capture.
pub fn lint_inputs(path: &Path, shown: &str) -> Vec<Result<CaptureInput, (String, String)>> {
    let s = match scan(path, 0) {
        Ok(s) => s,
        Err(e) => return vec![Err((shown.to_string(), e.to_string()))],
    };
    let mut out: Vec<Result<CaptureInput, (String, String)>> = s
        .corrupt
        .iter()
        .map(|c| Err((format!("{shown}@{}", c.offset), c.message.clone())))
        .collect();
    let mut n = 0;
    for c in &s.captures {
        let ok = c.status.is_some_and(|st| (200..300).contains(&st));
        if let (true, Some(p)) = (ok, c.payload) {
            n += 1;
            out.push(Ok(CaptureInput {
                path: path.to_path_buf(),
                name: c.name(shown),
                payload: p,
            }));
        }
    }
    if n == 0 && out.is_empty() {
        out.push(Err((
            shown.to_string(),
            format!(
                "no successful robots.txt capture in this WARC file ({} records, {} not robots.txt \
                 captures)",
                s.records, s.other
            ),
        )));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cap(i: u64, url: &str, time: i64, status: u16, location: Option<&str>) -> Capture {
        Capture {
            file: 0,
            at: Location {
                offset: i,
                inner: 0,
            },
            payload: None,
            kind: Kind::Response,
            url: url.into(),
            time: Some(time),
            date_raw: None,
            status: Some(status),
            location: location.map(Box::from),
        }
    }

    fn files() -> Arc<Vec<WarcFile>> {
        Arc::new(vec![WarcFile {
            path: PathBuf::from("x.warc"),
            rel: "x.warc".into(),
        }])
    }

    #[test]
    fn a_redirect_loop_stops_after_six_hops() {
        let a = "https://a.example/robots.txt";
        let b = "https://b.example/robots.txt";
        let hosts = group(
            vec![cap(0, a, 10, 301, Some(b)), cap(1, b, 11, 302, Some(a))],
            &files(),
        );
        // Each is redirected to by the other: both start a chain, each around the loop.
        assert_eq!(hosts.len(), 1, "the first chain reaches both; {hosts:?}");
        assert_eq!(hosts[0].host, "a.example");
        assert_eq!(hosts[0].latest().len(), crate::fetch::REDIRECT_HOPS + 2);
    }

    #[test]
    fn the_nearest_later_capture_of_a_target_continues_a_chain() {
        let a = "http://a.example/robots.txt";
        let b = "https://a.example/robots.txt";
        let hosts = group(
            vec![
                cap(0, b, 5, 503, None),
                cap(1, a, 10, 301, Some("https://a.example/robots.txt")),
                cap(2, b, 12, 200, None),
                cap(3, b, 50, 404, None),
            ],
            &files(),
        );
        assert_eq!(hosts.len(), 1);
        let h = &hosts[0];
        // Chains by date: the 503 (5), the redirect (10 → 12), the 404 (50): the last decides.
        let finals: Vec<Option<u16>> = h.chains.iter().map(|c| c.last().unwrap().status).collect();
        assert_eq!(finals, vec![Some(503), Some(200), Some(404)]);
        assert_eq!(h.chains[1].len(), 2);
        assert_eq!(h.scheme, "https");
    }

    #[test]
    fn warc_names() {
        assert!(is_warc_name(Path::new("a/CRAWL.WARC.GZ")));
        assert!(is_warc_name(Path::new("x.warc")));
        assert!(!is_warc_name(Path::new("x.warc.txt")));
        assert!(!is_warc_name(Path::new("x.gz")));
    }
}
