//! Sitemap checks: the URL must be absolute, and use HTTP or HTTPS.

use super::context::Ctx;
use super::found::Found;
use super::text::{quote, visible};
use super::{CatalogueEntry, Severity};
use crate::text::sentence;

const SITEMAPS_ORG: (&str, &str) = (
    "sitemaps.org: submitting via robots.txt",
    "https://www.sitemaps.org/protocol.html#submit_robots",
);
const GOOGLE_SITEMAP: (&str, &str) = (
    "Google: sitemap",
    "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt#sitemap",
);
const RFC_2_2_4: (&str, &str) = (
    "RFC 9309 §2.2.4",
    "https://www.rfc-editor.org/rfc/rfc9309.html#section-2.2.4",
);

/// The sitemap entries, in catalogue order.
pub(super) const ENTRIES: &[CatalogueEntry] = &[SITEMAP_NOT_ABSOLUTE, SITEMAP_SCHEME];

const SITEMAP_NOT_ABSOLUTE: CatalogueEntry = CatalogueEntry {
    name: "sitemap-not-absolute",
    severity: Severity::Warning,
    summary: "A sitemap line does not hold an absolute URL.",
    what: "The value of a `Sitemap` line must be a complete URL with scheme and host, such as \
`https://www.example.com/sitemap.xml`. This one is a path (`/sitemap.xml`), a host without a \
scheme (`www.example.com/sitemap.xml`), empty, or otherwise not a URL.",
    why: "Google and the sitemaps.org protocol require a fully qualified URL; crawlers do not \
resolve a relative one against the site, so the sitemap is never read from this line.",
    example: "User-agent: *\nDisallow:\n\nSitemap: /sitemap.xml\n",
    fix: "Write the full URL, including `https://` and the host name: \
`Sitemap: https://www.example.com/sitemap.xml`.",
    references: &[GOOGLE_SITEMAP, SITEMAPS_ORG, RFC_2_2_4],
};

const SITEMAP_SCHEME: CatalogueEntry = CatalogueEntry {
    name: "sitemap-scheme",
    severity: Severity::Warning,
    summary: "A sitemap URL uses a scheme other than http or https.",
    what: "The sitemap URL is absolute, but its scheme is neither `http` nor `https`: for example \
`ftp:`, `file:`, or a typo such as `htps:`.",
    why: "Crawlers fetch sitemaps over HTTP or HTTPS; other schemes are ignored, and a typo in the \
scheme makes the URL point nowhere.",
    example: "Sitemap: htps://www.example.com/sitemap.xml\n",
    fix: "Use an `https://` (or `http://`) URL for the sitemap.",
    references: &[GOOGLE_SITEMAP, SITEMAPS_ORG],
};

/// Runs the sitemap checks in both readings.
pub(super) fn check(cx: &Ctx, out: &mut Found) {
    if cx.body.is_foreign() {
        return;
    }
    // Both readings mostly hold the same sitemap lines: each value is parsed once.
    let mut shapes: rustc_hash::FxHashMap<crate::syntax::Span, Shape> =
        rustc_hash::FxHashMap::default();
    for &reading in cx.readings() {
        for s in &cx.policy(reading).sitemaps {
            let value = cx.text(s.url);
            let readings = cx.tag(reading);
            let trimmed = value.trim();
            match shapes.entry(s.url).or_insert_with(|| Shape::of(trimmed)) {
                Shape::Web { second_url } => {
                    if *second_url {
                        out.push(
                            cx.diag(
                                &SITEMAP_NOT_ABSOLUTE,
                                s.url,
                                readings,
                                sentence!(
                                    "{} holds more than one URL: a sitemap line takes one URL",
                                    quote(trimmed)
                                ),
                            )
                            .with_suggestion("write one `Sitemap:` line per URL"),
                        );
                    }
                }
                Shape::OtherScheme(scheme) => {
                    let fixed = fix_scheme(trimmed);
                    let mut d = cx.diag(
                        &SITEMAP_SCHEME,
                        s.url,
                        readings,
                        sentence!(
                            "the sitemap URL {} uses the scheme `{}`; crawlers fetch sitemaps over \
http or https only",
                            quote(trimmed),
                            visible(scheme, 20)
                        ),
                    );
                    if let Some(f) = fixed {
                        d = d.with_suggestion(sentence!("Sitemap: {f}"));
                    }
                    out.push(d);
                }
                Shape::NotAbsolute => {
                    let suggestion = relative_fix(trimmed);
                    let msg = if trimmed.is_empty() {
                        "the sitemap line is empty".to_string()
                    } else {
                        sentence!(
                            "{} is not an absolute URL; crawlers do not resolve it against the \
site, so the sitemap is not found",
                            quote(trimmed)
                        )
                    };
                    let mut d = cx.diag(&SITEMAP_NOT_ABSOLUTE, s.url, readings, msg);
                    if let Some(f) = suggestion {
                        d = d.with_suggestion(if f.starts_with("write ") {
                            f
                        } else {
                            sentence!("Sitemap: {f}")
                        });
                    }
                    out.push(d);
                }
            }
        }
    }
}

/// What the (trimmed) value of a sitemap line is, as far as the checks care.
enum Shape {
    /// An http or https URL with a host; `second_url` when another URL seems to follow it.
    Web { second_url: bool },
    /// An absolute URL with another scheme, all letters (this one).
    OtherScheme(String),
    /// Not an absolute URL.
    NotAbsolute,
}

impl Shape {
    /// The shape of `trimmed`, parsed as a URL (most values are told without the parser, see
    /// [`plainly_web`]).
    fn of(trimmed: &str) -> Shape {
        // Google's page says sitemap URLs need not be URL-encoded, so a space inside a path is
        // fine; only a second URL on the line is a mistake.
        let web = || Shape::Web {
            second_url: trimmed
                .split_whitespace()
                .skip(1)
                .any(|w| w.contains("://") || w.to_ascii_lowercase().starts_with("sitemap:")),
        };
        if plainly_web(trimmed) {
            return web();
        }
        match url::Url::parse(trimmed) {
            Ok(u) if u.has_host() && matches!(u.scheme(), "http" | "https") => web(),
            Ok(u)
                if u.scheme().chars().all(|c| c.is_ascii_alphabetic())
                    && (u.has_host() || u.scheme().len() > 2) =>
            {
                Shape::OtherScheme(u.scheme().to_string())
            }
            _ => Shape::NotAbsolute,
        }
    }
}

/// Whether `v` is an http or https URL that the URL parser (WHATWG's, as the `url` crate
/// implements it) accepts with a host, told without parsing it, which costs thousands of
/// instructions a URL: `http://` or `https://` in any case, a host name of dot-separated
/// labels of ASCII letters, digits and hyphens, none empty, none starting with `xn--` (which
/// the parser decodes and may refuse), the last starting with a letter (so that it is not read
/// as an IPv4 address), then the end or `/`, `?` or `#` and anything (the parser encodes what
/// needs it). `false` says nothing: the value is then parsed.
fn plainly_web(v: &str) -> bool {
    let b = v.as_bytes();
    let rest = match b.get(..8) {
        Some(p) if p.eq_ignore_ascii_case(b"https://") => &b[8..],
        _ => match b.get(..7) {
            Some(p) if p.eq_ignore_ascii_case(b"http://") => &b[7..],
            _ => return false,
        },
    };
    let host_end = rest
        .iter()
        .position(|&c| matches!(c, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    let host = &rest[..host_end];
    let mut labels = host.split(|&c| c == b'.').peekable();
    while let Some(label) = labels.next() {
        let fine = !label.is_empty()
            && label
                .iter()
                .all(|c| c.is_ascii_alphanumeric() || *c == b'-')
            && !(label.len() >= 4 && label[..4].eq_ignore_ascii_case(b"xn--"));
        let last = labels.peek().is_none();
        if !fine || (last && !label[0].is_ascii_alphabetic()) {
            return false;
        }
    }
    true
}

/// `htps://…`, `http//…` and other near misses of `https://`.
fn fix_scheme(v: &str) -> Option<String> {
    let (scheme, rest) = v.split_once(':')?;
    let rest = rest.trim_start_matches('/');
    let lower = scheme.to_ascii_lowercase();
    let near = |target: &str| super::text::edit_distance(lower.as_bytes(), target.as_bytes(), 1);
    if near("https").is_some() {
        Some(sentence!("https://{rest}"))
    } else if near("http").is_some() {
        Some(sentence!("http://{rest}"))
    } else {
        None
    }
}

/// A suggestion for a value that is not absolute: a host name without scheme gets `https://`.
fn relative_fix(v: &str) -> Option<String> {
    if v.is_empty() || v.starts_with('/') || v.contains(char::is_whitespace) {
        if let Some(rest) = v.strip_prefix("//") {
            return Some(sentence!("https://{rest}"));
        }
        return v.starts_with('/').then(|| {
            sentence!("write the full URL with the site's own host name, e.g. `https://www.example.com{v}`")
        });
    }
    // `www.example.com/sitemap.xml` lacks only the scheme; `sitemap.xml` alone is a file name,
    // not a host, and its host cannot be guessed.
    let (host, path) = v.split_once('/')?;
    let file_like = host.rsplit('.').next().is_some_and(|ext| {
        matches!(
            ext.to_ascii_lowercase().as_str(),
            "xml" | "gz" | "txt" | "php" | "html" | "htm" | "asp" | "aspx" | "jsp" | "json"
        )
    });
    (host.contains('.') && !host.contains(':') && !file_like && !host.is_empty())
        .then(|| sentence!("https://{host}/{path}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plainly_web_urls_are_web_urls_to_the_parser() {
        let parsed_web = |v: &str| {
            url::Url::parse(v).is_ok_and(|u| u.has_host() && matches!(u.scheme(), "http" | "https"))
        };
        for v in [
            "https://www.example.com/sitemap.xml",
            "HTTP://Example.COM",
            "http://a-b.c/x y?q=1#f",
            "https://example.com?x",
            "https://sub.example.co.uk/a/%zz/é",
        ] {
            assert!(plainly_web(v), "{v}");
            assert!(parsed_web(v), "{v}");
        }
        for v in [
            "https://1.2.3.4/",
            "https://example.123/",
            "https://example.0x1f/",
            "https://xn--nxasmq6b.com/",
            "https://a..b/",
            "https://.a/",
            "https://a./",
            "https://ex_ample.com/",
            "https://example.com:8080/",
            "https://user@example.com/",
            "https:/example.com/",
            "ftp://example.com/",
            "https://",
            "https:///x",
        ] {
            assert!(!plainly_web(v), "{v}");
        }
        // Every string of a few pieces the fast path accepts, the parser accepts as a web URL.
        let pieces = [
            "http://", "https://", "HTTPS://", "a", "Z9", "-", ".", "..", "xn--", "0x1", "1", "/",
            "?", "#", ":", "@", "%41", " ", "\\", "é", "[", "]",
        ];
        let mut accepted = 0;
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    for d in pieces {
                        let v = format!("{a}{b}{c}{d}");
                        if plainly_web(&v) {
                            accepted += 1;
                            assert!(parsed_web(&v), "{v:?}");
                        }
                    }
                }
            }
        }
        assert!(accepted > 100, "{accepted}");
    }

    #[test]
    fn fixes() {
        assert_eq!(
            fix_scheme("htps://example.com/s.xml").as_deref(),
            Some("https://example.com/s.xml")
        );
        assert_eq!(fix_scheme("ftp://example.com/s.xml"), None);
        assert_eq!(
            relative_fix("www.example.com/sitemap.xml").as_deref(),
            Some("https://www.example.com/sitemap.xml")
        );
        // A bare file name has no host to put in front of it.
        assert_eq!(relative_fix("sitemap.xml"), None);
        assert_eq!(relative_fix("sitemap.xml/index"), None);
        assert_eq!(
            relative_fix("/sitemap.xml").unwrap(),
            "write the full URL with the site's own host name, e.g. `https://www.example.com/sitemap.xml`"
        );
        assert_eq!(
            relative_fix("//cdn.example.com/s.xml").as_deref(),
            Some("https://cdn.example.com/s.xml")
        );
    }
}
