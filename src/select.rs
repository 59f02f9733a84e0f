//! Which files a directory walk reads: one rule for `lint`, `check` and `report`.
//!
//! A directory may be a repository (a site's source, where the robots.txt file sits among
//! `humans.txt`, `llms.txt`, `requirements.txt` and notes) or a folder of crawled hosts. By
//! default a walk takes a file when its name is
//!
//! - `robots.txt`, in any case (`public/robots.txt`, `<host>/robots.txt`);
//! - `<anything>.robots.txt` (`staging.robots.txt`, `example.com.robots.txt`);
//! - `<host>.txt` where the stem looks like a host name ([`looks_like_host`]: at least two
//!   dot-separated labels of letters, digits, `-` and `_` whose last one is not all digits, an
//!   IPv4 address, a bracketed IPv6 address or `localhost`, each with an optional `:port` or
//!   `_port`), such as `shop.example.txt` or `example.com_8080.txt`;
//! - `<digest>.txt` where the stem is 8 or more hexadecimal digits, as content-addressed crawl
//!   dumps name their files (`00074c0d6ce3f195.txt`).
//!
//! Hidden entries (names starting with `.`) below the walked directory are skipped. `--include`
//! globs replace the name rule (a file is taken when one matches); `--exclude` globs skip files
//! and whole directories. A glob with a `/` is matched against the path relative to the walked
//! directory; one without is matched against each file or folder name as well, as in
//! `.gitignore` (`--exclude vendor`, `--exclude 'test*.txt'`). A file named on the command line
//! is always read.

use globset::{GlobSet, GlobSetBuilder};
use std::ffi::OsStr;
use std::path::Path;

/// Whether `stem` (a file name without `.txt`) looks like a host name: see the module
/// documentation. Non-ASCII letters count as letters, so internationalised names pass.
pub fn looks_like_host(stem: &str) -> bool {
    let host = strip_port(stem);
    if host.eq_ignore_ascii_case("localhost") {
        return true;
    }
    if let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        return inner.parse::<std::net::Ipv6Addr>().is_ok();
    }
    if host.parse::<std::net::Ipv4Addr>().is_ok() {
        return true;
    }
    let labels: Vec<&str> = host.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars()
                    .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
        })
        && labels
            .last()
            .is_some_and(|l| !l.chars().all(|c| c.is_ascii_digit()))
}

/// `host:8080` or `host_8080` without the port; other names unchanged.
fn strip_port(s: &str) -> &str {
    match s.rfind([':', '_']) {
        Some(i)
            if i + 1 < s.len()
                && s[i + 1..].bytes().all(|b| b.is_ascii_digit())
                && (!s.starts_with('[') || s[..i].ends_with(']')) =>
        {
            &s[..i]
        }
        _ => s,
    }
}

/// Whether a file named `name` is read by default (see the module documentation): a `.txt`
/// file named like a robots.txt file, or a WARC file of captures (`.warc`, `.warc.gz`).
pub fn is_default_name(name: &OsStr) -> bool {
    if crate::warc::is_warc_name(std::path::Path::new(name)) {
        return true;
    }
    let name = name.to_string_lossy();
    let Some(stem) = strip_suffix_ignore_case(&name, ".txt") else {
        return false;
    };
    stem.eq_ignore_ascii_case("robots")
        || strip_suffix_ignore_case(stem, ".robots").is_some_and(|s| !s.is_empty())
        || looks_like_host(stem)
        || (stem.len() >= 8 && stem.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// `s` without `suffix` (compared ignoring ASCII case), if it ends with it.
pub fn strip_suffix_ignore_case<'a>(s: &'a str, suffix: &str) -> Option<&'a str> {
    let cut = s.len().checked_sub(suffix.len())?;
    (s.is_char_boundary(cut) && s[cut..].eq_ignore_ascii_case(suffix)).then(|| &s[..cut])
}

/// The `--include` and `--exclude` globs of a walk; the default (no globs) applies the name
/// rule of the module documentation.
#[derive(Clone, Debug, Default)]
pub struct WalkFilter {
    include: Option<Globs>,
    exclude: Option<Globs>,
}

/// A set of globs matched against a relative path as the module documentation says: globs
/// with a `/` against the whole path, globs without one also against the last name.
#[derive(Clone, Debug)]
pub struct Globs {
    /// Globs with a `/`: matched against the relative path.
    paths: GlobSet,
    /// Globs without one: matched against the relative path and against the last name.
    names: GlobSet,
}

impl Globs {
    /// The set of `globs`; `None` when there are none.
    ///
    /// # Errors
    /// A message naming `flag` (the flag or setting the globs come from) and the bad glob.
    pub fn new(globs: &[String], flag: &str) -> Result<Option<Globs>, String> {
        if globs.is_empty() {
            return Ok(None);
        }
        let mut paths = GlobSetBuilder::new();
        let mut names = GlobSetBuilder::new();
        for g in globs {
            let glob = globset::GlobBuilder::new(g)
                .literal_separator(true)
                .backslash_escape(true)
                .build()
                .map_err(|e| format!("{flag} `{g}`: {e}"))?;
            if g.contains('/') {
                paths.add(glob);
            } else {
                names.add(glob);
            }
        }
        let build = |b: GlobSetBuilder| b.build().map_err(|e| format!("{flag}: {e}"));
        Ok(Some(Globs {
            paths: build(paths)?,
            names: build(names)?,
        }))
    }

    /// Whether one of the globs matches `rel`.
    pub fn matches(&self, rel: &Path) -> bool {
        self.paths.is_match(rel)
            || self.names.is_match(rel)
            || rel.file_name().is_some_and(|n| self.names.is_match(n))
    }
}

impl WalkFilter {
    /// A filter from `--include` and `--exclude` globs (globset syntax: `*` stays within one
    /// path component, `**` crosses them, `{a,b}` and `[ab]` as usual).
    ///
    /// # Errors
    /// A message naming the flag and the glob that is not valid.
    pub fn new(include: &[String], exclude: &[String]) -> Result<WalkFilter, String> {
        Ok(WalkFilter {
            include: Globs::new(include, "--include")?,
            exclude: Globs::new(exclude, "--exclude")?,
        })
    }

    /// Whether the walk reads the file at `rel`, its path relative to the walked directory.
    pub fn takes_file(&self, rel: &Path) -> bool {
        if self.exclude.as_ref().is_some_and(|x| x.matches(rel)) {
            return false;
        }
        match &self.include {
            Some(inc) => inc.matches(rel),
            None => rel.file_name().is_some_and(is_default_name),
        }
    }

    /// Whether the walk enters the directory at `rel` (relative to the walked directory, which
    /// itself is always entered): not hidden and not excluded.
    pub fn enters_dir(&self, rel: &Path) -> bool {
        let hidden = rel
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        !hidden && !self.exclude.as_ref().is_some_and(|x| x.matches(rel))
    }

    /// Whether the walk reads the YAML sidecar at `rel`: when it would read the robots.txt file
    /// beside it (the same path ending in `.txt`), or the sidecar is `robots.yaml`/`.yml`.
    pub fn takes_sidecar(&self, rel: &Path) -> bool {
        let as_txt = rel.with_extension("txt");
        self.takes_file(&as_txt)
            || (self.include.is_none()
                && !self.exclude.as_ref().is_some_and(|x| x.matches(rel))
                && rel
                    .file_stem()
                    .is_some_and(|s| s.eq_ignore_ascii_case("robots")))
    }

    /// Whether the default name rule applies (no `--include` was given).
    pub fn is_default(&self) -> bool {
        self.include.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_names_and_other_stems() {
        for yes in [
            "shop.example",
            "www.example.com",
            "example.com_8080",
            "example.com:8443",
            "127.0.0.1",
            "[::1]",
            "[::1]:8080",
            "localhost",
            "xn--caf-dma.example",
            "café.example",
            "mixed-eol.example",
        ] {
            assert!(looks_like_host(yes), "{yes}");
        }
        for no in [
            "humans",
            "llms",
            "llms-full",
            "requirements",
            "requirements-dev",
            "CMakeLists",
            "v1.2",
            "notes",
            ".hidden",
            "a..b",
            "-a.b",
            "a b.example",
            "%2e%2e",
            "",
        ] {
            assert!(!looks_like_host(no), "{no}");
        }
    }

    #[test]
    fn default_names() {
        let yes = [
            "robots.txt",
            "ROBOTS.TXT",
            "staging.robots.txt",
            "shop.example.txt",
            "00074c0d6ce3f195.txt",
        ];
        let no = [
            "humans.txt",
            "llms.txt",
            "requirements.txt",
            "security.txt",
            "ads.txt",
            ".robots.txt",
            "robots.yaml",
            "deadbee.txt",
            "shop.example.yaml",
        ];
        for n in yes {
            assert!(is_default_name(OsStr::new(n)), "{n}");
        }
        for n in no {
            assert!(!is_default_name(OsStr::new(n)), "{n}");
        }
    }

    #[test]
    fn globs_match_paths_and_names() {
        let f = WalkFilter::new(&[], &["vendor".into(), "test/*.txt".into()]).unwrap();
        assert!(!f.enters_dir(Path::new("a/vendor")));
        assert!(f.enters_dir(Path::new("a/src")));
        assert!(!f.enters_dir(Path::new("a/.git")));
        assert!(!f.takes_file(Path::new("test/x.example.txt")));
        assert!(f.takes_file(Path::new("other/test/x.example.txt")));
        assert!(f.takes_file(Path::new("public/robots.txt")));
        assert!(!f.takes_file(Path::new("public/humans.txt")));
        let f = WalkFilter::new(&["*.txt".into()], &["humans.txt".into()]).unwrap();
        assert!(f.takes_file(Path::new("public/llms.txt")));
        assert!(!f.takes_file(Path::new("public/humans.txt")));
        assert!(f.takes_sidecar(Path::new("=err.yaml")));
        let f = WalkFilter::new(&["**/sites/*.txt".into()], &[]).unwrap();
        assert!(f.takes_file(Path::new("x/sites/a.txt")));
        assert!(!f.takes_file(Path::new("x/sites/deeper/a.txt")));
        let d = WalkFilter::default();
        assert!(d.takes_sidecar(Path::new("a/shop.example.yaml")));
        assert!(d.takes_sidecar(Path::new("a/shop.example/robots.yaml")));
        assert!(!d.takes_sidecar(Path::new("config.yaml")));
        assert!(WalkFilter::new(&["a[".into()], &[]).is_err());
    }
}
