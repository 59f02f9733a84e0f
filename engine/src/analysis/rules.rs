//! Rule checks: patterns that cannot match or do not mean what they seem to, empty disallows,
//! duplicate, redundant and conflicting rules, and rules that block everything or block the CSS
//! and JavaScript Googlebot needs.
//!
//! Relations between rules are computed within combined sets (see [`super::sets`]), in each
//! reading, and kept as [`Facts`] for the explanations.

use super::context::Ctx;
use super::file::undo_double_encoding;
use super::found::Found;
use super::sets::{
    Caseless, CombinedSet, Prefixes, RuleId, SET_ENTRY_BUDGET, SetIndex, WORK_BUDGET, Work,
    combined_sets, literal_prefix, matches_everything, sets_within_budget,
};
use super::text::{and_list, is_invisible, lines_list, names_and_more, quote, thousands, visible};
use super::{CatalogueEntry, Severity};
use crate::Reading;
use crate::groups::{Group, Policy, Rule, RuleKind};
use crate::pattern::{ByteSets, Side, any_high_or, matches, normalize};
use crate::text::sentence;
use rustc_hash::FxHashMap as HashMap;

const RFC_2_2_2: (&str, &str) = (
    "RFC 9309 §2.2.2",
    "https://www.rfc-editor.org/rfc/rfc9309.html#section-2.2.2",
);
const RFC_2_2_3: (&str, &str) = (
    "RFC 9309 §2.2.3",
    "https://www.rfc-editor.org/rfc/rfc9309.html#section-2.2.3",
);
const RFC_5_2: (&str, &str) = (
    "RFC 9309 §5.2",
    "https://www.rfc-editor.org/rfc/rfc9309.html#section-5.2",
);
const GOOGLE_PATHS: (&str, &str) = (
    "Google: URL matching based on path values",
    "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt#url-matching-based-on-path-values",
);
const GOOGLE_PRECEDENCE: (&str, &str) = (
    "Google: order of precedence for rules",
    "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt#order-of-precedence-for-rules",
);
const GOOGLE_SYNTAX: (&str, &str) = (
    "Google: syntax",
    "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt#syntax",
);

/// The rule-level entries, in catalogue order.
pub(super) const ENTRIES: &[CatalogueEntry] = &[
    PATTERN_NOT_ROOTED,
    FULL_URL_PATTERN,
    FULL_URL_OTHER_HOST,
    MID_PATTERN_DOLLAR,
    REGEX_ESCAPE,
    COMMENT_IN_PATTERN,
    COMMENT_BLOCKS_EVERYTHING,
    INVALID_PERCENT_ENCODING,
    NON_ASCII_PATTERN,
    EMPTY_DISALLOW,
    EMPTY_DISALLOW_ONLY,
    DUPLICATE_RULE,
    REDUNDANT_RULE,
    CONFLICTING_RULES,
    BLOCKS_EVERYTHING,
    BLOCKS_ASSETS,
    ANALYSIS_CAPPED,
];

/// A relation of one rule to others in the rules a crawler sees together.
#[derive(Clone, Debug)]
pub(crate) enum Relation<'p> {
    /// Same kind and pattern as the rule on this 1-based line.
    Duplicate(usize),
    /// A disallow with the same pattern as the allow on this 1-based line (the allow wins);
    /// with the crawlers concerned when the two meet only for some of the crawlers the disallow
    /// applies to (groups combined for those crawlers only), `None` when for all of them.
    Conflict(usize, Option<String>),
    /// Can never change a decision, for this reason (put in words by [`Redundancy::words`]
    /// only when a finding or an explanation says it).
    Redundant(Redundancy<'p>),
}

/// What the rule checks found out in one reading, for the explanations.
pub(crate) struct ReadingFacts<'a> {
    /// The policy of the reading.
    policy: &'a Policy,
    /// The groups of each combined set; `None` for the sets left out by [`SET_ENTRY_BUDGET`]
    /// (and those made only by Google's cut of names).
    analysed: Vec<Option<Vec<usize>>>,
    /// An index over each analysed set's rules, built on first use ([`ReadingFacts::index`]).
    indexes: Vec<std::cell::OnceCell<SetIndex<'a>>>,
    /// For each group, the analysed sets that contain it.
    pub sets_of_group: Vec<Vec<usize>>,
    /// For each group, whether every set that contains it was analysed.
    pub group_complete: Vec<bool>,
    /// Relations of rules to other rules.
    pub relations: HashMap<RuleId, Relations<'a>>,
    /// The budget of the explanations' lookups.
    pub explain_work: Work,
}

/// What the rule checks found out, per reading.
pub(crate) struct Facts<'a> {
    pub google: ReadingFacts<'a>,
    /// `None` when both readings give the same policy (then Google's facts hold for both).
    pub rfc: Option<ReadingFacts<'a>>,
}

impl<'a> ReadingFacts<'a> {
    /// The number of combined sets.
    #[cfg(test)]
    pub(crate) fn sets(&self) -> usize {
        self.analysed.len()
    }

    /// An index over the rules of combined set `si`; `None` for a set that was not analysed.
    pub(crate) fn index(&self, si: usize) -> Option<&SetIndex<'a>> {
        let groups = self.analysed.get(si)?.as_ref()?;
        Some(self.indexes[si].get_or_init(|| SetIndex::new(self.policy, groups)))
    }
}

impl<'a> Facts<'a> {
    pub(crate) fn get(&self, reading: Reading) -> &ReadingFacts<'a> {
        match reading {
            Reading::Google => &self.google,
            Reading::Rfc9309 => self.rfc.as_ref().unwrap_or(&self.google),
        }
    }
}

/// Runs the rule checks in both readings (once when they agree) and returns what they found
/// out.
pub(super) fn check<'a>(cx: &Ctx<'a>, out: &mut Found) -> Facts<'a> {
    if cx.same_policies {
        let google = check_reading(cx, Reading::Google, &mut Verdicts::default(), None, out);
        return Facts { google, rfc: None };
    }
    let mut verdicts = Verdicts::default();
    let google = check_reading(cx, Reading::Google, &mut verdicts, None, out);
    let rfc = check_reading(
        cx,
        Reading::Rfc9309,
        &mut Verdicts::default(),
        Some(&verdicts),
        out,
    );
    Facts {
        google,
        rfc: Some(rfc),
    }
}

/// What the redundancy checks of the Google reading found, per combined set (by its groups),
/// for the RFC 9309 reading to take over for a set with the same groups that both readings
/// give the same rules (most sets of most files whose readings differ somewhere).
#[derive(Default)]
struct Verdicts<'p> {
    by_groups: HashMap<Vec<usize>, SetVerdicts<'p>>,
    /// For each group, whether every set that contains it was analysed.
    group_complete: Vec<bool>,
}

/// The redundancy verdicts of one combined set.
struct SetVerdicts<'p> {
    /// Each rule looked at, in order, with its verdict.
    verdicts: Vec<(RuleId, Option<Redundancy<'p>>)>,
    /// The work its lookups charged.
    charged: usize,
    /// Whether every lookup had the work it asked for.
    complete: bool,
}

fn check_reading<'a>(
    cx: &Ctx<'a>,
    reading: Reading,
    record: &mut Verdicts<'a>,
    taken: Option<&Verdicts<'a>>,
    out: &mut Found,
) -> ReadingFacts<'a> {
    let p = cx.policy(reading);
    for (gi, g) in p.groups.iter().enumerate() {
        for r in g.rules.iter().filter(|r| !r.derived) {
            value_checks(cx, reading, g, r, out);
            if r.kind == RuleKind::Disallow && r.value.is_empty() {
                empty_disallow(cx, reading, p, gi, r, out);
            }
        }
    }
    let sets = combined_sets(p);
    let chosen = sets_within_budget(p, &sets, SET_ENTRY_BUDGET);
    // Sets made only by Google's cut of different names to one token no crawler uses are not
    // looked at: `merged-groups` says once that the names collapse.
    // Only a token Google cut from a longer value can collapse names; finding those first keeps
    // this linear when thousands of sets share a group with thousands of user-agent lines.
    let cut_tokens: rustc_hash::FxHashSet<Caseless> = p
        .groups
        .iter()
        .flat_map(|g| g.user_agents.iter())
        .filter_map(|u| match &u.token {
            crate::groups::ProductToken::Name(n) if u.value.len() != n.len() => {
                Some(Caseless(n.as_str()))
            }
            _ => None,
        })
        .collect();
    let collapsed: Vec<bool> = sets
        .iter()
        .map(|s| {
            !cut_tokens.is_empty()
                && s.tokens.iter().any(|t| cut_tokens.contains(&Caseless(t)))
                && super::sets::name_collapse(cx.bytes, p, s)
        })
        .collect();
    let analysed: Vec<bool> = chosen
        .iter()
        .zip(&collapsed)
        .map(|(&c, &x)| c && !x)
        .collect();
    let mut sets_of_group = vec![Vec::new(); p.groups.len()];
    let mut group_complete = vec![true; p.groups.len()];
    for (si, s) in sets.iter().enumerate() {
        if collapsed[si] {
            continue;
        }
        for &g in &s.groups {
            if chosen[si] {
                sets_of_group[g].push(si);
            } else {
                group_complete[g] = false;
            }
        }
    }
    let work = Work::new(WORK_BUDGET);
    let relations = relations(
        cx,
        p,
        &sets,
        &analysed,
        &sets_of_group,
        &group_complete,
        &work,
        (record, taken),
    );
    report_relations(cx, reading, p, &relations, out);
    analysis_capped(cx, reading, p, &sets, &chosen, &work, out);
    blocks_everything(cx, reading, p, &sets, out);
    blocks_assets(cx, reading, p, out);
    ReadingFacts {
        policy: p,
        indexes: sets.iter().map(|_| std::cell::OnceCell::new()).collect(),
        analysed: sets
            .into_iter()
            .zip(analysed)
            .map(|(s, a)| a.then_some(s.groups))
            .collect(),
        sets_of_group,
        group_complete,
        relations,
        explain_work: Work::new(WORK_BUDGET),
    }
}

/// The rule as written: `Disallow: /x`.
pub(crate) fn rule_text(cx: &Ctx, rule: &Rule) -> String {
    let key = cx
        .tree
        .lines
        .get(rule.line)
        .and_then(|l| l.parts().key)
        .map_or(std::borrow::Cow::Borrowed(rule.kind.as_str()), |k| {
            cx.text(k)
        });
    let value = cx.text(rule.value);
    // Pieces pushed into one allocation: this runs for every rule some finding names.
    let mut text = String::with_capacity(key.len() + value.len() + 2);
    text.push_str(&key);
    text.push(':');
    if !value.is_empty() {
        text.push(' ');
        text.push_str(&value);
    }
    text
}

// ---------------------------------------------------------------------------------------------
// Checks on one rule's value.

const PATTERN_NOT_ROOTED: CatalogueEntry = CatalogueEntry {
    name: "pattern-not-rooted",
    severity: Severity::Error,
    summary: "A pattern does not start with `/` or `*`, so it never matches.",
    what: "A rule's path must start with `/` (the root of the site) or `*`. This one starts with \
something else, such as `private/` or `.pdf`.",
    why: "Matching always starts at the first character of the URL's path, and every path starts \
with `/`. A pattern that starts with another character can never match, so the rule does \
nothing.",
    example: "User-agent: *\nDisallow: private/\nDisallow: .pdf$\n",
    fix: "Start the pattern with `/` (`Disallow: /private/`), or with `*` to match anywhere in the \
path (`Disallow: /*.pdf$`).",
    references: &[RFC_2_2_2, GOOGLE_SYNTAX],
};

const FULL_URL_OTHER_HOST: CatalogueEntry = CatalogueEntry {
    name: "full-url-other-host",
    severity: Severity::Warning,
    summary: "A rule's value is a full URL of another host than the file's sitemaps name; it \
matches nothing.",
    what: "The value is a full URL (`https://t.me/share/`, `https://cdn.example.net/…`), and its \
host is none of the hosts the file's `Sitemap` lines name, or is an IP address, so it most \
likely speaks of another site or subdomain. (A full URL in an `Allow` line that no `Disallow` \
of its group could be overriding changes nothing either way and is not reported.)",
    why: "Rules match paths of the host that served the file, so this line matches nothing: no \
decision about this site changes, and the other host is not affected either, since each host \
(and each subdomain) has its own robots.txt. Turning it into a path would block a path of this \
site that the author never meant.",
    example: "User-agent: *\nDisallow: https://t.me/share/\n\nSitemap: https://www.example.com/sitemap.xml\n",
    fix: "Delete the line; to restrict crawling of the other host, put the rule in that host's own \
robots.txt.",
    references: &[
        RFC_2_2_2,
        (
            "Google: file location and range of validity",
            "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt#file-location-and-range-of-validity",
        ),
    ],
};

const FULL_URL_PATTERN: CatalogueEntry = CatalogueEntry {
    name: "full-url-pattern",
    severity: Severity::Error,
    summary: "A rule's value is a full URL; rules take paths only.",
    what: "The value starts with `http://` or `https://`: a full URL instead of a path, and \
nothing in the file says it names another host (a URL whose host differs from every `Sitemap` \
line's host is `full-url-other-host`).",
    why: "Rules are matched against the path of URLs on the host that served the file, and a path \
never starts with a scheme or host name, so the rule matches nothing. Rules cannot apply to other \
hosts either: each host (and each subdomain, scheme and port) has its own robots.txt.",
    example: "User-agent: *\nDisallow: https://www.example.com/private/\n",
    fix: "Keep only the path: `Disallow: /private/`. For another host, put the rule in that host's \
own robots.txt.",
    references: &[
        RFC_2_2_2,
        (
            "Google: file location and range of validity",
            "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt#file-location-and-range-of-validity",
        ),
    ],
};

const REGEX_ESCAPE: CatalogueEntry = CatalogueEntry {
    name: "regex-escape",
    severity: Severity::Warning,
    summary: "A backslash escape from regular expressions (`\\?`, `\\.`, `\\+`) in a pattern is \
matched literally.",
    what: "robots.txt patterns are not regular expressions: only `*` (any characters) and a final \
`$` (end of the URL) are special, and every other character stands for itself. A backslash is \
therefore part of the path, and `\\?` matches a backslash followed by a question mark.",
    why: "URLs almost never contain a backslash (browsers send it as `/` or `%5C`), so a rule \
written with regular-expression escapes matches nothing and the URLs it was meant for stay \
open (or, for an allow rule, stay blocked).",
    example: "User-agent: *\nDisallow: /search\\?q=\nDisallow: /*\\.pdf$\n",
    fix: "Drop the backslashes: `?`, `.`, `+` and the like need no escaping (`Disallow: \
/search?q=`). A literal `*` cannot be written in a pattern; a literal `$` at the end can be \
written `%24`.",
    references: &[RFC_2_2_3, GOOGLE_PATHS],
};

const MID_PATTERN_DOLLAR: CatalogueEntry = CatalogueEntry {
    name: "mid-pattern-dollar",
    severity: Severity::Warning,
    summary: "A `$` in the middle of a pattern is matched literally, not as an end anchor.",
    what: "`$` marks the end of the URL only as the last character of a pattern. Anywhere else it \
stands for a literal dollar sign.",
    why: "Patterns such as `/*.php$?` or `/a$/b` were probably meant to anchor something, but they \
only match URLs that contain a real `$`, which few do, so the rule does not do what it seems to.",
    example: "User-agent: *\nDisallow: /*.php$?print=1\n",
    fix: "Put `$` only at the end (`Disallow: /*.php$`), or write separate rules. To match a \
literal dollar sign, write it percent-encoded (`%24`) so the intent is clear.",
    references: &[RFC_2_2_3, GOOGLE_PATHS],
};

const COMMENT_IN_PATTERN: CatalogueEntry = CatalogueEntry {
    name: "comment-in-pattern",
    severity: Severity::Warning,
    summary: "A `#` in a path starts a comment and cuts the pattern short.",
    what: "Everything from `#` to the end of the line is a comment, even in the middle of a path. \
The `#` here follows the path directly, so it looks like part of it (a fragment such as \
`/page#section` or a hash-bang URL such as `/#!/shop`), but the pattern ends right before it.",
    why: "The rule matches a shorter pattern than written: `Disallow: /shop/#!/cart` becomes \
`Disallow: /shop/`, which blocks the whole shop. (When only `/` is left, the rule blocks the \
whole site, which `comment-blocks-everything` reports.) Fragments are never sent to the server \
anyway, so a rule cannot target them.",
    example: "User-agent: *\nDisallow: /shop/#!/cart\n",
    fix: "Remove the `#` and what follows from the path. To match a literal `#` in a path, write it \
percent-encoded as `%23`.",
    references: &[RFC_2_2_3, GOOGLE_SYNTAX],
};

const COMMENT_BLOCKS_EVERYTHING: CatalogueEntry = CatalogueEntry {
    name: "comment-blocks-everything",
    severity: Severity::Error,
    summary: "A `#` in a disallow path cuts it down to `/`, which blocks the whole site.",
    what: "Everything from `#` to the end of the line is a comment, even in the middle of a path. \
Here the `#` comes right after `/` or `/*`, as in a hash-bang URL (`/#!/private`), so the pattern \
that is left is `/`: it matches every URL.",
    why: "The rule meant to block one part of a single-page application blocks the whole site \
for the crawlers it applies to. Fragments are never sent to the server anyway, so no rule can \
target them.",
    example: "User-agent: *\nDisallow: /#!/private\n",
    fix: "Remove the `#` and what follows from the path, and block the server-side path the \
application loads instead. To match a literal `#`, write it percent-encoded as `%23`.",
    references: &[RFC_2_2_3, GOOGLE_SYNTAX],
};

const INVALID_PERCENT_ENCODING: CatalogueEntry = CatalogueEntry {
    name: "invalid-percent-encoding",
    severity: Severity::Warning,
    summary: "A `%` in a pattern is not followed by two hexadecimal digits.",
    what: "In URLs, `%` introduces an escape of exactly two hexadecimal digits, such as `%20`. This \
pattern has a `%` that is not, such as `%zz`, `%2` or a `%` at the end.",
    why: "Crawlers normalise such bytes differently. Google's parser keeps the lone `%`, and \
browsers send it unchanged too (`/100%` stays `/100%`), so Googlebot matches the rule as written \
and the Google reading reports nothing. RFC 9309 asks for percent-encoded patterns, so its \
parsers may encode the `%` as `%25`, which then no longer matches the `%` browsers send.",
    example: "User-agent: *\nDisallow: /search?q=100%\n",
    fix: "Nothing, for Googlebot. For parsers that follow RFC 9309 closely, end the pattern \
before the lone `%` or put `*` in its place; do not write `%25`, which browsers do not send for a \
typed `%`.",
    references: &[RFC_2_2_2, GOOGLE_PATHS],
};

const NON_ASCII_PATTERN: CatalogueEntry = CatalogueEntry {
    name: "non-ascii-pattern",
    severity: Severity::Info,
    summary: "A pattern contains non-ASCII characters; they are percent-encoded before matching.",
    what: "The pattern holds characters outside ASCII, such as `é` or `日本`. Crawlers encode them \
as UTF-8 with percent escapes (`/café` becomes `/caf%C3%A9`) before comparing them with URLs.",
    why: "This works when the file is UTF-8 and the site's URLs use UTF-8, as browsers do. If the \
file is in another encoding, or the site's URLs use a legacy one, the encoded bytes differ and the \
rule never matches. Writing the escapes yourself makes the rule unambiguous.",
    example: "User-agent: *\nDisallow: /café/\n",
    fix: "Nothing, if the file is UTF-8. For clarity, you may write the path percent-encoded, as \
it appears in the browser's address bar when copied: `Disallow: /caf%C3%A9/`.",
    references: &[RFC_2_2_2, GOOGLE_PATHS],
};

fn value_checks(cx: &Ctx, reading: Reading, group: &Group, r: &Rule, out: &mut Found) {
    let raw = cx.raw(r.value);
    // Most values are plain ASCII paths with nothing to say about them.
    let glued_comment = cx
        .tree
        .lines
        .get(r.line)
        .and_then(|l| l.parts().comment)
        .is_some_and(|c| c.start == r.value.end);
    // One pass, without branches, over the value: no byte past ASCII, no `%`, no `\\`, and
    // no `$` but at the end.
    let plain = |raw: &[u8]| match raw.split_last() {
        Some((&last, body)) => {
            !(any_high_or(body, [b'%', b'\\', b'$'])
                || last >= 0x80
                || matches!(last, b'%' | b'\\'))
        }
        None => true,
    };
    if raw.is_empty() || (!glued_comment && (raw[0] == b'/' || raw[0] == b'*') && plain(raw)) {
        return;
    }
    // The rule as written and its field name as written, built when a finding needs them.
    let text = std::cell::OnceCell::new();
    let text = || -> &str { text.get_or_init(|| rule_text(cx, r)) };
    let field = std::cell::OnceCell::new();
    let field = || -> &str {
        field.get_or_init(|| {
            cx.tree
                .lines
                .get(r.line)
                .and_then(|l| l.parts().key)
                .map(|k| cx.text(k).into_owned())
                .unwrap_or_default()
        })
    };
    let readings = cx.tag(reading);
    let value = cx.text(r.value);
    if glued_comment {
        comment_in_pattern(cx, reading, r, field(), out);
    }
    if raw.is_empty() {
        return;
    }
    let mut lower = [0u8; 8];
    let n = raw.len().min(8);
    for (l, b) in lower.iter_mut().zip(&raw[..n]) {
        *l = b.to_ascii_lowercase();
    }
    let lower = &lower[..n];
    // A value starting with `//` is a path (`https://h//private` is requested as `//private`),
    // not a network-path reference: rules take paths, never authorities.
    if lower.starts_with(b"http://") || lower.starts_with(b"https://") {
        let parsed = url::Url::parse(&value).ok();
        let fixed = parsed.as_ref().map(|u| {
            let mut s = u.path().to_string();
            if let Some(q) = u.query() {
                s.push('?');
                s.push_str(q);
            }
            s
        });
        // A rule can only speak for this file's own host. The file does not say which host that
        // is, but its sitemap lines usually do: the path is offered as the fix only when the URL
        // names one of their hosts (`https://t.me/share/` in a news site's file is another
        // site's address, and `/share/` would block a path of this one).
        let url_host = parsed
            .as_ref()
            .and_then(|u| u.host_str())
            .map(|h| h.trim_start_matches("www.").to_ascii_lowercase());
        let own_hosts = cx.own_hosts.get_or_init(|| own_hosts(cx));

        // The same host, `www.` aside: `internet-banking.example.com` is another host than
        // `www.example.com`, with a robots.txt of its own.
        let same_site = url_host
            .as_ref()
            .is_some_and(|h| own_hosts.iter().any(|o| o == h));
        // An IP address is another host than the name the file is served from, sitemaps or
        // not.
        let ip_host = parsed
            .as_ref()
            .is_some_and(|u| matches!(u.host(), Some(url::Host::Ipv4(_) | url::Host::Ipv6(_))));
        let other_host = !same_site && url_host.is_some() && (!own_hosts.is_empty() || ip_host);
        // An allow no disallow of its group could be overriding: never applying, it changes
        // nothing.
        let path_meant: Vec<u8> = fixed.as_deref().unwrap_or("/").bytes().collect();
        let nothing_to_override = r.kind == RuleKind::Allow
            && !group.rules.iter().any(|o| {
                o.kind == RuleKind::Disallow
                    && !o.pattern.is_empty()
                    && matches(&o.pattern, &path_meant)
            });
        if nothing_to_override {
            return;
        }
        if other_host {
            other_host_rule(
                cx,
                r,
                readings,
                text(),
                "names the host",
                url_host.as_deref().unwrap_or_default(),
                own_hosts,
                out,
            );
            return;
        }
        let mut d = cx.diag(
            &FULL_URL_PATTERN,
            r.value,
            readings,
            sentence!(
                "{} is a full URL, but rules match only the path, so the rule never applies",
                quote(text())
            ),
        );
        match (fixed, &url_host) {
            (Some(path), _) if same_site => {
                d = d.with_suggestion(sentence!("{field}: {path}", field = field()))
            }
            (Some(path), Some(h)) => {
                d = d.with_suggestion(sentence!(
                    "if `{}` is this site, write the path alone (`{field}: {}`); a rule cannot \
apply to another host, so for another site's address delete the line",
                    visible(h, 80),
                    visible(&path, 200),
                    field = field()
                ));
            }
            _ => {}
        }
        out.push(d);
    } else if raw[0] != b'/' && raw[0] != b'*' {
        // What the author meant, rooted, and a path it matches.
        let rooted: Vec<u8> = if matches!(
            raw[0],
            b'.' | b'?' | b'&' | b'=' | b';' | b'$' | b'%' | b'_' | b'-'
        ) {
            [&b"/*"[..], raw].concat()
        } else {
            [&b"/"[..], raw].concat()
        };
        let sample: Vec<u8> = rooted
            .iter()
            .copied()
            .filter(|&b| b != b'*' && b != b'$')
            .collect();
        // Harmless dead weight: another rule of the same kind already matches what was meant,
        // or it is an allow that no disallow of its group could be overriding.
        let covered = group.rules.iter().any(|o| {
            o != r
                && o.kind == r.kind
                && (o.pattern.starts_with(b"/") || o.pattern.starts_with(b"*"))
                && matches(&o.pattern, &sample)
        });
        let nothing_to_override = r.kind == RuleKind::Allow
            && !group.rules.iter().any(|o| {
                o.kind == RuleKind::Disallow
                    && !o.pattern.is_empty()
                    && matches(&o.pattern, &sample)
            });
        // `nb-no.www.cloudflare.com/`: a host name, of another host than the sitemaps name.
        let host_part = raw
            .iter()
            .position(|&b| b == b'/')
            .map_or(raw, |slash| &raw[..slash]);
        let host_like = host_part.contains(&b'.')
            && host_part
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-'))
            && host_part
                .rsplit(|&b| b == b'.')
                .next()
                .is_some_and(|tld| tld.len() >= 2 && tld.iter().all(u8::is_ascii_alphabetic))
            && !matches!(
                host_part
                    .rsplit(|&b| b == b'.')
                    .next()
                    .map(|t| t.to_ascii_lowercase())
                    .as_deref(),
                Some(
                    b"html"
                        | b"htm"
                        | b"php"
                        | b"asp"
                        | b"aspx"
                        | b"jsp"
                        | b"xml"
                        | b"txt"
                        | b"js"
                        | b"css"
                        | b"pdf"
                        | b"json"
                        | b"gz"
                        | b"cgi"
                )
            );
        let own = cx.own_hosts.get_or_init(|| own_hosts(cx));
        let host = crate::text::lossy(host_part)
            .trim_start_matches("www.")
            .to_ascii_lowercase();
        if covered || nothing_to_override {
            return;
        }
        if host_like && !own.is_empty() && !own.contains(&host) {
            other_host_rule(
                cx,
                r,
                readings,
                text(),
                "starts with the host name",
                &host,
                own,
                out,
            );
            return;
        }
        let suggestion = if let Some(slash) = raw.iter().position(|&b| b == b'/')
            && raw[..slash].contains(&b'.')
            && !raw[..slash].contains(&b'*')
        {
            // `www.example.com/private/`: keep the path, unless it is the root: replacing the
            // host with nothing would turn the rule into a block of the whole site.
            let path = cx.text(crate::syntax::Span::new(r.value.start + slash, r.value.end));
            if matches!(&*path, "/" | "/*" | "/$") {
                sentence!(
                    "write the path under {} that was meant; the path alone, `{path}`, would \
                     match every URL of this site",
                    cx.text(crate::syntax::Span::new(
                        r.value.start,
                        r.value.start + slash
                    ))
                )
            } else {
                sentence!("{field}: {path}", field = field())
            }
        } else if matches!(
            raw[0],
            b'.' | b'?' | b'&' | b'=' | b';' | b'$' | b'%' | b'_' | b'-'
        ) {
            // `.js$`, `?utm_source=`: a part of a URL meant to match anywhere in the path.
            sentence!("{field}: /*{value}", field = field())
        } else {
            sentence!("{field}: /{value}", field = field())
        };
        out.push(
            cx.diag(
                &PATTERN_NOT_ROOTED,
                r.value,
                readings,
                sentence!(
                    "{} does not start with `/` or `*`, so it never matches: every path starts \
with `/`",
                    quote(text())
                ),
            )
            .with_suggestion(suggestion),
        );
    }
    // A `$` followed by a letter or digit (`/$FILE/` in Lotus Domino URLs) is meant literally;
    // one followed by `/`, `?`, `*` and the like looks like a misplaced end anchor.
    if let Some(i) = raw[..raw.len() - 1].iter().enumerate().position(|(i, &b)| {
        b == b'$'
            && !matches!(raw[i + 1], b'0'..=b'9' | b'A'..=b'Z' | b'a'..=b'z' | b'_' | b'(' | b'{')
    }) {
        let (_, col) = cx.tree.line_col(cx.bytes, r.value.start + i);
        out.push(cx.diag(
            &MID_PATTERN_DOLLAR,
            crate::syntax::Span::new(r.value.start + i, r.value.start + i + 1),
            readings,
            sentence!(
                "the `$` at column {col} of {} is not at the end, so it is matched as a literal \
dollar sign rather than as the end of the URL",
                quote(text())
            ),
        ));
    }
    // `\?`, `\.`, `\+`: regular-expression escapes, which robots.txt does not have.
    if let Some(i) = memchr::memchr(b'\\', raw).filter(|&i| {
        raw.get(i + 1)
            .is_some_and(|b| b".?+*()[]{}^$|/-=&".contains(b))
    }) {
        let (_, col) = cx.tree.line_col(cx.bytes, r.value.start + i);
        let mut d = cx.diag(
            &REGEX_ESCAPE,
            crate::syntax::Span::new(r.value.start + i, r.value.start + i + 2),
            readings,
            sentence!(
                "the backslash at column {col} of {} is matched as a literal `\\`: robots.txt \
patterns are not regular expressions, so the rule matches only URLs that contain a backslash",
                quote(text())
            ),
        );
        // Without the escapes, when none of them stands for `*` or `$`, which cannot be
        // written literally.
        let mut plain = Vec::with_capacity(raw.len());
        let mut k = 0;
        let mut writable = true;
        while k < raw.len() {
            if raw[k] == b'\\' && k + 1 < raw.len() && b".?+*()[]{}^$|/-=&".contains(&raw[k + 1]) {
                writable &= !matches!(raw[k + 1], b'*' | b'$');
                k += 1;
            }
            plain.push(raw[k]);
            k += 1;
        }
        // The same rule without escapes in the group already does what was meant: the escaped
        // copy is dead weight, not a rule that fails to work.
        // So is one when another rule of the same kind already matches the path meant.
        let sample: Vec<u8> = plain
            .iter()
            .copied()
            .filter(|&b| b != b'*' && b != b'$')
            .collect();
        let has_plain = group.rules.iter().any(|o| {
            o != r
                && o.kind == r.kind
                && !o.pattern.is_empty()
                && (o.pattern[..] == plain[..] || matches(&o.pattern, &sample))
        });
        if writable {
            d = d.with_suggestion(sentence!(
                "{field}: {}",
                visible(&crate::text::lossy(&plain), 300),
                field = field()
            ));
        }
        if !has_plain {
            out.push(d);
        }
    }
    // Google keeps a lone `%` and so do browsers (WHATWG leaves it in the path), so the rule
    // matches what its author meant there; only RFC 9309's percent-encoding rules make it
    // ambiguous, and `%25` would then not match the `%` browsers send.
    if reading == Reading::Rfc9309
        && let Some(i) = bad_percent(raw)
    {
        let (_, col) = cx.tree.line_col(cx.bytes, r.value.start + i);
        out.push(
            cx.diag(
                &INVALID_PERCENT_ENCODING,
                crate::syntax::Span::new(
                    r.value.start + i,
                    (r.value.start + i + 3).min(r.value.end),
                ),
                readings,
                sentence!(
                    "the `%` at column {col} of {} is not followed by two hexadecimal digits: \
RFC 9309 asks for percent-encoded patterns, so parsers may treat it differently (Google's parser \
and browsers keep it as a literal `%`, so Googlebot matches the rule as written)",
                    quote(text())
                ),
            )
            .with_suggestion(
                "nothing for Google; for RFC 9309 parsers, avoid the lone `%` (end the pattern \
before it, or use `*` in its place)",
            ),
        );
    }
    if !raw.is_ascii() {
        let clean = std::str::from_utf8(raw).ok();
        let explained =
            clean.is_none_or(|s| s.chars().any(is_invisible) || undo_double_encoding(s).is_some());
        if clean.is_some() && !explained {
            let encoded = normalize(raw, Reading::Google, Side::Pattern);
            out.push(
                cx.diag(
                    &NON_ASCII_PATTERN,
                    r.value,
                    readings,
                    sentence!(
                        "{} contains non-ASCII characters; crawlers match it as {}",
                        quote(text()),
                        quote(&crate::text::lossy(&encoded))
                    ),
                )
                .with_suggestion(sentence!(
                    "{field}: {}",
                    visible(&crate::text::lossy(&encoded), 300),
                    field = field()
                )),
            );
        }
    }
}

/// `full-url-other-host` for rule `r`, whose value `how` (names, or starts with) `host`, not one
/// of `own` (the sitemap hosts; none known for an IP address).
#[allow(clippy::too_many_arguments)]
fn other_host_rule(
    cx: &Ctx,
    r: &Rule,
    readings: super::Readings,
    text: &str,
    how: &str,
    host: &str,
    own: &[String],
    out: &mut Found,
) {
    let sites: Vec<String> = own.iter().take(3).map(|o| sentence!("`{o}`")).collect();
    let not = if sites.is_empty() {
        "an IP address, not the name the file is served from".to_string()
    } else {
        sentence!("not {} that this file's sitemaps name", and_list(&sites))
    };
    out.push(
        cx.diag(
            &FULL_URL_OTHER_HOST,
            r.value,
            readings,
            sentence!(
                "{} {how} `{}`, {not}; rules match only paths of the host that serves the file, \
so the line matches nothing",
                quote(text),
                visible(host, 80),
            ),
        )
        .with_suggestion(
            "delete the line; a rule for another host belongs in that host's own robots.txt",
        ),
    );
}

/// The hosts (without `www.`) of the file's first 50 sitemap lines: the best evidence a file
/// holds of the host it serves.
fn own_hosts(cx: &Ctx) -> Vec<String> {
    let mut hosts: Vec<String> = cx
        .google
        .sitemaps
        .iter()
        .take(50)
        .filter_map(|sm| url::Url::parse(cx.text(sm.url).trim()).ok())
        .filter_map(|u| {
            u.host_str()
                .map(|h| h.trim_start_matches("www.").to_ascii_lowercase())
        })
        .collect();
    hosts.sort_unstable();
    hosts.dedup();
    hosts
}

/// Offset of the first `%` not followed by two hexadecimal digits.
fn bad_percent(raw: &[u8]) -> Option<usize> {
    raw.iter().enumerate().find_map(|(i, &b)| {
        (b == b'%'
            && !(raw.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && raw.get(i + 2).is_some_and(u8::is_ascii_hexdigit)))
        .then_some(i)
    })
}

fn comment_in_pattern(cx: &Ctx, reading: Reading, r: &Rule, field: &str, out: &mut Found) {
    let readings = cx.tag(reading);
    let Some(line) = cx.tree.lines.get(r.line) else {
        return;
    };
    let Some(comment) = line.parts().comment else {
        return;
    };
    // Only a `#` glued to the value (no white space between) and followed by more of a URL
    // (`#section`, `#!/app`, `#*`) looks like part of the path; `/a# note` is a comment.
    let after = cx.bytes.get(comment.start + 1).copied();
    if r.value.is_empty()
        || comment.start != r.value.end
        || after.is_none_or(|b| b.is_ascii_whitespace() || b == b'#')
    {
        return;
    }
    let written = sentence!("{}{}", cx.text(r.value), cx.text(comment));
    let cut = cx.text(r.value);
    // Whether the cut rule really shuts out some crawler of its group: merged groups can hold
    // an `Allow: /` that wins the tie for all of them.
    let shuts_someone = || {
        let p = cx.policy(reading);
        let Some(g) = p.groups.iter().find(|g| g.rules.contains(r)) else {
            return true;
        };
        g.user_agents.iter().any(|u| {
            let (agent, groups): (&str, Vec<usize>) = match &u.token {
                crate::groups::ProductToken::Name(n) => (n.as_str(), p.groups_naming(n).to_vec()),
                // A name no group uses: a crawler that follows `*`.
                _ => (
                    "robots-explorer-unnamed",
                    (0..p.groups.len())
                        .filter(|&i| p.groups[i].is_global())
                        .collect(),
                ),
            };
            // Another rule of the crawler's groups blocks everything already: the cut changes
            // nothing for it.
            let already = groups
                .iter()
                .flat_map(|&i| p.groups[i].rules.iter())
                .any(|o| {
                    o != r
                        && o.kind == RuleKind::Disallow
                        && !o.derived
                        && matches_everything(&o.pattern)
                });
            !already && !p.decide(agent, "/").allowed
        })
    };
    let (entry, effect) =
        if r.kind == RuleKind::Disallow && matches_everything(cx.raw(r.value)) && shuts_someone() {
            (&COMMENT_BLOCKS_EVERYTHING, ", which blocks the whole site")
        } else {
            (&COMMENT_IN_PATTERN, "")
        };
    out.push(
        cx.diag(
            entry,
            comment,
            readings,
            sentence!(
                "`#` starts a comment, so the pattern is {} rather than {}{effect}",
                quote(&cut),
                quote(&written)
            ),
        )
        .with_suggestion(if std::ptr::eq(entry, &COMMENT_BLOCKS_EVERYTHING) {
            // Blocking the whole site was surely not meant; a fragment cannot be targeted, so
            // the rule as written (`%23` for the `#`) matches almost nothing, which is closer.
            sentence!("{field}: {}", visible(&written.replace('#', "%23"), 300))
        } else {
            // Fragments never reach the server, so what crawlers read now (the part before `#`)
            // is the only reading that matches real URLs: say it without the glued comment;
            // unless that reading blocks everything, which writing it out would only confirm.
            if r.kind == RuleKind::Disallow && matches_everything(cx.raw(r.value)) {
                "delete the line: a fragment cannot be blocked, and what crawlers read of it now \
blocks every URL"
                    .to_string()
            } else {
                sentence!("{field}: {}", visible(&cut, 300))
            }
        }),
    );
}

// ---------------------------------------------------------------------------------------------

const EMPTY_DISALLOW: CatalogueEntry = CatalogueEntry {
    name: "empty-disallow",
    severity: Severity::Info,
    summary: "`Disallow:` with no path next to other rules does nothing.",
    what: "A `Disallow` line with an empty value matches no URL. In a group that has other rules \
it adds nothing at all.",
    why: "It usually means that a template or a script left a path out, so a restriction someone \
wanted is missing. On its own in a group the same line means \"may fetch everything\" (see \
`empty-disallow-only`); next to other rules it only misleads.",
    example: "User-agent: *\nDisallow: /admin/\nDisallow:\n",
    fix: "Fill in the path that was meant, or delete the line.",
    references: &[RFC_2_2_2, GOOGLE_SYNTAX],
};

const EMPTY_DISALLOW_ONLY: CatalogueEntry = CatalogueEntry {
    name: "empty-disallow-only",
    severity: Severity::Info,
    summary: "A group's only rule is `Disallow:` with no path: its crawlers may fetch everything.",
    what: "A `Disallow` line with an empty value matches no URL. As the only rule of its group it \
is the traditional way to say \"these crawlers may fetch everything\".",
    why: "It is a valid policy, though easily confused with `Disallow: /`, which blocks \
everything. It also takes the crawlers it names out of the `*` group, so restrictions written \
there do not apply to them.",
    example: "User-agent: *\nDisallow:\n",
    fix: "Nothing, if the crawlers may fetch everything. `Allow: /` says the same and is harder to \
misread.",
    references: &[RFC_2_2_2, GOOGLE_SYNTAX],
};

fn empty_disallow(cx: &Ctx, reading: Reading, p: &Policy, gi: usize, r: &Rule, out: &mut Found) {
    let g = &p.groups[gi];
    let others: Vec<usize> = g
        .rules
        .iter()
        .filter(|o| !o.derived && !o.pattern.is_empty())
        .map(|o| o.line + 1)
        .collect();
    let tokens: Vec<String> = g
        .user_agents
        .iter()
        .map(|u| match u.token {
            crate::groups::ProductToken::Any => {
                "every crawler without a group of its own".to_string()
            }
            _ => sentence!("`{}`", visible(&cx.text(u.value), 40)),
        })
        .collect();
    let who = names_and_more(
        &tokens[..if tokens.len() > 4 { 3 } else { tokens.len() }],
        tokens.len(),
    );
    // `Disallow:` beside `Allow: /` is the allow-everything idiom said twice: nothing to say.
    if !others.is_empty()
        && g.rules
            .iter()
            .filter(|o| !o.derived && !o.pattern.is_empty())
            .all(|o| o.kind == RuleKind::Allow && matches_everything(&o.pattern))
    {
        return;
    }
    let d = if others.is_empty() {
        cx.diag(
            &EMPTY_DISALLOW_ONLY,
            line_span(cx, r.line),
            cx.tag(reading),
            sentence!("`Disallow:` with no path disallows nothing: {who} may fetch everything"),
        )
    } else {
        cx.diag(
            &EMPTY_DISALLOW,
            line_span(cx, r.line),
            cx.tag(reading),
            sentence!(
                "`Disallow:` with no path does nothing here, next to the rules on {}; was a path \
left out?",
                lines_list(&others)
            ),
        )
        .with_suggestion("fill in the intended path or delete the line")
    };
    out.push(d);
}

fn line_span(cx: &Ctx, line: usize) -> crate::syntax::Span {
    let l = cx.line(line);
    let (a, b) = super::context::trim_span(cx.bytes, l.content());
    let end = l.parts().comment.map_or(b, |c| c.start.min(b));
    let (a, b) = super::context::trim_span(cx.bytes, crate::syntax::Span::new(a, end));
    crate::syntax::Span::new(a, b)
}

// ---------------------------------------------------------------------------------------------
// Relations between rules.

pub(super) const DUPLICATE_RULE: CatalogueEntry = CatalogueEntry {
    name: "duplicate-rule",
    severity: Severity::Info,
    summary: "The same rule appears twice for the same crawlers.",
    what: "Two rules of the same kind with the same pattern apply to the same crawlers, in one \
group or in groups that are combined.",
    why: "The copy changes nothing: RFC 9309 allows crawlers to drop duplicates. It makes the file \
longer and harder to review, and often shows that two versions of a list were merged by hand.",
    example: "User-agent: *\nDisallow: /tmp/\nDisallow: /cart/\nDisallow: /tmp/\n",
    fix: "Delete the repeated line.",
    references: &[RFC_2_2_2],
};

pub(super) const REDUNDANT_RULE: CatalogueEntry = CatalogueEntry {
    name: "redundant-rule",
    severity: Severity::Info,
    summary: "A rule can never change a decision.",
    what: "For every URL the rule matches, the decision would be the same without it. Either a \
shorter rule of the same kind already covers every URL it matches (and no rule of the other kind \
could make a difference), or it is an `Allow` with no `Disallow` that it could override.",
    why: "Redundant rules are harmless to crawlers, but they make a file look stricter or more \
permissive than it is, and they hide the rules that do matter. A long list of `Disallow` lines \
under a `Disallow: /` is a common example.",
    example: "User-agent: *\nDisallow: /private/\nDisallow: /private/drafts/\n",
    fix: "Delete the rule, or, if it was meant to do something, check the rule that covers it.",
    references: &[RFC_2_2_2, GOOGLE_PRECEDENCE],
};

pub(super) const CONFLICTING_RULES: CatalogueEntry = CatalogueEntry {
    name: "conflicting-rules",
    severity: Severity::Warning,
    summary: "An allow and a disallow rule have the same pattern; the allow wins.",
    what: "The same crawlers have an `Allow` and a `Disallow` rule with the same pattern. Both \
match exactly the same URLs with the same length, and in such a tie RFC 9309 and Google pick the \
allow rule.",
    why: "The disallow rule never applies, although the file suggests that those URLs are blocked. \
Usually one of the two lines is left over from an earlier version of the policy.",
    example: "User-agent: *\nDisallow: /search\nAllow: /search\n",
    fix: "Decide whether the URLs should be crawled, and delete the rule that says otherwise.",
    references: &[RFC_2_2_2, GOOGLE_PRECEDENCE, RFC_5_2],
};

/// Duplicates, conflicts and redundancy, per rule, over all combined sets. A rule is
/// redundant only if it is redundant in every set that contains it.
///
/// Sets without an index (left out by the budget) are not looked at, and rules of groups in such
/// a set are never called redundant: a set not analysed might be one where they matter.
///
/// In the Google reading of a file whose readings differ, the redundancy verdicts of each set
/// are recorded in `verdicts.0`; the RFC 9309 reading takes them over from `verdicts.1` for a
/// set with the same groups, where both readings give each group the same rules and the same
/// completeness, when the Google reading's lookups for it all had their work and as much work
/// is left: its lookups would find exactly the same, and the same work is charged.
#[allow(clippy::too_many_arguments)]
fn relations<'p>(
    cx: &Ctx,
    p: &'p Policy,
    sets: &[CombinedSet],
    analysed: &[bool],
    sets_of_group: &[Vec<usize>],
    group_complete: &[bool],
    work: &Work,
    verdicts: (&mut Verdicts<'p>, Option<&Verdicts<'p>>),
) -> HashMap<RuleId, Relations<'p>> {
    let (record, taken) = verdicts;
    let recording = p.reading == Reading::Google && !cx.same_policies;
    if recording {
        record.group_complete = group_complete.to_vec();
    }
    // Per group, whether both readings give it the same rules (worked out on first use).
    let mut same_rules: Vec<Option<bool>> = vec![None; p.groups.len()];
    let mut same_rules_of = |g: usize| {
        *same_rules[g].get_or_insert_with(|| {
            cx.google
                .groups
                .get(g)
                .zip(cx.rfc.groups.get(g))
                .is_some_and(|(x, y)| x.rules == y.rules)
        })
    };
    let mut rel: HashMap<RuleId, Relations<'p>> = HashMap::default();
    // Per rule (at `first_rule[group] + rule index`): `None` until a set judges it, then its
    // verdict, `Some(None)` once some set found that it may matter.
    let first_rule: Vec<usize> = p
        .groups
        .iter()
        .scan(0, |n, g| {
            let first = *n;
            *n += g.rules.len();
            Some(first)
        })
        .collect();
    let rules = p
        .groups
        .last()
        .map_or(0, |g| first_rule[first_rule.len() - 1] + g.rules.len());
    let mut redundant: Vec<Option<Option<Redundancy>>> = vec![None; rules];
    // disallow → (line of the allow it ties with, the sets where they meet)
    let mut conflicts: HashMap<RuleId, (usize, Vec<usize>)> = HashMap::default();
    // Kept from set to set (most sets hold one rule): the set's entries, the first entry of
    // each pattern per kind, and the tree of their literal prefixes.
    let mut entries = Vec::new();
    let mut first: HashMap<&[u8], (Option<usize>, Option<usize>)> = HashMap::default();
    let mut prefixes = Prefixes::default();
    for (si, s) in sets.iter().enumerate() {
        if !analysed[si] {
            continue;
        }
        super::sets::set_entries_into(p, &s.groups, &mut entries);
        // Duplicates and conflicts take two rules.
        if entries.len() > 1 {
            // Clearing a hash map writes over all of its room: a map grown for a large set is
            // dropped rather than cleared for each of the small sets after it.
            if first.capacity() > 4 * entries.len().max(16) {
                first = HashMap::default();
            } else {
                first.clear();
            }
            first.reserve(entries.len());
            for (i, e) in entries.iter().enumerate() {
                if e.rule.derived {
                    continue;
                }
                let slot = first.entry(&e.rule.pattern).or_default();
                let (same, other) = match e.rule.kind {
                    RuleKind::Allow => (&mut slot.0, slot.1),
                    RuleKind::Disallow => (&mut slot.1, slot.0),
                };
                match same {
                    Some(j) => {
                        let line = entries[*j].rule.line + 1;
                        push_unique(&mut rel, e.id, Relation::Duplicate(line));
                    }
                    None => *same = Some(i),
                }
                if let Some(o) = other {
                    let (dis, allow) = match e.rule.kind {
                        RuleKind::Disallow => (i, o),
                        RuleKind::Allow => (o, i),
                    };
                    let allow_line = entries[allow].rule.line + 1;
                    let c = conflicts
                        .entry(entries[dis].id)
                        .or_insert((allow_line, Vec::new()));
                    if c.1.last() != Some(&si) {
                        c.1.push(si);
                    }
                }
            }
        }
        let mut judge = |id: RuleId, verdict: Option<Redundancy<'p>>| {
            let slot = &mut redundant[first_rule[id.0] + id.1];
            match slot {
                None => *slot = Some(verdict),
                Some(v) => {
                    if verdict.is_none() {
                        *v = None;
                    }
                }
            }
        };
        let same = taken
            .and_then(|t| Some(t).zip(t.by_groups.get(&s.groups)))
            .filter(|(t, v)| {
                v.complete
                    && v.charged <= work.left()
                    && s.groups.iter().all(|&g| {
                        t.group_complete.get(g) == Some(&group_complete[g]) && same_rules_of(g)
                    })
            });
        if let Some((_, v)) = same {
            let charged = work.charge(v.charged);
            debug_assert!(charged);
            for (id, verdict) in &v.verdicts {
                judge(*id, *verdict);
            }
            continue;
        }
        let left = work.left();
        let mut recorded = Vec::with_capacity(if recording { entries.len() } else { 0 });
        let mut built = false;
        for (i, e) in entries.iter().enumerate() {
            if e.rule.derived || !group_complete[e.id.0] {
                continue;
            }
            if !built {
                prefixes.rebuild(&entries);
                built = true;
            }
            let verdict = redundancy(p, &entries, &prefixes, i, work);
            if recording {
                recorded.push((e.id, verdict));
            }
            judge(e.id, verdict);
        }
        if recording {
            record.by_groups.insert(
                s.groups.clone(),
                SetVerdicts {
                    verdicts: recorded,
                    charged: left - work.left(),
                    complete: !work.exhausted(),
                },
            );
        }
    }
    for (id, (allow_line, met)) in conflicts {
        let everywhere = sets_of_group
            .get(id.0)
            .is_none_or(|all| all.iter().all(|si| met.contains(si)));
        let only = (!everywhere).then(|| {
            let names: Vec<String> = met
                .iter()
                .flat_map(|&si| sets[si].tokens.iter())
                .take(4)
                .map(|t| sentence!("`{}`", visible(t, 40)))
                .collect();
            and_list(&names)
        });
        push_unique(&mut rel, id, Relation::Conflict(allow_line, only));
    }
    let judged = p
        .groups
        .iter()
        .enumerate()
        .flat_map(|(gi, g)| (0..g.rules.len()).map(move |ri| (gi, ri)));
    for (id, v) in judged.zip(redundant) {
        let Some(Some(why)) = v else { continue };
        let has_other = rel.get(&id).is_some_and(|r| {
            r.iter()
                .any(|x| matches!(x, Relation::Duplicate(_) | Relation::Conflict(..)))
        });
        if !has_other {
            rel.entry(id).or_default().push(Relation::Redundant(why));
        }
    }
    rel
}

fn push_unique<'p>(rel: &mut HashMap<RuleId, Relations<'p>>, id: RuleId, r: Relation<'p>) {
    let v = rel.entry(id).or_default();
    let same_kind = v
        .iter()
        .any(|x| std::mem::discriminant(x) == std::mem::discriminant(&r));
    if !same_kind {
        v.push(r);
    }
}

/// The relations of one rule, one of each kind at most ([`push_unique`]): almost always one,
/// held without an allocation of its own.
pub(crate) type Relations<'p> = smallvec::SmallVec<[Relation<'p>; 1]>;

/// Why a rule can never change a decision in one combined set ([`redundancy`]), put in words
/// ([`Redundancy::words`]) only for the rules found redundant in every set.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Redundancy<'p> {
    /// A disallow rule: this plain-prefix disallow rule already blocks every URL it matches,
    /// and no allow rule could make a difference.
    Blocked(&'p Rule),
    /// An allow rule: this plain-prefix allow rule already allows every URL it matches, and
    /// no disallow rule could make a difference.
    Allowed(&'p Rule),
    /// An allow rule that no disallow rule both matching its URLs and short enough could
    /// override.
    NothingToOverride,
}

impl Redundancy<'_> {
    /// Why the rule can never change a decision, in words.
    pub(crate) fn words(self) -> String {
        let text_of = |c: &Rule| {
            sentence!(
                "`{}: {}`",
                kind_name(c.kind),
                visible(&crate::text::lossy(&c.pattern), 60)
            )
        };
        match self {
            Redundancy::Blocked(c) => sentence!(
                "{} on line {} already blocks every URL this rule matches, and no allow rule \
could make a difference",
                text_of(c),
                c.line + 1
            ),
            Redundancy::Allowed(c) => sentence!(
                "{} on line {} already allows every URL this rule matches, and no disallow \
rule could make a difference",
                text_of(c),
                c.line + 1
            ),
            Redundancy::NothingToOverride => "no disallow rule for the same crawlers both \
matches the URLs it matches and is short enough for it to override, so the decisions are the \
same without it"
                .to_string(),
        }
    }
}

/// Why a rule can never change a decision in this set, or `None` when it might (or when the
/// lookup was too large to be sure).
fn redundancy<'p>(
    p: &Policy,
    entries: &[super::sets::Entry<'p>],
    prefixes: &Prefixes,
    i: usize,
    work: &Work,
) -> Option<Redundancy<'p>> {
    let e = &entries[i];
    let r = e.rule;
    if !(r.pattern.starts_with(b"/") || r.pattern.starts_with(b"*")) {
        return None;
    }
    // In the Google reading an allow of `/dir/index.htm…` also allows `/dir/` (its derived
    // rule), which the rule covering it need not do: it is not redundant.
    if p.reading == crate::Reading::Google
        && r.kind == RuleKind::Allow
        && crate::groups::google_index_allow(&r.pattern).is_some()
    {
        return None;
    }
    let len = r.pattern.len();
    let cover = prefixes
        .cover(entries, i, r.kind, &r.pattern, work)
        .map(|c| &entries[c])
        .filter(|c| c.rule.pattern.len() <= len && c.id != e.id);
    let opposite = match r.kind {
        RuleKind::Allow => RuleKind::Disallow,
        RuleKind::Disallow => RuleKind::Allow,
    };
    let candidates = prefixes.overlapping(i, opposite, work)?;
    let mut lengths = candidates.map(|c| entries[c].rule.pattern.len());
    match (r.kind, cover) {
        (RuleKind::Disallow, Some(c)) => {
            let lo = c.rule.pattern.len();
            if lengths.any(|l| lo <= l && l < len) {
                return None;
            }
            Some(Redundancy::Blocked(c.rule))
        }
        (RuleKind::Allow, cover) => {
            let lo = cover.map_or(0, |c| c.rule.pattern.len());
            if lengths.any(|l| lo < l && l <= len) {
                return None;
            }
            Some(match cover {
                Some(c) => Redundancy::Allowed(c.rule),
                None => Redundancy::NothingToOverride,
            })
        }
        (RuleKind::Disallow, None) => None,
    }
}

fn kind_name(k: RuleKind) -> &'static str {
    match k {
        RuleKind::Allow => "Allow",
        RuleKind::Disallow => "Disallow",
    }
}

fn report_relations(
    cx: &Ctx,
    reading: Reading,
    p: &Policy,
    rel: &HashMap<RuleId, Relations<'_>>,
    out: &mut Found,
) {
    let mut ids: Vec<&RuleId> = rel.keys().collect();
    ids.sort_unstable();
    let readings = cx.tag(reading);
    for id in ids {
        let r = &p.groups[id.0].rules[id.1];
        let mut text = None;
        for x in &rel[id] {
            let entry = match x {
                Relation::Duplicate(_) => &DUPLICATE_RULE,
                Relation::Conflict(_, Some(_)) => continue,
                Relation::Conflict(_, None) => &CONFLICTING_RULES,
                Relation::Redundant(_) => &REDUNDANT_RULE,
            };
            // Past the findings kept of a name, only counted: no message to build.
            if !out.wants(entry.name, readings) {
                out.count_left_out(entry.name, readings, cx.line(r.line).number());
                continue;
            }
            let text = text.get_or_insert_with(|| quote(&rule_text(cx, r)));
            let (message, suggestion) = match x {
                Relation::Duplicate(line) => (
                    sentence!("{text} repeats the rule on line {line} for the same crawlers"),
                    "delete this line",
                ),
                // The allow sits in a group written for some of the crawlers: a deliberate
                // exception for them, not a contradiction (left out above). The line's
                // explanation says so.
                Relation::Conflict(line, _) => (
                    sentence!(
                        "{text} has the same pattern as the allow rule on line {line}; the allow \
wins, so this disallow never applies"
                    ),
                    "delete the rule that is not wanted",
                ),
                Relation::Redundant(why) => (
                    sentence!("{text} can never change a decision: {}", why.words()),
                    "delete this line",
                ),
            };
            let d = cx
                .diag(entry, line_span(cx, r.line), readings, message)
                .with_suggestion(suggestion);
            out.push(d);
        }
    }
}

// ---------------------------------------------------------------------------------------------

const BLOCKS_EVERYTHING: CatalogueEntry = CatalogueEntry {
    name: "blocks-everything",
    severity: Severity::Warning,
    summary: "`Disallow: /` for `*`: crawlers without a group of their own may fetch nothing.",
    what: "The `*` group has a disallow rule that matches every URL (`Disallow: /`, `/*` or `*`). \
It applies to every crawler that is not named by a group of its own.",
    why: "Search engines stop crawling the site, and over time its pages drop out of results or \
show without a description. That is right for a staging or private site, and a costly accident \
on a live one, often because a staging file was deployed to production.",
    example: "User-agent: *\nDisallow: /\n",
    fix: "If the site should be crawled, remove the line or narrow it to the paths that must not \
be crawled. If only some crawlers should be blocked, name them in groups of their own and leave \
`*` open.",
    references: &[
        RFC_2_2_2,
        (
            "RFC 9309 §2.2.1",
            "https://www.rfc-editor.org/rfc/rfc9309.html#section-2.2.1",
        ),
        GOOGLE_PATHS,
    ],
};

fn blocks_everything(
    cx: &Ctx,
    reading: Reading,
    p: &Policy,
    sets: &[CombinedSet],
    out: &mut Found,
) {
    // A deliberate allowlist: `*` is shut, and some crawler has a group of its own that does
    // not shut it out too (Googlebot and bingbot, say). Blocking every other crawler is then the
    // point of the file, not a staging file deployed by accident.
    let someone_open = sets.iter().any(|s| {
        !s.global
            && !s
                .groups
                .iter()
                .flat_map(|&g| p.groups[g].rules.iter())
                .any(|r| {
                    r.kind == RuleKind::Disallow && !r.derived && matches_everything(&r.pattern)
                })
    });
    // Or the `*` group itself opens paths again (`Disallow: /` with `Allow: /docs/`).
    let star_allows = sets.iter().filter(|s| s.global).any(|s| {
        s.groups
            .iter()
            .flat_map(|&g| p.groups[g].rules.iter())
            .any(|r| r.kind == RuleKind::Allow && !r.derived && !r.pattern.is_empty())
    });
    if someone_open || star_allows {
        return;
    }
    for s in sets {
        if !s.global {
            continue;
        }
        let rules = || {
            s.groups
                .iter()
                .flat_map(|&g| p.groups[g].rules.iter())
                .filter(|r| !r.derived && !r.pattern.is_empty())
        };
        let allows: Vec<usize> = rules()
            .filter(|r| r.kind == RuleKind::Allow)
            .map(|r| r.line + 1)
            .collect();
        let except = if allows.is_empty() {
            String::new()
        } else {
            sentence!(
                ", except what the allow {} on {} {}",
                if allows.len() == 1 { "rule" } else { "rules" },
                lines_list(&allows),
                if allows.len() == 1 {
                    "permits"
                } else {
                    "permit"
                }
            )
        };
        let named = p.groups.len() > s.groups.len();
        let who = if named {
            "every crawler that has no group of its own in this file"
        } else {
            "every crawler"
        };
        for r in rules() {
            if r.kind != RuleKind::Disallow || !matches_everything(&r.pattern) {
                continue;
            }
            out.push(cx.diag(
                &BLOCKS_EVERYTHING,
                line_span(cx, r.line),
                cx.tag(reading),
                sentence!(
                    "{} in the `*` group blocks every URL for {who}{except}",
                    quote(&rule_text(cx, r))
                ),
            ));
        }
    }
}

// ---------------------------------------------------------------------------------------------

const BLOCKS_ASSETS: CatalogueEntry = CatalogueEntry {
    name: "blocks-assets",
    severity: Severity::Warning,
    summary: "A rule blocks CSS or JavaScript files for Googlebot, which breaks rendering.",
    what: "A disallow rule that Googlebot obeys matches stylesheet or script URLs, for example \
`/wp-includes/…js`, `/assets/app.js`, or `style.css?ver=6.4` (through a rule such as `/*?`), and \
no longer allow rule lets them through.",
    why: "Googlebot renders pages like a browser to understand their layout and content. Without \
the CSS and JavaScript a page may look broken or empty to Google, which can hurt how it is \
indexed and ranked; Search Console reports such files as blocked resources.",
    example: "User-agent: *\nDisallow: /wp-includes/\nDisallow: /*?\n",
    fix: "Let Googlebot fetch the files: remove or narrow the rule, or add allow rules for \
stylesheets and scripts that are *longer* than the disallow rule, so that they win: for \
`Disallow: /wp-includes/`, add `Allow: /wp-includes/*.css$`, `Allow: /wp-includes/*.css?`, \
`Allow: /wp-includes/*.js$` and `Allow: /wp-includes/*.js?` (anchored, so that `.jsp` pages and \
URLs that merely contain `.js` stay blocked). A rule for one named script (`Disallow: \
/consent.js`) is taken as deliberate and not reported.",
    references: &[
        (
            "Google: robots.txt introduction (resource files)",
            "https://developers.google.com/search/docs/crawling-indexing/robots/intro",
        ),
        GOOGLE_PRECEDENCE,
        RFC_2_2_2,
    ],
};

/// Generic stylesheet and script paths many sites serve.
const GENERIC_ASSETS: &[&str] = &[
    "/assets/app.js",
    "/assets/site.css",
    "/static/js/main.js",
    "/static/css/main.css",
    "/js/app.js",
    "/css/style.css",
    "/wp-includes/js/jquery/jquery.min.js",
    "/wp-content/themes/theme/style.css",
    "/wp-content/plugins/plugin/script.js",
    "/style.css?ver=1",
    "/main.js?ver=1",
];

/// Path segments that suggest a directory holds scripts. Words that as often name server-side
/// code (`scripts`, `includes`, `lib`, `vendor`, `templates`: shell and PHP files in Drupal,
/// Composer and most PHP applications) are left out: a guess from them is a false alarm as
/// often as not.
const SCRIPT_WORDS: &[&str] = &[
    "js",
    "javascript",
    "javascripts",
    "_next",
    "_nuxt",
    "bundle",
    "bundles",
    "dist",
    "min",
    "frontend",
];

/// Path segments that suggest a directory holds stylesheets (or both kinds of file).
const STYLE_WORDS: &[&str] = &[
    "css",
    "style",
    "styles",
    "stylesheets",
    "asset",
    "assets",
    "static",
    "wp-includes",
    "wp-content",
    "theme",
    "themes",
    "plugin",
    "plugins",
    "skin",
    "skins",
    "resources",
];

/// Per lower-case ASCII first byte, a bit (`1 << length`) for each length of the words of
/// [`SCRIPT_WORDS`] and [`STYLE_WORDS`] that start with it: a path segment with no word of its
/// first byte and length is told apart without comparing it with the words.
const WORD_SHAPES: [u16; 128] = word_shapes();

/// Builds [`WORD_SHAPES`].
const fn word_shapes() -> [u16; 128] {
    let mut shapes = [0u16; 128];
    let lists = [SCRIPT_WORDS, STYLE_WORDS];
    let mut l = 0;
    while l < lists.len() {
        let mut i = 0;
        while i < lists[l].len() {
            let w = lists[l][i].as_bytes();
            shapes[w[0].to_ascii_lowercase() as usize] |= 1 << w.len();
            i += 1;
        }
        l += 1;
    }
    shapes
}

/// Whether a path (before any query string) names a stylesheet or script.
fn is_asset_path(path: &[u8]) -> bool {
    let p = &path[..crate::pattern::find_byte2(b'?', b'#', path).unwrap_or(path.len())];
    [&b".css"[..], b".js", b".mjs"]
        .iter()
        .any(|e| p.len() >= e.len() && p[p.len() - e.len()..].eq_ignore_ascii_case(e))
}

/// Whether a literal prefix names a directory that typically holds assets (judged by its last
/// path segment: `/includes/` yes, `/plugins/search/` no): `Some(true)` when scripts are the
/// likelier kind, `Some(false)` for stylesheets, `None` when it does not.
fn asset_dir(lit: &[u8]) -> Option<bool> {
    // The last segment that is not empty: trailing slashes dropped, then up to the last slash.
    let end = lit.iter().rposition(|&b| b != b'/').map_or(0, |i| i + 1);
    let start = memchr::memrchr(b'/', &lit[..end]).map_or(0, |i| i + 1);
    let last = &lit[start..end];
    // No word is longer than this (`javascripts`, `stylesheets`).
    if last.is_empty() || last.len() > 11 {
        return None;
    }
    // Most segments start with a byte and have a length that no word has together.
    let first = last[0].to_ascii_lowercase();
    if WORD_SHAPES
        .get(usize::from(first))
        .is_none_or(|&lens| lens >> last.len() & 1 == 0)
    {
        return None;
    }
    let has = |words: &[&str]| {
        words
            .iter()
            .any(|w| last.eq_ignore_ascii_case(w.as_bytes()))
    };
    if has(SCRIPT_WORDS) {
        Some(true)
    } else if has(STYLE_WORDS) {
        Some(false)
    } else {
        None
    }
}

/// Sample stylesheet and script paths derived from a pattern: a file in the directory its
/// literal prefix names (when that directory typically holds assets), the prefix itself when it
/// names a stylesheet or script, and the pattern with each `*` filled in.
#[cfg(test)]
fn derived_assets(pattern: &[u8]) -> Vec<String> {
    let star = memchr::memchr(b'*', pattern);
    let mut out = Vec::new();
    derived_assets_into(pattern, star.is_some(), literal_prefix(pattern), &mut out);
    out
}

/// [`derived_assets`] of `pattern`, pushed onto `out`, given whether the pattern has a `*` and
/// its literal prefix ([`literal_prefix`]): most patterns give none, and are told apart from
/// their literal prefix alone, without another pass over the pattern.
fn derived_assets_into(pattern: &[u8], has_star: bool, lit: &[u8], out: &mut Vec<String>) {
    let ends_like_asset = is_asset_path;
    let dir = asset_dir(lit);
    if !has_star && dir.is_none() && !ends_like_asset(lit) {
        return;
    }
    if lit.starts_with(b"/") && memchr::memchr(b'?', lit).is_none() {
        let last = &lit[memchr::memrchr(b'/', lit).map_or(0, |i| i + 1)..];
        if memchr::memchr(b'.', last).is_some() {
            if ends_like_asset(lit) {
                out.push(crate::text::lossy(lit).into_owned());
            }
        } else if let Some(scripts) = dir {
            let mut dir = crate::text::lossy(lit).into_owned();
            if !dir.ends_with('/') {
                dir.push('/');
            }
            let (a, b) = ("app.js", "style.css");
            let (first, second) = if scripts { (a, b) } else { (b, a) };
            out.push(sentence!("{dir}{first}"));
            dir.push_str(second);
            out.push(dir);
        }
    }
    if has_star {
        let p = pattern.strip_suffix(b"$").unwrap_or(pattern);
        if ends_like_asset(p) {
            let mut filled: Vec<u8> = Vec::with_capacity(p.len() + 4);
            if !p.starts_with(b"/") {
                filled.push(b'/');
            }
            for &b in p {
                if b == b'*' {
                    filled.push(b'x');
                } else {
                    filled.push(b);
                }
            }
            out.push(crate::text::lossy(&filled).into_owned());
        }
    }
}

/// Whether a generic sample path is a fair test of a rule: the rule's literal prefix is empty or
/// `/` (a wildcard rule), or ends where a path segment of the sample ends, so that `/x` is not
/// taken to block `/x.css`.
fn fair_sample(lit: &[u8], sample: &str) -> bool {
    lit.len() <= 1
        || lit.ends_with(b"/")
        || matches!(sample.as_bytes().get(lit.len()), Some(b'/') | Some(b'?'))
}

/// [`GENERIC_ASSETS`] as one reading matches them, worked out once per reading.
struct GenericAssets {
    /// Each sample as written, normalised, with what it holds ([`ByteSets::present`]): a
    /// pattern that requires what a sample lacks is turned away without matching it.
    samples: Vec<(&'static str, Vec<u8>, ByteSets)>,
    /// Per byte, a bit (`1 << index` in `samples`) for each normalised sample whose second
    /// byte it is.
    by_second: [u16; 256],
}

impl GenericAssets {
    /// The samples of `reading`.
    fn of(reading: Reading) -> &'static GenericAssets {
        static CELLS: [std::sync::OnceLock<GenericAssets>; 2] =
            [std::sync::OnceLock::new(), std::sync::OnceLock::new()];
        let cell = match reading {
            Reading::Google => &CELLS[0],
            Reading::Rfc9309 => &CELLS[1],
        };
        cell.get_or_init(|| {
            const _: () = assert!(GENERIC_ASSETS.len() < 16);
            let samples: Vec<(&'static str, Vec<u8>, ByteSets)> = GENERIC_ASSETS
                .iter()
                .map(|c| {
                    let norm = normalize(c.as_bytes(), reading, Side::Url).into_owned();
                    let present = ByteSets::present(&norm);
                    (*c, norm, present)
                })
                .collect();
            let mut by_second = [0u16; 256];
            for (i, (_, norm, _)) in samples.iter().enumerate() {
                if let Some(&b) = norm.get(1) {
                    by_second[usize::from(b)] |= 1 << i;
                }
            }
            GenericAssets { samples, by_second }
        })
    }
}

fn blocks_assets(cx: &Ctx, reading: Reading, p: &Policy, out: &mut Found) {
    let (groups, _) = p.groups_for("Googlebot");
    if groups.is_empty() {
        return;
    }
    let generic = GenericAssets::of(reading);
    let mut decided: HashMap<String, Option<usize>> = HashMap::default();
    let mut decide = |path: &str| -> Option<usize> {
        *decided.entry(path.to_string()).or_insert_with(|| {
            let d = p.decide("Googlebot", path);
            (!d.allowed).then(|| d.rule.map(|r| r.line)).flatten()
        })
    };
    // The sample paths of one rule, reused from rule to rule.
    let mut candidates: Vec<String> = Vec::new();
    for g in &groups {
        for r in g.rules.iter() {
            if r.kind != RuleKind::Disallow
                || r.derived
                || r.pattern.is_empty()
                || matches_everything(&r.pattern)
            {
                continue;
            }
            // One pass over the pattern finds its first `*`: everything below is judged from
            // its literal prefix, which is the pattern (without a final `$`) when it has none.
            let star = crate::pattern::find_byte(b'*', &r.pattern);
            let lit = match star {
                Some(i) => &r.pattern[..i],
                None => r.pattern.strip_suffix(b"$").unwrap_or(&r.pattern),
            };
            // A rule for one named script or stylesheet (`Disallow: /consent-popup.js`) blocks
            // that file on purpose; rendering is the author's call there.
            let single_file = star.is_none()
                && [&b".js"[..], b".css", b".mjs"].iter().any(|e| {
                    lit.len() >= e.len() && lit[lit.len() - e.len()..].eq_ignore_ascii_case(e)
                });
            if single_file {
                continue;
            }
            candidates.clear();
            let mut required = None;
            // A match needs the pattern's literal prefix at the start of the path: its second
            // byte, after the common `/`, picks the few samples that can.
            let all = (1u16 << generic.samples.len()) - 1;
            let mut maybe = lit
                .get(1)
                .map_or(all, |&b| generic.by_second[usize::from(b)]);
            while maybe != 0 {
                let (c, norm, present) = &generic.samples[maybe.trailing_zeros() as usize];
                maybe &= maybe - 1;
                if !norm.starts_with(lit) {
                    continue;
                }
                let required = *required.get_or_insert_with(|| ByteSets::required(&r.pattern));
                if required.within(*present) && matches(&r.pattern, norm) && fair_sample(lit, c) {
                    candidates.push((*c).to_string());
                }
            }
            let generic_found = candidates.len();
            derived_assets_into(&r.pattern, star.is_some(), lit, &mut candidates);
            // The generic samples were matched above; the derived ones are matched here.
            let mut i = 0;
            candidates.retain(|c| {
                i += 1;
                i <= generic_found
                    || matches(&r.pattern, &normalize(c.as_bytes(), reading, Side::Url))
            });
            let hit = candidates.iter().find(|c| decide(c) == Some(r.line + 1));
            let Some(example) = hit else { continue };
            let kind = if example
                .split('?')
                .next()
                .unwrap_or("")
                .to_ascii_lowercase()
                .ends_with(".css")
            {
                "stylesheets"
            } else {
                "scripts"
            };
            let lit = crate::text::lossy(literal_prefix(&r.pattern)).into_owned();
            let lit = if lit.starts_with('/') {
                lit
            } else {
                sentence!("/{lit}")
            };
            let suggestion = if lit.len() + 5 > r.pattern.len() {
                // Anchored or followed by a query: `*.js` alone would also let through
                // `/a.jsp?id=1` and `/search?q=node.js` past a `Disallow: /*?`.
                sentence!(
                    "Allow: {lit}*.css$\nAllow: {lit}*.css?\nAllow: {lit}*.js$\nAllow: {lit}*.js?"
                )
            } else {
                "remove the rule, or narrow it so that it no longer matches stylesheets and \
scripts"
                    .to_string()
            };
            out.push(
                cx.diag(
                    &BLOCKS_ASSETS,
                    line_span(cx, r.line),
                    cx.tag(reading),
                    sentence!(
                        "{} blocks {kind} for Googlebot (for example {}), which Google needs to \
render pages",
                        quote(&rule_text(cx, r)),
                        quote(example)
                    ),
                )
                .with_suggestion(suggestion),
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------

const ANALYSIS_CAPPED: CatalogueEntry = CatalogueEntry {
    name: "analysis-capped",
    severity: Severity::Info,
    summary: "The file has too many overlapping rule sets to compare every rule with every other.",
    what: "Duplicate, conflicting and redundant rules are looked for among the rules one crawler \
sees together: the groups that name it, combined. When many groups name overlapping lists of \
crawlers, each crawler can see a different combination, and the same rules are repeated in \
thousands of combinations. The analysis then compares rules within the first combinations only \
(up to 40,000 rules in all, the `*` crawlers first), or stops comparing after a fixed amount of \
work, and says so here.",
    why: "Crawlers are not affected: each one still combines its own groups and decides URLs as \
usual. But the lint may miss duplicates or conflicts in the combinations it skipped, and it \
never calls a rule redundant unless it checked every combination that contains it. Files built \
this way are hard for people to review too.",
    example: "(a file in which hundreds of groups each name hundreds of crawlers, one list \
overlapping the next, over thousands of rules)",
    fix: "Give each crawler one group: list every crawler that should follow the same rules in \
one group, and write the rules once. A crawler named in several groups obeys all of them \
combined, which is rarely what such files mean.",
    references: &[
        (
            "RFC 9309 §2.2.1",
            "https://www.rfc-editor.org/rfc/rfc9309.html#section-2.2.1",
        ),
        GOOGLE_PRECEDENCE,
    ],
};

/// Says when [`SET_ENTRY_BUDGET`] left combined sets out, or [`WORK_BUDGET`] cut the
/// comparisons short.
fn analysis_capped(
    cx: &Ctx,
    reading: Reading,
    p: &Policy,
    sets: &[CombinedSet],
    chosen: &[bool],
    work: &Work,
    out: &mut Found,
) {
    let skipped: Vec<usize> = (0..sets.len()).filter(|&i| !chosen[i]).collect();
    if skipped.is_empty() && !work.exhausted() {
        return;
    }
    let mut parts = Vec::new();
    if !skipped.is_empty() {
        let analysed = sets.len() - skipped.len();
        parts.push(sentence!(
            "its crawlers see {} different combinations of groups, and rules were compared \
within {} of them only (up to {} rules in all); the first left out is the one for {}",
            thousands(sets.len()),
            thousands(analysed),
            thousands(SET_ENTRY_BUDGET),
            quote(&visible(sets[skipped[0]].tokens[0], 60))
        ));
    }
    if work.exhausted() {
        parts.push(sentence!(
            "the comparisons between overlapping rules stopped after {} steps",
            thousands(WORK_BUDGET)
        ));
    }
    let first = skipped
        .first()
        .and_then(|&si| sets[si].groups.first())
        .or_else(|| sets.first().and_then(|s| s.groups.first()))
        .and_then(|&g| p.groups[g].user_agents.first())
        .map(|u| u.line);
    let span = match first {
        Some(line) => line_span(cx, line),
        None => crate::syntax::Span::new(0, 0),
    };
    out.push(
        cx.diag(
            &ANALYSIS_CAPPED,
            span,
            cx.tag(reading),
            sentence!(
                "the analysis of rule relations was capped: {}, so some duplicate or conflicting \
rules may not be reported, and rules of the combinations left out are not called redundant",
                parts.join("; ")
            ),
        )
        .with_suggestion("give each crawler one group, with every rule it should obey"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RobotsTxt;

    /// Letters only, so that both readings take the value as one product token.
    fn token(mut i: usize) -> String {
        let mut s = String::from("bot");
        loop {
            s.push((b'a' + (i % 26) as u8) as char);
            i /= 26;
            if i == 0 {
                return s;
            }
        }
    }

    /// One group naming `n` tokens over `rules` rules, and for each token a group of its own:
    /// every token sees a different combination, each holding the big group's rules.
    fn overlapping_lists(n: usize, rules: usize) -> Vec<u8> {
        let mut s = String::new();
        for i in 0..n {
            s.push_str(&format!("User-agent: {}\n", token(i)));
        }
        for i in 0..rules {
            s.push_str(&format!("Disallow: /p{i}/\nAllow: /p{i}/x\n"));
        }
        for i in 0..n {
            s.push_str(&format!("\nUser-agent: {}\nDisallow: /p{i}/\n", token(i)));
        }
        s.into_bytes()
    }

    #[test]
    fn combined_sets_are_indexed_within_the_budget() {
        let robots = RobotsTxt::parse(&overlapping_lists(400, 300));
        let cx = Ctx::new(&robots);
        let mut out = Found::default();
        let facts = check(&cx, &mut out);
        let f = facts.get(Reading::Google);
        assert_eq!(f.sets(), 400);
        let indexed: usize = (0..f.sets())
            .filter_map(|si| f.index(si))
            .map(|ix| ix.entries.len())
            .sum();
        let analysed = (0..f.sets()).filter_map(|si| f.index(si)).count();
        // Each set holds the 600 rules of the big group and the token's own rule.
        assert_eq!(analysed, SET_ENTRY_BUDGET / 601);
        assert_eq!(indexed, analysed * 601);
        assert!(indexed <= SET_ENTRY_BUDGET);
        // The big group is in sets left out, so none of its rules is called redundant; the
        // duplicates found in the sets analysed are real.
        assert!(!f.group_complete[0]);
        assert!(
            !out.iter()
                .any(|d| d.name == "redundant-rule" && d.line <= 400 + 600)
        );
        let capped: Vec<_> = out.iter().filter(|d| d.name == "analysis-capped").collect();
        assert_eq!(capped.len(), 1, "{out:?}");
        assert!(
            capped[0].message.contains(
                "400 different combinations of groups, and rules were compared within 66"
            ),
            "{}",
            capped[0].message
        );
    }

    #[test]
    fn sets_alike_in_both_readings_are_judged_alike() {
        // The readings differ in the first group only (Google cuts the token to `Googlebot`);
        // the `*` set is the same in both, and its verdicts are taken over.
        let robots = RobotsTxt::parse(
            b"User-agent: Googlebot/2.1\nDisallow: /g\nDisallow: /g/h\n\nUser-agent: *\n\
              Disallow: /a\nDisallow: /a/b\nAllow: /c\nDisallow: /d\nAllow: /d/e\n",
        );
        let cx = Ctx::new(&robots);
        assert!(!cx.same_policies);
        let mut out = Found::default();
        check(&cx, &mut out);
        let redundant = |line: usize, readings: crate::analysis::Readings| {
            out.iter()
                .any(|d| d.name == "redundant-rule" && d.line == line && d.readings == readings)
        };
        for line in [7, 8] {
            assert!(redundant(line, crate::analysis::Readings::Google), "{line}");
            assert!(redundant(line, crate::analysis::Readings::Rfc), "{line}");
        }
        assert!(
            !out.iter()
                .any(|d| d.line == 10 && d.name == "redundant-rule")
        );
        // `Disallow: /g/h` is redundant for Googlebot in both readings.
        assert!(redundant(3, crate::analysis::Readings::Rfc));
    }

    #[test]
    fn small_files_are_analysed_whole() {
        let robots = RobotsTxt::parse(&overlapping_lists(10, 20));
        let cx = Ctx::new(&robots);
        let mut out = Found::default();
        let facts = check(&cx, &mut out);
        let f = facts.get(Reading::Google);
        assert!((0..f.sets()).all(|si| f.index(si).is_some()));
        assert!(f.group_complete.iter().all(|&c| c));
        assert!(!out.iter().any(|d| d.name == "analysis-capped"));
        // `Disallow: /p3/` in the group of the fourth token repeats a rule of the big group.
        assert!(out.iter().any(|d| d.name == "duplicate-rule"));
    }

    #[test]
    fn lookups_stop_when_the_work_budget_is_spent() {
        // 300 rules whose literal prefixes all extend one another: every lookup has hundreds
        // of candidates.
        let mut s = String::from("User-agent: *\n");
        for k in 1..300 {
            s.push_str(&format!(
                "Disallow: /{}\nAllow: /{}$\n",
                "a".repeat(k),
                "a".repeat(k)
            ));
        }
        let robots = RobotsTxt::parse(s.as_bytes());
        let p = robots.policy(Reading::Google);
        let ix = SetIndex::new(p, &[0]);
        let work = Work::new(1_000);
        let mut answered = 0;
        for e in &ix.entries {
            if ix.overlapping(RuleKind::Allow, e.lit, &work).is_some() {
                answered += 1;
            }
        }
        assert!(work.exhausted());
        assert!(answered > 0 && answered < ix.entries.len(), "{answered}");
        let unlimited = Work::new(WORK_BUDGET);
        let long = "a".repeat(150);
        let found = ix
            .overlapping(RuleKind::Allow, format!("/{long}").as_bytes(), &unlimited)
            .unwrap();
        // Every allow: the 150 shorter or equal (`/a…$` has literal prefix `/a…`) and the 149
        // longer ones.
        assert_eq!(found.len(), 299);
    }

    #[test]
    fn percent_escapes() {
        assert_eq!(bad_percent(b"/a%20b"), None);
        assert_eq!(bad_percent(b"/a%2"), Some(2));
        assert_eq!(bad_percent(b"/100%"), Some(4));
        assert_eq!(bad_percent(b"/%zz"), Some(1));
    }

    #[test]
    fn asset_samples() {
        assert_eq!(
            derived_assets(b"/wp-includes/"),
            vec!["/wp-includes/style.css", "/wp-includes/app.js"]
        );
        assert_eq!(
            derived_assets(b"/gr/js"),
            vec!["/gr/js/app.js", "/gr/js/style.css"]
        );
        assert!(derived_assets(b"/cgi-bin/").is_empty());
        assert!(derived_assets(b"/plugins/download.php").is_empty());
        assert!(derived_assets(b"/plugins/search/").is_empty());
        // `includes` holds PHP files as often as assets (Drupal): no guess from it.
        assert!(derived_assets(b"/a/b/includes/").is_empty());
        assert_eq!(derived_assets(b"/js/lib/flex.js"), vec!["/js/lib/flex.js"]);
        assert_eq!(derived_assets(b"/*.js$"), vec!["/x.js"]);
        assert_eq!(asset_dir(b"/a/js//"), Some(true));
        assert_eq!(asset_dir(b"css"), Some(false));
        assert_eq!(asset_dir(b"/js/x"), None);
        assert_eq!(asset_dir(b"///"), None);
        assert_eq!(asset_dir(b""), None);
        assert!(is_asset_path(b"/a/b.js#top"));
        assert!(is_asset_path(b"/a/b.css?ver=2"));
        assert!(!is_asset_path(b"/a/b.css.html"));
        assert!(!fair_sample(b"/x", "/x.css"));
        assert!(fair_sample(b"/assets", "/assets/app.js"));
        assert!(fair_sample(b"/", "/style.css?ver=1"));
    }
}
