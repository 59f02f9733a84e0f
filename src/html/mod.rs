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

/// Appends source text from a robots.txt file to `out`, for display inside `<code>`: like
/// [`escape_into`], and in addition every control character and every [`is_invisible`]
/// character is wrapped in `<span class="rt-ctl" title="U+XXXX">…</span>` showing a visible
/// stand-in, so hidden characters cannot disguise a rule. A tab is shown as `→` followed by
/// the tab itself.
pub fn escape_code_into(out: &mut String, text: &str) {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        i += plain_run(&bytes[i..]);
        if i == bytes.len() {
            break;
        }
        let c = text[i..].chars().next().expect("i is a character boundary");
        let len = c.len_utf8();
        let special = c == '\t' || c == '\n' || c == '\x0C' || is_invisible(c);
        let rep = classify(c);
        if !special && matches!(rep, Replacement::Keep) {
            i += len;
            continue;
        }
        out.push_str(&text[start..i]);
        start = i + len;
        i += len;
        match rep {
            Replacement::With(s) => {
                out.push_str(s);
                continue;
            }
            Replacement::Keep if c == '\t' => {
                out.push_str("<span class=\"rt-ctl rt-tab\" title=\"tab\">\u{2192}</span>\t");
                continue;
            }
            _ => {}
        }
        let shown = match rep {
            Replacement::Picture(p) => p,
            Replacement::Forbidden => '\u{FFFD}',
            _ if c == '\n' => '\u{240A}',
            _ if c == '\x0C' => '\u{240C}',
            _ => '\u{2423}',
        };
        let _ = std::fmt::Write::write_fmt(
            out,
            format_args!(
                "<span class=\"rt-ctl\" title=\"U+{:04X}\">{shown}</span>",
                c as u32
            ),
        );
    }
    out.push_str(&text[start..]);
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
