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

/// One URL of the list, with the request target a crawler would send for it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct UrlEntry {
    /// The URL as written in the file.
    pub url: String,
    /// Its scheme, lower-cased (`http`, `https`).
    pub scheme: String,
    /// Its request target (path and query, encoded as a client sends them).
    pub target: String,
}

/// The URL list of a run.
#[derive(Clone, Debug, Default)]
pub struct UrlList {
    /// URLs by authority until [`UrlList::settle`], then by the report's host name.
    by_host: HashMap<String, Vec<UrlEntry>>,
    /// URLs no host of the report takes: (authority, URL, why), after [`UrlList::settle`].
    unassigned: Vec<(String, UrlEntry, String)>,
    /// Lines that could not be used: (line text, why).
    pub invalid: Vec<(String, String)>,
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

impl UrlList {
    /// Reads the list from the bytes of a file (see the module documentation): a byte order
    /// mark is skipped, lines end at LF, CRLF or a lone CR, and a line that is not UTF-8 is
    /// listed as unusable, not fatal.
    pub fn parse(bytes: &[u8]) -> UrlList {
        let mut list = UrlList {
            digest: super::names::fnv1a(bytes),
            ..UrlList::default()
        };
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        for (n, raw) in bytes.split(|&b| b == b'\n' || b == b'\r').enumerate() {
            let Ok(line) = std::str::from_utf8(raw) else {
                list.invalid.push((
                    String::from_utf8_lossy(raw).into_owned(),
                    format!("line {} is not UTF-8", n + 1),
                ));
                continue;
            };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let parsed = url::Url::parse(line)
                .ok()
                .filter(crate::fetch::is_web_url)
                .and_then(|u| u.host().map(|h| (u.clone(), h.to_string())));
            let Some((u, host)) = parsed else {
                list.invalid.push((
                    line.to_string(),
                    "not an absolute http or https URL with a host".to_string(),
                ));
                continue;
            };
            let authority = match u.port() {
                Some(p) => format!("{host}:{p}"),
                None => host,
            };
            let target = match crate::request::request_target(line) {
                Ok(t) => t,
                Err(e) => {
                    list.invalid.push((line.to_string(), e.to_string()));
                    continue;
                }
            };
            list.total += 1;
            list.by_host.entry(authority).or_default().push(UrlEntry {
                url: line.to_string(),
                scheme: u.scheme().to_string(),
                target,
            });
        }
        list
    }

    /// Reads the list from the file at `path`.
    ///
    /// # Errors
    /// A message when the file cannot be read or is larger than [`MAX_BYTES`].
    pub fn read(path: &std::path::Path) -> Result<UrlList, String> {
        use std::io::Read as _;
        let fail = |e: std::io::Error| format!("--urls {}: {e}", path.display());
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .map_err(fail)?
            .take(MAX_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(fail)?;
        if bytes.len() as u64 > MAX_BYTES {
            return Err(format!(
                "--urls {}: larger than {} MiB; split the list",
                path.display(),
                MAX_BYTES / (1024 * 1024)
            ));
        }
        Ok(UrlList::parse(&bytes))
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
        let mut settled: HashMap<String, Vec<UrlEntry>> = HashMap::new();
        let mut unassigned = Vec::new();
        for (authority, entries) in std::mem::take(&mut self.by_host) {
            match known.get(&authority) {
                None => unassigned.extend(
                    entries
                        .into_iter()
                        .map(|e| (authority.clone(), e, "host not in the report".to_string())),
                ),
                Some(&(name, scheme)) => {
                    let (mine, other): (Vec<UrlEntry>, Vec<UrlEntry>) = entries
                        .into_iter()
                        .partition(|e| scheme.is_none_or(|s| s.eq_ignore_ascii_case(&e.scheme)));
                    let scheme = scheme.unwrap_or_default();
                    unassigned.extend(other.into_iter().map(|e| {
                        let why = format!(
                            "the report has {name} for {scheme} only (rules bind one scheme, host \
                             and port)"
                        );
                        (authority.clone(), e, why)
                    }));
                    if !mine.is_empty() {
                        settled.entry(name.to_string()).or_default().extend(mine);
                    }
                }
            }
        }
        unassigned.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.url.cmp(&b.1.url)));
        self.by_host = settled;
        self.unassigned = unassigned;
    }

    /// The URLs of `host` (as the report names it), in file order, once
    /// [`UrlList::settle`]d.
    pub fn for_host(&self, host: &str) -> &[UrlEntry] {
        self.by_host.get(host).map_or(&[], Vec::as_slice)
    }

    /// URLs no host of the report takes: (authority, URL, why), sorted by authority.
    pub fn unassigned(&self) -> &[(String, UrlEntry, String)] {
        &self.unassigned
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
        UrlList {
            by_host: HashMap::new(),
            unassigned,
            invalid,
            total,
            digest,
        }
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
        assert_eq!(list.invalid.len(), 2);
        let hosts = [
            ("shop.example".to_string(), Some("https".to_string())),
            ("shop.example:8080".to_string(), None),
            ("b\u{fc}cher.example".to_string(), None),
        ];
        list.settle(&hosts);
        assert_eq!(list.for_host("shop.example")[0].target, "/a?b=1");
        assert_eq!(list.for_host("shop.example").len(), 1);
        assert_eq!(list.for_host("shop.example:8080")[0].target, "/x");
        assert_eq!(list.for_host("b\u{fc}cher.example")[0].target, "/p");
        let un = list.unassigned();
        assert_eq!(un.len(), 2);
        assert_eq!(un[0].0, "other.example");
        assert_eq!(un[0].1.target, "/caf%C3%A9");
        assert!(un[1].2.contains("for https only"), "{un:?}");
    }

    #[test]
    fn lines_that_are_not_utf8_are_listed_not_fatal() {
        let list = UrlList::parse(b"https://a.example/\n\xff\xfe\nhttps://a.example/b\n");
        assert_eq!(list.total, 2);
        assert_eq!(list.invalid.len(), 1);
        assert_eq!(list.invalid[0].1, "line 2 is not UTF-8");
        assert_eq!(host_key("Shop.Example:8080"), "shop.example:8080");
        assert_eq!(host_key("b\u{fc}cher.example"), "xn--bcher-kva.example");
    }
}
