//! Stage 3: lines → records, in one reading.
//!
//! RFC 9309 §2.2 knows `user-agent`, `allow` and `disallow`, and §2.2.4 lets crawlers read other
//! records such as `sitemap`; field names are case-insensitive and a colon separates key and
//! value. google/robotstxt is more lenient: a key that *starts with* a known name counts
//! (`Disallowed` is `disallow`), some misspellings count (`useragent`, `user agent`, `dissallow`,
//! `dissalow`, `disalow`, `diasllow`, `disallaw`, `site-map`), a line of exactly two words may omit
//! the colon, and a line is cut at 16,663 bytes or at a NUL byte.

use crate::Reading;
use crate::decode::GOOGLE_MAX_LINE_BYTES;
use crate::syntax::{Line, Parts, SeparatorKind, Span, Tree, split_content};

/// What a record's key names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Field {
    /// `user-agent` (RFC 9309 §2.2.1).
    UserAgent,
    /// `allow` (RFC 9309 §2.2.2).
    Allow,
    /// `disallow` (RFC 9309 §2.2.2).
    Disallow,
    /// `sitemap` (RFC 9309 §2.2.4; sitemaps.org).
    Sitemap,
    /// A field some crawlers read but neither reading acts on; holds the canonical name, e.g.
    /// `crawl-delay`.
    NonStandard(&'static str),
    /// Anything else, including, in the RFC 9309 reading, misspelled known fields and lines
    /// without a colon.
    Unknown,
}

impl Field {
    /// Canonical name (`user-agent`, `allow`, …, the non-standard name, or `unknown`).
    pub fn name(self) -> &'static str {
        match self {
            Field::UserAgent => "user-agent",
            Field::Allow => "allow",
            Field::Disallow => "disallow",
            Field::Sitemap => "sitemap",
            Field::NonStandard(n) => n,
            Field::Unknown => "unknown",
        }
    }
    /// Whether the field is `allow` or `disallow`.
    pub fn is_rule(self) -> bool {
        matches!(self, Field::Allow | Field::Disallow)
    }
}

/// How the key was spelt, relative to the field it was read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Spelling {
    /// The field name itself (any case).
    Exact,
    /// A misspelling google/robotstxt accepts, e.g. `dissallow`.
    Variant,
    /// A longer key that starts with the name or a variant, e.g. `disallowed` (Google only).
    Prefix,
}

/// Non-standard fields that crawlers are known to read, by lower-case key.
pub const NON_STANDARD_FIELDS: &[&str] = &[
    "crawl-delay",
    "host",
    "clean-param",
    "request-rate",
    "visit-time",
    "noindex",
    "nofollow",
    "noarchive",
    "content-signal",
    "content-usage",
    "cache-delay",
    "robot-version",
    "comment",
];

/// Misspellings the Google reading accepts, with the field they stand for (google/robotstxt's
/// list, plus `site map`).
pub const GOOGLE_VARIANTS: &[(&str, Field)] = &[
    ("useragent", Field::UserAgent),
    ("user agent", Field::UserAgent),
    ("dissallow", Field::Disallow),
    ("dissalow", Field::Disallow),
    ("disalow", Field::Disallow),
    ("diasllow", Field::Disallow),
    ("disallaw", Field::Disallow),
    ("site-map", Field::Sitemap),
    // Not in google/robotstxt: texting_robots also reads `site map` as a sitemap line. Sitemap
    // lines never change a decision, so the Google reading lists it too rather than lose a URL.
    ("site map", Field::Sitemap),
];

/// One key/value line as a reading understands it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// 0-based index of the line in [`Tree::lines`].
    pub line: usize,
    /// What the key names in this reading.
    pub field: Field,
    /// The key as written.
    pub key: Span,
    /// The value, trimmed (cut at 16,663 bytes or at a NUL byte in the Google reading).
    pub value: Span,
    /// How the key was spelt.
    pub spelling: Spelling,
    /// The separator used.
    pub separator: SeparatorKind,
}

fn starts_with_ci(s: &[u8], prefix: &[u8]) -> bool {
    s.len() >= prefix.len() && s[..prefix.len()].eq_ignore_ascii_case(prefix)
}

/// Whether `key` starts with `name` ignoring ASCII case, where `name` is a lower-case field
/// name of 5 to 16 bytes (letters and `-`): compared eight bytes at a time, setting the case
/// bit (0x20) only where `name` has a letter, so that no other byte can pass for one.
#[inline]
fn starts_with_name(key: &[u8], name: &[u8]) -> bool {
    debug_assert!((5..=16).contains(&name.len()));
    if key.len() < name.len() {
        return false;
    }
    // The `n` (1 to 8) bytes of `b` from `at` as one little-endian word: one load where eight
    // bytes are there, else byte by byte (a copy of a variable length is a library call).
    let word = |b: &[u8], at: usize, n: usize| match b.get(at..at + 8) {
        Some(eight) => {
            let w = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
            w & (u64::MAX >> (64 - 8 * n))
        }
        None => b[at..at + n]
            .iter()
            .rev()
            .fold(0, |w, &x| w << 8 | u64::from(x)),
    };
    let mut at = 0;
    while at < name.len() {
        let n = (name.len() - at).min(8);
        let want = word(name, at, n);
        // Letters have 0x40 set; their case bit is 0x20.
        let case_bits = (want & 0x4040_4040_4040_4040) >> 1;
        let got = word(key, at, n) | case_bits;
        if got != want {
            return false;
        }
        at += n;
    }
    true
}

/// Classifies a key as google/robotstxt does (`ParsedRobotsKey::Parse`), in its order:
/// user-agent, allow, disallow, sitemap.
pub fn google_field(key: &[u8]) -> Option<(Field, Spelling)> {
    // Every name and variant starts with `u`, `a`, `d` or `s`: look only at the candidates.
    let (name, field): (&[u8], Field) = match key.first()?.to_ascii_lowercase() {
        b'u' => (b"user-agent", Field::UserAgent),
        b'a' => (b"allow", Field::Allow),
        b'd' => (b"disallow", Field::Disallow),
        b's' => (b"sitemap", Field::Sitemap),
        _ => return None,
    };
    if starts_with_name(key, name) {
        let sp = if key.len() == name.len() {
            Spelling::Exact
        } else {
            Spelling::Prefix
        };
        return Some((field, sp));
    }
    GOOGLE_VARIANTS
        .iter()
        .any(|(variant, vf)| *vf == field && starts_with_ci(key, variant.as_bytes()))
        .then_some((field, Spelling::Variant))
}

/// Classifies a key as RFC 9309 does: an exact, case-insensitive field name.
pub fn rfc_field(key: &[u8]) -> Option<Field> {
    match google_field(key) {
        Some((field, Spelling::Exact)) => Some(field),
        _ => None,
    }
}

/// What RFC 9309 reads a key as, given how the Google reading classified the same key
/// (`google`, as [`google_field`] gives it) and the separator after it: the field when the key
/// is exactly its name and a colon follows, else `other` (the non-standard field the key names,
/// or [`Field::Unknown`]; asked only for keys that are not a variant of a standard name, as no
/// non-standard name starts like one), and [`Field::Unknown`] for a line without a colon.
#[inline]
fn rfc_reading(
    separator: SeparatorKind,
    google: Option<(Field, Spelling)>,
    other: impl FnOnce() -> Field,
) -> Field {
    match (separator, google) {
        (SeparatorKind::Whitespace, _) => Field::Unknown,
        (SeparatorKind::Colon, Some((field, Spelling::Exact))) => field,
        (SeparatorKind::Colon, Some(_)) => Field::Unknown,
        (SeparatorKind::Colon, None) => other(),
    }
}

/// The non-standard field a key names, if it is one of [`NON_STANDARD_FIELDS`].
pub fn non_standard_field(key: &[u8]) -> Option<&'static str> {
    NON_STANDARD_FIELDS
        .iter()
        .copied()
        .find(|n| key.eq_ignore_ascii_case(n.as_bytes()))
}

/// Where the Google reading ends the content `bytes[start..end]` of a line: at the first NUL
/// byte and after 16,663 bytes, as google/robotstxt's C-string line buffer does. A caller that
/// knows the bytes hold no NUL passes `nul_free` to skip looking for one.
#[inline]
pub fn google_content_end(bytes: &[u8], start: usize, end: usize, nul_free: bool) -> usize {
    let end = end.min(start + GOOGLE_MAX_LINE_BYTES - 1);
    if nul_free {
        return end;
    }
    match memchr::memchr(0, &bytes[start..end]) {
        Some(i) => start + i,
        None => end,
    }
}

/// The parts of a line as the Google reading sees them: content cut at the first NUL byte and
/// at 16,663 bytes, as google/robotstxt's C-string line buffer does.
pub fn google_parts(bytes: &[u8], line: &Line) -> Parts {
    let c = line.content();
    let end = google_content_end(bytes, c.start, c.end, false);
    if end == c.end {
        line.parts()
    } else {
        split_content(bytes, c.start, end)
    }
}

/// Reads every line of `tree` as records in `reading`. Blank lines, comments and unstructured
/// text give no record.
pub fn records(bytes: &[u8], tree: &Tree, reading: Reading) -> Vec<Record> {
    // The Google reading cuts no line of most files: each line's parts are then the tree's.
    let whole = reading == Reading::Rfc9309 || google_sees_whole_lines(bytes, tree);
    // Sized by the lines with a field name (an upper bound; Google's reading can also read a
    // key-less line, rarely), not by all lines: blank and comment lines are most of some files.
    let keyed = tree.lines.iter().filter(|l| l.has_key()).count();
    let mut out = Vec::with_capacity(keyed);
    for (i, line) in tree.lines.iter().enumerate() {
        let parts = if whole {
            line.parts()
        } else {
            google_parts(bytes, line)
        };
        if let Some(r) = record_of(bytes, i, &parts, reading) {
            out.push(r);
        }
    }
    out
}

/// Whether the Google reading sees every line of `tree` whole ([`google_content_end`]): `bytes`
/// hold no NUL byte and no line is longer than Google's line buffer. Both readings then split
/// each line alike.
pub fn google_sees_whole_lines(bytes: &[u8], tree: &Tree) -> bool {
    memchr::memchr(0, bytes).is_none()
        && tree
            .lines
            .iter()
            .all(|l| l.content().len() < GOOGLE_MAX_LINE_BYTES)
}

/// The records of `tree` in the RFC 9309 reading, given `google`, its records in the Google
/// reading ([`records`]) over the same `bytes`: when the Google reading sees every line whole
/// ([`google_sees_whole_lines`]) both readings find a record on the same lines, with the same
/// key, value and separator, and differ only in the field they read the key as; each record is
/// then read off Google's. Otherwise every line is read again.
pub fn rfc_records(bytes: &[u8], tree: &Tree, google: &[Record]) -> Vec<Record> {
    if !google_sees_whole_lines(bytes, tree) {
        return records(bytes, tree, Reading::Rfc9309);
    }
    google
        .iter()
        .map(|g| {
            // Google's classification of the key, back from its record: a standard field, or
            // none (the record then holds the non-standard field, or unknown).
            let standard = matches!(
                g.field,
                Field::UserAgent | Field::Allow | Field::Disallow | Field::Sitemap
            );
            let field = rfc_reading(
                g.separator,
                standard.then_some((g.field, g.spelling)),
                || g.field,
            );
            Record {
                field,
                spelling: Spelling::Exact,
                ..*g
            }
        })
        .collect()
}

/// Reads one line as a record in `reading`.
pub fn record(bytes: &[u8], index: usize, line: &Line, reading: Reading) -> Option<Record> {
    let parts = match reading {
        Reading::Google => google_parts(bytes, line),
        Reading::Rfc9309 => line.parts(),
    };
    record_of(bytes, index, &parts, reading)
}

/// Reads the content `bytes[start..end]` of the line with 0-based index `index` as a record in
/// `reading`: cut as the Google reading cuts it ([`google_content_end`]; `nul_free` when the
/// bytes are known to hold no NUL), split ([`split_content`]) and read ([`record_of`]). For
/// callers without a [`Tree`]: the one-pass decision and lines written by a suggested fix.
#[inline]
pub fn read_record(
    bytes: &[u8],
    start: usize,
    end: usize,
    index: usize,
    reading: Reading,
    nul_free: bool,
) -> Option<Record> {
    let end = match reading {
        Reading::Google => google_content_end(bytes, start, end, nul_free),
        Reading::Rfc9309 => end,
    };
    record_of(bytes, index, &split_content(bytes, start, end), reading)
}

/// Reads the parts of a line's content (as [`split_content`] gives them, from the content the
/// reading sees) as a record in `reading`; `index` is the 0-based line index. `None` for a
/// line without a key or separator.
#[inline]
pub fn record_of(bytes: &[u8], index: usize, parts: &Parts, reading: Reading) -> Option<Record> {
    let key = parts.key?;
    let (_, separator) = parts.separator?;
    let value = parts.value.unwrap_or(Span::new(key.end, key.end));
    let k = &bytes[key.range()];
    let (field, spelling) = match reading {
        Reading::Google => match google_field(k) {
            Some(fs) => fs,
            None => (other_field(k), Spelling::Exact),
        },
        Reading::Rfc9309 => (
            rfc_reading(separator, google_field(k), || other_field(k)),
            Spelling::Exact,
        ),
    };
    Some(Record {
        line: index,
        field,
        key,
        value,
        spelling,
        separator,
    })
}

fn other_field(key: &[u8]) -> Field {
    non_standard_field(key).map_or(Field::Unknown, Field::NonStandard)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both readings' records of `text`, the RFC 9309 ones read off Google's.
    fn both(text: &str) -> (Vec<Record>, Vec<Record>) {
        let bytes = text.as_bytes();
        let tree = Tree::parse(bytes, 0);
        let google = records(bytes, &tree, Reading::Google);
        (google.clone(), rfc_records(bytes, &tree, &google))
    }

    #[test]
    fn names_are_matched_as_a_case_insensitive_prefix_of_any_key() {
        // Keys of every length around the names' and every byte at every place, against the
        // plain definition.
        for name in ["user-agent", "allow", "disallow", "sitemap"] {
            let name = name.as_bytes();
            for len in 0..name.len() + 10 {
                let base: Vec<u8> = (0..len)
                    .map(|i| name.get(i).map_or(b'x', u8::to_ascii_uppercase))
                    .collect();
                for at in 0..len {
                    for b in 0..=255u8 {
                        let mut key = base.clone();
                        key[at] = b;
                        let plain =
                            key.len() >= name.len() && key[..name.len()].eq_ignore_ascii_case(name);
                        assert_eq!(starts_with_name(&key, name), plain, "{key:?}");
                    }
                }
                let plain = base.len() >= name.len();
                assert_eq!(starts_with_name(&base, name), plain, "{base:?}");
            }
        }
    }

    #[test]
    fn no_non_standard_name_is_read_as_a_standard_field() {
        for name in NON_STANDARD_FIELDS {
            assert_eq!(google_field(name.as_bytes()), None, "{name}");
        }
    }

    #[test]
    fn rfc_records_read_off_google_ones_are_those_read_anew() {
        let text = "User-agent: a\nUSER-AGENT: b\nuseragent: c\nUser agent: d\nUser-agents: e\n\
                    Allow: /x\nDisallowed: /y\nDissallow: /z\nDisallow /w\nCrawl-delay: 3\n\
                    Host: h\nSite-map: /s\nSitemap: https://e.com/s.xml\nFoo: bar\n# c\n\n";
        let (google, rfc) = both(text);
        let tree = Tree::parse(text.as_bytes(), 0);
        assert_eq!(rfc, records(text.as_bytes(), &tree, Reading::Rfc9309));
        let fields: Vec<Field> = rfc.iter().map(|r| r.field).collect();
        assert_eq!(
            fields,
            [
                Field::UserAgent,
                Field::UserAgent,
                Field::Unknown,
                Field::Unknown,
                Field::Unknown,
                Field::Allow,
                Field::Unknown,
                Field::Unknown,
                Field::Unknown,
                Field::NonStandard("crawl-delay"),
                Field::NonStandard("host"),
                Field::Unknown,
                Field::Sitemap,
                Field::Unknown,
            ]
        );
        assert_eq!(google.len(), rfc.len());
        assert_eq!(google[2].field, Field::UserAgent);
        assert_eq!(google[8].field, Field::Disallow);
        assert!(rfc.iter().all(|r| r.spelling == Spelling::Exact));
    }

    #[test]
    fn rfc_records_are_read_anew_where_google_cuts_a_line() {
        let text = "User-agent: *\nDisallow: /a\0b\nAllow\0: /c\n";
        let bytes = text.as_bytes();
        let tree = Tree::parse(bytes, 0);
        assert!(!google_sees_whole_lines(bytes, &tree));
        let (google, rfc) = both(text);
        assert_eq!(rfc, records(bytes, &tree, Reading::Rfc9309));
        // Google cuts the value at the NUL byte and reads no key-value pair in `Allow\0: /c`.
        assert_eq!(google.len(), 2);
        assert_eq!(rfc.len(), 3);
        assert_eq!(&bytes[rfc[1].value.range()], b"/a\0b");
    }
}
