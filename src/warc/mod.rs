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
//! [`reader`] reads it in a few hundred lines, bounded, with `flate2` (already used here)
//! for gzip members; the HTTP header block is parsed by `httparse` ([`http`]).
//!
//! **Two passes, bounded memory.** [`collect`] reads each file once (files in parallel, rayon)
//! and writes, per robots.txt capture, only compact metadata ([`Capture`]: URL, time, status,
//! `Location` of redirects, where the record lies) to anonymous temporary files; every other
//! record is counted and skipped. Revisits and unanswered requests are resolved against those
//! files a batch at a time, the redirect chains are assembled among the captures a redirect
//! involves, and every capture goes through an external sort by host into a store of the
//! hosts' captures ([`HostStore`], [`HostCaptures`]), so what is held in memory does not grow
//! with the number of captures (see [`spill`]). When a host is processed, [`fetch`] reads its
//! captures' records again by offset (a gzip member per record can be read on its own) and
//! builds the same fetch record a YAML sidecar gives ([`crate::fetch::sidecar::Sidecar`]), so
//! the outcome, the redirect chain and the cache age come from [`crate::fetch::assess`]
//! exactly as for sidecars.
//!
//! **What is a capture.** A `response` record whose `WARC-Target-URI` is an http(s) URL with
//! the path `/robots.txt`; a `revisit` record of such a URL (its payload is the earlier
//! response it refers to, by `WARC-Refers-To-Target-URI` and `-Date` or by payload digest, when
//! that response is in the same file; one that records a 304 (Not Modified), by its HTTP answer
//! or its `server-not-modified` profile, keeps the 304 as its answer and that response as the
//! cached copy it confirms); and a `request` of such a URL that no response answers
//! (no response recorded: the fetch got no answer, taken as a network error). A redirect is a
//! capture of its own; a chain follows each `Location` to the capture of that URL nearest in
//! time, for at most [`crate::fetch::REDIRECT_HOPS`] + 1 hops. A chain starts at a capture that
//! no other capture redirects to, and its start URL names the host, as a sidecar's `url` does
//! (`host`, with `:port` when not the scheme's default).

pub mod http;
pub mod reader;
mod spill;

pub use spill::HostStore;
use spill::{Dec, Enc, Sorter, Spill};

use crate::fetch::NOT_MODIFIED;
use crate::fetch::sidecar::{Cached, Redirect, Sidecar, format_time, parse_time};
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
    let name = p.file_name().map_or(&[][..], |n| n.as_encoded_bytes());
    let ends_with = |suffix: &[u8]| {
        name.len() >= suffix.len() && name[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
    };
    ends_with(b".warc") || ends_with(b".warc.gz")
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

/// The `WARC-Profile` URIs of a revisit that records a 304 (Not Modified) answer to a
/// conditional request: WARC 1.1 §6.7.3 and its WARC 1.0 counterpart.
pub const NOT_MODIFIED_PROFILES: [&str; 2] = [
    "http://netpreserve.org/warc/1.1/revisit/server-not-modified",
    "http://netpreserve.org/warc/1.0/revisit/server-not-modified",
];

/// Whether a record's `WARC-Profile` is one of [`NOT_MODIFIED_PROFILES`].
fn is_not_modified_profile(h: &Header) -> bool {
    h.get("WARC-Profile").is_some_and(|p| {
        let p = p.trim().trim_start_matches('<').trim_end_matches('>');
        NOT_MODIFIED_PROFILES
            .iter()
            .any(|n| p.eq_ignore_ascii_case(n))
    })
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

/// Items the reading of one WARC file holds in memory at a time: requests not yet answered,
/// and the revisits or requests looked up in one pass over the file's spilled captures.
const BATCH: usize = 100_000;

/// Bytes of records the grouping by host sorts in memory before it writes a sorted run.
const SORT_BYTES: usize = 16 << 20;

/// A request record of a robots.txt URL, until it is known whether a response answers it.
struct Request {
    url: Box<str>,
    at: Location,
    time: Option<i64>,
    date_raw: Option<Box<str>>,
    id: Option<u128>,
    concurrent: Option<u128>,
}

impl Request {
    fn encode<'e>(&self, e: &'e mut Enc) -> &'e [u8] {
        e.clear()
            .str(&self.url)
            .loc(self.at)
            .time(self.time)
            .text(self.date_raw.as_deref())
            .key(self.id)
            .key(self.concurrent);
        &e.0
    }

    fn decode(rec: &[u8]) -> std::io::Result<Request> {
        let mut d = Dec(rec);
        Ok(Request {
            url: d.str()?.into(),
            at: d.loc()?,
            time: d.time()?,
            date_raw: d.text()?,
            id: d.key()?,
            concurrent: d.key()?,
        })
    }
}

/// The robots.txt captures of one WARC file, spilled to temporary files.
struct FileSpill {
    /// Responses and revisits ([`Spill`] records of [`Enc::capture`]), in file order.
    caps: Spill,
    /// Per revisit whose payload is in the file, in file order: its index in `caps`, where the
    /// payload lies and the status of the response it refers to.
    resolved: Spill,
    /// Requests that no response answers, as captures.
    missing: Spill,
    /// Records read.
    records: u64,
    /// Records that are not robots.txt captures.
    other: u64,
    /// Damaged records and members.
    corrupt: Vec<Corrupt>,
}

/// A record of [`FileSpill::resolved`].
fn read_resolved(rec: Option<&[u8]>) -> std::io::Result<Option<(u64, Location, Option<u16>)>> {
    rec.map(|r| {
        let mut d = Dec(r);
        Ok((d.u64()?, d.loc()?, d.status()?))
    })
    .transpose()
}

impl FileSpill {
    /// The number of captures.
    fn captures(&self) -> u64 {
        self.caps.len() + self.missing.len()
    }

    /// Hands every capture to `f`: the responses and revisits in file order (each revisit with
    /// the payload it refers to), then the requests without a response.
    fn each(&mut self, f: &mut dyn FnMut(Capture) -> std::io::Result<()>) -> std::io::Result<()> {
        let mut resolved = self.resolved.reader()?;
        let mut next = read_resolved(resolved.next()?)?;
        let mut caps = self.caps.reader()?;
        let mut i = 0u64;
        while let Some(rec) = caps.next()? {
            let mut c = Dec(rec).capture()?;
            if let Some((j, payload, status)) = next
                && j == i
            {
                c.payload = Some(payload);
                // A revisit that records no HTTP answer of its own repeats the earlier one's.
                if c.status.is_none() {
                    c.status = status;
                }
                next = read_resolved(resolved.next()?)?;
            }
            f(c)?;
            i += 1;
        }
        let mut missing = self.missing.reader()?;
        while let Some(rec) = missing.next()? {
            f(Dec(rec).capture()?)?;
        }
        Ok(())
    }
}

/// What one pass over a WARC file keeps while it reads.
struct ScanState {
    file: u32,
    batch: usize,
    out: FileSpill,
    /// Per response, in file order: its index, where it lies, its status, and the keys of its
    /// payload digest and of (URL, date).
    responses: Spill,
    /// Per revisit, in file order: its index, the key of its payload digest and of the
    /// response it names (URL, date).
    revisits: Spill,
    /// Record ids of robots.txt responses and the records they name as concurrent (keys).
    linked: Spill,
    /// Requests that may lack a response.
    requests: Spill,
    /// Requests not yet answered, by record id. A response that names a request as concurrent
    /// answers it at once, so few wait here; past [`ScanState::batch`] they go to `requests`.
    pending: rustc_hash::FxHashMap<u128, Request>,
    /// Responses and revisits so far.
    n: u64,
    enc: Enc,
}

impl ScanState {
    /// Moves the pending requests to the spill of requests, in file order.
    fn flush_pending(&mut self) -> std::io::Result<()> {
        let mut waiting: Vec<Request> = std::mem::take(&mut self.pending).into_values().collect();
        waiting.sort_unstable_by_key(|r| r.at);
        for r in waiting {
            self.requests.push(r.encode(&mut self.enc))?;
        }
        Ok(())
    }

    fn visit(&mut self, e: Event<'_>) -> std::io::Result<()> {
        let (at, h, block) = match e {
            Event::Corrupt(c) => {
                self.out.corrupt.push(c);
                return Ok(());
            }
            Event::Record(at, h, block) => (at, h, block),
        };
        self.out.records += 1;
        let kind = h.record_type();
        let Some(url) =
            target_of(h).filter(|_| matches!(kind.as_str(), "response" | "revisit" | "request"))
        else {
            self.out.other += 1;
            return Ok(());
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
                Some(id) if !self.pending.contains_key(&id) => {
                    self.pending.insert(id, r);
                    if self.pending.len() > self.batch {
                        self.flush_pending()?;
                    }
                }
                _ => self.requests.push(r.encode(&mut self.enc))?,
            }
            return Ok(());
        }
        if let Some(v) = h.get("WARC-Record-ID") {
            self.linked.push(&key(&[v]).to_le_bytes())?;
        }
        if let Some(v) = h.get("WARC-Concurrent-To") {
            let k = key(&[v]);
            // A request read earlier is answered now; one read later finds the key in
            // `linked`.
            self.pending.remove(&k);
            self.linked.push(&k.to_le_bytes())?;
        }
        let http = if kind == "revisit" && h.get("Content-Length").is_some_and(|l| l.trim() == "0")
        {
            None
        } else {
            match http::read_head(block) {
                Ok((head, _)) => Some(head),
                Err(_) if kind == "revisit" => None,
                Err(m) => {
                    self.out.corrupt.push(Corrupt {
                        at,
                        message: format!("{url}: {m}"),
                    });
                    return Ok(());
                }
            }
        };
        // A server-not-modified revisit that records no HTTP answer of its own still records a
        // 304: the profile says so.
        let status = http
            .as_ref()
            .map(|h| h.status)
            .or_else(|| (kind == "revisit" && is_not_modified_profile(h)).then_some(NOT_MODIFIED));
        let location = http
            .as_ref()
            .filter(|h| (300..400).contains(&h.status))
            .and_then(|h| h.location.as_deref())
            .map(Box::from);
        let (kind, payload) = if kind == "response" {
            let digest = h.get("WARC-Payload-Digest").map(|d| key(&[d]));
            let url_date = h.get("WARC-Date").map(|d| key(&[&url, d]));
            self.enc
                .clear()
                .u64(self.n)
                .loc(at)
                .status(status)
                .key(digest)
                .key(url_date);
            self.responses.push(&self.enc.0)?;
            (Kind::Response, Some(at))
        } else {
            let refers = h.get("WARC-Refers-To-Target-URI").and_then(|u| {
                let u = url::Url::parse(u.trim_matches(|c| c == '<' || c == '>')).ok()?;
                Some(key(&[u.as_str(), h.get("WARC-Refers-To-Date")?]))
            });
            let digest = h.get("WARC-Payload-Digest").map(|d| key(&[d]));
            self.enc.clear().u64(self.n).key(digest).key(refers);
            self.revisits.push(&self.enc.0)?;
            (Kind::Revisit, None)
        };
        let c = Capture {
            file: self.file,
            at,
            payload,
            kind,
            url,
            time,
            date_raw,
            status,
            location,
        };
        self.out.caps.push(&self.enc.clear().capture(&c).0)?;
        self.n += 1;
        Ok(())
    }

    /// A revisit's payload is the earlier response it names: looked up a batch of revisits at
    /// a time in one pass over the responses.
    fn resolve_revisits(&mut self) -> std::io::Result<()> {
        type First = Option<(u64, Location, Option<u16>)>;
        let mut revisits = self.revisits.reader()?;
        loop {
            let mut batch: Vec<(u64, Option<u128>, Option<u128>)> = Vec::new();
            while batch.len() < self.batch
                && let Some(rec) = revisits.next()?
            {
                let mut d = Dec(rec);
                batch.push((d.u64()?, d.key()?, d.key()?));
            }
            if batch.is_empty() {
                return Ok(());
            }
            // The first response of each key the batch names: (index, where, status).
            let mut by_digest: rustc_hash::FxHashMap<u128, First> = Default::default();
            let mut by_url_date: rustc_hash::FxHashMap<u128, First> = Default::default();
            for &(_, digest, refers) in &batch {
                if let Some(k) = digest {
                    by_digest.insert(k, None);
                }
                if let Some(k) = refers {
                    by_url_date.insert(k, None);
                }
            }
            let mut responses = self.responses.reader()?;
            while let Some(rec) = responses.next()? {
                let mut d = Dec(rec);
                let (j, at, status) = (d.u64()?, d.loc()?, d.status()?);
                let (digest, url_date) = (d.key()?, d.key()?);
                for (k, map) in [(digest, &mut by_digest), (url_date, &mut by_url_date)] {
                    if let Some(k) = k
                        && let Some(slot @ None) = map.get_mut(&k)
                    {
                        *slot = Some((j, at, status));
                    }
                }
            }
            for (i, digest, refers) in batch {
                let found = refers
                    .and_then(|k| by_url_date.get(&k).copied().flatten())
                    .or_else(|| digest.and_then(|d| by_digest.get(&d).copied().flatten()))
                    .filter(|&(j, ..)| j < i);
                if let Some((_, at, status)) = found {
                    self.enc.clear().u64(i).loc(at).status(status);
                    self.out.resolved.push(&self.enc.0)?;
                }
            }
        }
    }

    /// Requests that no response answers, by link (`WARC-Concurrent-To` either way) or by time
    /// (a response or revisit of the URL within [`ANSWER_WINDOW`]): looked up a batch of
    /// requests at a time in one pass over the links and one over the captures.
    fn resolve_requests(&mut self) -> std::io::Result<()> {
        /// A URL's requests of a batch, and what the captures of the URL answer.
        #[derive(Default)]
        struct Times {
            /// (time, index in the batch), sorted.
            timed: Vec<(i64, u32)>,
            /// Requests without a time.
            untimed: Vec<u32>,
            /// Per place in `timed`: answering windows that open there, less those that close.
            opens: Vec<i32>,
            /// Whether the URL has a capture, and one without a time.
            any: bool,
            any_untimed: bool,
        }
        let mut requests = self.requests.reader()?;
        loop {
            let mut batch = Vec::new();
            while batch.len() < self.batch
                && let Some(rec) = requests.next()?
            {
                batch.push(Request::decode(rec)?);
            }
            if batch.is_empty() {
                return Ok(());
            }
            let mut answered = vec![false; batch.len()];
            let mut by_key: rustc_hash::FxHashMap<u128, Vec<u32>> = Default::default();
            for (i, r) in batch.iter().enumerate() {
                for k in [r.id, r.concurrent].into_iter().flatten() {
                    by_key.entry(k).or_default().push(i as u32);
                }
            }
            let mut linked = self.linked.reader()?;
            while let Some(rec) = linked.next()? {
                if let Some(v) = by_key.get(&Dec(rec).u128()?) {
                    for &i in v {
                        answered[i as usize] = true;
                    }
                }
            }
            drop(by_key);
            let mut by_url: rustc_hash::FxHashMap<u128, Times> = Default::default();
            for (i, r) in batch.iter().enumerate() {
                let t = by_url.entry(key(&[&r.url])).or_default();
                match r.time {
                    Some(rt) => t.timed.push((rt, i as u32)),
                    None => t.untimed.push(i as u32),
                }
            }
            for t in by_url.values_mut() {
                t.timed.sort_unstable();
                t.opens = vec![0; t.timed.len() + 1];
            }
            let mut caps = self.out.caps.reader()?;
            while let Some(rec) = caps.next()? {
                let c = Dec(rec).capture()?;
                let Some(t) = by_url.get_mut(&key(&[&c.url])) else {
                    continue;
                };
                t.any = true;
                match c.time {
                    None => t.any_untimed = true,
                    Some(ct) => {
                        // It answers the requests at rt with rt - 1 <= ct <= rt + window.
                        let lo = t
                            .timed
                            .partition_point(|&(rt, _)| rt < ct.saturating_sub(ANSWER_WINDOW));
                        let hi = t
                            .timed
                            .partition_point(|&(rt, _)| rt <= ct.saturating_add(1));
                        if lo < hi {
                            t.opens[lo] += 1;
                            t.opens[hi] -= 1;
                        }
                    }
                }
            }
            for t in by_url.values() {
                let mut open = 0;
                for (k, &(_, i)) in t.timed.iter().enumerate() {
                    open += t.opens[k];
                    if open > 0 || t.any_untimed {
                        answered[i as usize] = true;
                    }
                }
                if t.any {
                    for &i in &t.untimed {
                        answered[i as usize] = true;
                    }
                }
            }
            for (r, _) in batch.into_iter().zip(answered).filter(|(_, a)| !a) {
                let c = Capture {
                    file: self.file,
                    at: r.at,
                    payload: None,
                    kind: Kind::NoResponse,
                    url: r.url,
                    time: r.time,
                    date_raw: r.date_raw,
                    status: None,
                    location: None,
                };
                self.out.missing.push(&self.enc.clear().capture(&c).0)?;
            }
        }
    }
}

/// Reads the WARC file at `path` once (index `file` in the collection) and spills its robots.txt
/// captures' metadata to temporary files in `dir`; revisits are resolved and unanswered
/// requests found within the file, `batch` items at a time.
///
/// The outer error is one of the temporary files; the inner one the I/O error of opening or
/// reading the WARC file (damaged records are in [`FileSpill::corrupt`]).
fn scan_to(
    path: &Path,
    file: u32,
    dir: &Path,
    batch: usize,
) -> std::io::Result<std::io::Result<FileSpill>> {
    let mut st = ScanState {
        file,
        batch: batch.max(1),
        out: FileSpill {
            caps: Spill::new(dir)?,
            resolved: Spill::new(dir)?,
            missing: Spill::new(dir)?,
            records: 0,
            other: 0,
            corrupt: Vec::new(),
        },
        responses: Spill::new(dir)?,
        revisits: Spill::new(dir)?,
        linked: Spill::new(dir)?,
        requests: Spill::new(dir)?,
        pending: Default::default(),
        n: 0,
        enc: Enc::default(),
    };
    let mut failed = None;
    let read = reader::scan(path, &mut |e| {
        if failed.is_none()
            && let Err(err) = st.visit(e)
        {
            failed = Some(err);
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    if let Err(e) = read {
        return Ok(Err(e));
    }
    st.flush_pending()?;
    st.resolve_revisits()?;
    st.resolve_requests()?;
    Ok(Ok(st.out))
}

/// A WARC file of a collection.
#[derive(Clone, Debug)]
pub struct WarcFile {
    /// Its path, to read it again.
    pub path: PathBuf,
    /// Its name for display: relative to the input directory (or as given).
    pub rel: String,
}

/// The captures of one host: its latest chains, oldest first (by the start's `WARC-Date`; the
/// last decides the host's row). At most [`MAX_TIMELINE`] chains are kept, so a host captured
/// a million times costs no more than one captured twenty times; the rest are counted.
#[derive(Clone, Debug)]
pub struct HostCaptures {
    /// The host name, as a sidecar's `url` gives it: `host[:port]`, lower-cased.
    pub host: String,
    /// The scheme of the latest chain's start URL (`http` or `https`).
    pub scheme: &'static str,
    /// The chains: each the start capture, then the capture each redirect led to (the latest
    /// [`MAX_TIMELINE`] at most).
    pub chains: Vec<Vec<Capture>>,
    /// Chains older than those kept, counted only.
    pub older: u64,
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
#[derive(Debug)]
pub struct Collection {
    /// The hosts, sorted by name, on disk: each read again when it is processed.
    pub hosts: HostStore,
    /// Counts.
    pub counts: Counts,
    /// Damaged records: the file's display name, offset and message; and files that could not
    /// be read (offset 0, the I/O error).
    pub corrupt: Vec<(String, Corrupt)>,
}

/// Scans `files` in parallel, assembles redirect chains across them and groups the chains by
/// host (see the module documentation). What the reading keeps goes to anonymous temporary
/// files in `dir`, the hosts' captures too ([`Collection::hosts`]); `on_host` sees each host
/// as it is stored, in host order.
///
/// # Errors
/// The I/O error of a temporary file, or the error `on_host` returns. A WARC file that cannot
/// be read is an entry of [`Collection::corrupt`] instead.
pub fn collect(
    files: Vec<WarcFile>,
    dir: &Path,
    on_host: &mut dyn FnMut(&HostCaptures) -> std::io::Result<()>,
) -> std::io::Result<Collection> {
    collect_with(files, dir, BATCH, SORT_BYTES, on_host)
}

/// [`collect`] with `batch` items per lookup pass and `sort_bytes` of records sorted in memory.
fn collect_with(
    files: Vec<WarcFile>,
    dir: &Path,
    batch: usize,
    sort_bytes: usize,
    on_host: &mut dyn FnMut(&HostCaptures) -> std::io::Result<()>,
) -> std::io::Result<Collection> {
    let scans: Vec<std::io::Result<std::io::Result<FileSpill>>> = files
        .par_iter()
        .enumerate()
        .map(|(i, f)| scan_to(&f.path, i as u32, dir, batch))
        .collect();
    let mut counts = Counts {
        files: files.len(),
        ..Counts::default()
    };
    let mut corrupt = Vec::new();
    let mut spills = Vec::new();
    for (f, s) in files.iter().zip(scans) {
        match s? {
            Ok(mut s) => {
                counts.records += s.records;
                counts.skipped_records += s.other;
                corrupt.extend(
                    std::mem::take(&mut s.corrupt)
                        .into_iter()
                        .map(|c| (f.rel.clone(), c)),
                );
                spills.push(s);
            }
            Err(e) => corrupt.push((
                f.rel.clone(),
                Corrupt {
                    at: Location::default(),
                    message: format!("the file could not be read: {e}"),
                },
            )),
        }
    }
    counts.captures = spills.iter().map(FileSpill::captures).sum();
    counts.corrupt = corrupt.len();
    let files = Arc::new(files);
    let mut store = spill::HostStoreWriter::new(dir)?;
    group(&mut spills, dir, sort_bytes, &files, &mut |h| {
        on_host(&h)?;
        store.push(&h)
    })?;
    Ok(Collection {
        hosts: store.finish(files)?,
        counts,
        corrupt,
    })
}

/// Where a capture lies: its file and record (no two captures share one). Captures in this
/// order are in the order of the collection (files, then file order).
type Place = (u32, Location);

/// Every capture of a collection, handed over in one pass each time it is asked.
trait Captures {
    /// Hands every capture to `f`.
    fn each(&mut self, f: &mut dyn FnMut(Capture) -> std::io::Result<()>) -> std::io::Result<()>;
}

impl Captures for Vec<FileSpill> {
    fn each(&mut self, f: &mut dyn FnMut(Capture) -> std::io::Result<()>) -> std::io::Result<()> {
        for s in self {
            s.each(f)?;
        }
        Ok(())
    }
}

/// The host a capture's URL names (`host[:port]`), if any.
fn host_of(url: &str) -> Option<String> {
    crate::fetch::host_name(&url::Url::parse(url).ok()?)
}

/// The sort key of a chain that starts at a capture of `host`: the host (then a NUL, which no
/// host holds), the start's date (none first) and place; a member's key adds its place in the
/// chain (one byte).
fn chain_key(host: &str, time: Option<i64>, place: Place) -> Vec<u8> {
    let mut k = Vec::with_capacity(host.len() + 30);
    k.extend_from_slice(host.as_bytes());
    k.push(0);
    match time {
        None => k.push(0),
        Some(t) => {
            k.push(1);
            k.extend_from_slice(&((t as u64) ^ (1 << 63)).to_be_bytes());
        }
    }
    k.extend_from_slice(&place.0.to_be_bytes());
    k.extend_from_slice(&place.1.offset.to_be_bytes());
    k.extend_from_slice(&place.1.inner.to_be_bytes());
    k
}

/// Per capture a redirect involves, the chains that hold it (the chain's index in the keys, the
/// capture's place in the chain); and per chain, its sort key ([`chain_key`]; none when its
/// start URL names no host).
type ChainMembers = (
    rustc_hash::FxHashMap<Place, Vec<(u32, u8)>>,
    Vec<Option<Vec<u8>>>,
);

/// Assembles chains and groups them by host, handing each host to `out` in host order.
///
/// Only the captures a redirect involves are kept in memory (the redirects and the captures of
/// the URLs they lead to, a few hundred bytes each): each follows its `Location` to the capture
/// of that URL nearest in time, and the chains are assembled among them ([`chain_members`]).
/// Every capture then goes, as one record per chain that holds it, to an external sort by
/// (host, the chain start's date, file and place, place in the chain), whose merge gives the
/// hosts one at a time ([`merge_hosts`]).
fn group(
    all: &mut dyn Captures,
    dir: &Path,
    sort_bytes: usize,
    files: &Arc<Vec<WarcFile>>,
    out: &mut dyn FnMut(HostCaptures) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let (members, keys) = chain_members(all)?;
    // Every capture, once per chain that holds it, sorted by host and chain.
    let mut sorter = Sorter::new(dir, sort_bytes);
    let mut enc = Enc::default();
    all.each(&mut |c| {
        enc.clear().capture(&c);
        match members.get(&(c.file, c.at)) {
            Some(m) => {
                for &(chain, pos) in m {
                    if let Some(Some(k)) = keys.get(chain as usize) {
                        let mut k = k.clone();
                        k.push(pos);
                        sorter.push(&k, &enc.0)?;
                    }
                }
            }
            None => {
                if let Some(h) = host_of(&c.url) {
                    let mut k = chain_key(&h, c.time, (c.file, c.at));
                    k.push(0);
                    sorter.push(&k, &enc.0)?;
                }
            }
        }
        Ok(())
    })?;
    drop(members);
    drop(keys);
    merge_hosts(sorter.finish()?, files, out)
}

/// The chains among the captures a redirect involves (see [`group`]): two passes over `all`
/// find the redirects and the captures of the URLs they lead to; each redirect follows its
/// `Location` to the nearest capture in time, for at most [`crate::fetch::REDIRECT_HOPS`] + 1
/// hops.
fn chain_members(all: &mut dyn Captures) -> std::io::Result<ChainMembers> {
    #[derive(Clone)]
    struct Node {
        place: Place,
        url: Box<str>,
        time: Option<i64>,
    }
    // The redirects, each with the key of the URL its `Location` leads to.
    let mut sources: Vec<(Node, u128)> = Vec::new();
    let mut targets: rustc_hash::FxHashMap<u128, Vec<Node>> = Default::default();
    all.each(&mut |c| {
        if let Some(loc) = c.location.as_deref()
            && let Ok(base) = url::Url::parse(&c.url)
            && let Ok(target) = base.join(loc)
        {
            let k = key(&[target.as_str()]);
            targets.entry(k).or_default();
            sources.push((
                Node {
                    place: (c.file, c.at),
                    url: c.url,
                    time: c.time,
                },
                k,
            ));
        }
        Ok(())
    })?;
    // The captures of those URLs.
    if !targets.is_empty() {
        all.each(&mut |c| {
            if let Some(v) = targets.get_mut(&key(&[&c.url])) {
                v.push(Node {
                    place: (c.file, c.at),
                    url: c.url,
                    time: c.time,
                });
            }
            Ok(())
        })?;
    }
    // The capture each redirect leads to: the nearest in time at or after it, else the latest
    // before it.
    let mut nodes: Vec<Node> = Vec::with_capacity(sources.len() * 2);
    let mut edges: Vec<(Place, Place)> = Vec::with_capacity(sources.len());
    for (s, k) in sources {
        let candidates = targets.get(&k).map_or(&[][..], Vec::as_slice);
        let t = s.time.unwrap_or(i64::MIN);
        let after = candidates
            .iter()
            .filter(|c| c.time.unwrap_or(i64::MIN) >= t)
            .min_by_key(|c| (c.time, c.place.1));
        let before = candidates.iter().max_by_key(|c| (c.time, c.place.1));
        if let Some(n) = after.or(before) {
            edges.push((s.place, n.place));
            nodes.push(n.clone());
        }
        nodes.push(s);
    }
    drop(targets);
    nodes.sort_unstable_by_key(|n| n.place);
    nodes.dedup_by_key(|n| n.place);
    let index: rustc_hash::FxHashMap<Place, u32> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.place, i as u32))
        .collect();
    let mut next: Vec<Option<u32>> = vec![None; nodes.len()];
    for (s, t) in edges {
        if let (Some(&s), Some(&t)) = (index.get(&s), index.get(&t)) {
            next[s as usize] = Some(t);
        }
    }
    drop(index);
    let mut targeted = vec![false; nodes.len()];
    for (i, n) in next.iter().enumerate() {
        if let Some(j) = *n
            && j as usize != i
        {
            targeted[j as usize] = true;
        }
    }
    // The chains: `flat[ends[k-1]..ends[k]]` is chain k. A capture no redirect involves is a
    // chain of its own and is not listed.
    let mut flat: Vec<u32> = Vec::new();
    let mut ends: Vec<u32> = Vec::new();
    let mut reached = vec![false; nodes.len()];
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
    // Captures only reached from one another (a loop): each unreached one starts a chain, in
    // the order of the collection.
    for i in 0..nodes.len() {
        if !reached[i] {
            add_chain(i, &mut flat, &mut reached);
        }
    }
    drop(reached);
    drop(targeted);
    // Per capture a redirect involves: the chains that hold it (index, place in the chain).
    let mut members: rustc_hash::FxHashMap<Place, Vec<(u32, u8)>> =
        nodes.iter().map(|n| (n.place, Vec::new())).collect();
    let mut keys: Vec<Option<Vec<u8>>> = Vec::with_capacity(ends.len());
    let mut begin = 0;
    for (k, &end) in ends.iter().enumerate() {
        let chain = &flat[begin..end as usize];
        begin = end as usize;
        let start = &nodes[chain[0] as usize];
        let key = host_of(&start.url).map(|h| chain_key(&h, start.time, start.place));
        if key.is_some() {
            for (pos, &j) in chain.iter().enumerate() {
                if let Some(m) = members.get_mut(&nodes[j as usize].place) {
                    m.push((k as u32, pos as u8));
                }
            }
        }
        keys.push(key);
    }
    Ok((members, keys))
}

/// Reads the sorted records of [`group`] back, a host at a time: consecutive records of one
/// chain key form a chain, consecutive chains of one host its captures (the latest
/// [`MAX_TIMELINE`] kept, the older counted), and each host goes to `out` when the next begins.
fn merge_hosts(
    mut sorted: spill::Sorted,
    files: &Arc<Vec<WarcFile>>,
    out: &mut dyn FnMut(HostCaptures) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let finish = |mut h: HostCaptures| {
        h.scheme = h.chains.last().and_then(|c| c.first()).map_or("http", |c| {
            if c.url.starts_with("https:") {
                "https"
            } else {
                "http"
            }
        });
        h
    };
    let mut host: Option<HostCaptures> = None;
    let mut chain: Vec<u8> = Vec::new();
    while let Some((k, v)) = sorted.next()? {
        let c = Dec(&v).capture()?;
        let name = &k[..k.iter().position(|&b| b == 0).unwrap_or(k.len())];
        let this_chain = &k[..k.len().saturating_sub(1)];
        if host.as_ref().is_none_or(|h| h.host.as_bytes() != name) {
            if let Some(done) = host.take() {
                out(finish(done))?;
            }
            chain.clear();
            host = Some(HostCaptures {
                host: String::from_utf8_lossy(name).into_owned(),
                scheme: "http",
                chains: Vec::new(),
                older: 0,
                files: files.clone(),
            });
        }
        let Some(h) = host.as_mut() else { continue };
        match h.chains.last_mut() {
            Some(last) if chain == this_chain => last.push(c),
            _ => {
                chain.clear();
                chain.extend_from_slice(this_chain);
                if h.chains.len() == MAX_TIMELINE {
                    // Chains come oldest first: the oldest kept one leaves for the counter.
                    h.chains.remove(0);
                    h.older += 1;
                }
                h.chains.push(vec![c]);
            }
        }
    }
    if let Some(done) = host {
        out(finish(done))?;
    }
    Ok(())
}

/// What the record of a capture holds, read again.
#[derive(Debug, Default)]
struct Reread {
    content_type: Option<String>,
    truncated: Option<String>,
    digest: Option<String>,
    body: Option<Result<crate::read::Bounded, String>>,
    /// For a revisit whose payload was read: the `WARC-Date` (as RFC 3339 when it parses) and
    /// the HTTP status of the response it refers to.
    referred: Option<(Option<String>, u16)>,
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
            Some(p) => reader::read_at(path, p, |h, block| {
                let (head, start) = http::read_head(block)?;
                if out.content_type.is_none() {
                    out.content_type = head.content_type.clone();
                }
                let date = h
                    .get("WARC-Date")
                    .map(|d| parse_time(d).map_or_else(|_| d.trim().to_string(), format_time));
                out.referred = Some((date, head.status));
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

/// Whether a capture is a revisit recording a 304 (Not Modified) whose earlier response is in
/// the file: that response is the copy the 304 confirms.
fn confirms_payload(c: &Capture) -> bool {
    c.kind == Kind::Revisit && c.status == Some(NOT_MODIFIED) && c.payload.is_some()
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
        let not_modified = confirms_payload(last);
        let wants_body = sidecar.status.is_some_and(|s| (200..300).contains(&s)) || not_modified;
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
                if not_modified {
                    // The response the 304 confirms is the cached copy, as a sidecar's
                    // `cached:` records it; the 304 stays the answer.
                    match r.referred {
                        Some((fetched_at, st)) if (200..300).contains(&st) => {
                            sidecar.cached = Some(Cached {
                                fetched_at,
                                status: Some(st),
                            });
                        }
                        Some((_, st)) => {
                            notes.push(format!(
                                "The capture is a revisit record of a 304 (Not Modified) whose \
                                 earlier response was answered {st}, not successfully, so there \
                                 is no file for the 304 to confirm."
                            ));
                            body = None;
                        }
                        None => {}
                    }
                }
            }
            Err(e) => notes.push(format!("The WARC record could not be read again: {e}.")),
        }
    }
    // The timeline: the latest chains, each final answer read again.
    let skip = h.chains.len().saturating_sub(MAX_TIMELINE);
    let older = usize::try_from(h.older)
        .unwrap_or(usize::MAX)
        .saturating_add(skip);
    let mut timeline = Vec::new();
    let mut prev: Option<Vec<String>> = None;
    if h.chains.len() > 1 {
        for c in &h.chains[skip..] {
            let (Some(start), Some(last)) = (c.first(), c.last()) else {
                continue;
            };
            let status = if last.kind == Kind::NoResponse {
                None
            } else {
                last.status
            };
            let not_modified = confirms_payload(last);
            let ok = status.is_some_and(|s| (200..300).contains(&s)) || not_modified;
            let r = reread(&h.files, last, ok).unwrap_or_default();
            // A 304's rules are those of the successful response it confirms.
            let confirmed =
                !not_modified || r.referred.is_some_and(|(_, s)| (200..300).contains(&s));
            let body = r.body.and_then(Result::ok).filter(|_| confirmed);
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

/// Hands `f` the inputs `lint` and `check` take from a WARC file, one at a time: first an
/// error for each damaged record (`FILE@OFFSET`, the message), then every successful (2xx)
/// robots.txt capture whose body is in the file, in file order; or one error when the file
/// cannot be read or holds no such capture. `shown` names the file in the inputs' names.
///
/// The file is read once; what the reading keeps (see [`collect`]) goes to anonymous temporary
/// files in `dir`, and the captures are handed over from there, so memory does not grow with
/// the number of captures.
///
/// # Errors
/// The I/O error of a temporary file, or the first error `f` returns (which stops the walk).
pub fn each_lint_input(
    path: &Path,
    shown: &str,
    dir: &Path,
    f: &mut dyn FnMut(Result<CaptureInput, (String, String)>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut s = match scan_to(path, 0, dir, BATCH)? {
        Ok(s) => s,
        Err(e) => return f(Err((shown.to_string(), e.to_string()))),
    };
    let corrupt = std::mem::take(&mut s.corrupt);
    for c in &corrupt {
        f(Err((format!("{shown}@{}", c.at), c.message.clone())))?;
    }
    let mut n = 0u64;
    s.each(&mut |c| {
        let ok = c.status.is_some_and(|st| (200..300).contains(&st));
        match (ok, c.payload) {
            (true, Some(p)) => {
                n += 1;
                f(Ok(CaptureInput {
                    path: path.to_path_buf(),
                    name: c.name(shown),
                    payload: p,
                }))
            }
            _ => Ok(()),
        }
    })?;
    if n == 0 && corrupt.is_empty() {
        f(Err((
            shown.to_string(),
            format!(
                "no successful robots.txt capture in this WARC file ({} records, {} not robots.txt \
                 captures)",
                s.records, s.other
            ),
        )))?;
    }
    Ok(())
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

    impl Captures for Vec<Capture> {
        fn each(
            &mut self,
            f: &mut dyn FnMut(Capture) -> std::io::Result<()>,
        ) -> std::io::Result<()> {
            self.iter().try_for_each(|c| f(c.clone()))
        }
    }

    /// [`group`] with a sort budget so small that every record is a run of its own.
    fn group(mut captures: Vec<Capture>, files: &Arc<Vec<WarcFile>>) -> Vec<HostCaptures> {
        let dir = tempfile::tempdir().unwrap();
        let mut hosts = Vec::new();
        super::group(&mut captures, dir.path(), 1, files, &mut |h| {
            hosts.push(h);
            Ok(())
        })
        .unwrap();
        hosts
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
    fn a_host_keeps_its_latest_chains_and_counts_the_older_ones() {
        let a = "https://a.example/robots.txt";
        let b = "https://b.example/robots.txt";
        let extra = 7;
        // Out of date order, with a redirect among the oldest and a second host between.
        let mut captures: Vec<Capture> = (0..(MAX_TIMELINE + extra) as u64)
            .rev()
            .map(|i| cap(i, a, 100 + i as i64, 200, None))
            .collect();
        captures.push(cap(500, b, 1, 301, Some(a)));
        let hosts = group(captures, &files());
        assert_eq!(hosts.len(), 2, "{hosts:?}");
        let h = hosts.iter().find(|h| h.host == "a.example").unwrap();
        assert_eq!(h.chains.len(), MAX_TIMELINE);
        // a's oldest capture (time 100) ends b's redirect: it is b's chain, not one of a's.
        assert_eq!(h.older, extra as u64 - 1);
        let times: Vec<i64> = h.chains.iter().map(|c| c[0].time.unwrap()).collect();
        let first = 100 + extra as i64;
        assert_eq!(
            times,
            (first..first + MAX_TIMELINE as i64).collect::<Vec<_>>()
        );
        let b = hosts.iter().find(|h| h.host == "b.example").unwrap();
        assert_eq!((b.chains.len(), b.older, b.latest().len()), (1, 0, 2));
    }

    /// A WARC record (uncompressed).
    fn record(kind: &str, url: &str, date: &str, extra: &[(&str, &str)], block: &str) -> String {
        let mut r = format!(
            "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {url}\r\nWARC-Date: {date}\r\n"
        );
        for (k, v) in extra {
            r.push_str(&format!("{k}: {v}\r\n"));
        }
        r.push_str(&format!(
            "Content-Length: {}\r\n\r\n{block}\r\n\r\n",
            block.len()
        ));
        r
    }

    #[test]
    fn batches_of_one_and_sorted_runs_of_one_record_group_as_one_pass_does() {
        let ok = "HTTP/1.1 200 OK\r\nContent-Length: 14\r\n\r\nUser-agent: *\n";
        let moved = |to: &str| format!("HTTP/1.1 301 Moved\r\nLocation: {to}\r\n\r\n");
        let u = |h: &str| format!("https://{h}.example/robots.txt");
        let d = |s: u32| format!("2024-01-01T00:{:02}:{:02}Z", s / 60, s % 60);
        let refers = format!("{}\u{0}{}", u("a"), d(1));
        let moved_d = moved(&u("d"));
        let moved_y = moved(&u("y"));
        let moved_x = moved(&u("x"));
        /// (type, host, second, fields, block)
        type Rec<'a> = (&'a str, &'a str, u32, &'a [(&'a str, &'a str)], &'a str);
        let records: [Rec; 15] = [
            // A request answered by the response that names it, and one nothing answers.
            ("request", "a", 0, &[("WARC-Record-ID", "<r1>")], "GET"),
            (
                "response",
                "a",
                1,
                &[
                    ("WARC-Concurrent-To", "<r1>"),
                    ("WARC-Payload-Digest", "sha1:X"),
                ],
                ok,
            ),
            ("request", "b", 2, &[("WARC-Record-ID", "<r2>")], "GET"),
            // A redirect across hosts, and a loop of two.
            ("response", "c", 3, &[], &moved_d),
            ("response", "d", 4, &[], ok),
            ("response", "x", 5, &[], &moved_y),
            ("response", "y", 6, &[], &moved_x),
            // Revisits: by the response they name, by digest, and of nothing in the file.
            ("revisit", "a", 7, &[("Refers", &refers)], ""),
            ("revisit", "e", 8, &[("WARC-Payload-Digest", "sha1:X")], ""),
            ("revisit", "f", 9, &[("WARC-Payload-Digest", "sha1:Z")], ""),
            // A response before the request it answers, and one answering by time only.
            ("response", "g", 10, &[("WARC-Concurrent-To", "<r3>")], ok),
            ("request", "g", 10, &[("WARC-Record-ID", "<r3>")], "GET"),
            ("request", "h", 11, &[], "GET"),
            ("response", "h", 12, &[], ok),
            ("request", "h", 2000, &[], "GET"),
        ];
        let mut w = String::new();
        for (kind, host, second, fields, block) in records {
            let mut fields: Vec<(&str, &str)> = fields.to_vec();
            if let Some(&(_, v)) = fields.iter().find(|(k, _)| *k == "Refers") {
                let (url, date) = v.split_once('\u{0}').unwrap();
                fields = vec![
                    ("WARC-Refers-To-Target-URI", url),
                    ("WARC-Refers-To-Date", date),
                ];
            }
            w += &record(kind, &u(host), &d(second), &fields, block);
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.warc");
        std::fs::write(&path, w).unwrap();
        let warc = || {
            vec![WarcFile {
                path: path.clone(),
                rel: "t.warc".into(),
            }]
        };
        let run = |batch, sort_bytes| {
            let mut seen = Vec::new();
            let c = collect_with(warc(), dir.path(), batch, sort_bytes, &mut |h| {
                seen.push(format!("{h:?}"));
                Ok(())
            })
            .unwrap();
            let stored: Vec<String> = (0..c.hosts.len())
                .map(|i| format!("{:?}", c.hosts.get(i).unwrap()))
                .collect();
            assert_eq!(seen, stored);
            (stored, c.counts)
        };
        let (one_pass, counts) = run(BATCH, SORT_BYTES);
        assert_eq!(run(1, 1), (one_pass.clone(), counts.clone()));
        assert_eq!(counts.captures, 12, "{counts:?}");
        let hosts: Vec<&str> = one_pass
            .iter()
            .map(|h| h.split('"').nth(1).unwrap())
            .collect();
        // d is reached from c only; y from x only (x comes first).
        assert_eq!(
            hosts,
            [
                "a.example",
                "b.example",
                "c.example",
                "e.example",
                "f.example",
                "g.example",
                "h.example",
                "x.example"
            ]
        );
        let get = |name: &str| {
            let c = collect_with(warc(), dir.path(), 1, 1, &mut |_| Ok(())).unwrap();
            let i = hosts.iter().position(|h| *h == name).unwrap();
            c.hosts.get(i).unwrap()
        };
        let a = get("a.example");
        assert_eq!(a.chains.len(), 2);
        assert_eq!(a.chains[1][0].payload, a.chains[0][0].payload);
        assert_eq!(a.chains[1][0].status, Some(200));
        assert_eq!(
            get("e.example").chains[0][0].payload,
            a.chains[0][0].payload
        );
        assert_eq!(get("f.example").chains[0][0].payload, None);
        assert_eq!(get("b.example").chains[0][0].kind, Kind::NoResponse);
        assert_eq!(get("c.example").chains[0].len(), 2);
        assert!(
            get("g.example")
                .chains
                .iter()
                .flatten()
                .all(|c| c.kind == Kind::Response)
        );
        let h = get("h.example");
        let kinds: Vec<Kind> = h.chains.iter().map(|c| c[0].kind).collect();
        assert_eq!(kinds, [Kind::Response, Kind::NoResponse]);
        assert_eq!(
            get("x.example").latest().len(),
            crate::fetch::REDIRECT_HOPS + 2
        );
    }

    #[test]
    fn warc_names() {
        assert!(is_warc_name(Path::new("a/CRAWL.WARC.GZ")));
        assert!(is_warc_name(Path::new("x.warc")));
        assert!(!is_warc_name(Path::new("x.warc.txt")));
        assert!(!is_warc_name(Path::new("x.gz")));
        assert!(is_warc_name(Path::new("café.Warc")));
        assert!(!is_warc_name(Path::new("warc")) && !is_warc_name(Path::new("")));
    }
}
