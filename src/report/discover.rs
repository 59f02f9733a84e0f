//! Finding the hosts in an input directory.
//!
//! The directory is walked with walkdir, sorted by file name, without following symbolic links
//! to directories. Hidden entries (names starting with `.`) are skipped. A host is:
//!
//! - `<host>.txt`, with an optional sidecar `<host>.yaml` (or `.yml`) beside it;
//! - `<host>/robots.txt`, with an optional sidecar `<host>/robots.yaml`;
//! - a sidecar alone (nothing was received, e.g. a 404 or a timeout);
//!
//! at any depth. The host name is the authority of the sidecar's `url` when it is an http(s) URL
//! with a host,
//! otherwise the file name without `.txt` (or, for `robots.txt`, the folder's name). A symbolic
//! link to a file is read only when its target lies inside the input directory; links that
//! point elsewhere, to directories, or nowhere are listed as skipped.

use super::names;
use super::sidecar::Sidecar;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One host to report on.
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
    /// The sidecar, or the error reading it (boxed: most hosts of a large run have none, and
    /// every host's input is held until the run ends).
    pub sidecar: Option<Result<Box<Sidecar>, String>>,
    /// Unique key: the relative path without extension. Used while the hosts are sorted and
    /// named, then emptied: every host's input is held until the run ends.
    pub key: String,
    /// The page's file stem, unique and safe (see [`names::assign`]), when it differs from
    /// `host` (read it with [`HostInput::page_stem`]).
    pub page_stem_if_other: Option<String>,
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
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Skipped {
    /// Path relative to the input directory (or as given).
    pub path: String,
    /// Why it was skipped.
    pub reason: String,
}

/// A host name that more than one input gives: only the first input is reported, the others are
/// [`Skipped`] and count as errors of the run.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
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
    pub hosts: Vec<HostInput>,
    /// Entries not read.
    pub skipped: Vec<Skipped>,
    /// Host names given by several inputs (compared ignoring ASCII case), in host order.
    pub duplicates: Vec<Duplicate>,
}

/// Keeps one input per host name (host names are case-insensitive, RFC 3986 §3.2.2): the first
/// of each run of equal names in `hosts` (sorted as [`Discovery::hosts`] is, so equal names are
/// neighbours). The others are returned as [`Skipped`] entries naming the input kept, with one
/// [`Duplicate`] per name.
fn dedupe(mut hosts: Vec<HostInput>) -> (Vec<HostInput>, Vec<Skipped>, Vec<Duplicate>) {
    let input_of = |h: &HostInput| {
        h.file_rel
            .clone()
            .or_else(|| h.sidecar_rel.clone())
            .unwrap_or_else(|| h.key.clone())
    };
    let mut skipped = Vec::new();
    let mut duplicates: Vec<Duplicate> = Vec::new();
    // In place: a second vector of every host would double the peak for a million hosts.
    hosts.dedup_by(|h, first| {
        if first.host != h.host {
            return false;
        }
        let first_input = input_of(first);
        match duplicates.last_mut() {
            Some(d) if d.host == h.host => d.inputs.push(input_of(h)),
            _ => duplicates.push(Duplicate {
                host: h.host.clone(),
                inputs: vec![first_input.clone(), input_of(h)],
            }),
        }
        let rel = input_of(h);
        skipped.push(Skipped {
            path: rel.clone(),
            reason: format!(
                "gives the host {} like {first_input} (host names are case-insensitive); only \
                 {first_input} is reported",
                h.host
            ),
        });
        // Its sidecar, when it came with a file, is not read either.
        if let (Some(_), Some(side)) = (&h.file_rel, &h.sidecar_rel) {
            skipped.push(Skipped {
                path: side.clone(),
                reason: format!("the sidecar of {rel}, which is not reported"),
            });
        }
        true
    });
    hosts.shrink_to_fit();
    (hosts, skipped, duplicates)
}

#[derive(Default)]
struct Pair {
    txt: Option<PathBuf>,
    yaml: Option<PathBuf>,
}

fn rel_string(root: &Path, p: &Path) -> String {
    let rel = p.strip_prefix(root).unwrap_or(p);
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

fn rel_uri(root: &Path, p: &Path) -> String {
    crate::output::sarif::path_uri(p.strip_prefix(root).unwrap_or(p))
}

fn is_hidden(name: &std::ffi::OsStr) -> bool {
    name.to_string_lossy().starts_with('.')
}

/// The host name from a sidecar URL: its host, with the port when it is not the default.
fn host_from_url(url: &str) -> Option<String> {
    let u = url::Url::parse(url).ok()?;
    if !crate::fetch::is_web_url(&u) {
        return None;
    }
    let host = u.host_str()?;
    Some(match u.port() {
        Some(p) => format!("{host}:{p}"),
        None => host.to_string(),
    })
}

/// Walks `root` and pairs robots.txt files with their sidecars.
///
/// # Errors
/// An I/O error when `root` is not a readable directory. Problems below the root (unreadable
/// folders, symbolic links) are [`Skipped`] entries instead.
pub fn discover(root: &Path) -> std::io::Result<Discovery> {
    let meta = std::fs::metadata(root)?;
    if !meta.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} is not a directory", root.display()),
        ));
    }
    let canon_root = std::fs::canonicalize(root)?;
    let mut pairs: BTreeMap<String, Pair> = BTreeMap::new();
    let mut skipped = Vec::new();
    let walker = walkdir::WalkDir::new(root)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !is_hidden(e.file_name()));
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
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        let kind = match ext.as_deref() {
            Some("txt") => 0,
            Some("yaml") | Some("yml") => 1,
            _ => continue,
        };
        let ft = entry.file_type();
        if ft.is_dir() {
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
        let key = rel_string(root, &path.with_extension(""));
        let pair = pairs.entry(key).or_default();
        let slot = if kind == 0 {
            &mut pair.txt
        } else {
            &mut pair.yaml
        };
        match slot {
            None => *slot = Some(path.to_path_buf()),
            Some(first) => {
                // `.yaml` sorts before `.yml`; the first one found is used.
                skipped.push(Skipped {
                    path: rel_string(root, path),
                    reason: format!(
                        "a second file for the same host as {}; not read",
                        rel_string(root, first)
                    ),
                });
            }
        }
    }

    let root_name = canon_root.file_name().map_or_else(
        || "robots".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut hosts: Vec<HostInput> = pairs
        .into_iter()
        .map(|(key, pair)| {
            let sidecar = pair
                .yaml
                .as_deref()
                .map(|p| super::sidecar::read(p).map(Box::new));
            let from_url = sidecar
                .as_ref()
                .and_then(|s| s.as_ref().ok())
                .and_then(|s| s.url.as_deref())
                .and_then(host_from_url);
            let host = from_url.unwrap_or_else(|| {
                let stem_path = Path::new(&key);
                let stem = stem_path
                    .file_name()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                if stem.eq_ignore_ascii_case("robots") {
                    stem_path
                        .parent()
                        .and_then(|p| p.file_name())
                        .map_or_else(|| root_name.clone(), |p| p.to_string_lossy().into_owned())
                } else {
                    stem
                }
            });
            let file_rel = pair.txt.as_deref().map(|p| rel_string(root, p));
            let sidecar_rel = pair.yaml.as_deref().map(|p| rel_string(root, p));
            HostInput {
                host: host.to_lowercase(),
                file_uri_if_other: if_other(
                    pair.txt.as_deref().map(|p| rel_uri(root, p)),
                    file_rel.as_ref(),
                ),
                sidecar_uri_if_other: if_other(
                    pair.yaml.as_deref().map(|p| rel_uri(root, p)),
                    sidecar_rel.as_ref(),
                ),
                file_rel,
                file: pair.txt,
                sidecar_rel,
                sidecar_path: pair.yaml,
                sidecar,
                key,
                page_stem_if_other: None,
            }
        })
        .collect();
    hosts.sort_by(|a, b| a.host.cmp(&b.host).then_with(|| a.key.cmp(&b.key)));
    let (mut hosts, dup_skipped, duplicates) = dedupe(hosts);
    skipped.extend(dup_skipped);
    let keyed: Vec<(&str, &str)> = hosts
        .iter()
        .map(|h| (h.host.as_str(), h.key.as_str()))
        .collect();
    let stems = names::assign(&keyed);
    for (h, s) in hosts.iter_mut().zip(stems) {
        h.page_stem_if_other = (s != h.host).then_some(s);
        h.key = String::new();
    }
    Ok(Discovery {
        hosts,
        skipped,
        duplicates,
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
        let d = discover(r).unwrap();
        let hosts: Vec<(&str, Option<&str>, Option<&str>)> = d
            .hosts
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
        assert_eq!(d.hosts[0].page_stem(), "a.example");
        assert!(d.hosts[2].page_stem().starts_with("gone.example-8443-"));
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
        let d = discover(r).unwrap();
        let names: Vec<&str> = d.hosts.iter().map(|h| h.host.as_str()).collect();
        assert_eq!(names, vec!["alias", "in"]);
        let skipped: Vec<&str> = d.skipped.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(skipped, vec!["dir.txt", "leak.txt"]);
    }
}
