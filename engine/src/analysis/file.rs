//! File-level checks: encoding, byte order marks, what kind of body was served, line ends,
//! size and line length, and characters that should not be there.

use super::context::{Body, Ctx, trim_span};
use super::found::Found;
use super::text::{count, invisible_name, is_invisible, quote, thousands, thousands_u64, visible};
use super::{CatalogueEntry, Readings, Severity};
use crate::decode::{Encoding, Extent, GOOGLE_MAX_LINE_BYTES, MISENCODED_BOM, PARSING_LIMIT};
use crate::fields::{Field, google_field};
use crate::syntax::{LineEnd, Span};
use crate::text::sentence;

const RFC_2_2: (&str, &str) = (
    "RFC 9309 §2.2",
    "https://www.rfc-editor.org/rfc/rfc9309.html#section-2.2",
);
const RFC_2_3: (&str, &str) = (
    "RFC 9309 §2.3",
    "https://www.rfc-editor.org/rfc/rfc9309.html#section-2.3",
);
const RFC_2_5: (&str, &str) = (
    "RFC 9309 §2.5",
    "https://www.rfc-editor.org/rfc/rfc9309.html#section-2.5",
);
const GOOGLE_FORMAT: (&str, &str) = (
    "Google: file format",
    "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt#file-format",
);
const GOOGLE_SYNTAX: (&str, &str) = (
    "Google: syntax",
    "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt#syntax",
);
const GOOGLE_STATUS: (&str, &str) = (
    "Google: HTTP status codes",
    "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt#handling-of-errors-and-http-status-codes",
);

/// The file-level entries, in catalogue order.
pub(super) const ENTRIES: &[CatalogueEntry] = &[
    UTF8_BOM,
    MISENCODED_BOM_ENTRY,
    MISENCODED_BOM_NO_RECORD,
    UTF16,
    INVALID_UTF8,
    DOUBLE_ENCODED_UTF8,
    COMPRESSED_BODY,
    BINARY_BODY,
    HTML_BODY,
    JSON_BODY,
    XML_BODY,
    EMPTY_FILE,
    NO_GROUPS,
    NO_RULES,
    MIXED_LINE_ENDINGS,
    CR_LINE_ENDINGS,
    BEYOND_PARSING_LIMIT,
    BEYOND_PARSING_LIMIT_NO_RULES,
    LINE_TOO_LONG,
    CONTROL_CHARACTER,
    INVISIBLE_CHARACTER,
    INVISIBLE_CHARACTER_IN_FIELD,
];

/// Runs the file-level checks.
pub(super) fn check(cx: &Ctx, out: &mut Found) {
    utf8_bom(cx, out);
    misencoded_bom(cx, out);
    utf16(cx, out);
    invalid_utf8(cx, out);
    double_encoded_utf8(cx, out);
    foreign_body(cx, out);
    empty_file(cx, out);
    no_groups(cx, out);
    line_endings(cx, out);
    beyond_parsing_limit(cx, out);
    line_too_long(cx, out);
    control_characters(cx, out);
    invisible_characters(cx, out);
}

// ---------------------------------------------------------------------------------------------

const UTF8_BOM: CatalogueEntry = CatalogueEntry {
    name: "utf8-bom",
    severity: Severity::Info,
    summary: "The file starts with a UTF-8 byte order mark.",
    what: "The first three bytes of the file are `EF BB BF`, the UTF-8 byte order mark (BOM). \
Editors on Windows often add it when saving as UTF-8. It is not part of the first line.",
    why: "Google documents that it skips a byte order mark at the start of the file, and this tool \
does the same. RFC 9309 does not mention one, so a strict or home-made parser may read the mark as \
part of the first field name and miss that line. It is harmless for Google, and a small risk \
elsewhere.",
    example: "\u{FEFF}User-agent: *\nDisallow: /private/\n",
    fix: "Save the file as UTF-8 *without* a byte order mark (often called \"UTF-8\" rather than \
\"UTF-8 with BOM\" in editors). Nothing else needs to change.",
    references: &[GOOGLE_FORMAT, RFC_2_2],
};

fn utf8_bom(cx: &Ctx, out: &mut Found) {
    let src = &cx.robots.source;
    if src.encoding != Encoding::Utf8Bom {
        return;
    }
    let Some(span) = cx.tree.bom else { return };
    // The mark can only hide a field name: before a comment or a blank line it hides nothing.
    if cx
        .tree
        .lines
        .first()
        .is_none_or(|l| l.parts().key.is_none())
    {
        return;
    }
    let msg = if span.len() == 3 {
        "the file starts with a UTF-8 byte order mark (bytes EF BB BF); Google skips it, other \
parsers may read it as part of the first field name"
            .to_string()
    } else {
        sentence!(
            "the file starts with a cut-off byte order mark ({} of its 3 bytes); Google skips it, \
other parsers may read it as part of the first field name",
            span.len()
        )
    };
    out.push(
        cx.diag(&UTF8_BOM, span, Readings::Both, msg)
            .with_suggestion("save the file as UTF-8 without a byte order mark"),
    );
}

// ---------------------------------------------------------------------------------------------

const MISENCODED_BOM_ENTRY: CatalogueEntry = CatalogueEntry {
    name: "misencoded-bom",
    severity: Severity::Error,
    summary: "The file starts with a byte order mark that was re-encoded and shows as `ï»¿`.",
    what: "The file begins with the bytes `C3 AF C2 BB C2 BF`, which display as `ï»¿`. They are a \
UTF-8 byte order mark that some program read as Windows-1252 text and wrote back as UTF-8. Unlike \
a real byte order mark, nobody skips these six bytes: they become the first characters of the \
first line.",
    why: "Crawlers read `ï»¿User-agent` as an unknown field name, so the first line is lost. When \
that line is the first `User-agent` line, the rules under it belong to no group and every crawler \
ignores them; when it is a rule or a sitemap line, that rule or sitemap is lost.",
    example: "ï»¿User-agent: *\nDisallow: /checkout/\n",
    fix: "Delete the three visible characters `ï»¿` at the very start of the file (some editors \
only show them in a hex view), then save as UTF-8 without a byte order mark. Check the tool or \
deployment step that re-encoded the file so that it does not happen again.",
    references: &[GOOGLE_FORMAT, RFC_2_2],
};

const MISENCODED_BOM_NO_RECORD: CatalogueEntry = CatalogueEntry {
    name: "misencoded-bom-no-record",
    severity: Severity::Warning,
    summary: "The file starts with a re-encoded byte order mark (`ï»¿`) that hides a line whose \
loss changes no decision.",
    what: "The file begins with the bytes `C3 AF C2 BB C2 BF`, which display as `ï»¿`: a UTF-8 \
byte order mark that some program read as Windows-1252 text and wrote back as UTF-8. Crawlers \
read them as the first characters of the first line, which is then not recognised. Here that \
line is a field that decides nothing (`Crawl-delay`, an unknown field) or a user-agent line whose \
group has no rule, so no decision changes yet. (Before a comment or a blank line the characters \
hide nothing and are not reported.)",
    why: "The characters stay harmless only as long as the first line stays what it is. When a \
rule is added under the hidden user-agent line, or a generator writes `User-agent: *` first, \
that group or rule is lost, which is the `misencoded-bom` error.",
    example: "ï»¿Crawl-delay: 10\nUser-agent: *\nDisallow: /checkout/\n",
    fix: "Delete the three visible characters `ï»¿` at the very start of the file, then save as \
UTF-8 without a byte order mark, and check the tool that re-encoded the file.",
    references: &[GOOGLE_FORMAT, RFC_2_2],
};

fn misencoded_bom(cx: &Ctx, out: &mut Found) {
    let src = &cx.robots.source;
    if !src.misencoded_bom {
        return;
    }
    let span = Span::new(0, MISENCODED_BOM.len().min(cx.bytes.len()));
    let first = cx.tree.lines.first();
    let lost = first.and_then(|l| {
        let key = l.parts().key?;
        let raw = cx.raw(key);
        let rest = raw.strip_prefix(MISENCODED_BOM)?;
        google_field(rest).map(|(f, _)| f)
    });
    let (entry, consequence): (&CatalogueEntry, String) = match lost {
        // A user-agent line whose group holds no rule: the line is lost, no decision changes.
        // Hidden, the line neither leaves rules outside a group nor would have joined the
        // user-agent lines that follow it (which keep their group and its rules).
        Some(Field::UserAgent)
            if cx.google.rules_outside_groups.is_empty()
                && cx
                    .google
                    .records
                    .iter()
                    .find(|r| r.line > 0)
                    .is_none_or(|r| r.field != Field::UserAgent) =>
        {
            (
                &MISENCODED_BOM_NO_RECORD,
                ", so the first user-agent line is not recognised; its group holds no rule, so no \
decision changes, but any rule added under it would be lost"
                    .to_string(),
            )
        }
        Some(Field::UserAgent) => {
            let lost_rules = cx.google.rules_outside_groups.len();
            let tail = if lost_rules == 1 {
                "; the rule under it belongs to no group and is ignored".to_string()
            } else if lost_rules > 1 {
                sentence!(
                    "; the {} rules under it belong to no group and are ignored",
                    thousands(lost_rules)
                )
            } else {
                "; the crawler it names loses the group that the user-agent lines below it \
share, and with it that group's rules"
                    .to_string()
            };
            (
                &MISENCODED_BOM_ENTRY,
                sentence!(", so the first user-agent line is not recognised{tail}"),
            )
        }
        Some(Field::Allow) | Some(Field::Disallow) => (
            &MISENCODED_BOM_ENTRY,
            ", so the rule on the first line is not recognised".to_string(),
        ),
        Some(Field::Sitemap) => (
            &super::fields::SITEMAP_LINE_NOT_READ,
            ", so the sitemap on the first line is not recognised".to_string(),
        ),
        // Before a comment or a blank line the characters hide nothing: as with a plain byte
        // order mark, nothing to say.
        _ if first.is_none_or(|l| l.parts().key.is_none()) => return,
        // Before a field that decides nothing (`Crawl-delay`, an unknown field).
        _ => (
            &MISENCODED_BOM_NO_RECORD,
            "; it is harmless here because the first line holds no record, but it would hide one"
                .to_string(),
        ),
    };
    out.push(
        cx.diag(
            entry,
            span,
            Readings::Both,
            sentence!(
                "the file starts with `ï»¿` (bytes C3 AF C2 BB C2 BF), a re-encoded byte order \
mark that crawlers read as part of the first line{consequence}"
            ),
        )
        .with_suggestion("delete the characters `ï»¿` at the start of the file"),
    );
}

// ---------------------------------------------------------------------------------------------

const UTF16: CatalogueEntry = CatalogueEntry {
    name: "utf16",
    severity: Severity::Error,
    summary: "The file is UTF-16, not UTF-8.",
    what: "The file is encoded as UTF-16: every character takes two or more bytes, and plain ASCII \
letters are each followed (or preceded) by a NUL byte. Some Windows tools save text this way \
(\"Unicode\" in Notepad's older versions).",
    why: "RFC 9309 and Google both expect UTF-8. A crawler that reads UTF-16 as UTF-8 sees a NUL \
byte after every letter: Google's parser stops reading each line at the first NUL, so no field is \
recognised and Googlebot ignores the whole file, which allows everything. In the Google reading \
this tool does the same; it transcodes a UTF-16 file that starts with a byte order mark so that \
you can see what it says, and applies the text only in the RFC 9309 reading, which expects UTF-8 \
and which other crawlers may or may not follow.",
    example: "(UTF-16LE bytes) FF FE 55 00 73 00 65 00 72 00 2D 00 61 00 67 00 …",
    fix: "Re-save the file as UTF-8 (without a byte order mark) and deploy it again.",
    references: &[GOOGLE_FORMAT, RFC_2_2],
};

fn utf16(cx: &Ctx, out: &mut Found) {
    let src = &cx.robots.source;
    let msg = match (src.encoding, cx.body) {
        (Encoding::Utf16Le, _) | (Encoding::Utf16Be, _) => sentence!(
            "the file is {}: Googlebot ignores the whole file (Google's parser reads the raw \
bytes, a NUL byte ends every line, so it finds no field and allows every URL to every crawler); \
this tool transcodes it to show what it says and applies it only in the RFC 9309 reading",
            if src.encoding == Encoding::Utf16Le {
                "UTF-16 little-endian with a byte order mark"
            } else {
                "UTF-16 big-endian with a byte order mark"
            }
        ),
        _ if src.utf16_kept_raw => "the file starts with a UTF-16 byte order mark, but its raw \
bytes spell fields that Google's parser reads as they are; both readings read the raw bytes, as \
Googlebot does, and not the UTF-16 text"
            .to_string(),
        (_, Body::Utf16NoBom) => "the file looks like UTF-16 without a usable byte order mark \
(every other byte is NUL): Googlebot ignores the whole file, as no field is recognised in it, \
so it allows everything"
            .to_string(),
        _ => return,
    };
    let span = Span::new(
        0,
        cx.tree.bom.map_or(0, |b| b.end).max(2).min(cx.bytes.len()),
    );
    out.push(
        cx.diag(&UTF16, span, Readings::Both, msg)
            .with_suggestion("save the file as UTF-8"),
    );
}

// ---------------------------------------------------------------------------------------------

const INVALID_UTF8: CatalogueEntry = CatalogueEntry {
    name: "invalid-utf8",
    severity: Severity::Warning,
    summary: "The file contains bytes that are not valid UTF-8.",
    what: "Some bytes of the file do not form valid UTF-8. Usually the file was saved in a legacy \
encoding such as ISO-8859-1, Windows-1252, Shift_JIS or GBK, or pieces in different encodings were \
pasted together. This tool shows such bytes as Windows-1252 characters.",
    why: "robots.txt files must be UTF-8. Crawlers percent-encode a pattern byte by byte before \
matching, so `/café` saved as ISO-8859-1 becomes `/caf%E9`, while browsers and crawlers request \
`/caf%C3%A9`: the rule matches nothing. Google warns that characters outside UTF-8 may be \
ignored, which can break a rule in other ways too.",
    example: "User-agent: *\nDisallow: /caf\\xE9/   (the byte E9 alone, as ISO-8859-1 writes é)\n",
    fix: "Convert the file to UTF-8 (for example with `iconv -f ISO-8859-1 -t UTF-8`), check the \
lines with accented or non-Latin characters, and deploy it again. Writing such paths \
percent-encoded (`/caf%C3%A9/`) avoids the problem altogether.",
    references: &[GOOGLE_FORMAT, RFC_2_2],
};

fn invalid_utf8(cx: &Ctx, out: &mut Found) {
    let src = &cx.robots.source;
    if src.encoding != Encoding::NotUtf8 || cx.body != Body::Text {
        return;
    }
    let Some(first) = src.first_invalid_utf8 else {
        return;
    };
    let bad_lines = cx
        .tree
        .lines
        .iter()
        .filter(|l| std::str::from_utf8(cx.raw(l.content())).is_err())
        .count();
    // Only the bytes before a comment can change what a line means: legacy bytes in comments
    // are harmless.
    let in_records = cx.tree.lines.iter().any(|l| {
        let end = l.parts().comment.map_or(l.content().end, |c| c.start);
        std::str::from_utf8(cx.raw(Span::new(l.content().start, end))).is_err()
    });
    if !in_records {
        return;
    }
    let byte = cx.bytes.get(first).copied().unwrap_or(0);
    let (line, _) = cx.tree.line_col(cx.bytes, first);
    out.push(
        cx.diag(
            &INVALID_UTF8,
            Span::new(first, (first + 1).min(cx.bytes.len())),
            Readings::Both,
            sentence!(
                "byte 0x{byte:02X} on line {line} is not valid UTF-8 ({} in all); the file \
seems to use a legacy encoding, and patterns holding such bytes will not match URLs, which \
carry UTF-8",
                count(bad_lines, "line like this", "lines like this")
            ),
        )
        .with_suggestion("convert the file to UTF-8"),
    );
}

// ---------------------------------------------------------------------------------------------

const DOUBLE_ENCODED_UTF8: CatalogueEntry = CatalogueEntry {
    name: "double-encoded-utf8",
    severity: Severity::Warning,
    summary: "A value looks like UTF-8 that was encoded twice (mojibake such as `Ã©` for `é`).",
    what: "The value contains character pairs such as `Ã©`, `Ã¤` or `Ã¦Â¡Âˆ`. They are what the \
UTF-8 bytes of `é`, `ä` or `案` look like when a program reads them as Windows-1252 or ISO-8859-1 \
and encodes the result as UTF-8 again.",
    why: "The pattern or URL now names different characters from the ones on the site. `/café/` \
double-encoded becomes `/cafÃ©/`, which is matched as `/caf%C3%83%C2%A9/`, a path no browser \
requests, so the rule never applies and the sitemap URL points nowhere.",
    example: "User-agent: *\nDisallow: /cafÃ©/\n",
    fix: "Write the path with the characters it really has (`/café/`), or percent-encoded as \
browsers send it (`/caf%C3%A9/`), and find the step that converted the file twice.",
    references: &[GOOGLE_FORMAT, RFC_2_2],
};

fn double_encoded_utf8(cx: &Ctx, out: &mut Found) {
    if cx.body != Body::Text || cx.robots.source.encoding == Encoding::NotUtf8 {
        return;
    }
    for r in &cx.google.records {
        if !matches!(r.field, Field::Allow | Field::Disallow | Field::Sitemap) {
            continue;
        }
        let raw = cx.raw(r.value);
        // ASCII is never double-encoded text (see `undo_double_encoding`).
        if raw.is_ascii() {
            continue;
        }
        let Ok(value) = std::str::from_utf8(raw) else {
            continue;
        };
        if let Some(fixed) = undo_double_encoding(value) {
            out.push(
                cx.diag(
                    &DOUBLE_ENCODED_UTF8,
                    r.value,
                    Readings::Both,
                    sentence!(
                        "{} looks double-encoded; it probably should read {}",
                        quote(value),
                        quote(&fixed)
                    ),
                )
                .with_suggestion(sentence!("{}: {fixed}", cx.text(r.key))),
            );
        }
    }
}

/// If `s` reads as UTF-8 that was decoded as Windows-1252 and encoded again, the original text.
/// Requires at least one non-ASCII character in the result, so plain accented text is left alone.
pub(super) fn undo_double_encoding(s: &str) -> Option<String> {
    if s.is_ascii() {
        return None;
    }
    let mut bytes = Vec::with_capacity(s.len());
    for c in s.chars() {
        bytes.push(windows_1252_byte(c)?);
    }
    let fixed = String::from_utf8(bytes).ok()?;
    (!fixed.is_ascii() && fixed != s).then_some(fixed)
}

/// The Windows-1252 byte that decodes to `c`, if any (ISO-8859-1 for the C1 range).
fn windows_1252_byte(c: char) -> Option<u8> {
    let u = c as u32;
    if u < 0x80 || (0xA0..=0xFF).contains(&u) {
        return Some(u as u8);
    }
    const HIGH: [(char, u8); 27] = [
        ('€', 0x80),
        ('‚', 0x82),
        ('ƒ', 0x83),
        ('„', 0x84),
        ('…', 0x85),
        ('†', 0x86),
        ('‡', 0x87),
        ('ˆ', 0x88),
        ('‰', 0x89),
        ('Š', 0x8A),
        ('‹', 0x8B),
        ('Œ', 0x8C),
        ('Ž', 0x8E),
        ('‘', 0x91),
        ('’', 0x92),
        ('“', 0x93),
        ('”', 0x94),
        ('•', 0x95),
        ('–', 0x96),
        ('—', 0x97),
        ('˜', 0x98),
        ('™', 0x99),
        ('š', 0x9A),
        ('›', 0x9B),
        ('œ', 0x9C),
        ('ž', 0x9E),
        ('Ÿ', 0x9F),
    ];
    if (0x80..0xA0).contains(&u) {
        // C1 controls survive a Latin-1 round trip as themselves.
        return Some(u as u8);
    }
    HIGH.iter().find(|(h, _)| *h == c).map(|(_, b)| *b)
}

// ---------------------------------------------------------------------------------------------

const COMPRESSED_BODY: CatalogueEntry = CatalogueEntry {
    name: "compressed-body",
    severity: Severity::Error,
    summary: "The body is compressed data (gzip, ZIP) that was never decompressed.",
    what: "What was served as robots.txt starts like a gzip stream (`1F 8B`) or a ZIP archive \
(`PK`): most likely the real robots.txt, compressed by the server or a CDN and sent without \
`Content-Encoding`, or with one the client did not undo.",
    why: "Crawlers read the compressed bytes as text, find no rules, and may crawl everything: \
the rules the site wrote are in the file, but no crawler can read them.",
    example: "(bytes) 1F 8B 08 00 … (a gzip stream)\n",
    fix: "Serve `/robots.txt` as plain text, or announce the compression with `Content-Encoding: \
gzip` so that clients decompress it; check the CDN's compression settings for `.txt` files.",
    references: &[GOOGLE_FORMAT, RFC_2_3],
};

const BINARY_BODY: CatalogueEntry = CatalogueEntry {
    name: "binary-body",
    severity: Severity::Warning,
    summary: "The body is binary data, not a text file.",
    what: "What was served as robots.txt is not text: an image, an icon, or a short error message \
padded with NUL bytes. (Compressed data is `compressed-body`.)",
    why: "Crawlers find no rules in binary data, so the site is crawled as if it had no robots.txt. \
No rule the site wrote is lost here, but the server answers `/robots.txt` with something else, \
which usually means a rewrite rule or an error page is in the way.",
    example: "(bytes) 89 50 4E 47 0D 0A 1A 0A … (a PNG image)\n",
    fix: "Make `/robots.txt` return the plain-text file with status 200 and `Content-Type: \
text/plain`. Check that compression is announced with `Content-Encoding` and that no rewrite rule \
sends an image or an error page instead.",
    references: &[GOOGLE_FORMAT, RFC_2_3],
};

const HTML_BODY: CatalogueEntry = CatalogueEntry {
    name: "html-body",
    severity: Severity::Warning,
    summary: "An HTML page was served instead of a robots.txt file.",
    what: "The body starts like a web page (`<!DOCTYPE html>`, `<html>`, `<head>` …). Typical \
causes are a single-page application or CMS answering every path with its HTML shell, a custom \
\"not found\" page sent with status 200, or a login or bot-challenge page in front of the site.",
    why: "Google reads such a body line by line, keeps the lines that happen to look like rules and \
ignores the rest; in practice that means no rules, so the site is crawled as if it had no \
robots.txt. If the page was sent with status 200, crawlers do not even know the file is missing.",
    example: "<!DOCTYPE html>\n<html><head><title>Page not found</title></head>\n<body>…</body></html>\n",
    fix: "Serve a real robots.txt file at `/robots.txt` with status 200 and `Content-Type: \
text/plain`, or return 404 if you want no rules. Check the route in your framework or CDN that \
catches `/robots.txt` before the file is reached.",
    references: &[GOOGLE_FORMAT, GOOGLE_STATUS, RFC_2_3],
};

const JSON_BODY: CatalogueEntry = CatalogueEntry {
    name: "json-body",
    severity: Severity::Warning,
    summary: "A JSON document was served instead of a robots.txt file.",
    what: "The body is a JSON document, most often an API or gateway error such as \
`{\"code\":404,\"message\":\"Not Found\"}`.",
    why: "No line of a JSON document is a robots.txt record, so crawlers see no rules at all. When \
it comes with status 200, crawlers cannot tell that the real file is missing.",
    example: "{\"timestamp\":\"2026-10-20T08:00:00Z\",\"status\":404,\"error\":\"Not Found\"}\n",
    fix: "Route `/robots.txt` to a plain-text file (status 200, `Content-Type: text/plain`), or \
let it return a real 404 status if you want no rules.",
    references: &[GOOGLE_FORMAT, GOOGLE_STATUS, RFC_2_3],
};

const XML_BODY: CatalogueEntry = CatalogueEntry {
    name: "xml-body",
    severity: Severity::Warning,
    summary: "An XML document was served instead of a robots.txt file.",
    what: "The body is XML: often a storage service's error (`<Error><Code>AccessDenied</Code>…`), \
sometimes a sitemap published at the wrong address.",
    why: "Crawlers find no rules in XML, so the site is crawled as if it had no robots.txt. A \
storage error sent with status 200 hides the fact that the file is missing or not readable.",
    example: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>NoSuchKey</Code></Error>\n",
    fix: "Upload the robots.txt file to where the server or bucket expects it and make it \
publicly readable; publish sitemaps at their own address and list them with `Sitemap:` lines.",
    references: &[GOOGLE_FORMAT, GOOGLE_STATUS, RFC_2_3],
};

fn foreign_body(cx: &Ctx, out: &mut Found) {
    let entry = match cx.body {
        Body::Html => &HTML_BODY,
        Body::Json => &JSON_BODY,
        Body::Xml => &XML_BODY,
        Body::Binary if is_compressed(cx.bytes) => &COMPRESSED_BODY,
        Body::Binary => &BINARY_BODY,
        Body::Text | Body::Utf16NoBom => return,
    };
    let records = cx
        .google
        .records
        .iter()
        .filter(|r| matches!(r.field, Field::UserAgent | Field::Allow | Field::Disallow))
        .count();
    let what = match cx.body {
        Body::Html => "the body is an HTML page, not a robots.txt file".to_string(),
        Body::Json => "the body is a JSON document, not a robots.txt file".to_string(),
        Body::Xml => "the body is an XML document, not a robots.txt file".to_string(),
        _ => binary_kind(cx),
    };
    let consequence = if records == 0 {
        "crawlers find no rules in it, so everything may be crawled".to_string()
    } else {
        sentence!(
            "Google picks {} out of it that look like records, which is unlikely to be what the \
site meant",
            count(records, "line", "lines")
        )
    };
    let span = cx
        .tree
        .lines
        .iter()
        .find(|l| !l.is_blank())
        .or(cx.tree.lines.first())
        .map_or(Span::new(0, 0), |l| {
            let (a, b) = trim_span(cx.bytes, l.content());
            Span::new(a, b)
        });
    out.push(
        cx.diag(
            entry,
            span,
            Readings::Both,
            sentence!("{what}; {consequence}"),
        )
        .with_suggestion("serve the plain-text robots.txt file at /robots.txt"),
    );
}

/// Whether `bytes` start like gzip (also after a lossy decoding turned its second byte into
/// U+FFFD) or a ZIP archive.
fn is_compressed(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x1F\x8B")
        || bytes.starts_with(b"\x1F\xEF\xBF\xBD\x08")
        || bytes.starts_with(b"PK\x03\x04")
}

fn binary_kind(cx: &Ctx) -> String {
    let b = cx.bytes;
    let kind = if b.starts_with(b"\x89PNG") || b.starts_with(b"\xEF\xBF\xBDPNG") {
        "a PNG image"
    } else if b.starts_with(b"GIF8") {
        "a GIF image"
    } else if b.starts_with(b"\xFF\xD8\xFF") {
        "a JPEG image"
    } else if b.starts_with(b"\x00\x00\x01\x00") {
        "an icon (favicon) image"
    } else if b.starts_with(b"%PDF-") {
        "a PDF document"
    } else if b.starts_with(b"\x1F\x8B") || b.starts_with(b"\x1F\xEF\xBF\xBD\x08") {
        "gzip-compressed data"
    } else if b.starts_with(b"PK\x03\x04") {
        "a ZIP archive"
    } else {
        let src = &cx.robots.source;
        let mut parts = Vec::new();
        if src.nul_bytes > 0 {
            parts.push(count(src.nul_bytes, "NUL byte", "NUL bytes"));
        }
        if src.control_bytes > 0 {
            parts.push(count(src.control_bytes, "control byte", "control bytes"));
        }
        return sentence!(
            "the body is not text: {} {}",
            if src.is_prefix() {
                "it holds at least"
            } else {
                "it holds"
            },
            super::text::and_list(&parts)
        );
    };
    sentence!("the body is {kind}, not a robots.txt file")
}

// ---------------------------------------------------------------------------------------------

const EMPTY_FILE: CatalogueEntry = CatalogueEntry {
    name: "empty-file",
    severity: Severity::Info,
    summary: "The file is empty: every crawler may fetch everything.",
    what: "The file has no content, or only white space and line breaks.",
    why: "An empty robots.txt is valid and means that there are no restrictions: every crawler may \
fetch every URL. That is fine when intended, but an empty file is also what a failed build or \
deployment produces, quietly lifting the rules the site used to have.",
    example: "(a file of zero bytes)\n",
    fix: "Nothing, if no restrictions are wanted; a short comment such as `# no restrictions` \
makes the intent visible. Otherwise restore the intended rules.",
    references: &[
        (
            "RFC 9309 §2.2.1",
            "https://www.rfc-editor.org/rfc/rfc9309.html#section-2.2.1",
        ),
        GOOGLE_SYNTAX,
    ],
};

fn empty_file(cx: &Ctx, out: &mut Found) {
    let rest = &cx.bytes[cx.robots.source.bom_len.min(cx.bytes.len())..];
    if !rest.iter().all(|b| b.is_ascii_whitespace()) {
        return;
    }
    let msg = if rest.is_empty() {
        "the file is empty, so every crawler may fetch every URL"
    } else {
        "the file holds only white space, so every crawler may fetch every URL"
    };
    out.push(cx.diag(&EMPTY_FILE, Span::new(0, 0), Readings::Both, msg));
}

const NO_GROUPS: CatalogueEntry = CatalogueEntry {
    name: "no-groups",
    severity: Severity::Warning,
    summary: "The file has no user-agent line, so it has no group and no rule applies.",
    what: "Rules only take effect inside a group, and a group starts with a `User-agent` line. This \
file has none that the reading recognises.",
    why: "Without a group, every crawler may fetch everything. When the file holds only `Sitemap` \
lines that is fine; when it holds `Disallow` lines, they are all ignored, which is rarely what \
the author wanted.",
    example: "Crawl-delay: 10\nSitemap: https://www.example.com/sitemap.xml\n",
    fix: "Put `User-agent: *` (or the product token of the crawler you mean) above the rules.",
    references: &[
        (
            "RFC 9309 §2.1",
            "https://www.rfc-editor.org/rfc/rfc9309.html#section-2.1",
        ),
        (
            "Google: grouping of lines and rules",
            "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt#grouping-of-lines-and-rules",
        ),
    ],
};

const NO_RULES: CatalogueEntry = CatalogueEntry {
    name: "no-rules",
    severity: Severity::Info,
    summary: "The file has no user-agent line and no rules: every crawler may fetch everything.",
    what: "The file holds no group and nothing that belongs in one: only comments, sitemap lines \
or lines that are not records.",
    why: "A file without rules allows every crawler to fetch every URL, just as no file at all \
would. That is a fine policy when it is meant, typically in a file that only lists sitemaps; it \
is worth knowing when rules were expected.",
    example: "# no restrictions\nSitemap: https://www.example.com/sitemap.xml\n",
    fix: "Nothing, if every crawler may fetch everything. To say so explicitly, add \
`User-agent: *` and `Disallow:`; to restrict crawlers, add groups with rules.",
    references: &[
        (
            "RFC 9309 §2.1",
            "https://www.rfc-editor.org/rfc/rfc9309.html#section-2.1",
        ),
        (
            "Google: grouping of lines and rules",
            "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt#grouping-of-lines-and-rules",
        ),
    ],
};

fn no_groups(cx: &Ctx, out: &mut Found) {
    if cx.body.is_foreign() {
        return;
    }
    let rest = &cx.bytes[cx.robots.source.bom_len.min(cx.bytes.len())..];
    if rest.iter().all(|b| b.is_ascii_whitespace()) {
        return;
    }
    for &reading in cx.readings() {
        let p = cx.policy(reading);
        // The Google reading of a UTF-16 file is empty as a whole: `utf16` says so.
        if !p.groups.is_empty()
            || (reading == crate::Reading::Google && cx.robots.source.is_utf16())
        {
            continue;
        }
        let rules = p.rules_outside_groups.len();
        // Rules outside any group are each an error (`rule-before-group`), which says all there
        // is to say; a second, file-level finding would repeat it at another severity.
        if !p.rules_outside_groups.is_empty() {
            continue;
        }
        // Fields such as `Crawl-delay` mean something only inside a group; unknown lines
        // (`http://…`) mean nothing anywhere.
        // (`Host` names the preferred domain for the whole file, not for a group.)
        let other = p
            .records
            .iter()
            .filter(|r| matches!(r.field, Field::NonStandard(n) if n != "host"))
            .count();
        let hidden = cx
            .tree
            .lines
            .iter()
            .find(|l| l.parts().key.is_some_and(|k| key_hidden_by_junk(cx.raw(k))))
            .map_or(String::new(), |l| {
                sentence!(
                    " (the user-agent line on line {} is not recognised because of the characters \
before its field name)",
                    l.number()
                )
            });
        let (entry, msg) = if rules > 0 {
            (
                &NO_GROUPS,
                sentence!(
                    "the file has {} but no user-agent line{hidden}, so no rule applies to any \
crawler",
                    count(rules, "rule", "rules")
                ),
            )
        } else if other > 0 {
            (
                &NO_GROUPS,
                sentence!(
                    "the file has {} that only {} something inside a group, but no user-agent \
line{hidden} and no rules, so every crawler may fetch everything",
                    count(other, "record", "records"),
                    if other == 1 { "means" } else { "mean" }
                ),
            )
        } else {
            (
                &NO_RULES,
                "the file has no user-agent line and no rules, so every crawler may fetch \
everything"
                    .to_string(),
            )
        };
        out.push(cx.diag(entry, Span::new(0, 0), cx.tag(reading), msg));
    }
}

// ---------------------------------------------------------------------------------------------

const MIXED_LINE_ENDINGS: CatalogueEntry = CatalogueEntry {
    name: "mixed-line-endings",
    severity: Severity::Info,
    summary: "The file mixes lone CR line ends with LF or CR LF.",
    what: "Some lines end with a lone CR, others with LF or CR LF. (A mix of LF and CR LF alone \
is not reported: every parser reads it alike, and neither is a lone CR before a blank line.) \
This happens when files edited on different systems are pasted together, or when a generator writes part of the file itself.",
    why: "RFC 9309 and Google accept all three, so a conforming parser reads the file correctly. \
Simpler tools that split only on LF leave a CR at the end of values, and tools that split only on \
CR LF may merge lines; mixed ends also make diffs noisy.",
    example: "User-agent: *\\r\\nDisallow: /a/\\nDisallow: /b/\\r\\n\n",
    fix: "Normalise the file to one style, preferably LF (for example with `dos2unix`), and make the \
generator or editor write that style.",
    references: &[RFC_2_2, GOOGLE_FORMAT],
};

const CR_LINE_ENDINGS: CatalogueEntry = CatalogueEntry {
    name: "cr-line-endings",
    severity: Severity::Info,
    summary: "Lines end with a lone CR (classic Mac OS style).",
    what: "Every line ends with a carriage return (CR, `\\r`) that is not followed by a line feed. \
This comes from old Mac tools and some export scripts. (A file in which only some lines end so is \
reported as `mixed-line-endings`.)",
    why: "RFC 9309 and Google accept a lone CR as a line end. Many other programs do not: they see \
the whole file as a single line, read only the first field, and lose every rule after it.",
    example: "User-agent: *\\rDisallow: /private/\\r\n",
    fix: "Convert the line ends to LF (or CR LF), for example with `mac2unix` or your editor's \
line-ending setting.",
    references: &[RFC_2_2, GOOGLE_FORMAT],
};

fn line_endings(cx: &Ctx, out: &mut Found) {
    if matches!(cx.body, Body::Binary | Body::Utf16NoBom) {
        return;
    }
    // A CR LF that the parsing limit splits ends the last line read with what looks like a
    // lone CR; it is a CR LF all the same.
    let split_crlf = cx.ignored_region().is_some_and(|r| r.split_crlf);
    let last = cx.tree.lines.len().saturating_sub(1);
    let ending = |i: usize, l: &crate::syntax::Line| match l.terminator() {
        LineEnd::Cr if split_crlf && i == last => LineEnd::CrLf,
        t => t,
    };
    let (mut lf, mut crlf, mut cr) = (0usize, 0usize, 0usize);
    let mut first_kind = None;
    let mut first_change = None;
    let mut first_cr = None;
    // A lone CR matters only where it separates two lines with content: tools that split on LF
    // alone then merge them. A CR before a blank line (CR CR LF) only adds a blank line.
    let has_content = |i: usize| {
        cx.tree
            .lines
            .get(i)
            .is_some_and(|l| !cx.raw(l.content()).iter().all(u8::is_ascii_whitespace))
    };
    for (i, l) in cx.tree.lines.iter().enumerate() {
        let t = ending(i, l);
        match t {
            LineEnd::Lf => lf += 1,
            LineEnd::CrLf => crlf += 1,
            LineEnd::Cr if has_content(i) && has_content(i + 1) => {
                cr += 1;
                first_cr.get_or_insert(i);
            }
            LineEnd::Cr | LineEnd::None => continue,
        }
        match first_kind {
            None => first_kind = Some(t),
            Some(k) if k != t && first_change.is_none() => first_change = Some(i),
            _ => {}
        }
    }
    // One classification, one diagnostic: several styles are `mixed-line-endings` (which counts
    // the lone CRs, if any), lone CRs alone are `cr-line-endings`, LF or CR LF alone is fine.
    // LF and CR LF mixed break nothing: every parser that splits on LF and trims white space
    // reads the same lines, so only a mix with lone CRs is reported.
    let kinds = [lf, crlf, cr].iter().filter(|&&n| n > 0).count();
    if kinds > 1 && cr > 0 {
        let mut parts = Vec::new();
        for (n, label) in [(lf, "LF"), (crlf, "CR LF"), (cr, "lone CR")] {
            if n > 0 {
                parts.push(sentence!("{} {label}", thousands(n)));
            }
        }
        let i = first_change.unwrap_or(0);
        let l = cx.line(i);
        let span = Span::new(l.content().end, l.span().end);
        let lone = match first_cr {
            Some(c) if cr > 0 => sentence!(
                "; the first lone CR, which many tools do not take for a line end, ends line {}",
                cx.line(c).number()
            ),
            _ => String::new(),
        };
        out.push(cx.diag(
            &MIXED_LINE_ENDINGS,
            span,
            Readings::Both,
            sentence!(
                "line ends are mixed ({}); the first change of style is at the end of line {}{lone}",
                parts.join(", "),
                l.number()
            ),
        ));
    } else if let Some(i) = first_cr {
        let l = cx.line(i);
        let span = Span::new(l.content().end, l.span().end);
        let msg = sentence!(
            "every line ends with a lone CR ({}); RFC 9309 and Google accept it, but many tools \
read the whole file as one line",
            count(cr, "line", "lines")
        );
        out.push(
            cx.diag(&CR_LINE_ENDINGS, span, Readings::Both, msg)
                .with_suggestion("convert the line ends to LF"),
        );
    }
}

// ---------------------------------------------------------------------------------------------

const BEYOND_PARSING_LIMIT: CatalogueEntry = CatalogueEntry {
    name: "beyond-parsing-limit",
    severity: Severity::Error,
    summary: "The file is longer than 512,000 bytes; everything after that is ignored.",
    what: "RFC 9309 lets crawlers stop parsing after a limit of at least 500 kibibytes (512,000 \
bytes), and Google stops at exactly that size. The bytes after the limit, and the part of the \
line that crosses it, are never read.",
    why: "Rules written after the limit do nothing. Large generated files often list their most \
general rules last, or add new rules at the end, so the policy crawlers apply is a truncated, \
partial one that nobody reviewed.",
    example: "User-agent: *\nDisallow: /page-1\n… (thousands of lines) …\nDisallow: /admin/   <- \
after byte 512,000: ignored\n",
    fix: "Shrink the file: replace long lists of single URLs with patterns (`Disallow: /*?sessionid=`), \
move private material under one directory, and put the most important rules first.",
    references: &[RFC_2_5, GOOGLE_FORMAT],
};

const BEYOND_PARSING_LIMIT_NO_RULES: CatalogueEntry = CatalogueEntry {
    name: "beyond-parsing-limit-no-rules",
    severity: Severity::Warning,
    summary: "The file is longer than 512,000 bytes; what lies after that is ignored, though no \
rule is lost.",
    what: "RFC 9309 lets crawlers stop parsing after a limit of at least 500 kibibytes (512,000 \
bytes), and Google stops at exactly that size. This file goes on past the limit, but the part \
ignored holds no rule: only comments, blank lines, sitemaps or other lines.",
    why: "Nothing crawlers obey is lost today, but sitemap lines past the limit are not read, and \
any rule added at the end of the file later would be ignored. A file this large is usually \
generated, and hard to review.",
    example: "User-agent: *\nDisallow: /admin/\n… (512,000 bytes of comments) …\nSitemap: \
https://www.example.com/sitemap.xml   <- after byte 512,000: ignored\n",
    fix: "Shrink the file below 512,000 bytes: remove long comments and padding, and list \
sitemaps in a sitemap index instead of one line each.",
    references: &[RFC_2_5, GOOGLE_FORMAT],
};

fn beyond_parsing_limit(cx: &Ctx, out: &mut Found) {
    let Some(region) = cx.ignored_region() else {
        return;
    };
    // An HTML page, JSON or binary body is already reported as such; past the limit of a body
    // that holds no rules nothing more is lost.
    if region.rules == 0 && cx.body.is_foreign() {
        return;
    }
    let ignored = region.span;
    let (rules, lines) = (region.rules, region.lines);
    let cut_line = region.cut_line.and_then(|n| cx.tree.lines.get(n - 1));
    let cut = cut_line.map_or(String::new(), |l| {
        let i = l.number() - 1;
        match cx.google.record_at(i) {
            Some(r) if r.field.is_rule() => {
                let now = sentence!("{}: {}", cx.text(r.key), cx.text(r.value));
                let everything = r.field == Field::Disallow
                    && crate::analysis::sets::matches_everything(cx.raw(r.value));
                sentence!(
                    ", and line {} is cut in the middle, leaving the rule {}{}",
                    l.number(),
                    quote(&now),
                    if everything {
                        ", which blocks every URL"
                    } else {
                        ""
                    }
                )
            }
            _ => sentence!(", and line {} is cut in the middle", l.number()),
        }
    });
    let entry = if rules > 0 {
        &BEYOND_PARSING_LIMIT
    } else {
        &BEYOND_PARSING_LIMIT_NO_RULES
    };
    out.push(
        cx.diag(
            entry,
            ignored,
            Readings::Both,
            match cx.robots.source.extent {
                Extent::Whole => sentence!(
                    "the file is {} bytes long; the {} bytes after the parsing limit of {} bytes \
are ignored, with {} ({} in all){cut}",
                    thousands(cx.bytes.len()),
                    thousands(ignored.len()),
                    thousands(PARSING_LIMIT),
                    rules_count(rules),
                    count(lines, "line", "lines"),
                ),
                Extent::Prefix { total } => sentence!(
                    "{}; everything after the parsing limit of {} bytes is ignored, and the \
part of it that was read holds {} ({} in all){cut}",
                    match total {
                        Some(n) => sentence!(
                            "the file is {} bytes long, and only its first {} bytes were read",
                            thousands_u64(n),
                            thousands(cx.robots.source.input_len),
                        ),
                        None => sentence!(
                            "the input is longer than the {} bytes read (its size is unknown)",
                            thousands(cx.robots.source.input_len),
                        ),
                    },
                    thousands(PARSING_LIMIT),
                    rules_count(rules),
                    count(lines, "line", "lines"),
                ),
            },
        )
        .with_suggestion(
            "shorten the file to under 512,000 bytes and put the important rules first",
        ),
    );
}

/// `no rules`, `1 rule`, `2 rules`.
fn rules_count(n: usize) -> String {
    if n == 0 {
        "no rules".to_string()
    } else {
        count(n, "rule", "rules")
    }
}

// ---------------------------------------------------------------------------------------------

const LINE_TOO_LONG: CatalogueEntry = CatalogueEntry {
    name: "line-too-long",
    severity: Severity::Warning,
    summary: "A line is longer than Google's line buffer (16,663 bytes) and is cut.",
    what: "Google's parser copies each line into a buffer of 16,664 bytes, one of which ends the \
string, so it keeps the first 16,663 bytes of a line and drops the rest. This line is longer.",
    why: "A rule or user-agent value longer than that is silently shortened, so Google matches a \
different, shorter pattern than the one written (a shortened `Disallow` pattern blocks more than \
intended). Lines this long are almost always generated by mistake, or are not robots.txt content \
at all.",
    example: "Disallow: /search?q=… (a value of 20,000 characters)\n",
    fix: "Split the line into several shorter rules, or replace it with a pattern using `*`.",
    references: &[
        (
            "Google: robots.txt parser (line length)",
            "https://github.com/google/robotstxt/blob/master/robots.cc",
        ),
        GOOGLE_FORMAT,
    ],
};

fn line_too_long(cx: &Ctx, out: &mut Found) {
    if cx.body.is_foreign() {
        return;
    }
    let keep = GOOGLE_MAX_LINE_BYTES - 1;
    for l in &cx.tree.lines {
        let len = l.content().len();
        if len <= keep {
            continue;
        }
        let cut = l.content().start + keep;
        let what = match l.parts().key.map(|k| google_field(cx.raw(k))) {
            Some(Some((Field::Allow | Field::Disallow, _))) => {
                "so Google matches a shorter pattern than the one written"
            }
            Some(Some((Field::UserAgent, _))) => "so Google reads a shorter user-agent value",
            Some(Some((Field::Sitemap, _))) => "so Google reads a shorter sitemap URL",
            _ => "and drops the rest of it",
        };
        out.push(
            cx.diag(
                &LINE_TOO_LONG,
                Span::new(cut, l.content().end),
                Readings::Google,
                sentence!(
                    "line {} is {} bytes long; Google keeps only the first {} bytes, {what}",
                    l.number(),
                    thousands(len),
                    thousands(keep)
                ),
            )
            .with_suggestion("split the line into shorter rules or use a `*` pattern"),
        );
    }
}

// ---------------------------------------------------------------------------------------------

const CONTROL_CHARACTER: CatalogueEntry = CatalogueEntry {
    name: "control-character",
    severity: Severity::Warning,
    summary: "A line contains a NUL byte or another control character.",
    what: "The line holds a byte below 0x20 (other than tab) or 0x7F: a NUL, an escape, a stray \
form of line break. They are invisible in most editors.",
    why: "Google's parser treats a NUL byte as the end of the line and ignores everything after \
it. Other control characters become part of the field name or the pattern, which then matches \
nothing or is not recognised.",
    example: "Disallow: /private/\\x00/tmp/\n",
    fix: "Remove the control characters; a hex viewer (`xxd robots.txt`) shows where they are.",
    references: &[RFC_2_2, GOOGLE_FORMAT],
};

fn control_characters(cx: &Ctx, out: &mut Found) {
    if cx.body != Body::Text {
        return;
    }
    let src = &cx.robots.source;
    if src.nul_bytes == 0 && src.control_bytes == 0 {
        return;
    }
    for l in &cx.tree.lines {
        let raw = cx.raw(l.content());
        let Some(i) = raw
            .iter()
            .position(|&b| (b < 0x20 && !matches!(b, b'\t' | 0x0B | 0x0C)) || b == 0x7F)
        else {
            continue;
        };
        let at = l.content().start + i;
        let b = raw[i];
        let msg = if b == 0 {
            sentence!(
                "line {} holds a NUL byte; Google stops reading the line there",
                l.number()
            )
        } else {
            sentence!(
                "line {} holds the control character U+{b:04X}, which becomes part of the field \
or value",
                l.number()
            )
        };
        out.push(
            cx.diag(
                &CONTROL_CHARACTER,
                Span::new(at, at + 1),
                Readings::Both,
                msg,
            )
            .with_suggestion("remove the control character"),
        );
    }
}

// ---------------------------------------------------------------------------------------------

const INVISIBLE_CHARACTER: CatalogueEntry = CatalogueEntry {
    name: "invisible-character",
    severity: Severity::Warning,
    summary: "A field name or value contains an invisible character such as a zero-width space.",
    what: "The line holds a character that shows as nothing or as an ordinary space: a zero-width \
space or joiner (U+200B–U+200D), a left-to-right mark (U+200E), a byte order mark in the middle \
of the file (U+FEFF), or a no-break space (U+00A0). They usually come from copying text out of a \
web page, a word processor or a chat message.",
    why: "Crawlers do not treat these characters as white space. Before a field name they make the \
name unknown, so `\u{200D}User-agent` is ignored and its group is lost. Inside or at the end of a \
pattern they become part of it (as `%E2%80%8B`, for example), so the rule only matches URLs that \
contain the same invisible character, that is, none.",
    example: "User-agent: *\nDisallow: /checkout/\u{200B}\n",
    fix: "Delete and retype the line, or remove the character in an editor that can show it (many \
can highlight \"invisible\" or \"non-ASCII\" characters).",
    references: &[RFC_2_2, GOOGLE_SYNTAX],
};

const INVISIBLE_CHARACTER_IN_FIELD: CatalogueEntry = CatalogueEntry {
    name: "invisible-character-in-field",
    severity: Severity::Error,
    summary: "A field name contains an invisible character, so no crawler recognises the line.",
    what: "The field name holds, or is preceded by, a character that shows as nothing or as an \
ordinary space: a zero-width space or joiner (U+200B–U+200D), a left-to-right mark (U+200E), a \
byte order mark in the middle of the file (U+FEFF), or a no-break space (U+00A0).",
    why: "Crawlers do not treat these characters as white space, so `\u{200D}User-agent` is not \
`User-agent`: the line is an unknown field and is ignored. A lost user-agent line loses its \
group, a lost rule or sitemap line is simply gone.",
    example: "User-agent: *\n\u{200B}Disallow: /checkout/\n",
    fix: "Delete and retype the field name, or remove the character in an editor that can show \
invisible or non-ASCII characters.",
    references: &[RFC_2_2, GOOGLE_SYNTAX],
};

fn invisible_characters(cx: &Ctx, out: &mut Found) {
    if cx.body != Body::Text {
        return;
    }
    for l in &cx.tree.lines {
        let body_end = l.parts().comment.map_or(l.content().end, |c| c.start);
        let body = Span::new(l.content().start, body_end);
        let raw = cx.raw(body);
        // Most lines are ASCII: told at once, before a UTF-8 check of each.
        if raw.is_ascii() {
            continue;
        }
        let Ok(text) = std::str::from_utf8(raw) else {
            continue;
        };
        // A U+00A0 or U+00AD that is the second half of a double-encoded character (`Ã­` for
        // `í`) is reported, and repaired, by `double-encoded-utf8`.
        if undo_double_encoding(text).is_some() {
            continue;
        }
        let mut found = text.char_indices().filter(|(_, c)| is_invisible(*c));
        let Some((i, c)) = found.next() else {
            continue;
        };
        let more = found.count();
        let at = body.start + i;
        let span = Span::new(at, at + c.len_utf8());
        let in_key = l.parts().key.is_some_and(|k| at < k.end)
            || (l.parts().key.is_none() && l.parts().text.is_some_and(|t| at < t.start + 4));
        let stripped: String = text
            .trim_matches(|ch: char| ch.is_whitespace() || is_invisible(ch))
            .chars()
            .filter(|ch| !is_invisible(*ch))
            .collect();
        let code = sentence!("U+{:04X}", c as u32);
        let name = invisible_name(c);
        let also = if more > 0 {
            sentence!(" ({} more on this line)", thousands(more))
        } else {
            String::new()
        };
        // Google's parser reads a field by its prefix, so `Disallow\u{A0}` (often after a stray
        // `Â`, the mojibake of a no-break space) is still a disallow there; `misspelled-field`
        // says so. Then only the RFC 9309 reading loses the line, and the fix is the field
        // written out again, without the stray characters.
        let google_reads = cx
            .google
            .record_at(l.number() - 1)
            .filter(|r| !matches!(r.field, crate::fields::Field::Unknown));
        if in_key && let Some(rec) = google_reads {
            let field = match super::fields::canonical(rec.field) {
                "" => rec.field.name(),
                c => c,
            };
            out.push(
                cx.diag(
                    &INVISIBLE_CHARACTER_IN_FIELD,
                    span,
                    Readings::Rfc,
                    sentence!(
                        "the field name on line {} contains the invisible character {code} \
({name}){also}, so RFC 9309 parsers do not recognise the field and ignore the line (Google's \
parser still reads it as `{}` by its prefix)",
                        l.number(),
                        field
                    ),
                )
                .with_suggestion(visible(&sentence!("{field}: {}", cx.text(rec.value)), 200)),
            );
            continue;
        }
        let stripped = stripped.replace("\u{C2}\u{A0}", "").replace('\u{C2}', "");
        let (entry, msg) = if in_key {
            (
                &INVISIBLE_CHARACTER_IN_FIELD,
                sentence!(
                    "the field name on line {} contains the invisible character {code} ({name}){also}, \
so no crawler recognises the field and the line is ignored",
                    l.number()
                ),
            )
        } else {
            (
                &INVISIBLE_CHARACTER,
                sentence!(
                    "the value on line {} contains the invisible character {code} ({name}){also}; \
it is part of the value, so the rule or URL will not match what was meant",
                    l.number()
                ),
            )
        };
        out.push(
            cx.diag(entry, span, Readings::Both, msg)
                // The text itself, not its display form: printers escape what they show, and
                // an escape such as `<U+0009>` written into the fix would become part of it.
                .with_suggestion(stripped),
        );
    }
}

/// `bytes` without a leading re-encoded byte order mark, byte order mark or invisible
/// characters.
pub(super) fn strip_junk(bytes: &[u8]) -> &[u8] {
    let mut k = bytes;
    loop {
        if let Some(rest) = k.strip_prefix(MISENCODED_BOM) {
            k = rest;
            continue;
        }
        if let Some(rest) = k.strip_prefix(crate::decode::UTF8_BOM) {
            k = rest;
            continue;
        }
        let head = &k[..k.len().min(4)];
        let first = (1..=head.len())
            .rev()
            .find_map(|n| std::str::from_utf8(&head[..n]).ok())
            .and_then(|s| s.chars().next())
            .filter(|c| is_invisible(*c));
        match first {
            Some(c) => k = &k[c.len_utf8()..],
            None => return k,
        }
    }
}

/// Whether a key, once invisible characters and a re-encoded byte order mark are removed from
/// its start, names a field Google knows: then the file-level diagnostics already explain why
/// the field is not recognised.
pub(super) fn key_hidden_by_junk(key: &[u8]) -> bool {
    let k = strip_junk(key);
    k.len() != key.len() && google_field(k).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn double_encoding_is_undone() {
        assert_eq!(undo_double_encoding("/cafÃ©/").as_deref(), Some("/café/"));
        assert_eq!(undo_double_encoding("/café/"), None);
        assert_eq!(undo_double_encoding("/plain/"), None);
        assert_eq!(
            undo_double_encoding("/ja/æ¡ˆä»¶").as_deref(),
            Some("/ja/案件")
        );
    }

    #[test]
    fn junk_before_keys() {
        assert!(key_hidden_by_junk("\u{200D}User-agent".as_bytes()));
        assert!(key_hidden_by_junk(b"\xC3\xAF\xC2\xBB\xC2\xBFUser-agent"));
        assert!(!key_hidden_by_junk(b"User-agent"));
        assert!(!key_hidden_by_junk("\u{200D}Foo".as_bytes()));
    }
}
