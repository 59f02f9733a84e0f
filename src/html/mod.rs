//! Shared HTML helpers for the audit report and the guide: escaping and the file listing.
//!
//! Everything that comes from outside the program (bytes of a robots.txt file, file and host
//! names, sidecar fields, URLs given on the command line) goes through [`escape`] (or
//! [`escape_into`]) before it reaches a page. Escaping does two jobs:
//!
//! - markup characters `& < > " '` become character references, so no input can open a tag,
//!   close an attribute or start an entity;
//! - characters the HTML syntax forbids in a document (C0 controls other than tab, line feed and
//!   form feed, DEL, C1 controls, noncharacters) are replaced by visible stand-ins, so the page
//!   stays valid HTML and nothing in the input is silently hidden.
//!
//! [`listing()`](listing::listing) renders a robots.txt file the way reports and the guide show it.

pub mod listing;
pub mod tester;

pub use listing::{
    IgnoredRegion, LineEnds, LineRole, ListingOptions, full_row_lines, ignored_region, line_groups,
    line_roles, listing, listing_chunks, listing_into, unpacked_runs,
};

use std::borrow::Cow;
use std::fmt;

/// The stylesheet of every page, the audit report's and the guide's (palette, file listing).
pub const SITE_CSS: &str = include_str!("../../templates/assets/site.css");

/// A fragment of HTML that is already safe to insert as it is (escaped text, or markup built
/// from escaped text). Askama templates print it without escaping it again.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Html(pub String);

impl Html {
    /// Escapes `text` into a fragment.
    pub fn text(text: &str) -> Html {
        Html(escape(text).into_owned())
    }
    /// Escapes prose into a fragment, turning `` `code` `` spans into `<code>` (see
    /// [`escape_prose_into`]).
    pub fn prose(text: &str) -> Html {
        let mut out = String::with_capacity(text.len() + 16);
        escape_prose_into(&mut out, text);
        Html(out)
    }
    /// The markup as a string slice.
    pub fn as_str(&self) -> &str {
        &self.0
    }
    /// Whether the fragment is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Html {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl askama::filters::HtmlSafe for Html {}

/// What a character becomes in HTML text or an attribute value.
enum Replacement {
    /// Kept as it is.
    Keep,
    /// Replaced by this string (a character reference or a visible stand-in).
    With(&'static str),
    /// A control character, shown as its Unicode control picture (U+2400 + code).
    Picture(char),
    /// A character HTML forbids and that has no picture: shown as U+FFFD.
    Forbidden,
}

fn classify(c: char) -> Replacement {
    match c {
        '&' => Replacement::With("&amp;"),
        '<' => Replacement::With("&lt;"),
        '>' => Replacement::With("&gt;"),
        '"' => Replacement::With("&quot;"),
        '\'' => Replacement::With("&#39;"),
        '\t' | '\n' | '\x0C' => Replacement::Keep,
        '\0'..='\x1F' => Replacement::Picture(
            char::from_u32(0x2400 + c as u32).expect("control pictures exist for U+0000..U+001F"),
        ),
        '\x7F' => Replacement::Picture('\u{2421}'),
        '\u{80}'..='\u{9F}' | '\u{FDD0}'..='\u{FDEF}' => Replacement::Forbidden,
        c if (c as u32) & 0xFFFE == 0xFFFE => Replacement::Forbidden,
        _ => Replacement::Keep,
    }
}

/// Which bytes need nothing when HTML-escaped: printable ASCII other than the markup
/// characters `& < > " '`.
const PLAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0x20;
    while b < 0x7F {
        t[b] = !matches!(b as u8, b'&' | b'<' | b'>' | b'"' | b'\'');
        b += 1;
    }
    t
};

/// The length of the run of [`PLAIN`] bytes at the start of `bytes`: one table lookup per byte,
/// as escaping spends most of its time on such runs.
fn plain_run(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| !PLAIN[usize::from(b)])
        .unwrap_or(bytes.len())
}

/// Appends `text` to `out`, escaped for HTML text and for quoted attribute values.
///
/// `& < > " '` become `&amp; &lt; &gt; &quot; &#39;`. C0 controls other than tab, LF and FF
/// (CR included) and DEL become their control pictures (`␀`, `␍`, `␡`, …); C1 controls and
/// noncharacters become U+FFFD. Tab, LF and FF are kept.
pub fn escape_into(out: &mut String, text: &str) {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        // Fast path: printable ASCII other than the markup characters needs nothing.
        i += plain_run(&bytes[i..]);
        if i == bytes.len() {
            break;
        }
        let c = text[i..].chars().next().expect("i is a character boundary");
        let len = c.len_utf8();
        let rep = classify(c);
        if !matches!(rep, Replacement::Keep) {
            out.push_str(&text[start..i]);
            match rep {
                Replacement::Keep => {}
                Replacement::With(s) => out.push_str(s),
                Replacement::Picture(p) => out.push(p),
                Replacement::Forbidden => out.push('\u{FFFD}'),
            }
            start = i + len;
        }
        i += len;
    }
    out.push_str(&text[start..]);
}

/// `text` escaped for HTML text and quoted attribute values (see [`escape_into`]). Borrows
/// when nothing needs escaping.
pub fn escape(text: &str) -> Cow<'_, str> {
    let plain = plain_run(text.as_bytes()) == text.len()
        || text
            .chars()
            .all(|c| matches!(classify(c), Replacement::Keep));
    if plain {
        Cow::Borrowed(text)
    } else {
        let mut out = String::with_capacity(text.len() + 16);
        escape_into(&mut out, text);
        Cow::Owned(out)
    }
}

/// Whether a character is invisible or changes the display of its neighbours (zero-width
/// characters, bidirectional controls, no-break and other unusual spaces, a byte order mark
/// inside the text). Listings mark these so that what a reader sees is what a crawler reads:
/// the characters diagnostics report ([`crate::text::is_invisible`]), and also the other spaces
/// of Unicode's general punctuation block and the Hangul fillers.
pub fn is_invisible(c: char) -> bool {
    crate::text::is_invisible(c)
        || matches!(
            c,
            '\u{115F}'
                | '\u{1160}'
                | '\u{2000}'..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{2065}'
                | '\u{206A}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FFA0}'
        )
}

/// Runs of one stand-in character up to this long are shown character by character; longer
/// runs are folded into one marker (see [`escape_code_into`]).
pub const FOLD_RUN: usize = 3;

/// Sequences of consecutive stand-in characters made of up to this many runs show each run;
/// longer ones are folded whole into one marker (see [`escape_code_into`]).
pub const FOLD_MIXED_RUNS: usize = 8;

/// Kinds of character a mixed marker's title names with their counts (in order of first
/// appearance); the others are counted together.
const MIXED_KINDS_NAMED: usize = 4;

/// The visible stand-in [`escape_code_into`] shows for `c`, or `None` when `c` is shown as
/// itself or as a character reference.
fn stand_in(c: char) -> Option<char> {
    match classify(c) {
        Replacement::With(_) => None,
        Replacement::Picture(p) => Some(p),
        Replacement::Forbidden => Some('\u{FFFD}'),
        Replacement::Keep => match c {
            '\t' => Some('\u{2192}'),
            '\n' => Some('\u{240A}'),
            '\x0C' => Some('\u{240C}'),
            c if is_invisible(c) => Some('\u{2423}'),
            _ => None,
        },
    }
}

/// Appends source text from a robots.txt file to `out`, for display inside `<code>`: like
/// [`escape_into`], and in addition every control character and every [`is_invisible`]
/// character is shown as a visible stand-in, so hidden characters cannot disguise a rule:
///
/// - one such character is `<span class="rt-ctl" title="U+XXXX">…</span>`; a tab is
///   `<span class="rt-ctl rt-tab" title="tab">→</span>` followed by the tab itself;
/// - a run of more than [`FOLD_RUN`] of one character is one marker
///   `<span class="rt-ctl rt-fold" title="U+XXXX ×N" data-runs="X*N">…</span>` showing the
///   stand-in and the count (`N` with thousands separators in the text);
/// - a sequence of such characters made of more than [`FOLD_MIXED_RUNS`] runs is one marker
///   `<span class="rt-ctl rt-mix" title="…" data-runs="…">…</span>` showing its first stand-ins
///   and its length, its title counting the characters of each kind.
///
/// `data-runs` spells a folded sequence out exactly: its runs separated by spaces, each the
/// code point in hexadecimal followed by `*` and the length when longer than one. A page's
/// size then grows with the number of runs of such characters, not with their number (16 MB
/// of NUL bytes are one marker).
pub fn escape_code_into(out: &mut String, text: &str) {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    // The runs of the current sequence of stand-ins, kept between sequences for its memory.
    let mut runs: Vec<(char, usize)> = Vec::new();
    while i < bytes.len() {
        i += plain_run(&bytes[i..]);
        if i == bytes.len() {
            break;
        }
        let c = text[i..].chars().next().expect("i is a character boundary");
        let len = c.len_utf8();
        if let Replacement::With(s) = classify(c) {
            out.push_str(&text[start..i]);
            out.push_str(s);
            i += len;
            start = i;
            continue;
        }
        if stand_in(c).is_none() {
            i += len;
            continue;
        }
        out.push_str(&text[start..i]);
        // The sequence starts with `c`, already known to be a stand-in.
        runs.clear();
        runs.push((c, 1));
        i += len;
        for c in text[i..].chars() {
            if stand_in(c).is_none() {
                break;
            }
            i += c.len_utf8();
            match runs.last_mut() {
                Some((last, n)) if *last == c => *n += 1,
                _ => runs.push((c, 1)),
            }
        }
        start = i;
        push_stand_ins(out, &runs);
    }
    out.push_str(&text[start..]);
}

/// Writes the markers of one sequence of stand-in characters, given as its runs (see
/// [`escape_code_into`]).
fn push_stand_ins(out: &mut String, runs: &[(char, usize)]) {
    use crate::text::thousands;
    use std::fmt::Write as _;
    if runs.len() > FOLD_MIXED_RUNS {
        let total: usize = runs.iter().map(|r| r.1).sum();
        // The first kinds met, with their counts; the others counted together.
        let mut kinds: Vec<(char, usize)> = Vec::with_capacity(MIXED_KINDS_NAMED);
        let mut others = 0;
        for &(c, n) in runs {
            match kinds.iter().position(|k| k.0 == c) {
                Some(k) => kinds[k].1 += n,
                None if kinds.len() < MIXED_KINDS_NAMED => kinds.push((c, n)),
                None => others += n,
            }
        }
        let _ = write!(
            out,
            "<span class=\"rt-ctl rt-mix\" title=\"{} control or invisible characters in {} runs: ",
            thousands(total),
            thousands(runs.len())
        );
        for (k, &(c, n)) in kinds.iter().enumerate() {
            let sep = if k > 0 { ", " } else { "" };
            let _ = write!(out, "{sep}U+{:04X} \u{d7}{}", c as u32, thousands(n));
        }
        if others > 0 {
            let _ = write!(out, " and {} others", thousands(others));
        }
        out.push_str("\" data-runs=\"");
        for (k, &(c, n)) in runs.iter().enumerate() {
            let sep = if k > 0 { " " } else { "" };
            let _ = write!(out, "{sep}{:X}", c as u32);
            if n > 1 {
                let _ = write!(out, "*{n}");
            }
        }
        out.push_str("\">");
        for &(c, _) in &runs[..FOLD_RUN] {
            out.extend(stand_in(c));
        }
        let _ = write!(out, "\u{2026} \u{d7}{}</span>", thousands(total));
        return;
    }
    for &(c, n) in runs {
        let Some(shown) = stand_in(c) else { continue };
        if n > FOLD_RUN {
            let _ = write!(
                out,
                "<span class=\"rt-ctl rt-fold\" title=\"U+{cp:04X} \u{d7}{n_}\" data-runs=\"{cp:X}*{n}\">\
                 {shown} \u{d7}{n_}</span>",
                cp = c as u32,
                n_ = thousands(n),
            );
        } else if c == '\t' {
            for _ in 0..n {
                out.push_str("<span class=\"rt-ctl rt-tab\" title=\"tab\">\u{2192}</span>\t");
            }
        } else {
            for _ in 0..n {
                let _ = write!(
                    out,
                    "<span class=\"rt-ctl\" title=\"U+{:04X}\">{shown}</span>",
                    c as u32
                );
            }
        }
    }
}

/// Appends prose from the analysis (messages, explanations) to `out`, escaped, with each pair
/// of backticks turned into a `<code>` element: `` `Disallow: /` `` becomes
/// `<code>Disallow: /</code>`. An unpaired backtick is kept as it is.
pub fn escape_prose_into(out: &mut String, text: &str) {
    let pieces = memchr::memchr_iter(b'`', text.as_bytes()).count() + 1;
    // With an even number of backticks, odd pieces are code; otherwise the last backtick has
    // no partner and is written as text.
    let paired = pieces % 2 == 1;
    for (i, piece) in text.split('`').enumerate() {
        let is_code = i % 2 == 1 && (paired || i + 1 < pieces);
        if i > 0 && !is_code && i % 2 == 1 {
            out.push('`');
        }
        if is_code {
            out.push_str("<code>");
            escape_code_into(out, piece);
            out.push_str("</code>");
        } else {
            escape_into(out, piece);
        }
    }
}

/// A URL-safe percent-encoding of one path segment or fragment (for `href` values built from
/// names): ASCII letters, digits and `-._~` are kept, every other byte becomes `%XX`.
pub fn url_component(text: &str) -> Cow<'_, str> {
    const SET: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'.')
        .remove(b'_')
        .remove(b'~');
    percent_encoding::utf8_percent_encode(text, SET).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_characters_become_references() {
        assert_eq!(
            escape(r#"<a href="x" onclick='y'>&amp;</a>"#),
            "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;"
        );
        assert!(matches!(escape("plain text"), Cow::Borrowed(_)));
    }

    #[test]
    fn forbidden_characters_are_replaced_visibly() {
        assert_eq!(escape("a\0b\rc\x7Fd"), "a\u{2400}b\u{240D}c\u{2421}d");
        assert_eq!(
            escape("x\u{85}y\u{FFFE}z\u{FDD0}"),
            "x\u{FFFD}y\u{FFFD}z\u{FFFD}"
        );
        assert_eq!(escape("tab\tline\nfeed\x0C"), "tab\tline\nfeed\x0C");
    }

    #[test]
    fn code_marks_invisible_characters() {
        let mut out = String::new();
        escape_code_into(&mut out, "/a\u{200B}b\u{202E}<\t");
        assert_eq!(
            out,
            "/a<span class=\"rt-ctl\" title=\"U+200B\">\u{2423}</span>b\
             <span class=\"rt-ctl\" title=\"U+202E\">\u{2423}</span>&lt;\
             <span class=\"rt-ctl rt-tab\" title=\"tab\">\u{2192}</span>\t"
        );
    }

    /// The text a listing's script reads back from `html` written by [`escape_code_into`] (as
    /// `fromListing` in `assets/tester.js` does): character references decoded, a stand-in
    /// read from its `data-runs` or its title, a tab's stand-in skipped (the tab follows).
    fn read_back(html: &str) -> String {
        let mut out = String::new();
        let mut rest = html;
        while let Some(a) = rest.find(['<', '&']) {
            out.push_str(&rest[..a]);
            rest = &rest[a..];
            if let Some(r) = rest.strip_prefix('&') {
                let end = r.find(';').expect("a reference ends");
                out.push(match &r[..end] {
                    "amp" => '&',
                    "lt" => '<',
                    "gt" => '>',
                    "quot" => '"',
                    "#39" => '\'',
                    e => panic!("reference {e}"),
                });
                rest = &r[end + 1..];
                continue;
            }
            let open = &rest[..rest.find('>').expect("a tag ends") + 1];
            rest = &rest[open.len()..];
            rest = &rest[rest.find("</span>").expect("a span ends") + "</span>".len()..];
            let attr = |name: &str| {
                let at = open.find(&format!("{name}=\""))? + name.len() + 2;
                Some(&open[at..at + open[at..].find('"')?])
            };
            let cp = |hex: &str| char::from_u32(u32::from_str_radix(hex, 16).unwrap()).unwrap();
            if let Some(runs) = attr("data-runs") {
                for r in runs.split(' ') {
                    let (c, n) = r.split_once('*').unwrap_or((r, "1"));
                    out.extend(std::iter::repeat_n(cp(c), n.parse().unwrap()));
                }
            } else if !open.contains("rt-tab") {
                out.push(cp(&attr("title").unwrap()[2..]));
            }
        }
        out.push_str(rest);
        out
    }

    fn code(text: &str) -> String {
        let mut out = String::new();
        escape_code_into(&mut out, text);
        out
    }

    #[test]
    fn long_runs_of_one_stand_in_are_folded() {
        assert_eq!(
            code("a\0\0\0b"),
            "a<span class=\"rt-ctl\" title=\"U+0000\">\u{2400}</span>\
             <span class=\"rt-ctl\" title=\"U+0000\">\u{2400}</span>\
             <span class=\"rt-ctl\" title=\"U+0000\">\u{2400}</span>b"
        );
        assert_eq!(
            code("a\0\0\0\0<"),
            "a<span class=\"rt-ctl rt-fold\" title=\"U+0000 \u{d7}4\" data-runs=\"0*4\">\
             \u{2400} \u{d7}4</span>&lt;"
        );
        let zeros = "\0".repeat(1_234_567);
        assert_eq!(
            code(&zeros),
            "<span class=\"rt-ctl rt-fold\" title=\"U+0000 \u{d7}1,234,567\" \
             data-runs=\"0*1234567\">\u{2400} \u{d7}1,234,567</span>"
        );
        assert_eq!(
            code(&"\u{200B}".repeat(5)),
            "<span class=\"rt-ctl rt-fold\" title=\"U+200B \u{d7}5\" data-runs=\"200B*5\">\
             \u{2423} \u{d7}5</span>"
        );
        // Tabs fold too: the marker then stands for the tabs, which do not follow it.
        assert_eq!(
            code("\t\t\t\t/"),
            "<span class=\"rt-ctl rt-fold\" title=\"U+0009 \u{d7}4\" data-runs=\"9*4\">\
             \u{2192} \u{d7}4</span>/"
        );
    }

    #[test]
    fn long_mixed_sequences_are_one_marker() {
        let text = format!("/{}{}x", "\0\x01".repeat(5), "\x7F".repeat(7));
        assert_eq!(
            code(&text),
            "/<span class=\"rt-ctl rt-mix\" title=\"17 control or invisible characters in 11 \
             runs: U+0000 \u{d7}5, U+0001 \u{d7}5, U+007F \u{d7}7\" \
             data-runs=\"0 1 0 1 0 1 0 1 0 1 7F*7\">\u{2400}\u{2401}\u{2400}\u{2026} \u{d7}17</span>x"
        );
        // Up to FOLD_MIXED_RUNS runs, each run is shown.
        let few = code(&"\0\x01".repeat(FOLD_MIXED_RUNS / 2));
        assert!(!few.contains("rt-mix"), "{few}");
        assert_eq!(few.matches("rt-ctl").count(), FOLD_MIXED_RUNS);
        // Kinds past the first few are counted together.
        let many: String = ('\x10'..='\x18').collect();
        assert!(code(&many).contains(
            "U+0010 \u{d7}1, U+0011 \u{d7}1, U+0012 \u{d7}1, U+0013 \u{d7}1 and 5 others\""
        ));
    }

    #[test]
    fn folded_markers_grow_with_runs_not_characters() {
        // One run: one marker, whatever its length.
        let zeros = "\0".repeat(1 << 20);
        let html = code(&zeros);
        assert!(html.len() < 120, "{} bytes: {html}", html.len());
        assert_eq!(read_back(&html), zeros);
        // Runs of one character each: a few bytes of `data-runs` per run (a marker of about 45
        // bytes each unfolded).
        let mixed = "\u{200B}\u{FEFF}\u{2060}".repeat(1 << 18);
        let html = code(&mixed);
        assert!(html.len() < 6 * (3 << 18), "{} bytes", html.len());
        assert_eq!(html.matches("<span").count(), 1);
        assert_eq!(read_back(&html), mixed);
    }

    proptest::proptest! {
        #[test]
        fn stand_ins_read_back_as_the_text(
            s in "([\\x00-\\x1f\\x7f\\u{80}-\\u{9f}\\u{200b}\\u{feff}\\t<&a ]{0,6}){0,40}"
        ) {
            proptest::prop_assert_eq!(read_back(&code(&s)), s);
        }
    }

    #[test]
    fn backticks_become_code() {
        let mut out = String::new();
        escape_prose_into(&mut out, "Use `Disallow: /` or `<x>`, not `this");
        assert_eq!(
            out,
            "Use <code>Disallow: /</code> or <code>&lt;x&gt;</code>, not `this"
        );
    }

    #[test]
    fn url_components_are_percent_encoded() {
        assert_eq!(url_component("a b/../c"), "a%20b%2F..%2Fc");
    }
}
