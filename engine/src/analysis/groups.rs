//! Group checks: rules outside any group, user-agent values that select nobody or not what was
//! meant, groups that are combined, the group-continuation trap, and groups without rules that
//! free their crawlers from the `*` group.

use super::context::Ctx;
use super::file::key_hidden_by_junk;
use super::found::Found;
use super::text::{
    and_list, count, line_range, lines_list, names_and_more, quote, thousands, visible,
};
use super::{CatalogueEntry, Readings, Severity};
use crate::Reading;
use crate::crawlers;
use crate::fields::Field;
use crate::groups::ProductToken;
use crate::text::sentence;
use rustc_hash::FxHashMap as HashMap;

const RFC_2_1: (&str, &str) = (
    "RFC 9309 §2.1",
    "https://www.rfc-editor.org/rfc/rfc9309.html#section-2.1",
);
const RFC_2_2_1: (&str, &str) = (
    "RFC 9309 §2.2.1",
    "https://www.rfc-editor.org/rfc/rfc9309.html#section-2.2.1",
);
const RFC_2_2_2: (&str, &str) = (
    "RFC 9309 §2.2.2",
    "https://www.rfc-editor.org/rfc/rfc9309.html#section-2.2.2",
);
const RFC_2_2_4: (&str, &str) = (
    "RFC 9309 §2.2.4",
    "https://www.rfc-editor.org/rfc/rfc9309.html#section-2.2.4",
);
const GOOGLE_UA: (&str, &str) = (
    "Google: user-agent",
    "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt#user-agent",
);
const GOOGLE_GROUPING: (&str, &str) = (
    "Google: grouping of lines and rules",
    "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt#grouping-of-lines-and-rules",
);
const GOOGLE_UA_ORDER: (&str, &str) = (
    "Google: order of precedence for user agents",
    "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt#order-of-precedence-for-user-agents",
);

/// The group-level entries, in catalogue order.
pub(super) const ENTRIES: &[CatalogueEntry] = &[
    RULE_BEFORE_GROUP,
    EMPTY_USER_AGENT,
    INVALID_PRODUCT_TOKEN,
    NO_PRODUCT_TOKEN,
    DOCUMENTED_INVALID_TOKEN,
    NONSTANDARD_PRODUCT_TOKEN,
    RULE_ON_USER_AGENT_LINE,
    MERGED_GROUPS,
    GROUP_CONTINUES,
    GROUP_CONTINUES_BLOCKS_EVERYTHING,
    EMPTY_GROUP,
    GROUP_OVERRIDES_FALLBACK,
];

/// Runs the group checks in both readings.
pub(super) fn check(cx: &Ctx, out: &mut Found) {
    for &reading in cx.readings() {
        rule_before_group(cx, reading, out);
        empty_user_agent(cx, reading, out);
        merged_groups(cx, reading, out);
        group_continues(cx, reading, out);
        empty_group(cx, reading, out);
        overrides_fallback(cx, reading, out);
    }
    invalid_product_token(cx, out);
}

// ---------------------------------------------------------------------------------------------

const RULE_BEFORE_GROUP: CatalogueEntry = CatalogueEntry {
    name: "rule-before-group",
    severity: Severity::Error,
    summary: "A rule comes before the first user-agent line and belongs to no group.",
    what: "An `Allow` or `Disallow` line appears before any `User-agent` line. Rules only apply \
within a group, and a group starts with a `User-agent` line.",
    why: "RFC 9309 tells crawlers to ignore rules outside any group, and Google does, so these \
rules bind nobody. Often the file lost its first line (a stray byte order mark, a bad merge) or \
the author assumed that rules at the top apply to everyone.",
    example: "Disallow: /admin/\n\nUser-agent: *\nDisallow: /tmp/\n",
    fix: "Put the rule under the group it is meant for; to apply it to every crawler, add \
`User-agent: *` above it (or move it into the existing `*` group).",
    references: &[RFC_2_2_2, RFC_2_1, GOOGLE_GROUPING],
};

fn rule_before_group(cx: &Ctx, reading: Reading, out: &mut Found) {
    let p = cx.policy(reading);
    if p.rules_outside_groups.is_empty() {
        return;
    }
    // A user-agent line hidden by junk before the first group explains what happened.
    let hidden_ua = cx
        .tree
        .lines
        .iter()
        .position(|l| l.parts().key.is_some_and(|k| key_hidden_by_junk(cx.raw(k))));
    for &i in &p.rules_outside_groups {
        let why = match hidden_ua {
            Some(h) if h < i => sentence!(
                "; the user-agent line on line {} is not recognised because of the characters \
before its field name",
                h + 1
            ),
            _ => String::new(),
        };
        out.push(
            cx.line_diag(
                &RULE_BEFORE_GROUP,
                i,
                cx.tag(reading),
                sentence!(
                    "{} comes before the first user-agent line, so it belongs to no group and \
every crawler ignores it{why}",
                    quote(&cx.line_text(i))
                ),
            )
            .with_suggestion(
                "move the rule below a `User-agent` line (`User-agent: *` for every crawler)",
            ),
        );
    }
}

// ---------------------------------------------------------------------------------------------

const EMPTY_USER_AGENT: CatalogueEntry = CatalogueEntry {
    name: "empty-user-agent",
    severity: Severity::Error,
    summary: "A user-agent line has no value and selects no crawler.",
    what: "The line reads `User-agent:` with nothing after the colon (or only a comment).",
    why: "An empty value names no crawler, so if it is the group's only user-agent line, the \
rules of the group apply to nobody. It often comes from a template whose crawler name was never \
filled in.",
    example: "User-agent:\nDisallow: /private/\n",
    fix: "Write the product token of the crawler (`User-agent: Googlebot`), or `User-agent: *` for \
every crawler.",
    references: &[RFC_2_2_1, GOOGLE_UA],
};

fn empty_user_agent(cx: &Ctx, reading: Reading, out: &mut Found) {
    let p = cx.policy(reading);
    for g in &p.groups {
        let selects_someone = g
            .user_agents
            .iter()
            .any(|u| u.token != ProductToken::Invalid);
        for ua in &g.user_agents {
            if !ua.value.is_empty() {
                continue;
            }
            let tail = if selects_someone {
                "; the other user-agent lines of its group still apply".to_string()
            } else if g.rules.is_empty() {
                String::new()
            } else {
                let first = g.rules.first().map_or(0, |r| r.line) + 1;
                let last = g.rules.last().map_or(0, |r| r.line) + 1;
                sentence!(
                    ", so the rules of its group ({}) apply to nobody",
                    line_range(first, last)
                )
            };
            out.push(
                cx.line_diag(
                    &EMPTY_USER_AGENT,
                    ua.line,
                    cx.tag(reading),
                    sentence!("`User-agent:` has no value and selects no crawler{tail}"),
                )
                .with_suggestion("User-agent: *"),
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------

const INVALID_PRODUCT_TOKEN: CatalogueEntry = CatalogueEntry {
    name: "invalid-product-token",
    severity: Severity::Warning,
    summary: "A user-agent value is not a plain product token (letters, `-` and `_`).",
    what: "RFC 9309 defines the user-agent value as `*` or a product token made of letters, \
hyphens and underscores, such as `Googlebot`. This value has other characters: a version \
(`Googlebot/2.1`), a whole browser identification string, digits (`MJ12bot`), spaces, or a \
wildcard (`*bot`, `Googlebot*`).",
    why: "Crawlers disagree on such values. Google's parser reads only the leading letters, `-` \
and `_` (`Googlebot/2.1` becomes `Googlebot`, `MJ12bot` becomes `MJ`, and `360Spider` becomes \
nothing), while RFC 9309 parsers compare the whole value with their own token and usually find no \
match. So the group may bind a different crawler than intended, or none.",
    example: "User-agent: Googlebot/2.1\nDisallow: /search\n\nUser-agent: Mozilla/5.0 (compatible; bingbot/2.0)\nDisallow: /\n",
    fix: "Use the bare product token the crawler documents (`Googlebot`, `bingbot`, `GPTBot`), \
without version, URL or wildcard. Wildcards are not needed: each token already matches \
case-insensitively, and `*` alone stands for every other crawler.",
    references: &[RFC_2_2_1, GOOGLE_UA],
};

const NO_PRODUCT_TOKEN: CatalogueEntry = CatalogueEntry {
    name: "no-product-token",
    severity: Severity::Error,
    summary: "A user-agent value holds no product token Google's parser can read, so its group \
binds no crawler there.",
    what: "Google's parser reads the leading letters, `-` and `_` of a user-agent value as the \
product token. This value starts with something else, such as a wildcard (`*bot`), a plus sign \
(`+Baiduspider`) or a quote, so Google finds no token at all, and RFC 9309 parsers, which compare \
the whole value, match no real crawler's token either. (Crawler names that merely start with a \
digit, such as `360Spider`, are `nonstandard-product-token`: their crawlers match them.)",
    why: "The group meant for the crawler applies to nobody: the crawler follows the `*` group (or \
no group) instead, so the rules written for it are lost.",
    example: "User-agent: +Baiduspider\nDisallow: /\n",
    fix: "Use the bare product token the crawler documents, without version, URL, wildcard or \
quotes (`User-agent: Baiduspider`).",
    references: &[RFC_2_2_1, GOOGLE_UA],
};

const DOCUMENTED_INVALID_TOKEN: CatalogueEntry = CatalogueEntry {
    name: "documented-invalid-token",
    severity: Severity::Info,
    summary: "A crawler's documented product token is not a valid RFC 9309 token; parsers \
disagree about it.",
    what: "The value is the token the crawler's operator documents, such as `MJ12bot`, but it \
breaks the RFC 9309 grammar for product tokens (letters, `-` and `_`). Google's parser reads only \
its leading letters (`MJ`); RFC 9309 parsers compare the whole value.",
    why: "There is nothing to fix in the file: the value is what the operator asks for. But \
different parsers bind the group differently: with Google's reading the group also applies to \
any crawler whose token is the leading letters.",
    example: "User-agent: MJ12bot\nDisallow: /\n",
    fix: "Nothing, usually. Keep the documented token; make sure no other crawler's token equals \
its leading letters.",
    references: &[RFC_2_2_1, GOOGLE_UA],
};

const RULE_ON_USER_AGENT_LINE: CatalogueEntry = CatalogueEntry {
    name: "rule-on-user-agent-line",
    severity: Severity::Error,
    summary: "A rule is written on the user-agent line, so it is read as part of the crawler's \
name and lost.",
    what: "The line reads like `User-agent: BadBot Disallow: /`: the rule follows the crawler's \
name on the same line. A record holds one field, so everything after `User-agent:` is the value, \
rule included.",
    why: "The rule is never read, so the crawler is not blocked; and the group names a crawler \
called `BadBot Disallow: /` (Google reads only `BadBot`, RFC 9309 parsers compare the whole \
value and match nobody). If no other rule follows, the group is empty and frees the crawler from \
the `*` group as well.",
    example: "User-agent: *\nDisallow: /private/\n\nUser-agent: BadBot Disallow: /\n",
    fix: "Put the rule on a line of its own under the user-agent line: `User-agent: BadBot`, then \
`Disallow: /`.",
    references: &[RFC_2_2_1, GOOGLE_UA],
};

const NONSTANDARD_PRODUCT_TOKEN: CatalogueEntry = CatalogueEntry {
    name: "nonstandard-product-token",
    severity: Severity::Info,
    summary: "A user-agent value breaks the product-token grammar, but binds no crawler it was \
not meant for: nothing to do.",
    what: "The value is a crawler's name with digits, dots or spaces (`360Spider`, `k2spider`, \
`Offline Explorer`, the legacy names of bad-bot lists) that neither Google's reading nor the \
value itself ties to a crawler this tool knows, or a known token with a version or wildcard that \
Google reads as meant (`Mediapartners-Google*`, `Brightbot 1.0`). RFC 9309 \
allows only letters, `-` and `_` in a product token. Google's parser reads the leading letters: \
for the names, nothing or letters no known crawler uses, so no Google crawler follows the group; \
for the wildcard, the token that was meant.",
    why: "Nothing goes wrong for Googlebot, and the crawler the name belongs to usually matches \
its own name, so the site owner has nothing to change. The finding is kept for completeness \
(the readings still differ) and is not shown by default.",
    example: "User-agent: 360Spider\nDisallow: /\n\nUser-agent: Mediapartners-Google*\nDisallow:\n",
    fix: "Nothing. To be read the same by every parser, write a crawler's documented token on a \
line of its own (`User-agent: Mediapartners-Google`).",
    references: &[RFC_2_2_1, GOOGLE_UA],
};

/// The lines (0-based) and value spans where one user-agent value is written.
type Occurrences = Vec<(usize, crate::syntax::Span)>;

fn invalid_product_token(cx: &Ctx, out: &mut Found) {
    // Line-based: every line that is a user-agent record in either reading, with the value of
    // its Google record when it has one. Only the values that are not product tokens are kept,
    // in line order.
    let invalid = |raw: &[u8]| !(raw.is_empty() || raw == b"*" || is_token(raw));
    let mut lines: Vec<(usize, crate::syntax::Span)> = cx
        .google
        .groups
        .iter()
        .flat_map(|g| g.user_agents.iter())
        .filter(|u| invalid(cx.raw(u.value)))
        .map(|u| (u.line, u.value))
        .collect();
    if !cx.same_policies {
        let google_ua = |line: usize| {
            cx.google
                .record_at(line)
                .is_some_and(|r| r.field == Field::UserAgent)
        };
        let rfc_only = cx
            .rfc
            .groups
            .iter()
            .flat_map(|g| g.user_agents.iter())
            .filter(|u| invalid(cx.raw(u.value)) && !google_ua(u.line))
            .map(|u| (u.line, u.value));
        lines.extend(rfc_only);
        lines.sort_unstable_by_key(|&(line, _)| line);
    }
    // One finding per value (compared case-insensitively, as crawlers compare tokens): the
    // first line carries it and names the others, since a site owner acts once per name.
    let mut by_value: Vec<(Vec<u8>, Occurrences)> = Vec::new();
    let mut index: HashMap<Vec<u8>, usize> = HashMap::default();
    for (i, value) in lines {
        let key = cx.raw(value).to_ascii_lowercase();
        match index.get(&key) {
            Some(&k) => by_value[k].1.push((i, value)),
            None => {
                index.insert(key.clone(), by_value.len());
                by_value.push((key, vec![(i, value)]));
            }
        }
    }
    if by_value.is_empty() {
        return;
    }
    // The group (in Google's reading) of each user-agent line, found once: looking it up per
    // value would be quadratic in files of thousands of one-line groups.
    let group_of_line: HashMap<usize, usize> = cx
        .google
        .groups
        .iter()
        .enumerate()
        .flat_map(|(gi, g)| g.user_agents.iter().map(move |u| (u.line, gi)))
        .collect();
    for (_, occurrences) in &by_value {
        let (_, span) = occurrences[0];
        let raw = cx.raw(span);
        let value = cx.text(span);
        let google = ProductToken::read(raw, Reading::Google);
        let known = known_token_in(&value);
        let google_crawler = match &google {
            ProductToken::Name(n) => crawlers::find(n),
            _ => None,
        };
        let google_part = match &google {
            ProductToken::Any => "Google reads it as `*`".to_string(),
            ProductToken::Name(n) => match google_crawler {
                Some(c) => sentence!("Google's parser reads only `{n}`, the token of {}", c.name),
                None => sentence!(
                    "Google's parser reads only `{n}`, which is not a crawler this tool knows"
                ),
            },
            ProductToken::Invalid => "Google's parser finds no product token in it".to_string(),
        };
        let without_stars: Vec<u8> = raw.iter().copied().filter(|&b| b != b'*').collect();
        // One word, as crawler names are (`360Spider`, `k2spider`, `50.nu`, `Xenu's`): no
        // version, no further words, no wildcard, no browser identification string.
        let word = !raw
            .iter()
            .any(|b| b.is_ascii_whitespace() || b"/*()<>;,\"+".contains(b));
        let reason = if raw[0] == b'*' && !is_token(&without_stars) {
            "only `*` on its own stands for every crawler"
        } else if raw.contains(&b'*') && is_token(&without_stars) {
            "user-agent values take no wildcards"
        } else if raw.iter().any(|b| b.is_ascii_whitespace()) {
            "it is not a single product token"
        } else if raw[0].is_ascii_digit() {
            "it starts with a digit, and product tokens contain only letters, `-` and `_`"
        } else if word {
            "product tokens contain only letters, `-` and `_`"
        } else {
            "it is not a plain product token"
        };
        let documented = crawlers::find(&value).is_some();
        // What the value does to Google's crawlers decides how much it matters. A name such as
        // `360Spider` or `k2spider` binds no Google crawler (Google reads nothing, or leading
        // letters no crawler uses) and its crawler compares its own name: nothing to act on.
        // `Mediapartners-Google*` is read by Google as the token meant. A value Google reads as
        // another known crawler's token (`Googlebot2`), or as nothing although it names a known
        // crawler (`+Baiduspider`, `"Googlebot"`), loses or misplaces the group.
        let google_means_it = matches!((&google, known), (ProductToken::Name(n), Some(k)) if n.eq_ignore_ascii_case(k));
        // Google reads some name, and neither it nor anything in the value is a crawler this
        // tool knows (`Offline Explorer`, `Zeus 2.6`, `k2spider`): the legacy bad-bot lists.
        // No known crawler's group changes; the crawler named matches by its own rules.
        // Names that start with a digit (`360Spider`, `80legs`) give Google no token at all, and
        // are just as harmless when they are one word.
        let harmless_word = (matches!(google, ProductToken::Name(_))
            || (word && raw[0].is_ascii_digit()))
            && known.is_none()
            && google_crawler.is_none();
        // `Wget/1.5.3`, `TurnitinBot/1.5`: a token and a version. Google reads the token meant;
        // only parsers that compare the whole value miss it.
        let version_only = match &google {
            ProductToken::Name(n) => {
                raw.get(n.len()) == Some(&b'/')
                    && raw[n.len() + 1..].first().is_some_and(u8::is_ascii_digit)
                    && raw[n.len() + 1..]
                        .iter()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
            }
            _ => false,
        };
        // `User-agent: 008 Disallow: /`: a rule written on the user-agent line is part of the
        // crawler's name, and lost.
        let lower = value.to_ascii_lowercase();
        let swallowed = ["disallow", "allow"].iter().find_map(|f| {
            lower.match_indices(f).find_map(|(at, _)| {
                let before = lower[..at].chars().next_back();
                let rest = lower[at + f.len()..].trim_start();
                (before.is_some_and(char::is_whitespace)
                    && (rest.starts_with(':') || rest.starts_with('/')))
                .then_some(at)
            })
        });
        // The group holds the same rule on a line of its own: nothing is lost.
        let swallowed = swallowed.filter(|&at| {
            let written = value[at..].to_ascii_lowercase();
            let (kind, pattern) = match written.split_once(':') {
                Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
                None => return true,
            };
            !cx.google.groups.iter().any(|g| {
                g.user_agents.iter().any(|u| u.value == span)
                    && g.rules.iter().any(|r| {
                        let k = match r.kind {
                            crate::groups::RuleKind::Allow => "allow",
                            crate::groups::RuleKind::Disallow => "disallow",
                        };
                        k == kind && cx.text(r.value).eq_ignore_ascii_case(&pattern)
                    })
            })
        });
        if let Some(at) = swallowed {
            let name = value[..at].trim_end();
            let rule = value[at..].trim();
            let rule = match rule.find(':') {
                Some(c) => sentence!(
                    "{}: {}",
                    super::fields::canonical_rule(&rule[..c]),
                    rule[c + 1..].trim()
                ),
                None => rule.to_string(),
            };
            let mut d = cx.diag(
                &RULE_ON_USER_AGENT_LINE,
                span,
                Readings::Both,
                sentence!(
                    "the user-agent line also holds the rule {}, which is read as part of the \
crawler's name: the rule is lost (RFC 9309 parsers compare the whole value {}; Google's parser \
keeps only its leading letters, `-` and `_`){also}",
                    quote(&rule),
                    quote(&value),
                    also = if occurrences.len() > 1 {
                        let rest: Vec<usize> =
                            occurrences[1..].iter().map(|(i, _)| i + 1).collect();
                        sentence!(" (the same value is on {})", lines_list(&rest))
                    } else {
                        String::new()
                    }
                ),
            );
            if !name.is_empty() {
                d = d.with_suggestion(sentence!("User-agent: {name}\n{rule}"));
            }
            out.push(d);
            continue;
        }
        // The token Google reads, followed only by a version, a wildcard or words after white
        // space (`Brightbot 1.0`, `ParadigmCrawler*`, `KIT-Fireball/2.0 (…)`), and no other known
        // crawler named inside: Google reads the crawler meant.
        let suffix_only = match &google {
            ProductToken::Name(n) => {
                let rest = &raw[n.len().min(raw.len())..];
                let version_words = rest.first().is_some_and(u8::is_ascii_whitespace)
                    && rest
                        .trim_ascii_start()
                        .first()
                        .is_some_and(|b| b.is_ascii_digit() || *b == b'(');
                (matches!(rest.first(), Some(b'/' | b'*')) || version_words)
                    && known.is_none_or(|k| k.eq_ignore_ascii_case(n))
            }
            _ => false,
        };
        // Another user-agent line of the same group already names the crawler meant
        // (`+Baiduspider` beside `Baiduspider/2.0`): this line adds nothing and loses nothing.
        let named_beside = known.is_some_and(|k| {
            occurrences.iter().all(|&(line, _)| {
                group_of_line.get(&line).is_some_and(|&gi| {
                    cx.google.groups[gi].user_agents.iter().any(|u| {
                        u.line != line
                            && matches!(&u.token, ProductToken::Name(t) if t.eq_ignore_ascii_case(k))
                    })
                })
            })
        });
        // Whether a group this value names holds rules: without any (only `Crawl-delay`, say)
        // losing the token changes no decision, which is a warning, not an error.
        let binds_rules = occurrences.iter().any(|&(line, _)| {
            group_of_line.get(&line).is_some_and(|&gi| {
                cx.google.groups[gi]
                    .rules
                    .iter()
                    .any(|r| !r.pattern.is_empty())
            })
        });
        let entry = if documented {
            &DOCUMENTED_INVALID_TOKEN
        } else if harmless_word || version_only || google_means_it || suffix_only || named_beside {
            &NONSTANDARD_PRODUCT_TOKEN
        } else if matches!(google, ProductToken::Invalid) && binds_rules {
            &NO_PRODUCT_TOKEN
        } else {
            &INVALID_PRODUCT_TOKEN
        };
        let advice = if std::ptr::eq(entry, &DOCUMENTED_INVALID_TOKEN) {
            "; nothing to do: it is the token its operator documents".to_string()
        } else if std::ptr::eq(entry, &NONSTANDARD_PRODUCT_TOKEN) {
            if named_beside {
                "; nothing to do for any crawler: another user-agent line of the group names the \
crawler meant"
                    .to_string()
            } else if google_means_it || version_only || suffix_only {
                "; nothing to do for Google, which reads the token meant; parsers that compare \
the whole value need the bare token"
                    .to_string()
            } else {
                "; no Google crawler follows this group, and the crawler it names matches its own \
name by its own rules: nothing to do"
                    .to_string()
            }
        } else {
            String::new()
        };
        let also = if occurrences.len() > 1 {
            let rest: Vec<usize> = occurrences[1..].iter().map(|(i, _)| i + 1).collect();
            sentence!(" (the same value is on {})", lines_list(&rest))
        } else {
            String::new()
        };
        let msg = if documented {
            sentence!(
                "{} is the token its operator documents, but {reason}: {google_part}, while RFC \
9309 parsers compare the whole value{advice}{also}",
                quote(&value)
            )
        } else {
            sentence!(
                "{} is not valid as a user-agent value ({reason}): {google_part}, while RFC 9309 \
parsers compare the whole value{advice}{also}",
                quote(&value)
            )
        };
        let suggestion = match (&google, known) {
            _ if documented || harmless_word => None,
            _ if named_beside => None,
            (ProductToken::Name(n), _) if version_only || suffix_only => {
                Some(sentence!("User-agent: {n}"))
            }
            _ if raw[0] == b'*' && !is_token(&without_stars) => Some("User-agent: *".to_string()),
            (_, Some(k)) => Some(sentence!("User-agent: {k}")),
            (ProductToken::Name(n), None) if value.contains('/') || value.contains('*') => {
                Some(sentence!("User-agent: {n}"))
            }
            _ => None,
        };
        let mut d = cx.diag(entry, span, Readings::Both, msg);
        if let Some(s) = suggestion {
            d = d.with_suggestion(s);
        }
        out.push(d);
    }
}

/// Whether `value` is a product token as RFC 9309 §2.2.1 defines it.
pub(super) fn is_token(value: &[u8]) -> bool {
    !value.is_empty()
        && value
            .iter()
            .all(|b| b.is_ascii_alphabetic() || *b == b'-' || *b == b'_')
}

/// The product token of a known crawler that appears in `value` as a word (for values such as
/// `Mozilla/5.0 (compatible; Googlebot/2.1; …)`), compared ignoring ASCII case. The longest
/// match wins; of two as long, the later in [`crawlers::known`].
///
/// One pass over the value tries, at each place, the tokens starting with its byte
/// ([`tokens_by_first_byte`]); per token, the occurrences are judged as a left-to-right search
/// would meet them (each search going on after the end of the last occurrence found), and the
/// first one standing as a word counts.
fn known_token_in(value: &str) -> Option<&'static str> {
    let known = crawlers::known();
    let by_first = tokens_by_first_byte();
    let hay = value.as_bytes();
    // Per token: where its next search starts, and whether it was found as a word.
    let mut from = vec![0usize; known.len()];
    let mut found = vec![false; known.len()];
    let word_byte = |b: u8| b.is_ascii_alphanumeric() || b == b'-' || b == b'_';
    for (at, &b) in hay.iter().enumerate() {
        for &id in &by_first[usize::from(b.to_ascii_lowercase())] {
            let id = usize::from(id);
            let token = known[id].token.as_bytes();
            let end = at + token.len();
            if found[id]
                || at < from[id]
                || !hay
                    .get(at..end)
                    .is_some_and(|h| h.eq_ignore_ascii_case(token))
            {
                continue;
            }
            let before = at.checked_sub(1).map(|i| hay[i]);
            if !before.is_some_and(word_byte) && !hay.get(end).is_some_and(|&a| word_byte(a)) {
                found[id] = true;
            } else {
                from[id] = end;
            }
        }
    }
    known
        .iter()
        .zip(found)
        .filter(|(_, f)| *f)
        .max_by_key(|(c, _)| c.token.len())
        .map(|(c, _)| c.token.as_str())
}

/// Per byte, the indices in [`crawlers::known`] of the product tokens whose first byte is that
/// byte in ASCII lower case (made once; no token is empty, as a test in `crawlers` holds).
fn tokens_by_first_byte() -> &'static [Vec<u16>; 256] {
    static CELL: std::sync::OnceLock<[Vec<u16>; 256]> = std::sync::OnceLock::new();
    CELL.get_or_init(|| {
        let mut by_first: [Vec<u16>; 256] = std::array::from_fn(|_| Vec::new());
        for (i, c) in crawlers::known().iter().enumerate() {
            if let (Some(&b), Ok(i)) = (c.token.as_bytes().first(), u16::try_from(i)) {
                by_first[usize::from(b.to_ascii_lowercase())].push(i);
            }
        }
        by_first
    })
}

// ---------------------------------------------------------------------------------------------

const MERGED_GROUPS: CatalogueEntry = CatalogueEntry {
    name: "merged-groups",
    severity: Severity::Info,
    summary: "Several groups name the same crawler; their rules are combined.",
    what: "Two or more groups have a user-agent line with the same product token (compared without \
regard to case), or there are several `User-agent: *` groups.",
    why: "RFC 9309 and Google combine all groups that name a crawler into one, so the crawler \
obeys the rules of every one of them. Authors sometimes expect only the first or the last group to \
count; also, a rule added to one group may be cancelled or overridden by a rule in another, far \
away in the file.",
    example: "User-agent: Googlebot\nDisallow: /a/\n\nUser-agent: *\nDisallow: /tmp/\n\nUser-agent: Googlebot\nDisallow: /b/\n",
    fix: "Keep one group per crawler: move the rules of the later groups into the first one, so \
that everything a crawler must obey is in one place.",
    references: &[RFC_2_2_1, GOOGLE_UA_ORDER],
};

/// A group's rules (kind and pattern, derived ones left out), sorted and deduplicated, from
/// `cache` or computed into it.
type SortedRules = Vec<(crate::groups::RuleKind, Vec<u8>)>;

fn sorted_rules<'m>(
    cache: &'m mut HashMap<usize, SortedRules>,
    p: &crate::groups::Policy,
    g: usize,
) -> &'m SortedRules {
    cache.entry(g).or_insert_with(|| {
        let mut r: SortedRules = p.groups[g]
            .rules
            .iter()
            .filter(|r| !r.derived)
            .map(|r| (r.kind, r.pattern.to_vec()))
            .collect();
        r.sort_unstable();
        r.dedup();
        r
    })
}

fn merged_groups(cx: &Ctx, reading: Reading, out: &mut Found) {
    let p = cx.policy(reading);
    if p.groups.len() < 2 {
        return;
    }
    // Per token, in order of first appearance: [(group, user-agent line, token as written)].
    let by_token = super::sets::groups_by_token(p);
    let mut rule_sets: HashMap<usize, SortedRules> = HashMap::default();
    for named in by_token.iter() {
        if named.len() < 2 {
            continue;
        }
        let v: Vec<(usize, usize, &str)> = named
            .iter()
            .map(|&(g, u)| {
                let ua = &p.groups[g].user_agents[u];
                (g, ua.line, super::sets::token_of(ua).unwrap_or_default())
            })
            .collect();
        let v = &v;
        // Groups with the same rules (every `Disallow: /` group of a bad-bot list, say) give
        // the same decisions combined or not: nothing to say.
        // Each group's sorted rules are computed once, however many tokens name it.
        for &(g, _, _) in v {
            sorted_rules(&mut rule_sets, p, g);
        }
        let first = &rule_sets[&v[0].0];
        if v[1..].iter().all(|&(g, _, _)| rule_sets[&g] == *first) {
            continue;
        }
        let rules: usize = v.iter().map(|&(g, _, _)| p.groups[g].rules.len()).sum();
        let (_, line, display) = v[1];
        let lines: Vec<usize> = v.iter().map(|&(_, l, _)| l + 1).collect();
        // Different names that Google's parser cuts to the same leading letters, which no known
        // crawler uses as its token: the combination exists only in that reading, and no
        // crawler is affected by it; say so once.
        let raws: Vec<(usize, &[u8])> = v
            .iter()
            .filter_map(|&(_, l, _)| p.record_at(l))
            .map(|rec| (display.len(), cx.raw(rec.value)))
            .collect();
        if reading == Reading::Google && display != "*" && super::sets::names_collapse(&raws) {
            let values: Vec<String> = raws
                .iter()
                .map(|(_, r)| crate::text::lossy(r).into_owned())
                .collect();
            let names: Vec<String> = values.iter().take(4).map(|t| quote(t)).collect();
            out.push(cx.line_diag(
                &MERGED_GROUPS,
                line,
                cx.tag(reading),
                sentence!(
                    "Google's parser reads {} all as `{}` (the leading letters) and so combines \
their groups (user-agent {}); the crawlers match their own full names, and RFC 9309 parsers \
keep the groups apart, so nothing needs to change",
                    and_list(&names),
                    visible(display, 60),
                    lines_list(&lines)
                ),
            ));
            continue;
        }
        let who = if display == "*" {
            "`User-agent: *` appears".to_string()
        } else {
            sentence!("`{}` is named", visible(display, 60))
        };
        out.push(cx.line_diag(
            &MERGED_GROUPS,
            line,
            cx.tag(reading),
            sentence!(
                "{who} in {} groups (user-agent {}); crawlers combine their rules ({} in all)",
                v.len(),
                lines_list(&lines),
                count(rules, "rule", "rules")
            ),
        ));
    }
}

// ---------------------------------------------------------------------------------------------

const GROUP_CONTINUES: CatalogueEntry = CatalogueEntry {
    name: "group-continues",
    severity: Severity::Warning,
    summary: "User-agent lines separated by a blank line or another record still form one group.",
    what: "Only a rule (`Allow` or `Disallow`) ends the list of user-agent lines that starts a \
group. Blank lines, comments, and other records such as `Sitemap` or `Crawl-delay` do not. So \
when a user-agent line is followed by no rule before the next user-agent line, both lines belong \
to the same group.",
    why: "A file that looks like two groups is read as one: the rules written for the second \
crawler also bind the first. The classic case is `User-agent: *` followed by only a \
`Crawl-delay`, a blank line, then `User-agent: BadBot` with `Disallow: /`: every crawler is now \
blocked from the whole site.",
    example: "User-agent: *\nCrawl-delay: 10\n\nUser-agent: BadBot\nDisallow: /private/\n",
    fix: "Give every group at least one rule. If the first crawler should have no restrictions, \
say so with an empty `Disallow:` line under its user-agent line. If the crawlers were meant to \
share the rules, remove the blank line so that the intent is visible.",
    references: &[RFC_2_2_4, RFC_2_1, GOOGLE_GROUPING],
};

const GROUP_CONTINUES_BLOCKS_EVERYTHING: CatalogueEntry = CatalogueEntry {
    name: "group-continues-blocks-everything",
    severity: Severity::Error,
    summary: "User-agent lines that look like a group of their own are joined to a group that \
blocks every URL.",
    what: "As in `group-continues`: a blank line, a comment or a record such as `Crawl-delay` does \
not end a group, only a rule does. Here the rules the earlier crawlers are joined to include a \
`Disallow: /` (or `/*`), so those crawlers may fetch nothing.",
    why: "The classic bad-bot list: `User-agent: bingbot` / `Crawl-delay: 5`, a blank line, then \
`User-agent: BadBot` / `Disallow: /`. bingbot is now blocked from the whole site, the opposite of \
what the layout says, and the site drops out of that search engine.",
    example: "User-agent: bingbot\nCrawl-delay: 5\n\nUser-agent: BadBot\nDisallow: /\n",
    fix: "End the earlier group with a rule (an empty `Disallow:` allows everything) so that its \
crawlers keep their own group.",
    references: &[RFC_2_2_4, RFC_2_1, GOOGLE_GROUPING],
};

const EMPTY_GROUP: CatalogueEntry = CatalogueEntry {
    name: "empty-group",
    severity: Severity::Warning,
    summary: "A group has user-agent lines but no rules, which frees its crawlers from the `*` \
group's restrictions.",
    what: "The group's `User-agent` lines are followed by no `Allow` or `Disallow` line, typically \
because they are the last lines of the file, or because the rules under them are not read (a \
misspelt field, in the strict reading). A crawler named by a group obeys that group only, and \
ignores the `*` group, even when the group it has is empty.",
    why: "An empty group allows everything. So a trailing `User-agent: Googlebot` after \
`User-agent: *` / `Disallow: /` lets Googlebot crawl the whole site while every other crawler is \
blocked: the opposite of what a file that ends so usually means (a group left unfinished, or a \
crawler added to the list in the wrong place).",
    example: "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\n",
    fix: "Give the group its rules. If the crawler should follow the `*` rules, move its \
user-agent line into the `*` group (above its rules), or delete the line. If it really may fetch \
everything, say so with `Disallow:` under the line.",
    references: &[RFC_2_2_1, GOOGLE_GROUPING],
};

/// Groups without rules whose crawlers (named nowhere else with rules) would otherwise obey
/// restricting `*` groups.
fn empty_group(cx: &Ctx, reading: Reading, out: &mut Found) {
    let p = cx.policy(reading);
    let global: Vec<&crate::groups::Group> = p.groups.iter().filter(|g| g.is_global()).collect();
    // What the `*` groups impose: their disallow rules that match something.
    let restrictions: Vec<&crate::groups::Rule> = global
        .iter()
        .flat_map(|g| g.rules.iter())
        .filter(|r| {
            r.kind == crate::groups::RuleKind::Disallow && !r.derived && !r.pattern.is_empty()
        })
        .collect();
    let Some(first) = restrictions.first() else {
        return;
    };
    for g in &p.groups {
        if !g.rules.is_empty() || g.is_global() {
            continue;
        }
        // Empty because its rules were written on the user-agent lines: that error
        // (`rule-on-user-agent-line`) is the finding to act on.
        if g.user_agents.iter().any(|u| {
            let v = cx.text(u.value).to_ascii_lowercase();
            v.contains(" disallow") || v.contains(" allow")
        }) {
            continue;
        }
        let mut freed: Vec<String> = Vec::new();
        let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
        for u in &g.user_agents {
            let ProductToken::Name(n) = &u.token else {
                continue;
            };
            if !seen.insert(n.to_ascii_lowercase()) {
                continue;
            }
            // Named by another group with rules: those rules apply, nothing is freed.
            if p.groups_naming(n)
                .iter()
                .any(|&o| !p.groups[o].rules.is_empty())
            {
                continue;
            }
            // A crawler that ignores `*` would not obey it anyway.
            if crawlers::find(n).is_some_and(|c| !c.obeys_global) {
                continue;
            }
            freed.push(n.clone());
        }
        if freed.is_empty() {
            continue;
        }
        let shown: Vec<String> = freed
            .iter()
            .take(if freed.len() > 5 { 4 } else { 5 })
            .map(|n| sentence!("`{}`", visible(n, 40)))
            .collect();
        let who = names_and_more(&shown, freed.len());
        // Known crawlers that follow a freed crawler's group when no group names them
        // (Googlebot-Image follows Googlebot) are freed with it.
        let mut followers: Vec<(&str, Vec<&str>)> = Vec::new();
        for c in crawlers::known() {
            let tokens = c.tokens();
            let Some(i) = p.select(&c.profile(&tokens)).token else {
                continue;
            };
            let Some(f) = freed
                .iter()
                .find(|f| i > 0 && f.eq_ignore_ascii_case(tokens[i]))
            else {
                continue;
            };
            match followers.iter_mut().find(|(t, _)| t == f) {
                Some((_, v)) => v.push(c.token.as_str()),
                None => followers.push((f.as_str(), vec![c.token.as_str()])),
            }
        }
        let also: String = followers
            .iter()
            .map(|(t, v)| {
                let (does, follows) = if v.len() == 1 {
                    ("does", "follows")
                } else {
                    ("do", "follow")
                };
                sentence!(
                    ", and so {does} {}, which {follows} the `{}` group when no group names them",
                    and_list(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>()),
                    visible(t, 40)
                )
            })
            .collect();
        let (pronoun, obey) = if freed.len() == 1 && followers.is_empty() {
            ("it", "obeys")
        } else {
            ("they", "obey")
        };
        let lines: Vec<usize> = restrictions.iter().map(|r| r.line + 1).collect();
        let example = quote(&super::rules::rule_text(cx, first));
        let imposed = if restrictions.len() == 1 {
            sentence!(
                "the disallow rule of the `*` group ({example} on line {})",
                lines[0]
            )
        } else {
            sentence!(
                "the {} disallow rules of the `*` {} (on {}, such as {example})",
                thousands(restrictions.len()),
                if global.len() == 1 { "group" } else { "groups" },
                lines_list(&lines)
            )
        };
        let ua = &g.user_agents[0];
        out.push(
            cx.line_diag(
                &EMPTY_GROUP,
                ua.line,
                cx.tag(reading),
                sentence!(
                    "the group starting here has no rules, so {who} may fetch every URL{also}: \
{pronoun} no longer {obey} {imposed}, which every crawler without a group of its own obeys"
                ),
            )
            .with_suggestion(
                "give the group its rules, or move its user-agent lines into the `*` group",
            ),
        );
    }
}

fn group_continues(cx: &Ctx, reading: Reading, out: &mut Found) {
    let p = cx.policy(reading);
    for g in &p.groups {
        // Without rules (or with only empty `Disallow:` lines, which match nothing), every
        // crawler of the group may fetch everything whether the lines form one group or
        // several, so the continuation changes no decision.
        if g.rules.iter().all(|r| r.pattern.is_empty()) {
            continue;
        }
        // Only `*` lines: Google and RFC 9309 combine every `*` group anyway.
        if g.user_agents.iter().all(|u| u.token == ProductToken::Any) {
            continue;
        }
        for w in g.user_agents.windows(2) {
            let (a, b) = (w[0].line, w[1].line);
            if b <= a + 1 {
                continue;
            }
            // What stands between the two user-agent lines: blank lines or other records
            // (comments alone are a common way to annotate a list of crawlers).
            let mut breaker: Option<String> = None;
            for j in a + 1..b {
                let l = cx.line(j);
                if l.is_comment_only() {
                    continue;
                }
                breaker = Some(if l.is_blank() {
                    sentence!("the blank line {}", l.number())
                } else {
                    sentence!("{} on line {}", quote(&cx.line_text(j)), l.number())
                });
                break;
            }
            let Some(breaker) = breaker else { continue };
            // Only the first few are named: listing every earlier line for every break would
            // be quadratic in a long list of user-agent lines.
            let earlier_n = g.user_agents.partition_point(|u| u.line < b);
            let mut earlier: Vec<String> = Vec::new();
            for u in &g.user_agents[..earlier_n] {
                let name = sentence!("`{}`", visible(&cx.text(u.value), 40));
                if !earlier.contains(&name) {
                    earlier.push(name);
                }
                if earlier.len() == 4 {
                    break;
                }
            }
            // Up to four names in full; past four lines, three names and a count of the rest.
            let total = if earlier_n > 4 {
                earlier.truncate(3);
                earlier_n
            } else {
                earlier.len()
            };
            let earlier = names_and_more(&earlier, total);
            let first = g.rules.first().map_or(0, |r| r.line) + 1;
            let last = g.rules.last().map_or(0, |r| r.line) + 1;
            // A block of the whole site that binds the earlier crawlers too: they may fetch
            // nothing at all, which the separation shows was not meant.
            let blocks_all = g.rules.iter().any(|r| {
                r.kind == crate::groups::RuleKind::Disallow
                    && !r.derived
                    && super::sets::matches_everything(&r.pattern)
            });
            let rules = if blocks_all {
                sentence!(
                    "the rules on {}, which block every URL, bind {earlier} too",
                    line_range(first, last)
                )
            } else {
                sentence!(
                    "the rules on {} bind {earlier} too",
                    line_range(first, last)
                )
            };
            out.push(
                cx.line_diag(
                    if blocks_all {
                        &GROUP_CONTINUES_BLOCKS_EVERYTHING
                    } else {
                        &GROUP_CONTINUES
                    },
                    b,
                    cx.tag(reading),
                    sentence!(
                        "{} continues the group started on line {}: {breaker} does not end a \
group, only a rule does, so {rules}",
                        quote(&cx.line_text(b)),
                        g.first_line + 1
                    ),
                )
                .with_suggestion(
                    "end the earlier group with a rule (an empty `Disallow:` allows everything), \
or remove the separation if the crawlers should share the rules",
                ),
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------

const GROUP_OVERRIDES_FALLBACK: CatalogueEntry = CatalogueEntry {
    name: "group-overrides-fallback",
    severity: Severity::Warning,
    summary: "A crawler's own group replaces the group it would otherwise follow, and with it \
restrictions the own group does not repeat.",
    what: "A crawler obeys only the most specific group that names it: its own group if there is \
one, else (for crawlers such as Googlebot-News or Googlebot-Image) the group of the crawler it \
falls back to, else `*`. Groups do not add up. This group names a crawler and has rules, and \
the group it replaces has disallow rules that nothing in the crawler's own group matches.",
    why: "Authors often write a group for one crawler to add a restriction (`Googlebot-News`: \
`Disallow: /archive/`) and expect the `*` or `Googlebot` rules to go on applying. They do not: \
the crawler may now fetch everything those rules blocked. Google's page says its crawlers pick \
the group with the most specific matching user agent and ignore the other groups; RFC 9309 \
§2.2.1 says the same of crawlers in general.",
    example: "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot-News\nDisallow: /archive/\n",
    fix: "If the crawler should keep the restrictions, repeat them in its own group. If it is \
meant to have more access, nothing needs to change (an explicit `Allow` for the paths makes \
that intent visible and silences this finding).",
    references: &[RFC_2_2_1, GOOGLE_UA_ORDER],
};

/// Groups for a crawler with rules, whose crawler therefore no longer follows the restrictions
/// of the group it would fall back to (a fallback token's group, or `*`): one finding per
/// group and replaced group, at the first user-agent line concerned.
fn overrides_fallback(cx: &Ctx, reading: Reading, out: &mut Found) {
    let p = cx.policy(reading);
    let global: Vec<usize> = (0..p.groups.len())
        .filter(|&i| p.groups[i].is_global())
        .collect();
    // Keyed by the groups themselves, borrowed from the policy (or from `global`).
    let mut candidates_by: HashMap<&[usize], FallbackDisallows> = HashMap::default();
    type Pair<'k> = (&'k [usize], &'k [usize]);
    let mut dropped_by: HashMap<Pair, Vec<&crate::groups::Rule>> = HashMap::default();
    for (gi, g) in p.groups.iter().enumerate() {
        // Groups without rules are `empty-group`; a group of only empty disallows says "may
        // fetch everything" on purpose.
        if g.is_global() || !g.rules.iter().any(|r| !r.derived && !r.pattern.is_empty()) {
            continue;
        }
        // (token of the replaced group, `*` for the global one; tokens; first user-agent line;
        // the (own, fallback) groups whose dropped rules `dropped_by` holds)
        let mut found: Vec<(&str, Vec<&str>, usize, Pair)> = Vec::new();
        for u in &g.user_agents {
            let ProductToken::Name(n) = &u.token else {
                continue;
            };
            let own = p.groups_naming(n);
            if own.first() != Some(&gi) {
                continue;
            }
            let (label, fallback): (&str, &[usize]) = match crawlers::find(n) {
                Some(c) => {
                    let by_token = c.fallback_tokens.iter().find_map(|t| {
                        let gs = p.groups_naming(t);
                        (!gs.is_empty()).then_some((t.as_str(), gs))
                    });
                    match by_token {
                        Some(x) => x,
                        None if c.obeys_global => ("*", &global),
                        None => continue,
                    }
                }
                None => ("*", &global),
            };
            if fallback.is_empty() || fallback.iter().any(|f| own.contains(f)) {
                continue;
            }
            // Tokens of one group mostly share their groups and their fallback: what the
            // group drops is worked out once per pair.
            let key = (own, fallback);
            let dropped = dropped_by.entry(key).or_insert_with(|| {
                let own_patterns = own
                    .iter()
                    .flat_map(|&o| p.groups[o].rules.iter())
                    .filter(|r| !r.pattern.is_empty())
                    .map(|r| &r.pattern[..]);
                // An own rule that matches every path (`Disallow: /`) covers every rule of
                // the fallback: nothing to look at there.
                if own_patterns.clone().any(super::sets::matches_everything) {
                    Vec::new()
                } else {
                    candidates_by
                        .entry(fallback)
                        .or_insert_with(|| fallback_disallows(p, fallback))
                        .not_covered(own_patterns)
                }
            });
            if dropped.is_empty() {
                continue;
            }
            match found.iter_mut().find(|(l, ..)| *l == label) {
                // Two user-agent lines can give one product token (Google reads
                // `Mozilla/5.0 (…)` as `Mozilla`): it is named once.
                Some((_, tokens, _, _)) if !tokens.contains(&n.as_str()) => tokens.push(n),
                Some(_) => {}
                None => found.push((label, vec![n.as_str()], u.line, key)),
            }
        }
        for (label, tokens, line, key) in found {
            let label = sentence!("`{label}`");
            let dropped = &dropped_by[&key];
            let who: Vec<String> = tokens
                .iter()
                .take(3)
                .map(|t| sentence!("`{}`", visible(t, 40)))
                .collect();
            let who = names_and_more(&who, tokens.len());
            let (has, it) = if tokens.len() == 1 {
                ("has", "it")
            } else {
                ("have", "them")
            };
            let lines: Vec<usize> = dropped.iter().map(|r| r.line + 1).collect();
            let example = quote(&super::rules::rule_text(cx, dropped[0]));
            let what = if dropped.len() == 1 {
                sentence!("{example} (line {})", lines[0])
            } else {
                sentence!(
                    "{} disallow rules such as {example} ({})",
                    thousands(dropped.len()),
                    lines_list(&lines)
                )
            };
            out.push(
                cx.line_diag(
                    &GROUP_OVERRIDES_FALLBACK,
                    line,
                    cx.tag(reading),
                    sentence!(
                        "{who} {has} a group of {} own, which replaces the {label} group for \
{it}: {what} no longer {} to {it}, and nothing in this group covers the same URLs",
                        if tokens.len() == 1 { "its" } else { "their" },
                        if dropped.len() == 1 {
                            "applies"
                        } else {
                            "apply"
                        },
                    ),
                )
                .with_suggestion(sentence!(
                    "repeat the {label} group's restrictions in this group if they should apply \
to {it}; if {they} may fetch those URLs, say so with `Allow` lines",
                    they = if tokens.len() == 1 { "it" } else { "they" }
                )),
            );
        }
    }
}

/// A disallow rule of a fallback group with a path it matches ([`fallback_disallows`]).
type FallbackDisallow<'p> = (&'p crate::groups::Rule, std::borrow::Cow<'p, [u8]>);

/// The disallow rules of fallback groups that a group of a crawler's own could drop, each
/// with a path it matches, sorted by path, so that the rules an own pattern covers are looked
/// for only among the paths that start with its literal prefix, one stretch of memory.
struct FallbackDisallows<'p> {
    /// The rules, sorted by path (rules with equal paths in order).
    rules: Vec<FallbackDisallow<'p>>,
    /// Per rule in its groups' order, its place in `rules`.
    place: Vec<u32>,
    /// What each path of `rules` holds ([`crate::pattern::ByteSets::present`]), worked out when a
    /// wildcard pattern first meets many of them: it turns away most paths such a pattern
    /// cannot match without matching it.
    present: std::cell::OnceCell<Vec<crate::pattern::ByteSets>>,
}

/// Paths up to which a wildcard pattern is matched against each of them without first
/// comparing what it requires with what they hold.
const UNFILTERED_PATHS: usize = 8;

impl<'p> FallbackDisallows<'p> {
    /// The rules, in order, whose path none of `patterns` matches.
    fn not_covered<'a>(
        &self,
        patterns: impl Iterator<Item = &'a [u8]>,
    ) -> Vec<&'p crate::groups::Rule> {
        // Per place in `rules`.
        let mut covered = vec![false; self.rules.len()];
        for pattern in patterns {
            // Every path starts with `/`: a pattern that matches every path covers them all.
            if super::sets::matches_everything(pattern) {
                return Vec::new();
            }
            // A pattern matches only paths that start with its literal prefix: a run of
            // `rules`.
            let lit = super::sets::literal_prefix(pattern);
            let start = self.rules.partition_point(|(_, path)| &path[..] < lit);
            // Most runs are empty: the path at `start` tells, without a second search.
            let end = match self.rules.get(start) {
                Some((_, path)) if path.starts_with(lit) => {
                    start
                        + 1
                        + self.rules[start + 1..].partition_point(|(_, path)| path.starts_with(lit))
                }
                _ => start,
            };
            let run = &self.rules[start..end];
            let covered = &mut covered[start..end];
            if run.len() > UNFILTERED_PATHS && pattern.contains(&b'*') {
                let required = crate::pattern::ByteSets::required(pattern);
                let present = self.present.get_or_init(|| {
                    self.rules
                        .iter()
                        .map(|(_, path)| crate::pattern::ByteSets::present(path))
                        .collect()
                });
                for (((_, path), present), covered) in
                    run.iter().zip(&present[start..end]).zip(covered)
                {
                    if !*covered
                        && required.within(*present)
                        && crate::pattern::matches(pattern, path)
                    {
                        *covered = true;
                    }
                }
                continue;
            }
            for ((_, path), covered) in run.iter().zip(covered) {
                if !*covered && crate::pattern::matches(pattern, path) {
                    *covered = true;
                }
            }
        }
        self.place
            .iter()
            .map(|&at| at as usize)
            .filter(|&at| !covered[at])
            .map(|at| self.rules[at].0)
            .collect()
    }

    /// The rules with their paths in their groups' order.
    #[cfg(test)]
    fn in_order(&self) -> impl Iterator<Item = &FallbackDisallow<'p>> {
        self.place.iter().map(|&at| &self.rules[at as usize])
    }
}

/// The disallow rules of the `fallback` groups that a group of a crawler's own could drop,
/// each with a path it matches (its pattern without wildcards and anchor): not derived, not
/// empty, not matching every URL.
fn fallback_disallows<'p>(
    p: &'p crate::groups::Policy,
    fallback: &[usize],
) -> FallbackDisallows<'p> {
    let rules: Vec<FallbackDisallow<'p>> = fallback
        .iter()
        .flat_map(|&f| p.groups[f].rules.iter())
        .filter(|r| {
            r.kind == crate::groups::RuleKind::Disallow
                && !r.derived
                && !r.pattern.is_empty()
                && !super::sets::matches_everything(&r.pattern)
        })
        .filter_map(|r| {
            let mut sample = super::sets::sample_path(&r.pattern);
            if sample.first() != Some(&b'/') {
                sample.to_mut().insert(0, b'/');
            }
            crate::pattern::matches(&r.pattern, &sample).then_some((r, sample))
        })
        .collect();
    let mut by_path: Vec<(FallbackDisallow<'p>, u32)> = rules.into_iter().zip(0..).collect();
    by_path.sort_by(|a, b| a.0.1.cmp(&b.0.1));
    let mut place = vec![0; by_path.len()];
    for (at, (_, i)) in by_path.iter().enumerate() {
        place[*i as usize] = at as u32;
    }
    FallbackDisallows {
        rules: by_path.into_iter().map(|(r, _)| r).collect(),
        place,
        present: std::cell::OnceCell::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fallback_rules_not_covered_are_those_no_own_pattern_matches() {
        let robots = crate::RobotsTxt::parse(
            b"User-agent: *\nDisallow: /a\nDisallow: /a/b\nDisallow: /b*c\nDisallow: *.php$\n\
              Disallow: /c$\nDisallow: /d/*/e\nDisallow: /a/b\nDisallow: /\nDisallow: /k1/z\n\
              Disallow: /k2/y\nDisallow: /k3/z?q\nDisallow: /k4\nDisallow: /k5/*z\n\
              Disallow: /k6/yz\nDisallow: /k7\nDisallow: /k8/zz$\n",
        );
        let p = robots.policy(crate::Reading::Google);
        let fallback = fallback_disallows(p, &[0]);
        let own: &[&[&[u8]]] = &[
            &[],
            &[b"/a"],
            &[b"/a/"],
            &[b"/*c", b"/zz"],
            &[b"/*.php", b"/d/"],
            &[b"*e", b"/c"],
            &[b"/b", b"/a/b$", b"/c$"],
            &[b"/*z", b"/k7"],
            &[b"*/z$", b"/k*q"],
        ];
        for patterns in own {
            let lines: Vec<usize> = fallback
                .not_covered(patterns.iter().copied())
                .iter()
                .map(|r| r.line)
                .collect();
            let expected: Vec<usize> = fallback
                .in_order()
                .filter(|(_, path)| !patterns.iter().any(|o| crate::pattern::matches(o, path)))
                .map(|(r, _)| r.line)
                .collect();
            assert_eq!(lines, expected, "{patterns:?}");
        }
        assert!(fallback.not_covered([&b"/*"[..]].into_iter()).is_empty());
    }

    #[test]
    fn tokens() {
        assert!(is_token(b"Googlebot-Image"));
        assert!(is_token(b"meta_externalagent"));
        assert!(!is_token(b"Googlebot/2.1"));
        assert!(!is_token(b"MJ12bot"));
        assert!(!is_token(b""));
    }

    #[test]
    fn known_tokens_inside_browser_strings() {
        assert_eq!(
            known_token_in(
                "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
            ),
            Some("Googlebot")
        );
        assert_eq!(
            known_token_in("Googlebot-Image/1.0"),
            Some("Googlebot-Image")
        );
        assert_eq!(known_token_in("Foo/1.0"), None);
    }

    /// [`known_token_in`] by its definition: per token, `str::match_indices` over the value in
    /// lower case, the first occurrence standing as a word counting.
    fn known_token_by_definition(value: &str) -> Option<&'static str> {
        let lower = value.to_ascii_lowercase();
        let word =
            |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        crawlers::known()
            .iter()
            .filter(|c| {
                lower
                    .match_indices(&c.token.to_ascii_lowercase())
                    .any(|(at, t)| {
                        !word(lower[..at].chars().next_back())
                            && !word(lower[at + t.len()..].chars().next())
                    })
            })
            .max_by_key(|c| c.token.len())
            .map(|c| c.token.as_str())
    }

    proptest::proptest! {
        #[test]
        fn known_tokens_found_as_defined(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "googlebot", "GoogleBot-Image", "archive.org_bot", "archive.org", "-", "_", ".",
                    "/2.1", " ", "é", "bingbot", "bot", "x", "Mozilla/5.0 (compatible; ", ";",
                    "gptbot", "GPTBot", "ccbot", "a",
                ]),
                0..12,
            )
        ) {
            let value = parts.concat();
            proptest::prop_assert_eq!(known_token_in(&value), known_token_by_definition(&value));
        }
    }
}
