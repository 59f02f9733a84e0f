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
//! A run may hold a million hosts, so what the walk found is kept compactly ([`Hosts`]: the
//! names and relative paths of all hosts in one buffer, about 70 bytes per host) and each
//! host's full [`HostInput`] (paths, display forms, the parsed sidecar) is built only when the
//! host is processed ([`Hosts::input`]).

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

/// A stretch of the buffer of [`Hosts`]; [`Span::NONE`] for nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    start: u32,
    len: u32,
}

impl Span {
    const NONE: Span = Span {
        start: u32::MAX,
        len: 0,
    };
    fn is_some(self) -> bool {
        self.start != u32::MAX
    }
}

/// `http` or `https` from the sidecar's URL, or nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scheme {
    Unknown,
    Http,
    Https,
}

/// One host of [`Hosts`]: spans of the shared buffer.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The host name (UTF-8).
    host: Span,
    /// The robots.txt file's path relative to the input directory.
    txt: Span,
    /// The sidecar's path relative to the input directory.
    yaml: Span,
    /// The page's file stem (UTF-8), [`Span::NONE`] when it is the host name.
    stem: Span,
    /// The input's unique key is the first `key_len` bytes of `txt` (else of `yaml`): the
    /// relative path without its extension.
    key_len: u32,
    /// The scheme of the sidecar's URL.
    scheme: Scheme,
    /// Place in [`Hosts::warc`] for a host from WARC files (`txt` then holds the capture's
    /// name), else `u32::MAX`.
    warc: u32,
}

/// The hosts of an input directory, one per host name, sorted by it: names and relative paths
/// in one buffer (a run may hold a million hosts). [`Hosts::input`] builds a host's full
/// [`HostInput`] when it is processed.
#[derive(Debug, Default)]
pub struct Hosts {
    root: PathBuf,
    buf: Vec<u8>,
    entries: Vec<Entry>,
    /// The captures of the hosts from WARC files, on disk.
    warc: Option<crate::warc::HostStore>,
}

impl Hosts {
    /// The number of hosts.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn bytes(&self, s: Span) -> &[u8] {
        if !s.is_some() {
            return &[];
        }
        let start = s.start as usize;
        &self.buf[start..start + s.len as usize]
    }

    fn text(&self, s: Span) -> &str {
        // Only UTF-8 is stored in the spans read as text.
        std::str::from_utf8(self.bytes(s)).unwrap_or_default()
    }

    /// The path that names the input: the robots.txt file's, else the sidecar's.
    fn main_path(&self, e: &Entry) -> &[u8] {
        self.bytes(if e.txt.is_some() { e.txt } else { e.yaml })
    }

    fn key(&self, e: &Entry) -> &[u8] {
        &self.main_path(e)[..e.key_len as usize]
    }

    /// Appends `bytes` to the buffer.
    fn push(&mut self, bytes: &[u8]) -> std::io::Result<Span> {
        let start = u32::try_from(self.buf.len())
            .ok()
            .filter(|s| u32::try_from(bytes.len()).is_ok_and(|n| s.checked_add(n).is_some()))
            .ok_or_else(|| {
                std::io::Error::other(
                    "the input holds more names than one run can list (4 GiB of paths); split it",
                )
            })?;
        self.buf.extend_from_slice(bytes);
        Ok(Span {
            start,
            len: bytes.len() as u32,
        })
    }

    /// The name of host `i` (`i < len()`), lower-cased.
    pub fn host(&self, i: usize) -> &str {
        self.text(self.entries[i].host)
    }

    /// The file stem of host `i`'s page (`hosts/<stem>.html`), unique and safe.
    pub fn page_stem(&self, i: usize) -> &str {
        let e = &self.entries[i];
        self.text(if e.stem.is_some() { e.stem } else { e.host })
    }

    /// The scheme (`http` or `https`) of host `i`'s sidecar URL, when it has one.
    pub fn scheme(&self, i: usize) -> Option<&'static str> {
        match self.entries[i].scheme {
            Scheme::Unknown => None,
            Scheme::Http => Some("http"),
            Scheme::Https => Some("https"),
        }
    }

    /// Host `i` in full: paths, their display forms, and its sidecar read again (or the error
    /// reading it).
    pub fn input(&self, i: usize) -> HostInput {
        let e = &self.entries[i];
        if let Some(store) = self.warc.as_ref().filter(|_| e.warc != u32::MAX) {
            let host = self.host(i).to_string();
            // Reading back the run's own temporary file fails only with the disk; the host then
            // has no captures (its row says nothing was received).
            let w = store
                .get(e.warc as usize)
                .unwrap_or_else(|_| crate::warc::HostCaptures {
                    host: host.clone(),
                    scheme: self.scheme(i).unwrap_or("http"),
                    chains: Vec::new(),
                    files: store.files().clone(),
                });
            let stem = self.page_stem(i);
            let file_rel = Some(shown_path(self.bytes(e.txt)));
            let uri = w
                .file()
                .map(|f| crate::output::sarif::path_uri(Path::new(&f.rel)));
            return HostInput {
                page_stem_if_other: (stem != host).then(|| stem.to_string()),
                host,
                file: None,
                file_uri_if_other: if_other(uri, file_rel.as_ref()),
                file_rel,
                sidecar: None,
                sidecar_uri_if_other: None,
                sidecar_rel: None,
                sidecar_path: None,
                captures: Some(Box::new(w)),
            };
        }
        let rel = |s: Span| s.is_some().then(|| path_of(self.bytes(s)));
        let (file, sidecar_path) = (rel(e.txt), rel(e.yaml));
        let shown = |s: Span| s.is_some().then(|| shown_path(self.bytes(s)));
        let uri = |p: &Option<PathBuf>| p.as_deref().map(crate::output::sarif::path_uri);
        let file_rel = shown(e.txt);
        let sidecar_rel = shown(e.yaml);
        let file_uri = uri(&file);
        let sidecar_uri = uri(&sidecar_path);
        let file = file.map(|p| self.root.join(p));
        let sidecar_path = sidecar_path.map(|p| self.root.join(p));
        let host = self.host(i).to_string();
        let stem = self.page_stem(i);
        HostInput {
            page_stem_if_other: (stem != host).then(|| stem.to_string()),
            host,
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
        }
    }

    /// Every host in full, in order (see [`Hosts::input`]).
    pub fn inputs(&self) -> impl Iterator<Item = HostInput> + '_ {
        (0..self.len()).map(|i| self.input(i))
    }
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

/// Keeps one input per host name (host names are case-insensitive, RFC 3986 §3.2.2): the first
/// of each run of equal names (sorted as [`Discovery::hosts`] is, so equal names are
/// neighbours). The others are returned as [`Skipped`] entries naming the input kept, with one
/// [`Duplicate`] per name.
fn dedupe(hosts: &mut Hosts) -> (Vec<Skipped>, Vec<Duplicate>) {
    let mut entries = std::mem::take(&mut hosts.entries);
    let hosts_ref = &*hosts;
    let input_of =
        |e: &Entry| shown_path(hosts_ref.bytes(if e.txt.is_some() { e.txt } else { e.yaml }));
    let mut skipped = Vec::new();
    let mut duplicates: Vec<Duplicate> = Vec::new();
    entries.dedup_by(|e, first| {
        let host = hosts_ref.text(e.host);
        if hosts_ref.text(first.host) != host {
            return false;
        }
        let first_input = input_of(first);
        let rel = input_of(e);
        match duplicates.last_mut() {
            Some(d) if d.host == host => d.inputs.push(rel.clone()),
            _ => duplicates.push(Duplicate {
                host: host.to_string(),
                inputs: vec![first_input.clone(), rel.clone()],
            }),
        }
        skipped.push(Skipped {
            path: rel.clone(),
            reason: format!(
                "gives the host {host} like {first_input} (host names are case-insensitive); only \
                 {first_input} is reported"
            ),
        });
        // Its sidecar, when it came with a file, is not read either.
        if e.txt.is_some() && e.yaml.is_some() {
            skipped.push(Skipped {
                path: shown_path(hosts_ref.bytes(e.yaml)),
                reason: format!("the sidecar of {rel}, which is not reported"),
            });
        }
        true
    });
    entries.shrink_to_fit();
    hosts.entries = entries;
    (skipped, duplicates)
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

/// A robots.txt file or sidecar the walk found: its relative path in the buffer.
struct Found {
    path: Span,
    /// The path without its extension (the input's key) is the first `key_len` bytes.
    key_len: u32,
    /// 0 for `.txt`, 1 for a sidecar.
    kind: u8,
}

impl Found {
    /// The input's key: the relative path without its extension.
    fn key(&self) -> Span {
        Span {
            start: self.path.start,
            len: self.key_len,
        }
    }
}

/// Walks `root` and pairs robots.txt files with their sidecars. What WARC files give is kept
/// in anonymous temporary files in `tmp` (see [`crate::warc::collect`]).
///
/// # Errors
/// An I/O error when `root` is not a readable directory, or of a temporary file. Problems
/// below the root (unreadable folders, symbolic links) are [`Skipped`] entries instead.
pub fn discover(root: &Path, filter: &WalkFilter, tmp: &Path) -> std::io::Result<Discovery> {
    let meta = std::fs::metadata(root)?;
    if meta.is_file() && crate::warc::is_warc_name(root) {
        // One WARC file: named relative to the folder that holds it.
        let parent = root.parent().unwrap_or(Path::new(""));
        let mut hosts = Hosts {
            root: parent.to_path_buf(),
            ..Hosts::default()
        };
        let rel = root.file_name().map_or_else(
            || root.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let mut skipped = Vec::new();
        let mut entries = Vec::new();
        let counts = add_warc_hosts(
            &mut hosts,
            &mut entries,
            &mut skipped,
            tmp,
            vec![crate::warc::WarcFile {
                path: root.to_path_buf(),
                rel,
            }],
        )?;
        return finish(hosts, entries, skipped, Some(counts));
    }
    if !meta.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} is not a directory", root.display()),
        ));
    }
    let canon_root = std::fs::canonicalize(root)?;
    let mut hosts = Hosts {
        root: root.to_path_buf(),
        ..Hosts::default()
    };
    let mut found: Vec<Found> = Vec::new();
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
        let rel = path_bytes(path.strip_prefix(root).unwrap_or(path));
        let ext_len = path_bytes(Path::new(ext)).len();
        let span = hosts.push(&rel)?;
        found.push(Found {
            path: span,
            key_len: span.len - ext_len as u32 - 1,
            kind,
        });
    }
    // Files of one key (one folder, one name) are neighbours; `.txt` first, then `.yaml`
    // before `.yml`, each kind in byte order (the order of the walk).
    found.sort_unstable_by(|a, b| {
        hosts
            .bytes(a.key())
            .cmp(hosts.bytes(b.key()))
            .then(a.kind.cmp(&b.kind))
            .then_with(|| hosts.bytes(a.path).cmp(hosts.bytes(b.path)))
    });

    let root_name = canon_root.file_name().map_or_else(
        || "robots".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut entries: Vec<Entry> = Vec::new();
    let mut rest = &found[..];
    while let Some(first) = rest.first() {
        let key_span = first.key();
        let key = hosts.bytes(key_span);
        let n = rest
            .iter()
            .take_while(|f| hosts.bytes(f.key()) == key)
            .count();
        let (group, tail) = rest.split_at(n);
        rest = tail;
        let mut txt = Span::NONE;
        let mut yaml = Span::NONE;
        for f in group {
            let slot = if f.kind == 0 { &mut txt } else { &mut yaml };
            if slot.is_some() {
                skipped.push(Skipped {
                    path: shown_path(hosts.bytes(f.path)),
                    reason: format!(
                        "a second file for the same host as {}; not read",
                        shown_path(hosts.bytes(*slot))
                    ),
                });
            } else {
                *slot = f.path;
            }
        }
        // The sidecar is read here for the host name its URL gives, and read again when the
        // host is processed: keeping a million parsed sidecars would cost more than reading.
        let from_url = yaml
            .is_some()
            .then(|| super::sidecar::read(&root.join(path_of(hosts.bytes(yaml)))).ok())
            .flatten()
            .and_then(|s| s.url.as_deref().and_then(host_from_url));
        let key_path = path_of(hosts.bytes(key_span));
        let (host, scheme) = from_url.unwrap_or_else(|| {
            let stem = key_path
                .file_name()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            // `example.com.robots.txt` names the host `example.com`.
            let stem = match crate::select::strip_suffix_ignore_case(&stem, ".robots") {
                Some(s) if !s.is_empty() => s.to_string(),
                _ => stem,
            };
            let name = if stem.eq_ignore_ascii_case("robots") {
                key_path
                    .parent()
                    .and_then(|p| p.file_name())
                    .map_or_else(|| root_name.clone(), |p| p.to_string_lossy().into_owned())
            } else {
                stem
            };
            (name, Scheme::Unknown)
        });
        let host = host.to_lowercase();
        // A host named by its file name is usually the end of the key already.
        let key_bytes = hosts.bytes(key_span);
        let host_span = if key_bytes.ends_with(host.as_bytes()) {
            Span {
                start: key_span.start + key_span.len - host.len() as u32,
                len: host.len() as u32,
            }
        } else {
            hosts.push(host.as_bytes())?
        };
        entries.push(Entry {
            host: host_span,
            txt,
            yaml,
            stem: Span::NONE,
            key_len: first.key_len,
            scheme,
            warc: u32::MAX,
        });
    }
    drop(found);
    let counts = if warc_files.is_empty() {
        None
    } else {
        Some(add_warc_hosts(
            &mut hosts,
            &mut entries,
            &mut skipped,
            tmp,
            warc_files,
        )?)
    };
    finish(hosts, entries, skipped, counts)
}

/// Reads the WARC files `files` (in parallel) and adds an entry per host their captures give;
/// damaged records become [`Skipped`] entries named `FILE@OFFSET`. The hosts' captures stay in
/// a temporary file in `tmp`.
fn add_warc_hosts(
    hosts: &mut Hosts,
    entries: &mut Vec<Entry>,
    skipped: &mut Vec<Skipped>,
    tmp: &Path,
    files: Vec<crate::warc::WarcFile>,
) -> std::io::Result<crate::warc::Counts> {
    let mut place = 0u32;
    let collection = crate::warc::collect(files, tmp, &mut |w| {
        let name = hosts.push(w.name().as_bytes())?;
        let host = hosts.push(w.host.as_bytes())?;
        entries.push(Entry {
            host,
            txt: name,
            yaml: Span::NONE,
            stem: Span::NONE,
            key_len: name.len,
            scheme: if w.scheme == "https" {
                Scheme::Https
            } else {
                Scheme::Http
            },
            warc: place,
        });
        place += 1;
        Ok(())
    })?;
    for (file, c) in &collection.corrupt {
        skipped.push(Skipped {
            path: format!("{file}@{}", c.offset),
            reason: format!("damaged WARC record: {}", c.message),
        });
    }
    hosts.warc = Some(collection.hosts);
    Ok(collection.counts)
}

/// Sorts the hosts, keeps one input per host name and names their pages.
fn finish(
    mut hosts: Hosts,
    entries: Vec<Entry>,
    mut skipped: Vec<Skipped>,
    warc: Option<crate::warc::Counts>,
) -> std::io::Result<Discovery> {
    hosts.entries = entries;
    let mut entries = std::mem::take(&mut hosts.entries);
    entries.sort_unstable_by(|a, b| {
        hosts
            .bytes(a.host)
            .cmp(hosts.bytes(b.host))
            .then_with(|| hosts.key(a).cmp(hosts.key(b)))
    });
    hosts.entries = entries;
    let (dup_skipped, duplicates) = dedupe(&mut hosts);
    skipped.extend(dup_skipped);
    let stems = names::assign(hosts.len(), |i| {
        let e = &hosts.entries[i];
        (hosts.text(e.host), hosts.key(e))
    });
    for (i, stem) in stems.into_iter().enumerate() {
        if let Some(stem) = stem {
            hosts.entries[i].stem = hosts.push(stem.as_bytes())?;
        }
    }
    hosts.buf.shrink_to_fit();
    Ok(Discovery {
        hosts,
        skipped,
        duplicates,
        warc,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let inputs: Vec<HostInput> = d.hosts.inputs().collect();
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
        assert_eq!(d.hosts.page_stem(0), "a.example");
        assert!(d.hosts.page_stem(2).starts_with("gone.example-8443-"));
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
        let names: Vec<&str> = (0..d.hosts.len()).map(|i| d.hosts.host(i)).collect();
        assert_eq!(names, vec!["alias", "in"]);
        let skipped: Vec<&str> = d.skipped.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(skipped, vec!["dir.txt", "leak.txt"]);
    }
}
