//! Finding the hosts in an input directory.
//!
//! The directory is walked with walkdir, sorted by file name, without following symbolic links
//! to directories. Hidden entries (names starting with `.`) are skipped. A host is:
//!
//! - `<host>.txt`, with an optional sidecar `<host>.yaml` (or `.yml`) beside it;
//! - `<host>/robots.txt`, with an optional sidecar `<host>/robots.yaml`;
//! - a sidecar alone (nothing was received, e.g. a 404 or a timeout);
//!
//! - a robots.txt capture in a WARC file (`.warc`, `.warc.gz`; see [`crate::warc`]): each host
//!   whose start URL a chain of captures names, with its fetch record read from the captures;
//!
//! at any depth, among the files the [`WalkFilter`] takes (by default files named like
//! robots.txt files: `robots.txt`, `<host>.txt` where the stem looks like a host name,
//! `<digest>.txt`, `<host>.robots.txt`, and WARC files; see [`crate::select`]). The input may
//! also be a WARC file itself. The host name is the authority of the sidecar's `url` when it is an http(s) URL
//! with a host,
//! otherwise the file name without `.txt` (or, for `robots.txt`, the folder's name). A symbolic
//! link to a file is read only when its target lies inside the input directory; links that
//! point elsewhere, to directories, or nowhere are listed as skipped.
//!
//! A run may hold a million hosts, so memory does not grow with them: the walk holds the files
//! of the folders it is in, the hosts' records are sorted in bounded runs spilled to temporary
//! files and merged, and [`Hosts`] keeps them in a temporary file (memory holds 8 bytes per
//! host, and the page stems that are not the host name). Each host's full [`HostInput`] (paths,
//! display forms, the parsed sidecar) is built only when the host is processed
//! ([`Hosts::input`]).

use super::names;
use super::sidecar::Sidecar;
use crate::select::WalkFilter;
use std::path::{Path, PathBuf};

/// One host to report on, as [`Hosts::input`] builds it when the host is processed.
#[derive(Clone, Debug)]
pub struct HostInput {
    /// The host name shown (from the sidecar URL or the file name).
    pub host: String,
    /// The robots.txt file, if any.
    pub file: Option<PathBuf>,
    /// Its path relative to the input directory, `/`-separated (for display: bytes that are
    /// not UTF-8 become U+FFFD).
    pub file_rel: Option<String>,
    /// The same path as a URI reference keeping every byte (see
    /// [`crate::output::sarif::path_uri`]), when it differs from `file_rel` (read it with
    /// [`HostInput::file_uri`]).
    pub file_uri_if_other: Option<String>,
    /// The sidecar file, if any.
    pub sidecar_path: Option<PathBuf>,
    /// Its path relative to the input directory, `/`-separated (for display).
    pub sidecar_rel: Option<String>,
    /// The same path as a URI reference keeping every byte, when it differs from
    /// `sidecar_rel` (read it with [`HostInput::sidecar_uri`]).
    pub sidecar_uri_if_other: Option<String>,
    /// The sidecar, or the error reading it.
    pub sidecar: Option<Result<Box<Sidecar>, String>>,
    /// The page's file stem, unique and safe (see [`names::assign`]), when it differs from
    /// `host` (read it with [`HostInput::page_stem`]).
    pub page_stem_if_other: Option<String>,
    /// The host's captures, when it comes from WARC files (then `file` and the sidecar are
    /// `None`, and `file_rel` names the deciding capture, `FILE#URL@DATE`).
    pub captures: Option<Box<crate::warc::HostCaptures>>,
}

impl HostInput {
    /// The robots.txt file's path as a URI reference keeping every byte.
    pub fn file_uri(&self) -> Option<&str> {
        self.file_uri_if_other
            .as_deref()
            .or(self.file_rel.as_deref())
    }

    /// The sidecar's path as a URI reference keeping every byte.
    pub fn sidecar_uri(&self) -> Option<&str> {
        self.sidecar_uri_if_other
            .as_deref()
            .or(self.sidecar_rel.as_deref())
    }

    /// The page's file stem (`hosts/<stem>.html`).
    pub fn page_stem(&self) -> &str {
        self.page_stem_if_other.as_deref().unwrap_or(&self.host)
    }
}

/// `other` when it differs from `base`.
fn if_other(other: Option<String>, base: Option<&String>) -> Option<String> {
    other.filter(|o| Some(o) != base)
}

/// An entry that was not read, and why.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Skipped {
    /// Path relative to the input directory (or as given).
    pub path: String,
    /// Why it was skipped.
    pub reason: String,
}

/// A host name that more than one input gives: only the first input is reported, the others are
/// [`Skipped`] and count as errors of the run.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Duplicate {
    /// The host name, as the first of its inputs spells it.
    pub host: String,
    /// The inputs (robots.txt file, else sidecar), relative to the input directory, the reported
    /// one first.
    pub inputs: Vec<String>,
}

/// What the walk found.
#[derive(Debug, Default)]
pub struct Discovery {
    /// Hosts, one per host name (lower-cased), sorted by it.
    pub hosts: Hosts,
    /// Entries not read.
    pub skipped: Vec<Skipped>,
    /// Host names given by several inputs (compared ignoring ASCII case), in host order.
    pub duplicates: Vec<Duplicate>,
    /// What the WARC files held, when there were any (their damaged records are [`Skipped`]
    /// entries named `FILE@OFFSET`).
    pub warc: Option<crate::warc::Counts>,
}

/// `http` or `https` from the sidecar's URL, or nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scheme {
    Unknown,
    Http,
    Https,
}

impl Scheme {
    fn code(self) -> u8 {
        match self {
            Scheme::Unknown => 0,
            Scheme::Http => 1,
            Scheme::Https => 2,
        }
    }
    /// `http`, `https`, or nothing when not known.
    fn name(self) -> Option<&'static str> {
        match self {
            Scheme::Unknown => None,
            Scheme::Http => Some("http"),
            Scheme::Https => Some("https"),
        }
    }
    fn of_code(c: u8) -> Scheme {
        match c {
            1 => Scheme::Http,
            2 => Scheme::Https,
            _ => Scheme::Unknown,
        }
    }
}

/// One input as the walk pairs it, before the hosts are sorted.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Rec {
    /// The host name, lower-cased.
    host: String,
    /// The robots.txt file's path relative to the input directory (for a host from WARC files,
    /// the deciding capture's name).
    txt: Option<Vec<u8>>,
    /// The sidecar's path relative to the input directory.
    yaml: Option<Vec<u8>>,
    /// The input's unique key is the first `key_len` bytes of `txt` (else of `yaml`): the
    /// relative path without its extension.
    key_len: u32,
    /// The scheme of the sidecar's URL.
    scheme: Scheme,
    /// Place in [`Hosts::warc`] for a host from WARC files, else `u32::MAX`.
    warc: u32,
}

impl Rec {
    /// The path that names the input: the robots.txt file's, else the sidecar's.
    fn main_path(&self) -> &[u8] {
        self.txt
            .as_deref()
            .or(self.yaml.as_deref())
            .unwrap_or_default()
    }

    fn key(&self) -> &[u8] {
        let p = self.main_path();
        &p[..(self.key_len as usize).min(p.len())]
    }

    /// The order of [`Discovery::hosts`]: by host name, then key.
    fn order(&self, other: &Rec) -> std::cmp::Ordering {
        self.host
            .as_bytes()
            .cmp(other.host.as_bytes())
            .then_with(|| self.key().cmp(other.key()))
    }

    /// About the memory it takes, in bytes.
    fn size(&self) -> usize {
        std::mem::size_of::<Rec>()
            + self.host.len()
            + self.txt.as_ref().map_or(0, Vec::len)
            + self.yaml.as_ref().map_or(0, Vec::len)
    }

    /// Writes it as one length-prefixed record; returns the bytes written.
    fn write_to(&self, out: &mut impl std::io::Write) -> std::io::Result<u64> {
        let mut body = Vec::with_capacity(self.size());
        body.push(self.scheme.code());
        body.extend_from_slice(&self.warc.to_le_bytes());
        body.extend_from_slice(&self.key_len.to_le_bytes());
        for field in [
            Some(self.host.as_bytes()),
            self.txt.as_deref(),
            self.yaml.as_deref(),
        ] {
            match field {
                // Fields are at most a path long: far below u32::MAX - 1.
                Some(b) => body.extend_from_slice(&(b.len() as u32).to_le_bytes()),
                None => body.extend_from_slice(&u32::MAX.to_le_bytes()),
            }
            body.extend_from_slice(field.unwrap_or_default());
        }
        out.write_all(&(body.len() as u32).to_le_bytes())?;
        out.write_all(&body)?;
        Ok(4 + body.len() as u64)
    }

    /// Reads the next record [`Rec::write_to`] wrote; `None` at the end.
    fn read_from(r: &mut impl std::io::Read) -> std::io::Result<Option<Rec>> {
        let mut len = [0u8; 4];
        match r.read_exact(&mut len) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(e) => return Err(e),
        }
        let mut body = vec![0u8; u32::from_le_bytes(len) as usize];
        r.read_exact(&mut body)?;
        Rec::decode(&body).map(Some)
    }

    /// The record of `body` (a record without its length).
    fn decode(body: &[u8]) -> std::io::Result<Rec> {
        let bad = || std::io::Error::other("damaged record in the list of hosts");
        let take = |at: &mut usize, n: usize| -> std::io::Result<&[u8]> {
            let s = body.get(*at..*at + n).ok_or_else(bad)?;
            *at += n;
            Ok(s)
        };
        let word = |at: &mut usize| -> std::io::Result<u32> {
            Ok(u32::from_le_bytes(
                take(at, 4)?.try_into().map_err(|_| bad())?,
            ))
        };
        let mut at = 0;
        let scheme = Scheme::of_code(take(&mut at, 1)?[0]);
        let warc = word(&mut at)?;
        let key_len = word(&mut at)?;
        let field = |at: &mut usize| -> std::io::Result<Option<Vec<u8>>> {
            match word(at)? {
                u32::MAX => Ok(None),
                n => Ok(Some(take(at, n as usize)?.to_vec())),
            }
        };
        let host = field(&mut at)?.unwrap_or_default();
        let txt = field(&mut at)?;
        let yaml = field(&mut at)?;
        Ok(Rec {
            host: String::from_utf8(host).map_err(|_| bad())?,
            txt,
            yaml,
            key_len,
            scheme,
            warc,
        })
    }
}

/// The hosts of an input, one per host name, sorted by it. A run may hold a million hosts, so
/// their names and paths wait in an anonymous temporary file, a record per host, and memory
/// holds only where each record starts (8 bytes per host) and the page stems that differ from
/// the host name. [`Hosts::input`] builds a host's full [`HostInput`] when it is processed.
///
/// Reading a record fails only when the temporary file cannot be read.
#[derive(Debug, Default)]
pub struct Hosts {
    root: PathBuf,
    /// The records, in host order.
    file: Option<Records>,
    /// Where record `i` starts in `file` is `offsets[i]`; one more offset ends the last.
    offsets: Vec<u64>,
    /// `(i, stem)` for the hosts whose page stem is not their host name, by `i`.
    stems: Vec<(u32, String)>,
    /// The captures of the hosts from WARC files, on disk.
    warc: Option<crate::warc::HostStore>,
}

impl Hosts {
    /// The number of hosts.
    pub fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Record `i` (`i < len()`).
    fn rec(&self, i: usize) -> std::io::Result<Rec> {
        let (Some(file), Some(&[start, end])) = (&self.file, self.offsets.get(i..i + 2)) else {
            return Err(std::io::Error::other(format!("no host {i}")));
        };
        let body: std::borrow::Cow<[u8]> = match file {
            Records::Memory(bytes) => bytes
                .get(start as usize..end as usize)
                .unwrap_or_default()
                .into(),
            Records::File(file) => {
                let mut body = vec![0u8; (end - start) as usize];
                read_at(file, &mut body, start)?;
                body.into()
            }
        };
        Rec::decode(body.get(4..).unwrap_or_default())
    }

    /// The name of host `i` (`i < len()`), lower-cased.
    ///
    /// # Errors
    /// When the list of hosts cannot be read back.
    pub fn host(&self, i: usize) -> std::io::Result<String> {
        Ok(self.rec(i)?.host)
    }

    fn stem_of(&self, i: usize) -> Option<&str> {
        let k = self.stems.binary_search_by_key(&(i as u32), |s| s.0).ok()?;
        Some(&self.stems[k].1)
    }

    /// The file stem of host `i`'s page (`hosts/<stem>.html`), unique and safe.
    ///
    /// # Errors
    /// When the list of hosts cannot be read back.
    pub fn page_stem(&self, i: usize) -> std::io::Result<String> {
        match self.stem_of(i) {
            Some(s) => Ok(s.to_string()),
            None => self.host(i),
        }
    }

    /// The scheme (`http` or `https`) of host `i`'s sidecar URL, when it has one.
    ///
    /// # Errors
    /// When the list of hosts cannot be read back.
    pub fn scheme(&self, i: usize) -> std::io::Result<Option<&'static str>> {
        Ok(self.rec(i)?.scheme.name())
    }

    /// Host `i` in full: paths, their display forms, and its sidecar read again (or the error
    /// reading it).
    ///
    /// # Errors
    /// When the list of hosts cannot be read back.
    pub fn input(&self, i: usize) -> std::io::Result<HostInput> {
        let e = self.rec(i)?;
        let page_stem_if_other = self.stem_of(i).map(str::to_string);
        if let Some(store) = self.warc.as_ref().filter(|_| e.warc != u32::MAX) {
            // Reading back the run's own temporary file fails only with the disk; the host then
            // has no captures (its row says nothing was received).
            let w = store
                .get(e.warc as usize)
                .unwrap_or_else(|_| crate::warc::HostCaptures {
                    host: e.host.clone(),
                    scheme: e.scheme.name().unwrap_or("http"),
                    chains: Vec::new(),
                    older: 0,
                    files: store.files().clone(),
                });
            let file_rel = Some(shown_path(e.main_path()));
            let uri = w
                .file()
                .map(|f| crate::output::sarif::path_uri(Path::new(&f.rel)));
            return Ok(HostInput {
                page_stem_if_other,
                host: e.host,
                file: None,
                file_uri_if_other: if_other(uri, file_rel.as_ref()),
                file_rel,
                sidecar: None,
                sidecar_uri_if_other: None,
                sidecar_rel: None,
                sidecar_path: None,
                captures: Some(Box::new(w)),
            });
        }
        let rel = |s: &Option<Vec<u8>>| s.as_deref().map(path_of);
        let (file, sidecar_path) = (rel(&e.txt), rel(&e.yaml));
        let shown = |s: &Option<Vec<u8>>| s.as_deref().map(shown_path);
        let uri = |p: &Option<PathBuf>| p.as_deref().map(crate::output::sarif::path_uri);
        let file_rel = shown(&e.txt);
        let sidecar_rel = shown(&e.yaml);
        let file_uri = uri(&file);
        let sidecar_uri = uri(&sidecar_path);
        let file = file.map(|p| self.root.join(p));
        let sidecar_path = sidecar_path.map(|p| self.root.join(p));
        Ok(HostInput {
            page_stem_if_other,
            host: e.host,
            file,
            file_uri_if_other: if_other(file_uri, file_rel.as_ref()),
            file_rel,
            sidecar: sidecar_path
                .as_deref()
                .map(|p| super::sidecar::read(p).map(Box::new)),
            sidecar_uri_if_other: if_other(sidecar_uri, sidecar_rel.as_ref()),
            sidecar_rel,
            sidecar_path,
            captures: None,
        })
    }

    /// Every host in full, in order (see [`Hosts::input`]).
    pub fn inputs(&self) -> impl Iterator<Item = std::io::Result<HostInput>> + '_ {
        (0..self.len()).map(|i| self.input(i))
    }
}

/// The file that holds the records of the hosts when they are many, read at any offset from any
/// thread.
#[cfg(unix)]
type HostsFile = std::fs::File;
/// The file that holds the records of the hosts; reads take turns.
#[cfg(not(unix))]
type HostsFile = std::sync::Mutex<std::fs::File>;

/// How many bytes of host records are kept in memory; past it they go to a temporary file.
/// About 50,000 hosts' records fit.
const RECORDS_IN_MEMORY: usize = 8 << 20;

/// The records of the hosts, in host order: in memory, or in a temporary file when there are
/// more than [`RECORDS_IN_MEMORY`] bytes of them.
#[derive(Debug)]
enum Records {
    Memory(Vec<u8>),
    File(HostsFile),
}

/// Where the records are written: memory until [`RECORDS_IN_MEMORY`] bytes, then a temporary
/// file that takes them all.
#[derive(Default)]
struct RecordsOut {
    memory: Vec<u8>,
    file: Option<std::io::BufWriter<std::fs::File>>,
}

impl std::io::Write for RecordsOut {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.file.is_none() && self.memory.len() + buf.len() > RECORDS_IN_MEMORY {
            let mut file = std::io::BufWriter::with_capacity(1 << 16, tempfile::tempfile()?);
            file.write_all(&self.memory)?;
            self.memory = Vec::new();
            self.file = Some(file);
        }
        match &mut self.file {
            Some(f) => f.write(buf),
            None => {
                self.memory.extend_from_slice(buf);
                Ok(buf.len())
            }
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.as_mut().map_or(Ok(()), std::io::Write::flush)
    }
}

impl RecordsOut {
    /// The records written, to be read back.
    fn finish(self) -> std::io::Result<Records> {
        match self.file {
            None => Ok(Records::Memory(self.memory)),
            Some(f) => {
                let file = f.into_inner().map_err(|e| e.into_error())?;
                #[cfg(unix)]
                return Ok(Records::File(file));
                #[cfg(not(unix))]
                return Ok(Records::File(std::sync::Mutex::new(file)));
            }
        }
    }
}

/// Fills `buf` from `file` at byte `offset`: one positioned read on Unix, so workers that read
/// hosts side by side neither seek nor wait for each other.
#[cfg(unix)]
fn read_at(file: &HostsFile, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

/// Fills `buf` from `file` at byte `offset`.
#[cfg(not(unix))]
fn read_at(file: &HostsFile, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    use std::io::{Read as _, Seek as _};
    let mut f = file.lock().unwrap_or_else(|e| e.into_inner());
    f.seek(std::io::SeekFrom::Start(offset))?;
    f.read_exact(buf)
}

/// The bytes of a relative path, `/`-separated.
fn path_bytes(p: &Path) -> std::borrow::Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt as _;
        std::borrow::Cow::Borrowed(p.as_os_str().as_bytes())
    }
    #[cfg(not(unix))]
    {
        std::borrow::Cow::Owned(p.to_string_lossy().replace('\\', "/").into_bytes())
    }
}

/// The relative path whose bytes [`path_bytes`] gave.
fn path_of(bytes: &[u8]) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt as _;
        PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
    }
}

/// A relative path for display: bytes that are not UTF-8 become U+FFFD.
fn shown_path(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn rel_string(root: &Path, p: &Path) -> String {
    shown_path(&path_bytes(p.strip_prefix(root).unwrap_or(p)))
}

fn is_hidden(name: &std::ffi::OsStr) -> bool {
    name.to_string_lossy().starts_with('.')
}

/// The host name from a sidecar URL (its host, with the port when it is not the default), and
/// its scheme.
fn host_from_url(url: &str) -> Option<(String, Scheme)> {
    let u = url::Url::parse(url).ok()?;
    if !crate::fetch::is_web_url(&u) {
        return None;
    }
    let scheme = if u.scheme() == "https" {
        Scheme::Https
    } else {
        Scheme::Http
    };
    Some((crate::fetch::host_name(&u)?, scheme))
}

/// Records sorted in memory before they go to a run file: about this many bytes.
const RUN_BYTES: usize = 16 << 20;

/// Sorts the records of a walk in runs of [`RUN_BYTES`], spilled to anonymous temporary files
/// and merged at the end, so that memory does not grow with the number of hosts.
struct Sorter {
    buf: Vec<Rec>,
    bytes: usize,
    /// Bytes of records kept in memory before a run is spilled ([`RUN_BYTES`]).
    run_bytes: usize,
    runs: Vec<std::fs::File>,
}

impl Sorter {
    fn new(run_bytes: usize) -> Sorter {
        Sorter {
            buf: Vec::new(),
            bytes: 0,
            run_bytes,
            runs: Vec::new(),
        }
    }

    fn push(&mut self, r: Rec) -> std::io::Result<()> {
        self.bytes += r.size();
        self.buf.push(r);
        if self.bytes >= self.run_bytes {
            self.spill()?;
        }
        Ok(())
    }

    fn spill(&mut self) -> std::io::Result<()> {
        use std::io::{Seek as _, Write as _};
        self.buf.sort_unstable_by(Rec::order);
        let mut out = std::io::BufWriter::with_capacity(1 << 16, tempfile::tempfile()?);
        for r in self.buf.drain(..) {
            r.write_to(&mut out)?;
        }
        out.flush()?;
        let mut f = out.into_inner().map_err(|e| e.into_error())?;
        f.rewind()?;
        self.runs.push(f);
        self.bytes = 0;
        self.buf.shrink_to_fit();
        Ok(())
    }

    /// Every record pushed, in order ([`Rec::order`]).
    fn sorted(mut self) -> impl Iterator<Item = std::io::Result<Rec>> {
        self.buf.sort_unstable_by(Rec::order);
        let mut sources: Vec<Source> = self
            .runs
            .into_iter()
            .map(|f| Source::File(std::io::BufReader::with_capacity(1 << 16, f)))
            .collect();
        sources.push(Source::Memory(self.buf.into_iter()));
        Merge {
            heads: sources.iter().map(|_| None).collect(),
            started: false,
            sources,
        }
    }
}

/// A sorted run of records.
enum Source {
    Memory(std::vec::IntoIter<Rec>),
    File(std::io::BufReader<std::fs::File>),
}

impl Source {
    fn next_rec(&mut self) -> std::io::Result<Option<Rec>> {
        match self {
            Source::Memory(it) => Ok(it.next()),
            Source::File(r) => Rec::read_from(r),
        }
    }
}

/// The records of sorted runs, merged in order.
struct Merge {
    sources: Vec<Source>,
    heads: Vec<Option<Rec>>,
    started: bool,
}

impl Iterator for Merge {
    type Item = std::io::Result<Rec>;
    fn next(&mut self) -> Option<Self::Item> {
        if !self.started {
            self.started = true;
            for (head, source) in self.heads.iter_mut().zip(&mut self.sources) {
                match source.next_rec() {
                    Ok(r) => *head = r,
                    Err(e) => return Some(Err(e)),
                }
            }
        }
        let mut least: Option<usize> = None;
        for (k, head) in self.heads.iter().enumerate() {
            if let Some(r) = head {
                if least.is_none_or(|l| {
                    self.heads[l]
                        .as_ref()
                        .is_some_and(|m| r.order(m) == std::cmp::Ordering::Less)
                }) {
                    least = Some(k);
                }
            }
        }
        let k = least?;
        let next = match self.sources[k].next_rec() {
            Ok(r) => r,
            Err(e) => return Some(Err(e)),
        };
        std::mem::replace(&mut self.heads[k], next).map(Ok)
    }
}

/// A robots.txt file or sidecar the walk found.
struct Found {
    /// Its path relative to the input directory.
    path: Vec<u8>,
    /// The path without its extension (the input's key) is the first `key_len` bytes.
    key_len: u32,
    /// 0 for `.txt`, 1 for a sidecar.
    kind: u8,
}

impl Found {
    /// The input's key: the relative path without its extension.
    fn key(&self) -> &[u8] {
        &self.path[..self.key_len as usize]
    }
}

/// What pairing the files of the walk needs besides the files.
struct Pairing<'a> {
    root: &'a Path,
    /// The name of the input directory (the host of a `robots.txt` at its top).
    root_name: String,
    sorter: Sorter,
    /// Second files for one key: (the key, why skipped).
    seconds: Vec<(Vec<u8>, Skipped)>,
}

impl Pairing<'_> {
    /// Pairs the robots.txt files and sidecars of one folder (the files of a key are in one
    /// folder) and adds a record per key.
    fn pair(&mut self, mut found: Vec<Found>) -> std::io::Result<()> {
        // Files of one key are neighbours; `.txt` first, then `.yaml` before `.yml`, each kind
        // in byte order (the order of the walk).
        found.sort_unstable_by(|a, b| {
            a.key()
                .cmp(b.key())
                .then(a.kind.cmp(&b.kind))
                .then_with(|| a.path.cmp(&b.path))
        });
        for group in found.chunk_by(|a, b| a.key() == b.key()) {
            let mut txt: Option<&Found> = None;
            let mut yaml: Option<&Found> = None;
            for f in group {
                let slot = if f.kind == 0 { &mut txt } else { &mut yaml };
                if let Some(first) = slot {
                    self.seconds.push((
                        f.key().to_vec(),
                        Skipped {
                            path: shown_path(&f.path),
                            reason: format!(
                                "a second file for the same host as {}; not read",
                                shown_path(&first.path)
                            ),
                        },
                    ));
                } else {
                    *slot = Some(f);
                }
            }
            let key = group[0].key();
            // The sidecar is read here for the host name its URL gives, and read again when
            // the host is processed: keeping a million parsed sidecars would cost more than
            // reading.
            let from_url = yaml
                .and_then(|y| super::sidecar::read(&self.root.join(path_of(&y.path))).ok())
                .and_then(|s| s.url.as_deref().and_then(host_from_url));
            let (host, scheme) =
                from_url.unwrap_or_else(|| (self.name_of_key(key), Scheme::Unknown));
            self.sorter.push(Rec {
                host: host.to_lowercase(),
                txt: txt.map(|f| f.path.clone()),
                yaml: yaml.map(|f| f.path.clone()),
                key_len: group[0].key_len,
                scheme,
                warc: u32::MAX,
            })?;
        }
        Ok(())
    }

    /// The host name a key gives: the file name (without `.robots`), or for `robots` the
    /// folder's name.
    fn name_of_key(&self, key: &[u8]) -> String {
        let key_path = path_of(key);
        let stem = key_path
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        // `example.com.robots.txt` names the host `example.com`.
        let stem = match crate::select::strip_suffix_ignore_case(&stem, ".robots") {
            Some(s) if !s.is_empty() => s.to_string(),
            _ => stem,
        };
        if stem.eq_ignore_ascii_case("robots") {
            key_path.parent().and_then(|p| p.file_name()).map_or_else(
                || self.root_name.clone(),
                |p| p.to_string_lossy().into_owned(),
            )
        } else {
            stem
        }
    }
}

/// Walks `root` and pairs robots.txt files with their sidecars.
///
/// The walk keeps only the files of the folders it is in; the records of the hosts are sorted
/// in bounded runs ([`Sorter`]) and kept in a temporary file ([`Hosts`]).
///
/// # Errors
/// An I/O error when `root` is not a readable directory, or when the temporary files cannot be
/// written. Problems below the root (unreadable folders, symbolic links) are [`Skipped`] entries
/// instead.
pub fn discover(root: &Path, filter: &WalkFilter, tmp: &Path) -> std::io::Result<Discovery> {
    discover_in_runs(root, filter, tmp, RUN_BYTES)
}

/// [`discover`], spilling sorted runs of about `run_bytes` bytes of records.
fn discover_in_runs(
    root: &Path,
    filter: &WalkFilter,
    tmp: &Path,
    run_bytes: usize,
) -> std::io::Result<Discovery> {
    let meta = std::fs::metadata(root)?;
    if meta.is_file() && crate::warc::is_warc_name(root) {
        // One WARC file: named relative to the folder that holds it.
        let parent = root.parent().unwrap_or(Path::new(""));
        let rel = root.file_name().map_or_else(
            || root.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let mut skipped = Vec::new();
        let mut sorter = Sorter::new(run_bytes);
        let (warc, counts) = add_warc_hosts(
            &mut sorter,
            &mut skipped,
            tmp,
            vec![crate::warc::WarcFile {
                path: root.to_path_buf(),
                rel,
            }],
        )?;
        return finish(parent, sorter, skipped, Some(warc), Some(counts));
    }
    if !meta.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} is not a directory", root.display()),
        ));
    }
    let canon_root = std::fs::canonicalize(root)?;
    let mut pairing = Pairing {
        root,
        root_name: canon_root.file_name().map_or_else(
            || "robots".to_string(),
            |n| n.to_string_lossy().into_owned(),
        ),
        sorter: Sorter::new(run_bytes),
        seconds: Vec::new(),
    };
    // The files found in the folders the walk is in: (depth of the files, files).
    let mut open: Vec<(usize, Vec<Found>)> = Vec::new();
    let mut skipped = Vec::new();
    let mut warc_files = Vec::new();
    let walker = walkdir::WalkDir::new(root)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            e.depth() == 0
                || if e.file_type().is_dir() {
                    filter.enters_dir(e.path().strip_prefix(root).unwrap_or(e.path()))
                } else {
                    !is_hidden(e.file_name())
                }
        });
    for entry in walker {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                skipped.push(Skipped {
                    path: e
                        .path()
                        .map_or_else(|| rel_string(root, root), |p| rel_string(root, p)),
                    reason: e
                        .io_error()
                        .map_or_else(|| e.to_string(), |io| io.to_string()),
                });
                continue;
            }
        };
        // An entry at depth `d` means the walk has left the folders whose files are deeper.
        while open.last().is_some_and(|(d, _)| *d > entry.depth()) {
            if let Some((_, files)) = open.pop() {
                pairing.pair(files)?;
            }
        }
        let path = entry.path();
        let Some(ext) = path.extension() else {
            continue;
        };
        let kind = match ext.to_string_lossy().to_ascii_lowercase().as_str() {
            "txt" => 0,
            "yaml" | "yml" => 1,
            _ if crate::warc::is_warc_name(path) => 2,
            _ => continue,
        };
        let ft = entry.file_type();
        if ft.is_dir() {
            continue;
        }
        let rel_path = path.strip_prefix(root).unwrap_or(path);
        let taken = if kind != 1 {
            filter.takes_file(rel_path)
        } else {
            filter.takes_sidecar(rel_path)
        };
        if !taken {
            continue;
        }
        if ft.is_symlink() {
            let reason = match std::fs::canonicalize(path) {
                Err(_) => Some("symbolic link to nothing; not read"),
                Ok(t) if !t.starts_with(&canon_root) => {
                    Some("symbolic link to a place outside the input directory; not followed")
                }
                Ok(t) if t.is_dir() => Some("symbolic link to a directory; not followed"),
                Ok(_) => None,
            };
            if let Some(reason) = reason {
                skipped.push(Skipped {
                    path: rel_string(root, path),
                    reason: reason.into(),
                });
                continue;
            }
        } else if !ft.is_file() {
            skipped.push(Skipped {
                path: rel_string(root, path),
                reason: "not a regular file; not read".into(),
            });
            continue;
        }
        if kind == 2 {
            warc_files.push(crate::warc::WarcFile {
                path: path.to_path_buf(),
                rel: rel_string(root, path),
            });
            continue;
        }
        let rel = path_bytes(rel_path).into_owned();
        let ext_len = path_bytes(Path::new(ext)).len();
        let found = Found {
            key_len: (rel.len() - ext_len - 1) as u32,
            path: rel,
            kind,
        };
        match open.last_mut() {
            Some((d, files)) if *d == entry.depth() => files.push(found),
            _ => open.push((entry.depth(), vec![found])),
        }
    }
    while let Some((_, files)) = open.pop() {
        pairing.pair(files)?;
    }
    // Second files, in key order.
    pairing.seconds.sort_by(|a, b| a.0.cmp(&b.0));
    skipped.extend(pairing.seconds.into_iter().map(|(_, s)| s));
    let mut sorter = pairing.sorter;
    let (warc, counts) = if warc_files.is_empty() {
        (None, None)
    } else {
        let (warc, counts) = add_warc_hosts(&mut sorter, &mut skipped, tmp, warc_files)?;
        (Some(warc), Some(counts))
    };
    finish(root, sorter, skipped, warc, counts)
}

/// Reads the WARC files `files` (in parallel) and adds a record per host their captures give;
/// damaged records become [`Skipped`] entries named `FILE@OFFSET`. Returns the hosts' captures,
/// kept in a temporary file in `tmp` (the records' [`Rec::warc`] are their places there), and
/// what the files held.
fn add_warc_hosts(
    sorter: &mut Sorter,
    skipped: &mut Vec<Skipped>,
    tmp: &Path,
    files: Vec<crate::warc::WarcFile>,
) -> std::io::Result<(crate::warc::HostStore, crate::warc::Counts)> {
    let mut place = 0u32;
    let collection = crate::warc::collect(files, tmp, &mut |w| {
        let name = w.name().into_bytes();
        sorter.push(Rec {
            host: w.host.clone(),
            key_len: name.len() as u32,
            txt: Some(name),
            yaml: None,
            scheme: if w.scheme == "https" {
                Scheme::Https
            } else {
                Scheme::Http
            },
            warc: place,
        })?;
        place += 1;
        Ok(())
    })?;
    for (file, c) in &collection.corrupt {
        skipped.push(Skipped {
            path: format!("{file}@{}", c.at),
            reason: format!("damaged WARC record: {}", c.message),
        });
    }
    Ok((collection.hosts, collection.counts))
}

/// Sorts the hosts, keeps one input per host name (host names are case-insensitive, RFC 3986
/// §3.2.2: the first of each run of equal names; the others become [`Skipped`] entries naming
/// the input kept, with one [`Duplicate`] per name) and names their pages.
fn finish(
    root: &Path,
    sorter: Sorter,
    mut skipped: Vec<Skipped>,
    warc: Option<crate::warc::HostStore>,
    counts: Option<crate::warc::Counts>,
) -> std::io::Result<Discovery> {
    let mut out = RecordsOut::default();
    let mut offsets = vec![0u64];
    let mut duplicates: Vec<Duplicate> = Vec::new();
    // The host kept last and its input.
    let mut kept: Option<(String, String)> = None;
    for rec in sorter.sorted() {
        let rec = rec?;
        match &kept {
            Some((host, first_input)) if *host == rec.host => {
                let rel = shown_path(rec.main_path());
                match duplicates.last_mut() {
                    Some(d) if d.host == *host => d.inputs.push(rel.clone()),
                    _ => duplicates.push(Duplicate {
                        host: host.clone(),
                        inputs: vec![first_input.clone(), rel.clone()],
                    }),
                }
                skipped.push(Skipped {
                    path: rel.clone(),
                    reason: format!(
                        "gives the host {host} like {first_input} (host names are \
                         case-insensitive); only {first_input} is reported"
                    ),
                });
                // Its sidecar, when it came with a file, is not read either.
                if let (Some(_), Some(yaml)) = (&rec.txt, &rec.yaml) {
                    skipped.push(Skipped {
                        path: shown_path(yaml),
                        reason: format!("the sidecar of {rel}, which is not reported"),
                    });
                }
            }
            _ => {
                let end = offsets.last().copied().unwrap_or(0) + rec.write_to(&mut out)?;
                offsets.push(end);
                kept = Some((rec.host.clone(), shown_path(rec.main_path())));
            }
        }
    }
    offsets.shrink_to_fit();
    let mut hosts = Hosts {
        root: root.to_path_buf(),
        file: Some(out.finish()?),
        offsets,
        stems: Vec::new(),
        warc,
    };
    // Names are read back from the file; the first error reading it ends the run.
    let error: std::cell::RefCell<Option<std::io::Error>> = Default::default();
    let stems = names::assign(hosts.len(), |i| match hosts.rec(i) {
        Ok(r) => {
            let key = r.key().to_vec();
            (r.host, key)
        }
        Err(e) => {
            error.borrow_mut().get_or_insert(e);
            (String::new(), Vec::new())
        }
    });
    if let Some(e) = error.into_inner() {
        return Err(e);
    }
    hosts.stems = stems.into_iter().map(|(i, s)| (i as u32, s)).collect();
    Ok(Discovery {
        hosts,
        skipped,
        duplicates,
        warc: counts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records past the memory budget go to a temporary file with those written before, and
    /// read back the same from either place.
    #[test]
    fn records_spill_to_a_file_past_the_budget() {
        use std::io::Write as _;
        let piece: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        let mut small = RecordsOut::default();
        small.write_all(&piece).unwrap();
        let Records::Memory(kept) = small.finish().unwrap() else {
            panic!("a small list stays in memory");
        };
        assert_eq!(kept, piece);
        let mut big = RecordsOut::default();
        let n = RECORDS_IN_MEMORY / piece.len() + 2;
        for _ in 0..n {
            big.write_all(&piece).unwrap();
        }
        let Records::File(file) = big.finish().unwrap() else {
            panic!("a list past the budget goes to a file");
        };
        for k in [0, n / 2, n - 1] {
            let mut back = vec![0u8; piece.len()];
            read_at(&file, &mut back, (k * piece.len()) as u64).unwrap();
            assert_eq!(back, piece, "piece {k}");
        }
    }

    #[test]
    fn pairs_files_and_sidecars_at_any_depth() {
        let dir = tempfile::tempdir().unwrap();
        let r = dir.path();
        std::fs::write(r.join("a.example.txt"), "User-agent: *\n").unwrap();
        std::fs::write(r.join("a.example.yaml"), "status: 200\n").unwrap();
        std::fs::create_dir_all(r.join("nested/b.example")).unwrap();
        std::fs::write(r.join("nested/b.example/robots.txt"), "").unwrap();
        std::fs::write(
            r.join("gone.yaml"),
            "url: https://gone.example:8443/robots.txt\nstatus: 404\n",
        )
        .unwrap();
        std::fs::write(r.join("notes.md"), "ignored").unwrap();
        std::fs::create_dir_all(r.join(".git")).unwrap();
        std::fs::write(r.join(".git/x.txt"), "hidden").unwrap();
        // `gone` is not named like a host: only `--include` reads its sidecar.
        let by_default = discover(r, &WalkFilter::default(), r).unwrap();
        assert_eq!(by_default.hosts.len(), 2);
        let all_txt = WalkFilter::new(&["*.txt".to_string()], &[]).unwrap();
        let d = discover(r, &all_txt, r).unwrap();
        let inputs: Vec<HostInput> = d.hosts.inputs().map(Result::unwrap).collect();
        let hosts: Vec<(&str, Option<&str>, Option<&str>)> = inputs
            .iter()
            .map(|h| {
                (
                    h.host.as_str(),
                    h.file_rel.as_deref(),
                    h.sidecar_rel.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            hosts,
            vec![
                ("a.example", Some("a.example.txt"), Some("a.example.yaml")),
                ("b.example", Some("nested/b.example/robots.txt"), None),
                ("gone.example:8443", None, Some("gone.yaml")),
            ]
        );
        assert_eq!(d.hosts.page_stem(0).unwrap(), "a.example");
        assert!(
            d.hosts
                .page_stem(2)
                .unwrap()
                .starts_with("gone.example-8443-")
        );
    }

    /// Each host's name, page stem and file.
    type Named = Vec<(String, String, Option<String>)>;

    /// What a discovery found, as comparable values.
    fn found(d: &Discovery) -> (Named, Vec<Skipped>) {
        let hosts = d
            .hosts
            .inputs()
            .map(Result::unwrap)
            .map(|h| {
                (
                    h.host.clone(),
                    h.page_stem().to_string(),
                    h.file_rel.clone(),
                )
            })
            .collect();
        (hosts, d.skipped.clone())
    }

    #[test]
    fn runs_spilled_to_files_find_what_one_run_finds() {
        let dir = tempfile::tempdir().unwrap();
        let r = dir.path();
        for (i, folder) in ["b", "a", "c/d", ""].iter().enumerate() {
            std::fs::create_dir_all(r.join(folder)).unwrap();
            // The same host in several folders, one spelled in capitals.
            let shop = if i == 1 {
                "Shop.example"
            } else {
                "shop.example"
            };
            std::fs::write(
                r.join(folder).join(format!("{shop}.txt")),
                "User-agent: *\n",
            )
            .unwrap();
            std::fs::write(r.join(folder).join(format!("h{i}.example.txt")), "").unwrap();
            std::fs::write(r.join(folder).join(format!("h{i}.example.TXT")), "").unwrap();
        }
        std::fs::write(r.join("b/shop.example.yaml"), "status: 200\n").unwrap();
        std::fs::create_dir_all(r.join("e/robots.example")).unwrap();
        std::fs::write(r.join("e/robots.example/robots.txt"), "").unwrap();
        std::fs::write(r.join("index.example.txt"), "").unwrap();
        let filter = WalkFilter::default();
        let one = discover_in_runs(r, &filter, r, usize::MAX).unwrap();
        let many = discover_in_runs(r, &filter, r, 1).unwrap();
        assert_eq!(found(&one), found(&many));
        assert_eq!(one.duplicates, many.duplicates);
        assert_eq!(one.duplicates.len(), 1);
        assert_eq!(
            one.duplicates[0].inputs,
            [
                "a/Shop.example.txt",
                "b/shop.example.txt",
                "c/d/shop.example.txt",
                "shop.example.txt"
            ]
        );
        let (hosts, skipped) = found(&many);
        let names: Vec<&str> = hosts.iter().map(|h| h.0.as_str()).collect();
        assert_eq!(
            names,
            [
                "h0.example",
                "h1.example",
                "h2.example",
                "h3.example",
                "index.example",
                "robots.example",
                "shop.example"
            ]
        );
        assert!(hosts[4].1.starts_with("index.example-"), "{hosts:?}");
        let reasons: Vec<&str> = skipped.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(
            reasons,
            [
                "a/h1.example.txt",
                "b/h0.example.txt",
                "c/d/h2.example.txt",
                "h3.example.txt",
                "b/shop.example.txt",
                "b/shop.example.yaml",
                "c/d/shop.example.txt",
                "shop.example.txt"
            ]
        );
    }

    #[test]
    fn damaged_records_are_errors() {
        let rec = Rec {
            host: "a.example".into(),
            txt: Some(b"x/a.example.txt".to_vec()),
            yaml: None,
            key_len: 11,
            scheme: Scheme::Https,
            warc: u32::MAX,
        };
        let mut bytes = Vec::new();
        let n = rec.write_to(&mut bytes).unwrap();
        assert_eq!(n as usize, bytes.len());
        assert_eq!(Rec::decode(&bytes[4..]).unwrap(), rec);
        assert_eq!(Rec::read_from(&mut &bytes[..]).unwrap(), Some(rec));
        for cut in 0..bytes.len() - 4 {
            assert!(Rec::decode(&bytes[4..4 + cut]).is_err());
        }
        assert!(Rec::read_from(&mut &bytes[..bytes.len() - 1]).is_err());
        assert_eq!(Rec::read_from(&mut &[][..]).unwrap(), None);
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_out_of_the_input_are_not_followed() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.txt"), "User-agent: *\n").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let r = dir.path();
        std::fs::write(r.join("in.txt"), "User-agent: *\n").unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.txt"), r.join("leak.txt")).unwrap();
        std::os::unix::fs::symlink(r.join("in.txt"), r.join("alias.txt")).unwrap();
        std::os::unix::fs::symlink(outside.path(), r.join("dir.txt")).unwrap();
        let all_txt = WalkFilter::new(&["*.txt".to_string()], &[]).unwrap();
        let d = discover(r, &all_txt, r).unwrap();
        let names: Vec<String> = (0..d.hosts.len())
            .map(|i| d.hosts.host(i).unwrap())
            .collect();
        assert_eq!(names, vec!["alias", "in"]);
        let skipped: Vec<&str> = d.skipped.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(skipped, vec!["dir.txt", "leak.txt"]);
    }
}
