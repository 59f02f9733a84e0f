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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrlEntry {
    /// The URL as written in the file.
    pub url: String,
    /// Its request target (path and query, encoded as a client sends them).
    pub target: String,
}

/// The URL list of a run.
#[derive(Debug, Default)]
pub struct UrlList {
    /// URLs by host (lower-cased authority).
    by_host: HashMap<String, Vec<UrlEntry>>,
    /// Lines that could not be used: (line text, why).
    pub invalid: Vec<(String, String)>,
    /// URLs read in all (valid ones).
    pub total: usize,
}

/// URLs listed on one host page; every one is in `urls.csv` and `hosts.jsonl`.
pub const MAX_ON_PAGE: usize = 500;

impl UrlList {
    /// Reads the list from `text` (see the module documentation).
    pub fn parse(text: &str) -> UrlList {
        let mut list = UrlList::default();
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let parsed = url::Url::parse(line)
                .ok()
                .filter(crate::fetch::is_web_url)
                .and_then(|u| u.host_str().map(|h| (u.clone(), h.to_ascii_lowercase())));
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
                target,
            });
        }
        list
    }

    /// Reads the list from the file at `path`.
    ///
    /// # Errors
    /// A message when the file cannot be read or is not UTF-8.
    pub fn read(path: &std::path::Path) -> Result<UrlList, String> {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("--urls {}: {e}", path.display()))?;
        Ok(UrlList::parse(&text))
    }

    /// The URLs of `host` (as the report names it), in file order.
    pub fn for_host(&self, host: &str) -> &[UrlEntry] {
        self.by_host
            .get(&host.to_ascii_lowercase())
            .map_or(&[], Vec::as_slice)
    }

    /// URLs whose host is none of `hosts` (the report's host names), with their host, sorted
    /// by host.
    pub fn unassigned<'a>(
        &'a self,
        hosts: &std::collections::HashSet<String>,
    ) -> Vec<(&'a str, &'a UrlEntry)> {
        let mut out: Vec<(&str, &UrlEntry)> = self
            .by_host
            .iter()
            .filter(|(h, _)| !hosts.contains(*h))
            .flat_map(|(h, v)| v.iter().map(move |e| (h.as_str(), e)))
            .collect();
        out.sort_by(|a, b| a.0.cmp(b.0));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_go_to_their_hosts_by_authority() {
        let list = UrlList::parse(
            "# sitemap export\nhttps://Shop.Example/a?b=1\n\nhttp://shop.example:8080/x\n\
             ftp://shop.example/f\n/relative\nhttps://other.example/caf\u{e9}\n",
        );
        assert_eq!(list.total, 3);
        assert_eq!(list.for_host("shop.example")[0].target, "/a?b=1");
        assert_eq!(list.for_host("shop.example:8080")[0].target, "/x");
        assert_eq!(list.for_host("other.example")[0].target, "/caf%C3%A9");
        assert_eq!(list.invalid.len(), 2);
        let hosts = ["shop.example".to_string()].into_iter().collect();
        let un = list.unassigned(&hosts);
        assert_eq!(un.len(), 2);
        assert_eq!(un[0].0, "other.example");
    }
}
