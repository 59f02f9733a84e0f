//! What every check needs: the parsed file, both readings' policies, what kind of body the file
//! is, and a way to build a [`Diagnostic`] with its line and column filled in.

use super::{CatalogueEntry, Diagnostic, Readings};
use crate::groups::Policy;
use crate::syntax::{Line, Span, Tree};
use crate::{Reading, RobotsTxt};
use std::borrow::Cow;

/// What the body of the file looks like, before any robots.txt parsing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Body {
    /// Plain text, as a robots.txt file should be.
    Text,
    /// An HTML page.
    Html,
    /// A JSON document (typically an error response).
    Json,
    /// An XML document (a storage service's error, or a sitemap).
    Xml,
    /// Binary data (an image, a compressed body, NUL padding).
    Binary,
    /// UTF-16 text without a byte order mark: every other byte is NUL.
    Utf16NoBom,
}

impl Body {
    /// Whether the body is something other than a robots.txt file, so that line-by-line
    /// complaints about it would only be noise.
    pub(crate) fn is_foreign(self) -> bool {
        self != Body::Text
    }
}

/// The analysis context of one file.
pub(crate) struct Ctx<'a> {
    pub robots: &'a RobotsTxt,
    pub bytes: &'a [u8],
    pub tree: &'a Tree,
    pub google: &'a Policy,
    pub rfc: &'a Policy,
    pub body: Body,
    /// Whether both readings give the file the same groups, rules and sitemaps, so that the
    /// checks that depend on the reading need to run only once.
    pub same_policies: bool,
    /// The hosts the file's sitemaps name, worked out on first use (see `rules::own_hosts`).
    pub own_hosts: std::cell::OnceCell<Vec<String>>,
    /// The region past the parsing limit ([`Tree::ignored_region`]), worked out on first use.
    ignored_region: std::cell::OnceCell<Option<crate::syntax::IgnoredRegion>>,
    /// The whole file as text when it is valid UTF-8, checked on the first [`Ctx::text`]: the
    /// text of a span is then a slice of it, without checking the span's bytes again.
    utf8: std::cell::OnceCell<Option<&'a str>>,
}

impl<'a> Ctx<'a> {
    pub(crate) fn new(robots: &'a RobotsTxt) -> Ctx<'a> {
        let bytes = robots.bytes();
        let google = robots.policy(Reading::Google);
        let rfc = robots.policy(Reading::Rfc9309);
        Ctx {
            robots,
            bytes,
            tree: &robots.tree,
            google,
            rfc,
            body: classify(robots),
            same_policies: equivalent(google, rfc),
            own_hosts: std::cell::OnceCell::new(),
            ignored_region: std::cell::OnceCell::new(),
            utf8: std::cell::OnceCell::new(),
        }
    }

    /// The facts of the region past the parsing limit ([`Tree::ignored_region`]), or `None`
    /// when the whole file was parsed: worked out once per file, however many checks ask.
    pub(crate) fn ignored_region(&self) -> Option<crate::syntax::IgnoredRegion> {
        *self
            .ignored_region
            .get_or_init(|| self.tree.ignored_region(self.bytes))
    }

    /// The readings the reading-dependent checks must run in: Google alone when both readings
    /// agree on the whole file, else both.
    pub(crate) fn readings(&self) -> &'static [Reading] {
        if self.same_policies {
            &[Reading::Google]
        } else {
            &Reading::ALL
        }
    }

    /// The readings a finding made in `reading` applies to.
    pub(crate) fn tag(&self, reading: Reading) -> Readings {
        if self.same_policies {
            Readings::Both
        } else {
            only(reading)
        }
    }

    /// The policy of `reading`.
    pub(crate) fn policy(&self, reading: Reading) -> &'a Policy {
        match reading {
            Reading::Google => self.google,
            Reading::Rfc9309 => self.rfc,
        }
    }

    /// The text of a span, for display.
    pub(crate) fn text(&self, span: Span) -> Cow<'a, str> {
        let end = span.end.min(self.bytes.len());
        let start = span.start.min(end);
        let whole = self
            .utf8
            .get_or_init(|| std::str::from_utf8(self.bytes).ok());
        // A span of valid UTF-8 that starts and ends between characters is valid itself; any
        // other goes through the source's decoding (as Windows-1252 where it is not UTF-8).
        match whole.and_then(|w| w.get(start..end)) {
            Some(text) => Cow::Borrowed(text),
            None => self.robots.source.display(start, end),
        }
    }

    /// The raw bytes of a span.
    pub(crate) fn raw(&self, span: Span) -> &'a [u8] {
        let end = span.end.min(self.bytes.len());
        &self.bytes[span.start.min(end)..end]
    }

    /// The line with 0-based index `i`.
    pub(crate) fn line(&self, i: usize) -> &'a Line {
        &self.tree.lines[i]
    }

    /// The content of line `i` without its terminator and surrounding white space, for
    /// messages.
    pub(crate) fn line_text(&self, i: usize) -> Cow<'a, str> {
        let l = self.line(i);
        let (a, b) = trim_span(self.bytes, l.content());
        self.text(Span::new(a, b))
    }

    /// A diagnostic of `entry` over `span`, with line and column computed from the tree.
    pub(crate) fn diag(
        &self,
        entry: &CatalogueEntry,
        span: Span,
        readings: Readings,
        message: impl Into<String>,
    ) -> Diagnostic {
        let (line, column) = self.tree.line_col(self.bytes, span.start);
        let (end_line, end_column) = if span.is_empty() {
            (line, column)
        } else {
            self.tree.line_col(self.bytes, span.end)
        };
        Diagnostic::new(
            entry,
            super::diagnostic::Position {
                span,
                line,
                column,
                end_line,
                end_column,
            },
            readings,
            message,
        )
    }

    /// A diagnostic over the content of line `i` (without its terminator).
    pub(crate) fn line_diag(
        &self,
        entry: &CatalogueEntry,
        i: usize,
        readings: Readings,
        message: impl Into<String>,
    ) -> Diagnostic {
        let l = self.line(i);
        let (a, b) = trim_span(self.bytes, l.content());
        self.diag(entry, Span::new(a, b), readings, message)
    }
}

/// Whether two policies have the same records, groups (user-agent lines, product tokens,
/// rules and their normalised patterns) and sitemaps.
fn equivalent(a: &Policy, b: &Policy) -> bool {
    a.groups == b.groups
        && a.sitemaps == b.sitemaps
        && a.rules_outside_groups == b.rules_outside_groups
        && a.records.len() == b.records.len()
        && a.records
            .iter()
            .zip(&b.records)
            .all(|(x, y)| x.line == y.line && x.field == y.field && x.value == y.value)
}

/// `span` without leading and trailing spaces and tabs.
pub(crate) fn trim_span(bytes: &[u8], span: Span) -> (usize, usize) {
    let (mut a, mut b) = (span.start, span.end.min(bytes.len()));
    while a < b && matches!(bytes[a], b' ' | b'\t' | 0x0B | 0x0C) {
        a += 1;
    }
    while b > a && matches!(bytes[b - 1], b' ' | b'\t' | 0x0B | 0x0C) {
        b -= 1;
    }
    (a, b)
}

/// The readings value for one reading.
pub(crate) fn only(reading: Reading) -> Readings {
    match reading {
        Reading::Google => Readings::Google,
        Reading::Rfc9309 => Readings::Rfc,
    }
}

/// Classifies the body from its first bytes and its share of control bytes.
fn classify(robots: &RobotsTxt) -> Body {
    let src = &robots.source;
    let bytes = &src.bytes;
    if src.bom_len == 0 && looks_utf16_without_bom(bytes) {
        return Body::Utf16NoBom;
    }
    let start = &bytes[src.bom_len.min(bytes.len())..];
    let start = if src.misencoded_bom {
        &start[crate::decode::MISENCODED_BOM.len().min(start.len())..]
    } else {
        start
    };
    const MAGIC: &[&[u8]] = &[
        b"\x89PNG",
        b"\xEF\xBF\xBDPNG",
        b"GIF87a",
        b"GIF89a",
        b"\xFF\xD8\xFF",
        b"%PDF-",
        b"\x1F\x8B",
        b"\x1F\xEF\xBF\xBD\x08",
        b"PK\x03\x04",
        b"\x00\x00\x01\x00",
        b"RIFF",
        b"wOFF",
        b"wOF2",
    ];
    if MAGIC.iter().any(|m| start.starts_with(m)) {
        return Body::Binary;
    }
    let controls = src.nul_bytes + src.control_bytes;
    if controls >= 16 && controls * 10 > bytes.len() {
        return Body::Binary;
    }
    // Compressed or other binary data without a known signature (brotli has none): text, even
    // in a legacy encoding, has few bytes that are not UTF-8, while such data is mostly so.
    let sample = &start[..start.len().min(64 * 1024)];
    if sample.len() >= 64 {
        let mut odd = 0usize;
        if src.first_invalid_utf8.is_none() {
            // Valid UTF-8 throughout: only a character cut by the end of the sample is
            // invalid, and U+FFFD is found as its three bytes.
            let mut valid = sample.len();
            while valid > 0 && valid < start.len() && (start[valid] & 0xC0) == 0x80 {
                valid -= 1;
            }
            odd += sample.len() - valid;
            odd += memchr::memmem::find_iter(&sample[..valid], "\u{FFFD}".as_bytes()).count() * 3;
        } else {
            for chunk in sample.utf8_chunks() {
                odd += chunk.invalid().len();
                odd += chunk.valid().matches('\u{FFFD}').count() * 3;
            }
        }
        if controls > 0 {
            odd += sample
                .iter()
                .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C))
                .count();
        }
        if odd * 4 > sample.len() {
            return Body::Binary;
        }
    }
    let lead = skip_ws(start);
    // Markup and JSON start with `<`, `{` or `[`: only then are the first bytes looked at in
    // lower case.
    if matches!(lead.first(), Some(b'<' | b'{' | b'[')) {
        let head: Vec<u8> = lead[..lead.len().min(4096)].to_ascii_lowercase();
        if head.starts_with(b"<?xml") {
            return if contains(&head, b"<html") || contains(&head, b"xhtml") {
                Body::Html
            } else {
                Body::Xml
            };
        }
        if head.starts_with(b"<") {
            const HTML_MARKERS: &[&[u8]] = &[
                b"<!doctype html",
                b"<html",
                b"<head",
                b"<body",
                b"<meta",
                b"<script",
                b"<style",
                b"<div",
                b"<title",
                b"<link",
                b"<main",
                b"<noscript",
                b"<figure",
                b"<p>",
                b"<span",
                b"<table",
                b"<iframe",
                b"<pre",
                b"<h1",
                b"<a ",
            ];
            if HTML_MARKERS.iter().any(|m| contains(&head, m)) {
                return Body::Html;
            }
            if head.starts_with(b"<error") {
                return Body::Xml;
            }
        }
        if (head.starts_with(b"{") || head.starts_with(b"["))
            && serde_json::from_slice::<serde::de::IgnoredAny>(lead).is_ok()
        {
            return Body::Json;
        }
    }
    if markup_dominates(sample) {
        return Body::Html;
    }
    Body::Text
}

/// Whether lines of HTML markup outnumber the record lines of a body by far: an error page that
/// does not start with a tag (after PHP warnings, or a plain-text preamble), or HTML pasted
/// into the file. Comment lines are not counted, so commented-out markup changes nothing.
fn markup_dominates(sample: &[u8]) -> bool {
    // A line of markup holds a tag, which starts with `<`: most files have none at all.
    if memchr::memchr(b'<', sample).is_none() {
        return false;
    }
    let (mut markup, mut records) = (0usize, 0usize);
    // The lines between line breaks (`\n` or `\r`), found a vector's width at a time.
    let mut start = 0;
    let ends = memchr::memchr2_iter(b'\n', b'\r', sample).chain(std::iter::once(sample.len()));
    for end in ends {
        let line = &sample[start..end];
        start = end + 1;
        let l = skip_ws(line);
        if l.is_empty() || l[0] == b'#' {
            continue;
        }
        // Field names and tags are told apart whatever their case: nothing is lower-cased.
        let head = &l[..l.len().min(256)];
        let key_end = memchr::memchr(b':', head).unwrap_or(head.len());
        let key = head[..key_end].trim_ascii();
        if [
            &b"user-agent"[..],
            b"allow",
            b"disallow",
            b"sitemap",
            b"crawl-delay",
            b"host",
        ]
        .iter()
        .any(|name| key.eq_ignore_ascii_case(name))
        {
            records += 1;
            continue;
        }
        // A tag: `<` then a letter, `/` or `!`, and a `>` later on the line.
        let tag = head
            .windows(2)
            .any(|w| w[0] == b'<' && (w[1].is_ascii_alphabetic() || w[1] == b'/' || w[1] == b'!'))
            && head.contains(&b'>');
        if tag {
            markup += 1;
        }
    }
    markup >= 5 && markup > records * 3
}

fn skip_ws(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
    &b[n..]
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    memchr::memmem::find(hay, needle).is_some()
}

/// UTF-16 without a byte order mark (or with one that was re-encoded): in the first bytes,
/// NUL bytes sit on one parity only and make up at least a third of them.
pub(crate) fn looks_utf16_without_bom(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(512)];
    if head.len() < 8 {
        return false;
    }
    let (mut even, mut odd) = (0usize, 0usize);
    for (i, &b) in head.iter().enumerate() {
        if b == 0 {
            if i % 2 == 0 {
                even += 1;
            } else {
                odd += 1;
            }
        }
    }
    let nul = even + odd;
    nul * 3 >= head.len() && (even * 10 <= nul || odd * 10 <= nul)
}
