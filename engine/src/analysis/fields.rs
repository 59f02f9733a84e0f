//! Field checks: field names that are unknown, misspelt or non-standard, missing colons, and
//! lines that are not records at all.

use super::context::Ctx;
use super::file::{key_hidden_by_junk, strip_junk};
use super::found::Found;
use super::text::{and_list, edit_distance, quote, visible};
use super::{CatalogueEntry, Readings, Severity};
use crate::fields::{Field, Spelling, google_field, non_standard_field};
use crate::syntax::{SeparatorKind, Span};
use crate::text::sentence;

const RFC_2_2: (&str, &str) = (
    "RFC 9309 §2.2",
    "https://www.rfc-editor.org/rfc/rfc9309.html#section-2.2",
);
const RFC_2_2_4: (&str, &str) = (
    "RFC 9309 §2.2.4",
    "https://www.rfc-editor.org/rfc/rfc9309.html#section-2.2.4",
);
const GOOGLE_SYNTAX: (&str, &str) = (
    "Google: syntax",
    "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt#syntax",
);

/// The field-level entries, in catalogue order.
pub(super) const ENTRIES: &[CatalogueEntry] = &[
    UNKNOWN_FIELD,
    MISSPELLED_FIELD,
    GOOGLE_ONLY_SPELLING,
    MISSPELLED_NONSTANDARD_FIELD,
    NONSTANDARD_FIELD,
    CRAWL_DELAY_FOR_GOOGLE,
    PAGE_DIRECTIVE,
    MISSING_COLON,
    MISSING_COLON_NONSTANDARD,
    SITEMAP_LINE_NOT_READ,
    INVALID_LINE,
];

/// The four fields of the protocol, with their usual spelling.
const STANDARD: &[(&str, &str)] = &[
    ("user-agent", "User-agent"),
    ("allow", "Allow"),
    ("disallow", "Disallow"),
    ("sitemap", "Sitemap"),
];

/// Usual spellings of the non-standard fields.
const NONSTANDARD_SPELLING: &[(&str, &str)] = &[
    ("crawl-delay", "Crawl-delay"),
    ("host", "Host"),
    ("clean-param", "Clean-param"),
    ("request-rate", "Request-rate"),
    ("visit-time", "Visit-time"),
    ("noindex", "Noindex"),
    ("nofollow", "Nofollow"),
    ("noarchive", "Noarchive"),
    ("content-signal", "Content-Signal"),
    ("content-usage", "Content-Usage"),
    ("cache-delay", "Cache-delay"),
    ("robot-version", "Robot-version"),
    ("comment", "Comment"),
];

/// Runs the field checks, line by line.
pub(super) fn check(cx: &Ctx, out: &mut Found) {
    if cx.body.is_foreign() {
        return;
    }
    // The line the parsing limit cuts is explained by `beyond-parsing-limit`, which says what
    // is left of it; its stump is not a second finding.
    let cut = cx.ignored_region().and_then(|r| r.cut_line).map(|n| n - 1);
    for (i, line) in cx.tree.lines.iter().enumerate() {
        if Some(i) == cut {
            continue;
        }
        let parts = line.parts();
        match (parts.key, parts.separator, parts.text) {
            (Some(key), Some((_, sep)), _) => keyed_line(cx, i, key, sep, out),
            (None, Some(_), _) if !out.wants(INVALID_LINE.name, Readings::Both) => {
                out.count_left_out(INVALID_LINE.name, Readings::Both, line.number());
            }
            (None, Some(_), _) => out.push(cx.line_diag(
                &INVALID_LINE,
                i,
                Readings::Both,
                sentence!(
                    "line {} has a colon but no field name before it, so every crawler skips it",
                    line.number()
                ),
            )),
            (_, _, Some(text)) => text_line(cx, i, text, out),
            _ => {}
        }
    }
}

/// The canonical spelling of a field name known to either list.
fn spelling(lower: &str) -> Option<&'static str> {
    STANDARD
        .iter()
        .chain(NONSTANDARD_SPELLING)
        .find(|(k, _)| *k == lower)
        .map(|(_, s)| *s)
}

/// The known field name closest to `key` (lower-case, with `_` and spaces read as `-`), if
/// it is within a small edit distance, and whether it is one of the four standard fields.
fn did_you_mean(key: &[u8]) -> Option<(&'static str, bool)> {
    let k: Vec<u8> = key
        .iter()
        .map(|b| match b.to_ascii_lowercase() {
            b'_' | b' ' => b'-',
            c => c,
        })
        .collect();
    let mut best: Option<(usize, &'static str, bool)> = None;
    for (list, standard) in [(STANDARD, true), (NONSTANDARD_SPELLING, false)] {
        for (name, shown) in list {
            let max = if name.len() <= 5 { 1 } else { 2 };
            if name.len() <= 5 && k.first() != name.as_bytes().first() {
                continue;
            }
            if let Some(d) = edit_distance(&k, name.as_bytes(), max)
                && best.is_none_or(|(bd, _, _)| d < bd)
            {
                best = Some((d, shown, standard));
            }
        }
    }
    best.map(|(_, s, std)| (s, std))
}

fn keyed_line(cx: &Ctx, i: usize, key: Span, sep: SeparatorKind, out: &mut Found) {
    let line = cx.line(i);
    let raw = cx.raw(key);
    let google = google_field(raw);
    // A full-width colon (U+FF1A) is the bytes EF BC 9A: a key without the byte 0xEF has none.
    let may_hold_fullwidth_colon = crate::pattern::find_byte(0xEF, raw).is_some();
    // A field name as written, followed by a colon: nothing to say (most lines), and no text
    // to build.
    if sep == SeparatorKind::Colon
        && !may_hold_fullwidth_colon
        && google.is_some_and(|(_, sp)| sp == Spelling::Exact)
    {
        return;
    }
    if key_hidden_by_junk(raw) {
        return; // misencoded-bom or invisible-character explains it
    }
    let key_text = cx.text(key);
    let value = line.parts().value.unwrap_or(Span::new(key.end, key.end));
    let value_text = cx.text(value);
    if let Some(at) = key_text.find('：') {
        fullwidth_colon(cx, i, &key_text, at, out);
        return;
    }
    if sep == SeparatorKind::Whitespace {
        let target = google
            .map(|(f, _)| canonical(f))
            .or_else(|| non_standard_field(raw).and_then(spelling))
            .or_else(|| did_you_mean(raw).map(|(s, _)| s));
        match target {
            Some(name) => {
                let standard = google.is_some();
                let msg = if standard {
                    sentence!(
                        "{} has no colon after the field name: Google reads it as `{name}: {}`, \
but RFC 9309 parsers ignore the line",
                        quote(&cx.line_text(i)),
                        visible(&value_text, 80)
                    )
                } else {
                    sentence!(
                        "{} has no colon after the field name, so no crawler reads it as \
`{name}`",
                        quote(&cx.line_text(i))
                    )
                };
                let entry = colon_entry(name, standard);
                out.push(
                    cx.line_diag(entry, i, Readings::Both, msg)
                        .with_suggestion(sentence!("{name}: {}", visible(&value_text, 200))),
                );
                if let Some((f, sp)) = google
                    && sp != Spelling::Exact
                {
                    misspelled(cx, i, key, &key_text, f, sp, out);
                }
            }
            None if !out.wants(INVALID_LINE.name, Readings::Both) => {
                out.count_left_out(INVALID_LINE.name, Readings::Both, i + 1);
            }
            None => out.push(cx.line_diag(
                &INVALID_LINE,
                i,
                Readings::Both,
                sentence!(
                    "{} is not a record: it has no colon, and {} is not a field name, so \
every crawler skips the line",
                    quote(&cx.line_text(i)),
                    quote(&key_text)
                ),
            )),
        }
        return;
    }
    if let Some((field, sp)) = google {
        if sp != Spelling::Exact {
            misspelled(cx, i, key, &key_text, field, sp, out);
        }
        return;
    }
    if let Some(name) = non_standard_field(raw) {
        nonstandard(cx, i, key, name, out);
        return;
    }
    if let Some((name, standard)) = did_you_mean(raw) {
        let entry = if standard {
            &MISSPELLED_FIELD
        } else {
            &MISSPELLED_NONSTANDARD_FIELD
        };
        out.push(
            cx.diag(
                entry,
                key,
                Readings::Both,
                sentence!(
                    "{} is not a field name any crawler knows; did you mean `{name}`? The line \
is ignored",
                    quote(&key_text)
                ),
            )
            .with_suggestion(sentence!("{name}: {}", visible(&value_text, 200))),
        );
        return;
    }
    unknown(cx, i, key, &key_text, &value_text, out);
}

/// A key such as `Sitemap：https` (the line had a full-width colon, then the `:` of the URL).
fn fullwidth_colon(cx: &Ctx, i: usize, key_text: &str, at: usize, out: &mut Found) {
    let word = &key_text[..at];
    let Some(name) = google_field(word.as_bytes())
        .map(|(f, _)| canonical(f))
        .or_else(|| non_standard_field(word.as_bytes()).and_then(spelling))
    else {
        return;
    };
    let line = cx.line_text(i);
    let rest = line
        .split_once('：')
        .map_or(String::new(), |(_, r)| r.trim().to_string());
    out.push(
        cx.line_diag(
            colon_entry(name, true),
            i,
            Readings::Both,
            sentence!(
                "{} uses the full-width colon `：` (U+FF1A) instead of `:`, so crawlers do not \
read it as `{name}` with this value",
                quote(&line)
            ),
        )
        .with_suggestion(sentence!("{name}: {}", visible(&rest, 300))),
    );
}

/// `Allow` or `Disallow` for a rule field name written in any case (anything else as given).
pub(super) fn canonical_rule(name: &str) -> &str {
    match name.trim().to_ascii_lowercase().as_str() {
        "allow" => "Allow",
        "disallow" => "Disallow",
        _ => name.trim(),
    }
}

pub(super) fn canonical(f: Field) -> &'static str {
    match f {
        Field::UserAgent => "User-agent",
        Field::Allow => "Allow",
        Field::Disallow => "Disallow",
        Field::Sitemap => "Sitemap",
        _ => "",
    }
}

fn misspelled(
    cx: &Ctx,
    i: usize,
    key: Span,
    key_text: &str,
    field: Field,
    sp: Spelling,
    out: &mut Found,
) {
    let name = canonical(field);
    let how = match sp {
        Spelling::Prefix => sentence!(
            "{} is not `{name}`: Google's parser accepts any field name that starts with \
`{}`, but RFC 9309 parsers and most other crawlers ignore the line",
            quote(key_text),
            name.to_ascii_lowercase()
        ),
        _ => sentence!(
            "{} is a misspelling of `{name}`: Google's parser accepts this spelling, but RFC \
9309 parsers and most other crawlers ignore the line",
            quote(key_text)
        ),
    };
    let value = cx
        .line(i)
        .parts()
        .value
        .map(|v| cx.text(v).into_owned())
        .unwrap_or_default();
    out.push(
        cx.diag(&GOOGLE_ONLY_SPELLING, key, Readings::Both, how)
            .with_suggestion(sentence!("{name}: {}", visible(&value, 300))),
    );
}

fn unknown(cx: &Ctx, i: usize, key: Span, key_text: &str, value_text: &str, out: &mut Found) {
    let lower = key_text.to_ascii_lowercase();
    let line_text = cx.line_text(i);
    let (msg, suggestion) = if lower == "http" || lower == "https" {
        let looks_sitemap = line_text.to_ascii_lowercase().contains("sitemap")
            || line_text.to_ascii_lowercase().ends_with(".xml");
        (
            sentence!(
                "{} is a bare URL, not a record; crawlers ignore it",
                quote(&line_text)
            ),
            looks_sitemap.then(|| sentence!("Sitemap: {}", visible(&line_text, 300))),
        )
    } else if key_text.starts_with('/') {
        (
            sentence!(
                "{} starts with a path instead of a field name; crawlers ignore it",
                quote(&line_text)
            ),
            Some(sentence!("Disallow: {}", visible(&line_text, 300))),
        )
    } else if lower.contains("sitemap") {
        (
            sentence!(
                "{} is not a field crawlers know, so every crawler ignores this line; only \
`Sitemap` announces a sitemap",
                quote(key_text)
            ),
            Some(sentence!("Sitemap: {}", visible(value_text, 300))),
        )
    } else {
        (
            sentence!(
                "{} is not a field crawlers know, so every crawler ignores this line",
                quote(key_text)
            ),
            None,
        )
    };
    let mut d = cx.diag(&UNKNOWN_FIELD, key, Readings::Both, msg);
    if let Some(s) = suggestion {
        d = d.with_suggestion(s);
    }
    out.push(d);
}

fn text_line(cx: &Ctx, i: usize, text: Span, out: &mut Found) {
    let line = cx.line(i);
    let raw = cx.raw(text);
    let s = cx.text(text);
    // The first word, ended by white space or a full-width colon.
    let (word, rest, fullwidth) = match s.find('：') {
        Some(at) if !s[..at].contains(char::is_whitespace) => {
            (&s[..at], s[at + '：'.len_utf8()..].trim(), true)
        }
        _ => {
            let end = s.find(char::is_whitespace).unwrap_or(s.len());
            (&s[..end], s[end..].trim(), false)
        }
    };
    if key_hidden_by_junk(word.as_bytes()) || strip_junk(raw).is_empty() {
        return;
    }
    let standard = google_field(word.as_bytes()).map(|(f, _)| canonical(f));
    let other = non_standard_field(word.as_bytes()).and_then(spelling);
    // `Allow from all`, `Deny from 10.0.0.1`: Apache access control pasted into the file.
    let lower_rest = rest.to_ascii_lowercase();
    if matches!(word.to_ascii_lowercase().as_str(), "allow" | "deny")
        && (lower_rest.starts_with("from ") || lower_rest == "from")
    {
        out.push(
            cx.line_diag(
                &INVALID_LINE,
                i,
                Readings::Both,
                sentence!(
                    "{} is Apache access-control syntax, not a robots.txt rule; every crawler \
skips the line",
                    quote(&cx.line_text(i))
                ),
            )
            .with_suggestion("delete the line: access control belongs in the server configuration"),
        );
        return;
    }
    if let Some(name) = standard.or(other) {
        let msg = if fullwidth {
            sentence!(
                "{} uses the full-width colon `：` (U+FF1A) instead of `:`, so no crawler \
recognises the line",
                quote(&cx.line_text(i))
            )
        } else {
            sentence!(
                "{} has no colon after the field name and more than one word after it, so no \
crawler reads it as `{name}`",
                quote(&cx.line_text(i))
            )
        };
        let suggestion = if fullwidth || !rest.contains(char::is_whitespace) {
            sentence!("{name}: {}", visible(rest, 300))
        } else {
            sentence!("write one `{name}:` line per value")
        };
        let entry = colon_entry(name, standard.is_some());
        out.push(
            cx.line_diag(entry, i, Readings::Both, msg)
                .with_suggestion(suggestion),
        );
        return;
    }
    out.push(cx.line_diag(
        &INVALID_LINE,
        i,
        Readings::Both,
        sentence!(
            "line {} is not a record (no field name and colon), so every crawler skips it: {}",
            line.number(),
            quote(&cx.line_text(i))
        ),
    ));
}

fn nonstandard(cx: &Ctx, i: usize, key: Span, name: &'static str, out: &mut Found) {
    let value = cx
        .line(i)
        .parts()
        .value
        .map(|v| cx.text(v))
        .unwrap_or_default();
    let shown = spelling(name).unwrap_or(name);
    // The group the line sits in (in Google's grouping), for fields that matter only to the
    // crawlers it names: a `Crawl-delay` in a bingbot group is read by bingbot and worth
    // nothing to report, while in a Googlebot group it is ignored, which the author should know.
    let group = cx
        .google
        .groups
        .iter()
        .find(|g| g.others.binary_search(&i).is_ok());
    let names: Vec<&str> = group
        .map(|g| {
            g.user_agents
                .iter()
                .filter_map(|u| match &u.token {
                    crate::groups::ProductToken::Name(n) => Some(n.as_str()),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    let global = group.is_some_and(crate::groups::Group::is_global);
    let google_names: Vec<&str> = names
        .iter()
        .copied()
        // Google crawlers that fetch (Google-Extended is a control token, read by Googlebot
        // for another purpose, and never fetches).
        .filter(|n| {
            crate::crawlers::find(n).is_some_and(|c| c.operator == "Google")
                && !n.eq_ignore_ascii_case("Google-Extended")
        })
        .collect();
    let named_only = group.is_some() && !global && !names.is_empty();
    // The user-agent lines of the group form one block (nothing between them): a Google crawler
    // joined to the group only because a `Crawl-delay` or blank line did not end the group
    // before it is `group-continues`, which explains that case.
    let contiguous =
        group.is_some_and(|g| g.user_agents.windows(2).all(|w| w[1].line == w[0].line + 1));
    match name {
        "crawl-delay" if !google_names.is_empty() && contiguous && !global => {
            let who: Vec<String> = google_names
                .iter()
                .take(3)
                .map(|n| sentence!("`{n}`"))
                .collect();
            out.push(
                cx.diag(
                    &CRAWL_DELAY_FOR_GOOGLE,
                    key,
                    Readings::Both,
                    sentence!(
                        "`{shown}: {}` is in a group for {}, but Google ignores `Crawl-delay`: \
its crawlers set their own rate",
                        visible(&value, 40),
                        and_list(&who)
                    ),
                )
                .with_suggestion(
                    "to slow Googlebot down, answer with 500, 503 or 429 for a while (Google's \
documented way), and keep `Crawl-delay` only in groups for crawlers that read it",
                ),
            );
            return;
        }
        // Read by the crawlers the group names (Bing, Yandex, Ahrefs and most others that
        // support the field), which is what the author meant.
        "crawl-delay" if named_only => return,
        "clean-param" | "host"
            if named_only
                && names
                    .iter()
                    .any(|n| n.to_ascii_lowercase().starts_with("yandex")) =>
        {
            return;
        }
        _ => {}
    }
    let (entry, msg): (&CatalogueEntry, String) = match name {
        "crawl-delay" => (
            &NONSTANDARD_FIELD,
            sentence!(
                "`{shown}: {}` is not part of RFC 9309: Bing and some other crawlers wait that \
many seconds between requests, but Google ignores it",
                visible(&value, 40)
            ),
        ),
        "host" => (
            &NONSTANDARD_FIELD,
            "`Host` was a Yandex extension naming the preferred domain; Yandex no longer reads \
it and other crawlers never did"
                .to_string(),
        ),
        "clean-param" => (
            &NONSTANDARD_FIELD,
            "`Clean-param` is a Yandex extension listing URL parameters to ignore; other \
crawlers skip it"
                .to_string(),
        ),
        "request-rate" | "visit-time" | "robot-version" | "comment" | "cache-delay" => (
            &NONSTANDARD_FIELD,
            sentence!(
                "`{shown}` comes from old proposals to extend robots.txt; almost no crawler \
reads it, and Google and Bing ignore it"
            ),
        ),
        "noindex" => (
            &PAGE_DIRECTIVE,
            "`Noindex` in robots.txt does nothing: Google stopped reading it in September 2019 \
and no other major search engine supports it"
                .to_string(),
        ),
        "nofollow" | "noarchive" => (
            &PAGE_DIRECTIVE,
            sentence!(
                "`{shown}` belongs in a robots meta tag or an X-Robots-Tag header, not in \
robots.txt; crawlers ignore it here"
            ),
        ),
        "content-signal" => (
            &NONSTANDARD_FIELD,
            "`Content-Signal` states how content may be used (search, AI input, AI training); \
it is a stated preference, not a rule, and blocks nothing"
                .to_string(),
        ),
        "content-usage" => (
            &NONSTANDARD_FIELD,
            "`Content-Usage` states usage preferences from a draft of the IETF AI preferences \
work; few crawlers read it and it blocks nothing"
                .to_string(),
        ),
        _ => (
            &NONSTANDARD_FIELD,
            sentence!("`{shown}` is not part of RFC 9309; most crawlers ignore it"),
        ),
    };
    let mut d = cx.diag(entry, key, Readings::Both, msg);
    if name == "noindex" {
        d = d.with_suggestion(
            "remove the line and use a `noindex` robots meta tag or X-Robots-Tag header on the \
pages (without disallowing them)",
        );
    }
    out.push(d);
}

// ---------------------------------------------------------------------------------------------

const UNKNOWN_FIELD: CatalogueEntry = CatalogueEntry {
    name: "unknown-field",
    severity: Severity::Warning,
    summary: "A line names a field that no crawler knows; it is ignored.",
    what: "The line has the shape `name: value`, but `name` is none of the four fields crawlers \
read (`user-agent`, `allow`, `disallow`, `sitemap`), nor a known extension or a recognisable \
misspelling of one. Bare URLs (`https://…`) and paths without a field name also end up here.",
    why: "Crawlers skip lines they do not understand, so whatever the line was meant to do does \
not happen. RFC 9309 also asks that such lines do not break groups, so they are harmless to the \
rest of the file, but they often hide an intention, such as a sitemap URL without `Sitemap:` in \
front.",
    example: "User-agent: *\nDisallow: /tmp/\nhttps://www.example.com/sitemap.xml\n",
    fix: "Put the right field name in front of the value (`Sitemap: https://…`, \
`Disallow: /path`), or turn the line into a comment with `#` if it is a note for people.",
    references: &[RFC_2_2_4, GOOGLE_SYNTAX],
};

const MISSPELLED_FIELD: CatalogueEntry = CatalogueEntry {
    name: "misspelled-field",
    severity: Severity::Error,
    summary: "A field name is misspelt so that no crawler reads the line.",
    what: "The field name is close to a known one but not a spelling any parser accepts: \
`Disallop`, `Dissallw`, `Usr-agent`. (Misspellings Google's parser does accept, such as \
`Dissallow` or `Useragent`, are `google-only-spelling`.)",
    why: "Every crawler skips the line, so the rule, user-agent line or sitemap it was meant to \
be is lost; a lost user-agent line also moves the rules under it into another group.",
    example: "User-agent: *\nDisallop: /private/\n",
    fix: "Spell the field exactly: `User-agent`, `Allow`, `Disallow`, `Sitemap` (case does not \
matter).",
    references: &[RFC_2_2, RFC_2_2_4],
};

const GOOGLE_ONLY_SPELLING: CatalogueEntry = CatalogueEntry {
    name: "google-only-spelling",
    severity: Severity::Warning,
    summary: "A field name is misspelt in a way Google's parser accepts but RFC 9309 parsers do \
not.",
    what: "Google's parser accepts a few common misspellings (`Dissallow`, `Disalow`, \
`Useragent`, `User agent`) and any name that *starts with* a known one (`Disallowed`, \
`Sitemaps`); RFC 9309 parsers accept only the exact names (in any case).",
    why: "The line works for Googlebot and silently fails for crawlers that follow RFC 9309 \
strictly, so different crawlers obey different rules. A misspelt `User-agent` line can even \
change which group the following rules belong to in those crawlers.",
    example: "User-agent: *\nDissallow: /private/\nUser agent: bingbot\n",
    fix: "Spell the field exactly: `User-agent`, `Allow`, `Disallow`, `Sitemap` (case does not \
matter).",
    references: &[
        RFC_2_2,
        RFC_2_2_4,
        ("google/robotstxt", "https://github.com/google/robotstxt"),
    ],
};

const CRAWL_DELAY_FOR_GOOGLE: CatalogueEntry = CatalogueEntry {
    name: "crawl-delay-for-google",
    severity: Severity::Warning,
    summary: "A `Crawl-delay` line in a group for a Google crawler, which Google ignores.",
    what: "The group names Googlebot or another Google crawler and holds a `Crawl-delay` line. \
Google's crawlers do not read `Crawl-delay`; they adjust their rate to how the server responds.",
    why: "The author evidently wants Google to crawl more slowly, and the line does nothing of \
the kind. (In a group for bingbot, Yandex or other crawlers that read the field, or in the `*` \
group, the line is reported only as `nonstandard-field`, if at all.)",
    example: "User-agent: Googlebot\nCrawl-delay: 10\nDisallow: /search\n",
    fix: "Remove the line from the Google group. To slow Google down for a while, answer with 500, 503 \
or 429 status codes; Google documents that it then crawls less.",
    references: &[
        RFC_2_2_4,
        (
            "Google: reduce the Googlebot crawl rate",
            "https://developers.google.com/search/docs/crawling-indexing/reduce-crawl-rate",
        ),
    ],
};

const NONSTANDARD_FIELD: CatalogueEntry = CatalogueEntry {
    name: "nonstandard-field",
    severity: Severity::Info,
    summary: "A field outside RFC 9309 (Crawl-delay, Host, Content-Signal …); only some crawlers \
read it.",
    what: "The line uses a field that some crawlers understand but that is not part of RFC 9309: \
`Crawl-delay` (seconds between requests; read by Bing and others, ignored by Google), `Host` and \
`Clean-param` (Yandex extensions), `Request-rate` and `Visit-time` (old proposals hardly anyone \
implemented), and `Content-Signal` or `Content-Usage` (statements of how content may be used, for \
example by AI systems). Page directives such as `Noindex` are reported as `page-directive`.",
    why: "These lines are not rules: they block nothing, and crawlers that do not know them skip \
them. Relying on one (a `Crawl-delay` to slow down Googlebot, for example) gives a false sense of \
control.",
    example: "User-agent: *\nCrawl-delay: 10\n",
    fix: "Keep the line only for the crawlers that read it. To slow Googlebot down, use Search \
Console or answer with 503 or 429 for a while.",
    references: &[
        RFC_2_2_4,
        (
            "Google: supported fields",
            "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt#syntax",
        ),
    ],
};

const MISSPELLED_NONSTANDARD_FIELD: CatalogueEntry = CatalogueEntry {
    name: "misspelled-nonstandard-field",
    severity: Severity::Warning,
    summary: "A field name looks like a misspelt non-standard field such as `Crawl-delay`; \
nobody reads it.",
    what: "The field name is close to one of the fields outside RFC 9309 that some crawlers read \
(`Crawl-delay`, `Host`, `Clean-param` …) but is not the same: `Crawl_delay`, `Crawldelay`, \
`Crawl-dealy`. Unlike the four standard fields, no parser forgives misspellings of these.",
    why: "The crawlers that would honour the field skip the line, so the request it makes (to wait \
between requests, for example) is lost. It blocks nothing either way.",
    example: "User-agent: bingbot\nCrawl_delay: 10\n",
    fix: "Spell the field as its crawler documents it (`Crawl-delay: 10`), or delete the line.",
    references: &[RFC_2_2_4, GOOGLE_SYNTAX],
};

const PAGE_DIRECTIVE: CatalogueEntry = CatalogueEntry {
    name: "page-directive",
    severity: Severity::Warning,
    summary: "A `Noindex`, `Nofollow` or `Noarchive` line in robots.txt does nothing.",
    what: "`Noindex`, `Nofollow` and `Noarchive` are directives for pages, given in a robots meta \
tag or an `X-Robots-Tag` header. As robots.txt fields they are not part of RFC 9309, and Google \
stopped reading its unofficial `Noindex` field in September 2019.",
    why: "The line looks like it keeps pages out of search results, but no major search engine \
reads it, so the pages are indexed as usual. Worse, blocking the same pages with `Disallow` \
would stop crawlers from ever seeing a `noindex` meta tag on them.",
    example: "User-agent: *\nNoindex: /drafts/\n",
    fix: "Remove the line. To keep pages out of search results, let them be crawled and serve a \
`noindex` robots meta tag or an `X-Robots-Tag: noindex` header.",
    references: &[
        RFC_2_2_4,
        (
            "Google: supported fields",
            "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt#syntax",
        ),
    ],
};

const MISSING_COLON: CatalogueEntry = CatalogueEntry {
    name: "missing-colon",
    severity: Severity::Warning,
    summary: "A field name is not followed by a colon.",
    what: "The line starts with a field name but has no `:` after it (`Disallow /tmp/`), or uses a \
look-alike such as the full-width colon `：`. Google's parser accepts a missing colon when the \
line has exactly two words; RFC 9309 requires the colon, and nobody accepts a look-alike.",
    why: "The line works for Googlebot but not for crawlers that follow RFC 9309, or for nobody at \
all when the line has more words or a look-alike colon, so the rule or sitemap is lost where it \
was meant to apply.",
    example: "User-agent: *\nDisallow /tmp/\nSitemap：https://www.example.com/sitemap.xml\n",
    fix: "Write a plain ASCII colon right after the field name: `Disallow: /tmp/`. Put one value \
on each line.",
    references: &[RFC_2_2, GOOGLE_SYNTAX],
};

/// The entry for a field written without its colon: a lost group line or rule is an error; a
/// lost `Sitemap` line loses only the sitemap; a non-standard field blocks nothing either way.
fn colon_entry(name: &str, standard: bool) -> &'static CatalogueEntry {
    if !standard {
        &MISSING_COLON_NONSTANDARD
    } else if name.eq_ignore_ascii_case("sitemap") {
        &SITEMAP_LINE_NOT_READ
    } else {
        &MISSING_COLON
    }
}

/// A `Sitemap` line no crawler reads (no colon, a look-alike colon, or a re-encoded byte order
/// mark before it). Shared with the file checks.
pub(super) const SITEMAP_LINE_NOT_READ: CatalogueEntry = CatalogueEntry {
    name: "sitemap-line-not-read",
    severity: Severity::Warning,
    summary: "A `Sitemap` line is not read by every crawler, so its sitemap may not be found \
from this file.",
    what: "The line names a sitemap, but something before or after the field name keeps parsers \
from reading it: no colon, a look-alike such as the full-width colon `：`, or a re-encoded byte \
order mark (`ï»¿`) at the start of the file, right before `Sitemap`.",
    why: "Sitemap lines decide nothing about crawling, so no URL is blocked or freed; but crawlers \
that skip the line do not learn of the sitemap from robots.txt, and the site's pages may be \
discovered more slowly.",
    example: "User-agent: *\nDisallow:\n\nSitemap：https://www.example.com/sitemap.xml\n",
    fix: "Write the line as `Sitemap: https://…` with a plain ASCII colon, at the start of a line \
of its own, and save the file as UTF-8 without a byte order mark.",
    references: &[RFC_2_2, GOOGLE_SYNTAX],
};

const MISSING_COLON_NONSTANDARD: CatalogueEntry = CatalogueEntry {
    name: "missing-colon-nonstandard",
    severity: Severity::Warning,
    summary: "A non-standard field name such as `Crawl-delay` is not followed by a colon.",
    what: "The line starts with the name of a field outside RFC 9309 (`Crawl-delay`, `Host`, \
`Clean-param` …) but has no `:` after it, or uses a look-alike such as the full-width colon `：`.",
    why: "No parser reads a non-standard field without its colon, so the crawlers that would \
honour it skip the line. It blocks nothing either way.",
    example: "User-agent: bingbot\nCrawl-delay 10\n",
    fix: "Write a plain ASCII colon right after the field name: `Crawl-delay: 10`.",
    references: &[RFC_2_2, GOOGLE_SYNTAX],
};

const INVALID_LINE: CatalogueEntry = CatalogueEntry {
    name: "invalid-line",
    severity: Severity::Warning,
    summary: "A line is neither a record, a comment nor blank; every crawler skips it.",
    what: "The line has no `field: value` shape: it is free text, a fragment of HTML or a server \
configuration, or a value without a field name. Comments must start with `#`.",
    why: "Crawlers skip it, so it does nothing. Free text usually means a note that was meant to \
be a comment, or that something other than robots.txt content was pasted in, which is worth \
checking.",
    example: "User-agent: *\nDisallow: /admin/\nPlease do not crawl our search pages\n",
    fix: "Start notes with `#`, and remove content that does not belong in robots.txt.",
    references: &[RFC_2_2, GOOGLE_SYNTAX],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_for_near_misses() {
        assert_eq!(did_you_mean(b"Clawl-delay"), Some(("Crawl-delay", false)));
        assert_eq!(did_you_mean(b"user-agnet"), Some(("User-agent", true)));
        assert_eq!(did_you_mean(b"crawl_delay"), Some(("Crawl-delay", false)));
        assert_eq!(did_you_mean(b"Alow"), Some(("Allow", true)));
        assert_eq!(did_you_mean(b"Post"), None);
        assert_eq!(did_you_mean(b"Referer"), None);
        assert_eq!(did_you_mean(b"https"), None);
    }
}
