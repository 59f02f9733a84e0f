//! The guide: Markdown chapters → a static teaching site whose examples are checked by the
//! engine.
//!
//! The pipeline has three stages, each a function over plain data:
//!
//! 1. [`load::load`]: the content directory → [`load::Content`] (front matter and Markdown);
//! 2. [`render::render`] (per page, in parallel with rayon): Markdown → HTML, with ```robots
//!    examples parsed by the engine and shown with the report's listing
//!    ([`crate::html::listing`]), ```robots-check expectations evaluated
//!    ([`checks`]), ```figure diagrams drawn as inline SVG ([`figures`]), code highlighted
//!    ([`highlight`]), and every internal link recorded;
//! 3. [`site::lay_out`]: pages → files (templates, print page, search index, assets).
//!
//! [`build`] runs the three stages and verifies every internal link and `#anchor`, first at the
//! Markdown level (messages with file and line), then in the produced HTML
//! ([`verify_html_links`]). [`write_atomically`] puts the files in place. Output is
//! deterministic: no clock, sorted maps, pages in a fixed order.

pub mod checks;
pub mod figures;
pub mod highlight;
pub mod load;
pub mod questions;
pub mod render;
pub mod site;
pub mod slug;
pub mod terms;

use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A problem found while building, with its place.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Problem {
    /// The file concerned.
    pub file: PathBuf,
    /// 1-based line; 0 when the problem concerns the whole file.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file.display(), self.message)
        } else {
            write!(f, "{}:{}: {}", self.file.display(), self.line, self.message)
        }
    }
}

/// Where `host:` and `diagnostic:` links point.
///
/// In a guide-only build both maps are `None` and such links are shown as plain text. In a
/// combined build (`build`), they map names to pages of the demo audit site, as paths relative
/// to the guide's directory; a name missing from a map is a broken link.
#[derive(Clone, Debug, Default)]
pub struct Links {
    /// Demo host name → page.
    pub hosts: Option<BTreeMap<String, String>>,
    /// Diagnostic name → page.
    pub diagnostics: Option<BTreeMap<String, String>>,
    /// Link to a diagnostic page with `{name}` standing for the name, for the listings of
    /// ```robots examples (see [`crate::html::ListingOptions::diagnostic_href`]).
    pub diagnostic_template: Option<String>,
    /// The audit site's home page, relative to the guide's directory.
    pub audit_home: Option<String>,
}

impl Links {
    /// The page of demo host `name`: `Ok(None)` in a guide-only build.
    ///
    /// # Errors
    /// The combined site has no page for the host.
    pub fn host(&self, name: &str) -> Result<Option<String>, String> {
        lookup(self.hosts.as_ref(), name, "demo host")
    }
    /// The page of diagnostic `name`: `Ok(None)` in a guide-only build.
    ///
    /// # Errors
    /// The combined site has no page for the diagnostic.
    pub fn diagnostic(&self, name: &str) -> Result<Option<String>, String> {
        lookup(self.diagnostics.as_ref(), name, "diagnostic")
    }
}

fn lookup(
    map: Option<&BTreeMap<String, String>>,
    name: &str,
    what: &str,
) -> Result<Option<String>, String> {
    match map {
        None => Ok(None),
        Some(m) => m
            .get(name)
            .cloned()
            .map(Some)
            .ok_or_else(|| format!("the demo site has no page for {what} `{name}`")),
    }
}

/// What to build.
#[derive(Clone, Debug)]
pub struct Options {
    /// The content directory (`content/`).
    pub content: PathBuf,
    /// The directory of figure data (`fixtures/guide/`).
    pub data: PathBuf,
    /// Targets of `host:` and `diagnostic:` links.
    pub links: Links,
    /// Stylesheets to load after the guide's copy of the shared `site.css` and before
    /// `guide.css` (paths relative to the guide's directory).
    pub extra_css: Vec<String>,
    /// Build even when checks are pending (cannot be evaluated because this build's analysis
    /// has no catalogue). Failed checks always fail the build.
    pub allow_pending: bool,
}

/// Counts from a build.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Chapters.
    pub chapters: usize,
    /// Pages (chapters, landing page, glossary).
    pub pages: usize,
    /// Checks (items of robots-check blocks).
    pub checks: usize,
    /// Checks that passed.
    pub passed: usize,
    /// Checks that could not be evaluated in this build.
    pub pending: usize,
    /// Decision checks.
    pub decision_checks: usize,
    /// Diagnostic checks (`diagnostic` and `no-diagnostic`).
    pub diagnostic_checks: usize,
    /// ```robots examples.
    pub robots_blocks: usize,
    /// Figures.
    pub figures: usize,
    /// Self-check questions answered by the engine.
    pub questions: usize,
    /// Internal links verified.
    pub links: usize,
}

/// A built guide, not yet written.
#[derive(Clone, Debug)]
pub struct Guide {
    /// The loaded content.
    pub content: load::Content,
    /// The rendered pages, in reading order.
    pub pages: Vec<render::Page>,
    /// Output files by relative path (`/`-separated).
    pub files: BTreeMap<String, Vec<u8>>,
    /// Counts.
    pub stats: Stats,
    /// Checks this build cannot evaluate.
    pub pending: Vec<Problem>,
    /// Diagnostic names in links and front matter this build cannot verify.
    pub unverified: Vec<Problem>,
}

impl Guide {
    /// Every evaluated check, with the file name of its page.
    pub fn checks(&self) -> Vec<(String, render::CheckRecord)> {
        self.pages
            .iter()
            .flat_map(|p| p.checks.iter().map(|c| (p.name.clone(), c.clone())))
            .collect()
    }
}

/// Why a build failed.
#[derive(Clone, Debug)]
pub struct Failure {
    /// Every problem, sorted by file and line.
    pub problems: Vec<Problem>,
    /// Checks this build cannot evaluate (they fail the build unless allowed).
    pub pending: Vec<Problem>,
    /// Diagnostic names this build cannot verify (they fail the build unless allowed).
    pub unverified: Vec<Problem>,
    /// Counts, as far as the build got.
    pub stats: Stats,
    /// Every evaluated check, with the file name of its page.
    pub checks: Vec<(String, render::CheckRecord)>,
}

/// Which chapters explain each diagnostic: name → [(chapter output file, chapter title)], in
/// chapter order, from the chapters' `diagnostics:` front matter.
pub fn explained_by(content: &load::Content) -> BTreeMap<String, Vec<(String, String)>> {
    let mut map: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for c in content.chapters() {
        for d in &c.front.diagnostics {
            map.entry(d.clone())
                .or_default()
                .push((c.out_name(), c.front.title.clone()));
        }
    }
    map
}

/// Renders every page of loaded content (in parallel) and lays out the site.
///
/// # Errors
/// Every problem found: failed checks, broken links, bad figures, unknown languages, and
/// pending checks unless `opts.allow_pending`.
pub fn build_content(content: load::Content, opts: &Options) -> Result<Guide, Box<Failure>> {
    let data = figures::Data::load(&opts.data);
    let glossary = terms::Glossary::of(&content);
    let ctx = render::Context {
        content: &content,
        data: &data,
        links: &opts.links,
        glossary: &glossary,
    };
    let pages: Vec<render::Page> = content
        .pages
        .par_iter()
        .map(|s| render::render(s, &ctx))
        .collect();
    let mut problems: Vec<Problem> = pages.iter().flat_map(|p| p.problems.clone()).collect();
    let mut pending: Vec<Problem> = pages.iter().flat_map(|p| p.pending.clone()).collect();
    let mut unverified: Vec<Problem> = pages.iter().flat_map(|p| p.unverified.clone()).collect();
    unverified.sort();
    unverified.dedup();
    let mut stats = Stats {
        chapters: content.chapters().count(),
        pages: pages.len(),
        robots_blocks: pages.iter().map(|p| p.robots_blocks).sum(),
        figures: pages.iter().map(|p| p.figures).sum(),
        questions: pages.iter().map(|p| p.questions).sum(),
        links: pages.iter().map(|p| p.links.len()).sum(),
        ..Stats::default()
    };
    for c in pages.iter().flat_map(|p| &p.checks) {
        stats.checks += 1;
        match c.checked.outcome {
            checks::Outcome::Pass => stats.passed += 1,
            checks::Outcome::Pending { .. } => stats.pending += 1,
            checks::Outcome::Fail { .. } => {}
        }
        match c.checked.expectation {
            checks::Expectation::Decision { .. } => stats.decision_checks += 1,
            _ => stats.diagnostic_checks += 1,
        }
    }
    // Anchors of every page: body headings, footnotes and template ids.
    let mut ids: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let files = match site::lay_out(&content, &pages, &opts.links, &opts.extra_css) {
        Ok(f) => f,
        Err(p) => {
            problems.push(p);
            BTreeMap::new()
        }
    };
    for p in &pages {
        let set = files
            .get(&p.out)
            .map(|html| html_ids(&String::from_utf8_lossy(html)))
            .unwrap_or_default();
        ids.insert(p.out.clone(), set);
    }
    problems.extend(render::verify_links(&pages, &ids, &content));
    problems.sort();
    problems.dedup();
    pending.sort();
    pending.dedup();
    let blocked = !pending.is_empty() || !unverified.is_empty();
    if !problems.is_empty() || (blocked && !opts.allow_pending) {
        let checks = pages
            .iter()
            .flat_map(|p| p.checks.iter().map(|c| (p.name.clone(), c.clone())))
            .collect();
        return Err(Box::new(Failure {
            problems,
            pending,
            unverified,
            stats,
            checks,
        }));
    }
    Ok(Guide {
        content,
        pages,
        files,
        stats,
        pending,
        unverified,
    })
}

/// Loads, renders and lays out the guide.
///
/// # Errors
/// See [`load::load`] and [`build_content`].
pub fn build(opts: &Options) -> Result<Guide, Box<Failure>> {
    let content = load::load(&opts.content).map_err(|problems| {
        Box::new(Failure {
            problems,
            pending: Vec::new(),
            unverified: Vec::new(),
            stats: Stats::default(),
            checks: Vec::new(),
        })
    })?;
    build_content(content, opts)
}

/// The values of attribute `attr` in the tags of `html`, double-quoted or not.
fn attr_values<'h>(html: &'h str, attr: &str) -> Vec<&'h str> {
    let pat = format!(" {attr}=");
    let mut out = Vec::new();
    let mut rest = html;
    // Only inside tags (text holds no raw `<`): the file text of a listing may hold ` id=`.
    while let Some(lt) = rest.find('<') {
        let from = &rest[lt..];
        let end = from.find('>').unwrap_or(from.len());
        let mut tag = &from[..end];
        while let Some(i) = tag.find(&pat) {
            let v = &tag[i + pat.len()..];
            let (value, after) = match v.strip_prefix('"') {
                Some(q) => match q.find('"') {
                    Some(len) => (&q[..len], &q[len + 1..]),
                    None => break,
                },
                // Unquoted (the tool's own tokens: `id=L7`, `href=#L7`).
                None => {
                    let len = v.find(|c: char| c.is_ascii_whitespace()).unwrap_or(v.len());
                    (&v[..len], &v[len..])
                }
            };
            out.push(value);
            tag = after;
        }
        rest = &from[end..];
    }
    out
}

/// Every `id` in an HTML document, those of its packed listing runs included (see
/// [`crate::html::unpacked_runs`]).
pub fn html_ids(html: &str) -> BTreeSet<String> {
    raw_ids(html).iter().map(|v| unescape_attr(v)).collect()
}

/// The `id` values of an HTML document as written (still escaped), in order, those of its
/// packed listing runs after the rest, each packed block unpacked once.
fn raw_ids(html: &str) -> Vec<String> {
    let runs = crate::html::unpacked_runs(html);
    std::iter::once(html)
        .chain(runs.iter().map(String::as_str))
        .flat_map(|h| attr_values(h, "id"))
        .map(str::to_string)
        .collect()
}

fn unescape_attr(v: &str) -> String {
    v.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// Verifies every relative `href` and `src` of every HTML file under `root` (and duplicate ids
/// within a page): the target file exists under `root`, and an anchor names an id of the
/// target. Absolute URLs (with a scheme) are not followed.
pub fn verify_html_links(root: &Path) -> Vec<Problem> {
    let mut pages: BTreeMap<String, String> = BTreeMap::new();
    let mut all: BTreeSet<String> = BTreeSet::new();
    for entry in walkdir::WalkDir::new(root).sort_by_file_name() {
        let Ok(e) = entry else { continue };
        if !e.file_type().is_file() {
            continue;
        }
        let Ok(rel) = e.path().strip_prefix(root) else {
            continue;
        };
        let rel = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        if rel.ends_with(".html") {
            if let Ok(text) = std::fs::read_to_string(e.path()) {
                pages.insert(rel.clone(), text);
            }
        }
        all.insert(rel);
    }
    let written: BTreeMap<&String, Vec<String>> =
        pages.iter().map(|(k, v)| (k, raw_ids(v))).collect();
    let ids: BTreeMap<&String, BTreeSet<String>> = written
        .iter()
        .map(|(k, v)| (*k, v.iter().map(|id| unescape_attr(id)).collect()))
        .collect();
    let mut problems = Vec::new();
    for (page, html) in &pages {
        let file = root.join(page);
        let mut seen = BTreeSet::new();
        for id in &written[page] {
            if !seen.insert(id) {
                problems.push(Problem {
                    file: file.clone(),
                    line: 0,
                    message: format!("duplicate id `{id}`"),
                });
            }
        }
        let dir = match page.rfind('/') {
            Some(i) => &page[..i],
            None => "",
        };
        for attr in ["href", "src"] {
            for raw in attr_values(html, attr) {
                let v = unescape_attr(raw);
                if v.contains("://") || v.starts_with("mailto:") || v.starts_with("data:") {
                    continue;
                }
                let (path, anchor) = match v.split_once('#') {
                    Some((p, a)) => (p, Some(a)),
                    None => (v.as_str(), None),
                };
                let path = path.split('?').next().unwrap_or("");
                let target = if path.is_empty() {
                    Some(page.clone())
                } else {
                    normalize(dir, path)
                };
                let target = target.map(|t| {
                    if t.is_empty() || t.ends_with('/') {
                        format!("{t}index.html")
                    } else {
                        t
                    }
                });
                let broken = match &target {
                    None => Some("it leaves the site".to_string()),
                    Some(t) if !all.contains(t) => Some(format!("there is no file {t}")),
                    Some(t) => match anchor {
                        // A fragment of `name=value` pairs carries parameters to the page's
                        // script (the playground's file and URLs), not an id.
                        Some(a) if !a.is_empty() && !a.contains('=') => {
                            let ok = ids.get(t).is_some_and(|set| set.contains(a));
                            (!ok).then(|| format!("{t} has no id `{a}`"))
                        }
                        _ => None,
                    },
                };
                if let Some(why) = broken {
                    problems.push(Problem {
                        file: file.clone(),
                        line: 0,
                        message: format!("broken link `{v}`: {why}"),
                    });
                }
            }
        }
    }
    problems
}

/// Joins a relative path to a directory, resolving `.` and `..`; `None` if it leaves the root.
fn normalize(dir: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = if rel.starts_with('/') {
        return None;
    } else {
        dir.split('/').filter(|s| !s.is_empty()).collect()
    };
    for seg in rel.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    let mut out = parts.join("/");
    if rel.ends_with('/') && !out.is_empty() {
        out.push('/');
    }
    Some(out)
}

/// Writes `files` into a new directory beside `out`, then puts it in place of `out` with
/// renames, so `out` is never half-written. An existing `out` is replaced if
/// [`check_replaceable`] accepts it.
///
/// # Errors
/// I/O errors, with the path concerned.
pub fn write_atomically(out: &Path, files: &BTreeMap<String, Vec<u8>>) -> Result<(), String> {
    check_replaceable(out, GUIDE_MARKER)?;
    let staging = staging_dir(out)?;
    write_files(staging.path(), files)?;
    commit(staging, out)
}

/// Creates an empty staging directory beside `out` (same file system, so renames work).
///
/// # Errors
/// The parent directory cannot be created or written.
pub fn staging_dir(out: &Path) -> Result<tempfile::TempDir, String> {
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "site".into());
    tempfile::Builder::new()
        .prefix(&format!(".{name}.building-"))
        .tempdir_in(&parent)
        .map_err(|e| format!("{}: {e}", parent.display()))
}

/// Writes files (relative `/`-separated paths) under `dir`.
///
/// # Errors
/// I/O errors, with the path concerned.
pub fn write_files(dir: &Path, files: &BTreeMap<String, Vec<u8>>) -> Result<(), String> {
    for (rel, bytes) in files {
        let path = dir.join(rel);
        if let Some(p) = path.parent() {
            std::fs::create_dir_all(p).map_err(|e| format!("{}: {e}", p.display()))?;
        }
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// Name of the marker file in every guide the `guide` command writes; an output folder is only
/// replaced when it is absent, empty, or holds this marker.
pub const GUIDE_MARKER: &str = ".robots-explorer-guide";

/// Checks that `out` may be replaced: it does not exist, is an empty folder, or holds the file
/// `marker` (it was written by this program).
///
/// # Errors
/// A message naming `out` otherwise.
pub fn check_replaceable(out: &Path, marker: &str) -> Result<(), String> {
    match std::fs::symlink_metadata(out) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("{}: {e}", out.display())),
        Ok(m) if !m.is_dir() => Err(format!("{} exists and is not a folder", out.display())),
        Ok(_) => {
            let empty = std::fs::read_dir(out)
                .map_err(|e| format!("{}: {e}", out.display()))?
                .next()
                .is_none();
            if empty || out.join(marker).is_file() {
                Ok(())
            } else {
                Err(format!(
                    "{} exists, is not empty and was not written by robots-explorer; refusing to \
                     replace it",
                    out.display()
                ))
            }
        }
    }
}

/// Replaces `out` with the staging directory (see [`replace_dir`]).
///
/// # Errors
/// See [`replace_dir`].
pub fn commit(staging: tempfile::TempDir, out: &Path) -> Result<(), String> {
    let staged = staging.keep();
    let result = replace_dir(&staged, out, GUIDE_MARKER);
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&staged);
    }
    result
}

/// Puts the finished folder `new` in place of `out` with renames: an existing `out` (which
/// [`check_replaceable`] must accept) is first renamed aside, then `new` is renamed to `out`,
/// then the old folder is removed.
///
/// # Errors
/// I/O errors, with the path concerned; the old `out` is restored if the final rename fails.
pub fn replace_dir(new: &Path, out: &Path, marker: &str) -> Result<(), String> {
    check_replaceable(out, marker)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(new, std::fs::Permissions::from_mode(0o755));
    }
    let old = if out.exists() {
        let aside = new.with_file_name(format!(
            "{}.old",
            new.file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default()
        ));
        std::fs::rename(out, &aside).map_err(|e| format!("{}: {e}", out.display()))?;
        Some(aside)
    } else {
        None
    };
    if let Err(e) = std::fs::rename(new, out) {
        if let Some(aside) = &old {
            let _ = std::fs::rename(aside, out);
        }
        return Err(format!("{}: {e}", out.display()));
    }
    if let Some(aside) = old {
        let _ = std::fs::remove_dir_all(aside);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_normalise() {
        assert_eq!(
            normalize("guide", "../hosts/a.html").as_deref(),
            Some("hosts/a.html")
        );
        assert_eq!(normalize("", "a.html").as_deref(), Some("a.html"));
        assert_eq!(normalize("", "../a.html"), None);
        assert_eq!(
            normalize("a/b", "./c/../d.html").as_deref(),
            Some("a/b/d.html")
        );
        assert_eq!(normalize("a/b", "../../d.html").as_deref(), Some("d.html"));
    }

    #[test]
    fn html_link_check_finds_broken_links_and_duplicate_ids() {
        let dir = tempfile::tempdir().unwrap();
        let files: BTreeMap<String, Vec<u8>> = [
            ("index.html", r##"<p id="a"></p><a href="guide/x.html#b">x</a><a href="#a">a</a>"##),
            ("guide/x.html", r##"<p id="b"></p><p id="b"></p><a href="../index.html#nope">n</a><a href="y.html">y</a><a href="https://e.x/">e</a>"##),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.as_bytes().to_vec()))
        .collect();
        write_files(dir.path(), &files).unwrap();
        let problems: Vec<String> = verify_html_links(dir.path())
            .into_iter()
            .map(|p| p.message)
            .collect();
        assert_eq!(
            problems,
            vec![
                "duplicate id `b`".to_string(),
                "broken link `../index.html#nope`: index.html has no id `nope`".to_string(),
                "broken link `y.html`: there is no file guide/y.html".to_string(),
            ]
        );
    }

    #[test]
    fn atomic_write_replaces_the_directory() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        std::fs::create_dir_all(out.join("stale")).unwrap();
        let files: BTreeMap<String, Vec<u8>> = [
            ("a/b.html".to_string(), b"x".to_vec()),
            (GUIDE_MARKER.to_string(), Vec::new()),
        ]
        .into_iter()
        .collect();
        // A folder that is not ours is never replaced.
        let err = write_atomically(&out, &files).unwrap_err();
        assert!(err.contains("refusing"), "{err}");
        assert!(out.join("stale").exists());
        std::fs::write(out.join(GUIDE_MARKER), "").unwrap();
        write_atomically(&out, &files).unwrap();
        assert!(out.join("a/b.html").exists());
        assert!(!out.join("stale").exists());
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no staging directory is left behind");
    }
}
