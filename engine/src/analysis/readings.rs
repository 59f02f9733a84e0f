//! Where the Google and the RFC 9309 readings understand a line differently, and how.
//!
//! Line by line, the check compares the record each reading makes of the line (field, value),
//! the product token of user-agent lines, how each reading normalises a rule's pattern, the
//! rules Google derives for `/index.html` allows, and which crawlers a rule ends up applying to.

use super::context::{Ctx, trim_span};
use super::found::Found;
use super::text::{and_list, quote, thousands, visible};
use super::{CatalogueEntry, Readings, Severity};
use crate::Reading;
use crate::decode::GOOGLE_MAX_LINE_BYTES;
use crate::fields::{Field, Record, Spelling};
use crate::groups::{Policy, ProductToken};
use crate::syntax::{SeparatorKind, Span};
use crate::text::sentence;

/// The readings entries.
pub(super) const ENTRIES: &[CatalogueEntry] = &[READINGS_DIFFER];

const READINGS_DIFFER: CatalogueEntry = CatalogueEntry {
    name: "readings-differ",
    severity: Severity::Info,
    summary: "Google's parser and RFC 9309 understand this line differently.",
    what: "Google's open-source parser, which Googlebot uses, is more lenient than RFC 9309 in a \
few places: it accepts some misspelt field names and a missing colon, reads only the leading \
letters of a user-agent value, cuts very long lines and lines with a NUL byte, does not decode \
percent-escapes such as `%7E`, keeps characters such as spaces unescaped, and for an allow rule \
ending in `/index.html` also allows the directory itself. This line is affected by one of these \
differences.",
    why: "Googlebot and crawlers that follow RFC 9309 to the letter then obey different rules for \
the same file. The difference is often invisible when testing with Google's tools only.",
    example: "User-agent: Googlebot/2.1\nDissallow: /private/\nDisallow: /%7Euser/\n",
    fix: "Write the line so that both readings agree: exact field names with a colon, bare product \
tokens, and paths as browsers send them (`/~user/` rather than `/%7Euser/`). The message says \
which difference applies.",
    references: &[
        (
            "RFC 9309 §2.2",
            "https://www.rfc-editor.org/rfc/rfc9309.html#section-2.2",
        ),
        (
            "Google: robots.txt specification",
            "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt",
        ),
        ("google/robotstxt", "https://github.com/google/robotstxt"),
    ],
};

/// Compares the readings line by line.
pub(super) fn check(cx: &Ctx, out: &mut Found) {
    // A UTF-16 file: the Google reading is empty as a whole, which the `utf16` diagnostic says
    // once instead of once per line.
    if cx.body.is_foreign() || cx.robots.source.is_utf16() {
        return;
    }
    // The lines of the allow rules Google derives an extra rule from, found once rather than
    // by a search of every group for every allow line: in line order, as groups and their
    // rules are.
    let derived: Vec<usize> = cx
        .google
        .groups
        .iter()
        .flat_map(|gr| gr.rules.iter())
        .filter(|ru| ru.derived)
        .map(|ru| ru.line)
        .collect();
    // Each policy holds the record of every line that makes one, in line order.
    let mut google = cx.google.records.iter().peekable();
    let mut rfc = cx.rfc.records.iter().peekable();
    for i in 0..cx.tree.lines.len() {
        let g = google.next_if(|x| x.line == i);
        let r = rfc.next_if(|x| x.line == i);
        if let Some(msg) = differ(cx, &derived, i, g, r) {
            out.push(cx.diag(&READINGS_DIFFER, span_of(cx, i), Readings::Both, msg));
        }
    }
    membership(cx, out);
}

fn span_of(cx: &Ctx, i: usize) -> Span {
    let l = cx.line(i);
    let end = l.parts().comment.map_or(l.content().end, |c| c.start);
    let (a, b) = trim_span(cx.bytes, Span::new(l.content().start, end));
    Span::new(a, b)
}

fn describe(f: Option<Field>) -> String {
    match f {
        Some(Field::UserAgent) => "a user-agent line".into(),
        Some(Field::Allow) => "an allow rule".into(),
        Some(Field::Disallow) => "a disallow rule".into(),
        Some(Field::Sitemap) => "a sitemap line".into(),
        Some(Field::NonStandard(n)) => sentence!("a `{n}` record"),
        Some(Field::Unknown) | None => "nothing they know".into(),
    }
}

fn is_standard(f: Option<Field>) -> bool {
    matches!(
        f,
        Some(Field::UserAgent | Field::Allow | Field::Disallow | Field::Sitemap)
    )
}

fn differ(
    cx: &Ctx,
    derived: &[usize],
    i: usize,
    g: Option<&Record>,
    r: Option<&Record>,
) -> Option<String> {
    let gf = g.map(|x| x.field);
    let rf = r.map(|x| x.field);
    if gf != rf {
        if !is_standard(gf) && !is_standard(rf) {
            return None;
        }
        let g = g?;
        let why = if g.separator == SeparatorKind::Whitespace {
            "it accepts a missing colon".to_string()
        } else {
            match g.spelling {
                Spelling::Variant => {
                    sentence!("it accepts the spelling {}", quote(&cx.text(g.key)))
                }
                Spelling::Prefix => sentence!(
                    "it accepts {} because it starts with `{}`",
                    quote(&cx.text(g.key)),
                    g.field.name()
                ),
                Spelling::Exact => "its line ends earlier".to_string(),
            }
        };
        return Some(sentence!(
            "Google reads this line as {} ({why}); RFC 9309 parsers see {} and ignore it",
            describe(gf),
            describe(rf)
        ));
    }
    let (g, r) = (g?, r?);
    if g.value != r.value {
        let line = cx.line(i);
        let nul = memchr::memchr(0, cx.raw(line.content())).is_some();
        let cause = if nul {
            "at its NUL byte".to_string()
        } else {
            sentence!("after {} bytes", thousands(GOOGLE_MAX_LINE_BYTES - 1))
        };
        return Some(sentence!(
            "Google cuts this line {cause}, so it reads the value {} where RFC 9309 parsers read \
{}",
            quote(&cx.text(g.value)),
            quote(&cx.text(r.value))
        ));
    }
    match g.field {
        // A user-agent value the readings read differently is not a product token, which the
        // product-token findings explain once per value; repeating it per line is noise.
        Field::UserAgent => None,
        Field::Allow | Field::Disallow => pattern_differs(cx, derived, g),
        _ => None,
    }
}

/// Per byte: whether both readings match it as it is in a pattern (no `%`, no space, no
/// control but tab, none of the characters RFC 9309 parsers percent-encode), so that a pattern
/// of only such bytes reads alike; one lookup a byte.
const PLAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c != b'%'
            && c != b' '
            && (!c.is_ascii_control() || c == b'\t')
            && !matches!(
                c,
                b'"' | b'<' | b'>' | b'\\' | b'^' | b'`' | b'{' | b'|' | b'}'
            );
        b += 1;
    }
    t
};

/// How the normalisation of a rule's pattern differs between the readings, if it does in a way
/// that changes which URLs match.
fn pattern_differs(cx: &Ctx, derived: &[usize], g: &Record) -> Option<String> {
    let raw = cx.raw(g.value);
    // Most patterns hold no escape and no character either reading encodes: one pass over
    // them, and nothing to say unless Google derives a rule from the line.
    // Without an early exit: most patterns are plain to their end, and a loop without a
    // branch a byte runs faster over them.
    if raw
        .iter()
        .fold(true, |plain, &b| plain & PLAIN[usize::from(b)])
        && !(g.field == Field::Allow && derived.binary_search(&g.line).is_ok())
    {
        return None;
    }
    let mut notes: Vec<String> = Vec::new();
    let hex = |b: u8| b.is_ascii_hexdigit();
    let mut unreserved = Vec::new();
    let mut lower = Vec::new();
    let mut k = 0;
    while k < raw.len() {
        if raw[k] == b'%' && k + 2 < raw.len() && hex(raw[k + 1]) && hex(raw[k + 2]) {
            let v = u8::from_str_radix(std::str::from_utf8(&raw[k + 1..k + 3]).unwrap_or("00"), 16)
                .unwrap_or(0);
            let esc = crate::text::lossy(&raw[k..k + 3]).into_owned();
            if v.is_ascii_alphanumeric() || matches!(v, b'-' | b'.' | b'_' | b'~') {
                unreserved.push((esc, v as char));
            } else if raw[k + 1].is_ascii_lowercase() || raw[k + 2].is_ascii_lowercase() {
                lower.push(esc);
            }
            k += 3;
            continue;
        }
        k += 1;
    }
    if let Some((esc, c)) = unreserved.first() {
        notes.push(sentence!(
            "RFC 9309 parsers decode `{esc}` to `{c}` before matching, Google's parser does not, \
so for Google the rule only matches URLs that contain `{esc}` itself"
        ));
    }
    if let Some(esc) = lower.first() {
        notes.push(sentence!(
            "Google upper-cases `{esc}` in the pattern but not in URLs, while RFC 9309 parsers \
normalise both"
        ));
    }
    let literal = raw.iter().map(|&b| b as char).find(|&c| {
        c == ' '
            || (c.is_ascii_control() && c != '\t')
            || matches!(c, '"' | '<' | '>' | '\\' | '^' | '`' | '{' | '|' | '}')
    });
    if let Some(c) = literal {
        let shown = if c == ' ' {
            "a space".to_string()
        } else if c.is_ascii_control() {
            sentence!("U+{:04X}", c as u32)
        } else {
            sentence!("`{c}`")
        };
        notes.push(sentence!(
            "RFC 9309 parsers percent-encode {shown} (as `%{:02X}`) on both sides before \
matching, Google's parser compares it as it is",
            c as u32
        ));
    }
    // Google's extra rule for `/index.htm…` allows.
    if g.field == Field::Allow && derived.binary_search(&g.line).is_ok() {
        let pattern =
            crate::pattern::normalize(raw, Reading::Google, crate::pattern::Side::Pattern);
        let dir = pattern
            .iter()
            .rposition(|&b| b == b'/')
            .map(|s| crate::text::lossy(&pattern[..=s]).into_owned())
            .unwrap_or_else(|| "/".into());
        notes.push(sentence!(
            "Google also allows the directory `{}` itself for an allow rule ending in \
`/index.htm…`; RFC 9309 parsers do not",
            visible(&dir, 60)
        ));
    }
    if notes.is_empty() {
        None
    } else {
        Some(notes.join("; "))
    }
}

/// Rules that belong to groups with different user-agent lines in the two readings, because
/// an earlier line (a user-agent line, typically) is a record in one reading only. Differences
/// in how a user-agent line's value is read are reported on that line instead.
fn membership<'a>(cx: &Ctx<'a>, out: &mut Found) {
    if cx.same_policies {
        return;
    }
    /// Per group: its user-agent lines and the tokens they name; per rule line, in line
    /// order: its group (`None` before the first group).
    struct Who<'p> {
        groups: Vec<(Vec<usize>, Vec<&'p str>)>,
        of_rule: Vec<(usize, Option<usize>)>,
    }
    let who = |p: &'a Policy| -> Who<'a> {
        let mut groups = Vec::with_capacity(p.groups.len());
        // Rules outside groups come before the first group, and each group's rules after
        // those of the group before it: the lines come in order, a derived rule's twice.
        let mut of_rule: Vec<(usize, Option<usize>)> = Vec::with_capacity(
            p.rules_outside_groups.len() + p.groups.iter().map(|g| g.rules.len()).sum::<usize>(),
        );
        of_rule.extend(p.rules_outside_groups.iter().map(|&l| (l, None)));
        for (gi, g) in p.groups.iter().enumerate() {
            let lines: Vec<usize> = g.user_agents.iter().map(|u| u.line).collect();
            let mut tokens: Vec<&str> = g
                .user_agents
                .iter()
                .filter_map(|u| match &u.token {
                    ProductToken::Any => Some("*"),
                    ProductToken::Name(n) => Some(n.as_str()),
                    ProductToken::Invalid => None,
                })
                .collect();
            tokens.dedup();
            groups.push((lines, tokens));
            for r in &g.rules {
                if of_rule.last() != Some(&(r.line, Some(gi))) {
                    of_rule.push((r.line, Some(gi)));
                }
            }
        }
        debug_assert!(of_rule.is_sorted_by(|a, b| a.0 < b.0));
        Who { groups, of_rule }
    };
    let gw = who(cx.google);
    let rw = who(cx.rfc);
    let none: (Vec<usize>, Vec<&str>) = (Vec::new(), Vec::new());
    // The rule lines of both readings, in order, with their group in each.
    let mut both = Vec::new();
    let mut r = rw.of_rule.iter().peekable();
    for &(l, ga) in &gw.of_rule {
        while r.next_if(|x| x.0 < l).is_some() {}
        if let Some(&(_, rb)) = r.next_if(|x| x.0 == l) {
            both.push((l, ga, rb));
        }
    }
    let mut prev: Option<(Option<usize>, Option<usize>)> = None;
    for (l, ga, rb) in both {
        let a = ga.map_or(&none, |g| &gw.groups[g]);
        let b = rb.map_or(&none, |g| &rw.groups[g]);
        if a.0 != b.0 && prev != Some((ga, rb)) {
            let show = |v: &Vec<&str>| {
                if v.is_empty() {
                    "no crawler".to_string()
                } else {
                    and_list(
                        &v.iter()
                            .take(6)
                            .map(|t| sentence!("`{}`", visible(t, 40)))
                            .collect::<Vec<_>>(),
                    )
                }
            };
            out.push(cx.diag(
                &READINGS_DIFFER,
                span_of(cx, l),
                Readings::Both,
                sentence!(
                    "from this rule on, Google applies the rules to {} but RFC 9309 parsers to \
{}, because an earlier line is read differently",
                    show(&a.1),
                    show(&b.1)
                ),
            ));
        }
        prev = Some((ga, rb));
    }
}
