//! Explanations: what each line does, in plain words.
//!
//! Rules get a sentence on what they match, example paths that match and paths that do not
//! (derived from the pattern and checked with the matcher), the crawlers they apply to, and
//! their relations to other rules. User-agent lines get the crawlers they select; sitemap
//! lines and other records get what crawlers do with them. Comments and blank lines get none.
//! Explanations follow the Google reading, and say so where RFC 9309 reads a line differently.

use super::Explanation;
use super::context::Ctx;
use super::rules::{Facts, Relation, rule_text};
use super::sets::{RuleId, literal_prefix, matches_everything};
use super::text::{
    and_list, count, line_range, lines_list_of, names_and_more, quote, thousands, visible,
};
use crate::Reading;
use crate::crawlers;
use crate::fields::Field;
use crate::groups::{Group, Policy, ProductToken, Rule, RuleKind};
use crate::pattern::matches;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// How many related rules an explanation names before summing up the rest.
const MAX_RELATED: usize = 3;

/// Explains every line of the file that is a record or unreadable content.
pub(super) fn explain(cx: &Ctx, facts: &Facts, wanted: &dyn Fn(usize) -> bool) -> Vec<Explanation> {
    let maps = [Maps::new(cx.google), Maps::new(cx.rfc)];
    let mut applies: HashMap<(Reading, usize), String> = HashMap::default();
    let mut out = Vec::new();
    for (i, line) in cx.tree.lines.iter().enumerate() {
        if line.is_blank() || line.is_comment_only() || !wanted(i) {
            continue;
        }
        let g = cx.google.record_at(i);
        let r = cx.rfc.record_at(i);
        let std = |f: Field| {
            matches!(
                f,
                Field::UserAgent | Field::Allow | Field::Disallow | Field::Sitemap
            )
        };
        let (reading, rec) = match (g, r) {
            (Some(g), _) if std(g.field) => (Reading::Google, Some(g)),
            (_, Some(r)) if std(r.field) => (Reading::Rfc9309, Some(r)),
            (Some(g), _) => (Reading::Google, Some(g)),
            (None, r) => (Reading::Rfc9309, r),
        };
        // In a page that is not a robots.txt file, only the lines crawlers would still pick out
        // are worth explaining.
        if cx.body.is_foreign() && !rec.is_some_and(|r| std(r.field)) {
            continue;
        }
        let mi = usize::from(reading == Reading::Rfc9309);
        let mut e = match rec.map(|x| x.field) {
            Some(Field::Allow | Field::Disallow) => {
                explain_rule(cx, facts, reading, &maps[mi], &mut applies, i)
            }
            Some(Field::UserAgent) => explain_user_agent(cx, reading, &maps[mi], i),
            Some(Field::Sitemap) => explain_sitemap(cx, reading, &maps[mi], i),
            Some(Field::NonStandard(n)) => explain_nonstandard(cx, i, n),
            Some(Field::Unknown) => Some(Explanation {
                line: i + 1,
                summary: "Not a field crawlers know: every crawler skips this line.".into(),
                details: Vec::new(),
                restated: Vec::new(),
            }),
            None => Some(Explanation {
                line: i + 1,
                summary: "Not a record (no field name and colon): every crawler skips this line."
                    .into(),
                details: Vec::new(),
                restated: Vec::new(),
            }),
        };
        if let Some(e) = e.as_mut() {
            reading_note(cx, i, reading, e);
        }
        out.extend(e);
    }
    out
}

/// Per-reading lookups, built once so that explaining a line never scans the whole file:
/// rule line → rule, user-agent line → group, per group its rules' count and lines, the lines
/// that are in a group without ending it, and the sentences on the `*` group.
struct Maps {
    rule_at: HashMap<usize, RuleId>,
    group_of_ua: HashMap<usize, usize>,
    /// Per group: the number of rules as written (not derived), and the first and last line.
    rules_of: Vec<(usize, usize, usize)>,
    /// Lines that are in a group without ending it (sitemaps and other records).
    inside: HashSet<usize>,
    /// What known crawlers do with the `*` group, computed on first use.
    global: std::cell::OnceCell<Vec<String>>,
}

impl Maps {
    fn new(p: &Policy) -> Maps {
        let mut rule_at = HashMap::default();
        let mut group_of_ua = HashMap::default();
        let mut rules_of = Vec::with_capacity(p.groups.len());
        let mut inside = HashSet::default();
        for (gi, g) in p.groups.iter().enumerate() {
            let (mut n, mut first, mut last) = (0, 0, 0);
            for (ri, r) in g.rules.iter().enumerate() {
                if !r.derived {
                    rule_at.insert(r.line, (gi, ri));
                    if n == 0 {
                        first = r.line;
                    }
                    last = r.line;
                    n += 1;
                }
            }
            rules_of.push((n, first, last));
            for u in &g.user_agents {
                group_of_ua.insert(u.line, gi);
            }
            inside.extend(g.others.iter().copied());
        }
        Maps {
            rule_at,
            group_of_ua,
            rules_of,
            inside,
            global: std::cell::OnceCell::new(),
        }
    }
}

/// Adds a sentence when the other reading reads the line differently.
fn reading_note(cx: &Ctx, i: usize, reading: Reading, e: &mut Explanation) {
    // The verb agrees with the subject: "RFC 9309 parsers read", "Google's parser reads".
    let (other, other_label, s) = match reading {
        Reading::Google => (cx.rfc, "RFC 9309 parsers", ""),
        Reading::Rfc9309 => (cx.google, "Google's parser", "s"),
    };
    let this = cx.policy(reading).record_at(i).map(|r| r.field);
    let that = other.record_at(i).map(|r| r.field);
    if this != that {
        let what = match that {
            Some(Field::UserAgent) => format!("read{s} it as a user-agent line"),
            Some(Field::Allow) => format!("read{s} it as an allow rule"),
            Some(Field::Disallow) => format!("read{s} it as a disallow rule"),
            Some(Field::Sitemap) => format!("read{s} it as a sitemap line"),
            _ if reading == Reading::Rfc9309 && cx.robots.source.is_utf16() => {
                "ignores it, as it ignores the whole UTF-16 file".to_string()
            }
            _ => format!("ignore{s} this line"),
        };
        e.details.push(format!(
            "This follows Google's reading; {other_label} {what}.",
        ));
        if reading == Reading::Rfc9309 {
            e.details.pop();
            e.details
                .push(format!("This follows RFC 9309; {other_label} {what}."));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Rules.

fn explain_rule(
    cx: &Ctx,
    facts: &Facts,
    reading: Reading,
    maps: &Maps,
    applies: &mut HashMap<(Reading, usize), String>,
    i: usize,
) -> Option<Explanation> {
    let p = cx.policy(reading);
    let rec = p.record_at(i)?;
    let kind = if rec.field == Field::Allow {
        RuleKind::Allow
    } else {
        RuleKind::Disallow
    };
    let value = cx.raw(rec.value);
    let verb = match kind {
        RuleKind::Allow => "Allows",
        RuleKind::Disallow => "Disallows",
    };
    let Some(&(gi, ri)) = maps.rule_at.get(&i) else {
        return Some(Explanation {
            line: i + 1,
            summary: format!(
                "{verb} {}, but no crawler obeys it: it comes before the first user-agent line, \
outside any group.",
                describe(value)
            ),
            details: Vec::new(),
            restated: Vec::new(),
        });
    };
    let rule = &p.groups[gi].rules[ri];
    let mut details = Vec::new();
    let summary = if value.is_empty() {
        match kind {
            RuleKind::Disallow => {
                "Disallows nothing: an empty `Disallow` leaves every URL allowed \
(the usual way to say \"no restrictions\")."
                    .to_string()
            }
            RuleKind::Allow => {
                "Allows nothing in particular: an empty `Allow` is ignored.".to_string()
            }
        }
    } else {
        format!("{verb} {}.", describe(value))
    };
    let (own, no) = if rule.pattern.is_empty() {
        (Vec::new(), Vec::new())
    } else {
        examples(&rule.pattern)
    };
    if !rule.pattern.is_empty() {
        let yes = &own;
        // `a` and `b`, each quoted, written straight into the sentence.
        let shown = |out: &mut String, v: &[String]| {
            for (i, e) in v.iter().enumerate() {
                if i > 0 {
                    out.push_str(if i + 1 == v.len() { " and " } else { ", " });
                }
                out.push('`');
                out.push_str(&visible(e, 80));
                out.push('`');
            }
        };
        if !yes.is_empty() || !no.is_empty() {
            let mut d = String::with_capacity(96);
            if !yes.is_empty() {
                d.push_str("For example, it matches ");
                shown(&mut d, yes);
                if !no.is_empty() {
                    d.push_str(" but not ");
                    shown(&mut d, &no);
                }
            } else {
                d.push_str("It does not match ");
                shown(&mut d, &no);
            }
            d.push('.');
            details.push(d);
        }
        if value.ends_with(b"*") && !matches_everything(value) {
            details.push("The final `*` changes nothing: patterns match prefixes anyway.".into());
        }
    }
    details.push(
        applies
            .entry((reading, gi))
            .or_insert_with(|| applies_to(cx, p, gi))
            .clone(),
    );
    let mut restated = Vec::new();
    if let Some(rel) = facts.get(reading).relations.get(&(gi, ri)) {
        for x in rel {
            let by = match x {
                Relation::Duplicate(_) => Some(super::rules::DUPLICATE_RULE.name),
                Relation::Conflict(_, None) => Some(super::rules::CONFLICTING_RULES.name),
                // No diagnostic: an exception for some crawlers is deliberate.
                Relation::Conflict(_, Some(_)) => None,
                Relation::Redundant(_) => Some(super::rules::REDUNDANT_RULE.name),
            };
            if let Some(name) = by {
                restated.push((details.len(), name));
            }
            details.push(match x {
                Relation::Duplicate(l) => format!(
                    "Duplicate: the same rule is on line {l} for the same crawlers; this copy \
changes nothing."
                ),
                Relation::Conflict(l, None) => format!(
                    "Conflict: the allow rule on line {l} has the same pattern and wins, so this \
rule never applies."
                ),
                Relation::Conflict(l, Some(who)) => format!(
                    "Conflict for {who} only: for them the allow rule on line {l} has the same \
pattern and wins."
                ),
                Relation::Redundant(why) => format!("Redundant: {}.", why.words()),
            });
        }
    }
    details.extend(precedence(cx, facts, reading, (gi, ri), rule, &own));
    Some(Explanation {
        line: i + 1,
        summary,
        details,
        restated,
    })
}

/// What a written pattern matches, as a phrase: "every URL whose path starts with `/a/`".
pub(crate) fn describe(value: &[u8]) -> String {
    let v = crate::text::lossy(value);
    if value.is_empty() {
        return "nothing".into();
    }
    let lower = v.to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") || v.starts_with("//") {
        return format!(
            "no URL: {} is a full URL, and rules are matched against paths only",
            quote(&v)
        );
    }
    if !(v.starts_with('/') || v.starts_with('*')) {
        return format!(
            "no URL: {} does not start with `/` or `*`, and every path starts with `/`",
            quote(&v)
        );
    }
    if matches_everything(value) {
        return "every URL on the site".into();
    }
    let trimmed = v.trim_end_matches('*');
    let anchored = trimmed.ends_with('$') && !trimmed.is_empty();
    let body = if anchored {
        &trimmed[..trimmed.len() - 1]
    } else {
        trimmed
    };
    let pieces: Vec<&str> = body.split('*').collect();
    let q = |s: &str| format!("`{}`", visible(s, 80));
    if pieces.len() == 1 {
        let p = pieces[0];
        if anchored {
            if p == "/" {
                return "only the home page `/` itself (not even with a query string)".into();
            }
            return format!(
                "exactly the path {} (nothing may follow, not even a query string)",
                q(p)
            );
        }
        if p.contains('?') {
            return format!(
                "every URL that starts with {} (path and query string together)",
                q(p)
            );
        }
        return format!("every URL whose path starts with {}", q(p));
    }
    let first = pieces[0];
    let rest: Vec<&str> = pieces[1..]
        .iter()
        .copied()
        .filter(|s| !s.is_empty())
        .collect();
    let root = first.is_empty() || first == "/";
    match (root, rest.as_slice(), anchored) {
        (_, [], _) => format!("every URL whose path starts with {}", q(first)),
        (true, [one], true) => format!("every URL that ends with {}", q(one)),
        (true, ["?"], false) => "every URL with a query string (a `?` anywhere)".into(),
        (true, [one], false) => format!("every URL whose path or query string contains {}", q(one)),
        _ => {
            let (middle, last) = if anchored {
                (&rest[..rest.len() - 1], rest.last().copied())
            } else {
                (&rest[..], None)
            };
            let mut s = if root {
                "every URL".to_string()
            } else {
                format!("every URL whose path starts with {}", q(first))
            };
            if !middle.is_empty() {
                let parts: Vec<String> = middle.iter().map(|m| q(m)).collect();
                s.push_str(&format!(
                    "{} {}",
                    if root {
                        " that contains"
                    } else {
                        " and then contains"
                    },
                    and_list(&parts)
                ));
                if parts.len() > 1 {
                    s.push_str(" in that order");
                }
            }
            if let Some(l) = last {
                s.push_str(&format!(
                    "{} ends with {}",
                    if middle.is_empty() && root {
                        " that"
                    } else {
                        " and"
                    },
                    q(l)
                ));
            }
            s
        }
    }
}

/// The pattern with each `*` replaced by `with` and a final `$` dropped, starting with `/`.
fn fill(pattern: &[u8], with: &str) -> Vec<u8> {
    let p = pattern.strip_suffix(b"$").unwrap_or(pattern);
    let mut out = Vec::with_capacity(p.len() + 8);
    if !p.starts_with(b"/") {
        out.push(b'/');
    }
    for &b in p {
        if b == b'*' {
            out.extend_from_slice(with.as_bytes());
        } else {
            out.push(b);
        }
    }
    out
}

/// Up to two paths the pattern matches and two it does not, derived from the pattern and
/// checked with the matcher.
pub(crate) fn examples(pattern: &[u8]) -> (Vec<String>, Vec<String>) {
    let anchored = pattern.ends_with(b"$");
    let mut yes: Vec<String> = Vec::with_capacity(2);
    let mut no: Vec<String> = Vec::with_capacity(2);
    // Keeps a candidate if it starts with `/`, matches as wanted and is new.
    let keep = |c: &[u8], want: bool, out: &mut Vec<String>| {
        if out.len() < 2 && c.starts_with(b"/") && matches(pattern, c) == want {
            let s = crate::text::lossy(c);
            if !out.iter().any(|o| *o == s) {
                out.push(s.into_owned());
            }
        }
    };
    let filled = fill(pattern, "x");
    keep(&filled, true, &mut yes);
    if !anchored && yes.len() < 2 {
        let mut v = filled.clone();
        v.extend_from_slice(match filled.last() {
            Some(b'/') => b"page.html",
            Some(b'?') | Some(b'&') => b"q=1",
            Some(b'=') => b"1",
            Some(b'.') => b"html",
            Some(c) if c.is_ascii_alphanumeric() => b".html",
            _ => b"x",
        });
        keep(&v, true, &mut yes);
    }
    if yes.len() < 2 && pattern.contains(&b'*') {
        keep(&fill(pattern, ""), true, &mut yes);
    }
    let lit = literal_prefix(pattern);
    if lit.len() > 1 {
        keep(&lit[..lit.len() - 1], false, &mut no);
    }
    if let Some(pos) = lit.iter().position(u8::is_ascii_alphabetic)
        && pos < filled.len()
    {
        let mut v = filled.clone();
        v[pos] = if v[pos].is_ascii_lowercase() {
            v[pos].to_ascii_uppercase()
        } else {
            v[pos].to_ascii_lowercase()
        };
        keep(&v, false, &mut no);
    }
    if anchored && no.len() < 2 {
        let mut v = filled.clone();
        v.extend_from_slice(b"?x=1");
        keep(&v, false, &mut no);
    }
    if pattern.contains(&b'*') && no.len() < 2 {
        let mut v = Vec::with_capacity(lit.len() + 6);
        if !lit.starts_with(b"/") {
            v.push(b'/');
        }
        v.extend_from_slice(lit);
        v.extend_from_slice(b"index");
        keep(&v, false, &mut no);
    }
    keep(b"/", false, &mut no);
    keep(b"/other/page.html", false, &mut no);
    (yes, no)
}

/// "Applies to …": the crawlers a group's rules bind.
fn applies_to(cx: &Ctx, p: &Policy, gi: usize) -> String {
    let g = &p.groups[gi];
    let mut names: Vec<String> = Vec::new();
    let mut seen: HashSet<String> = HashSet::default();
    let mut global = false;
    for u in &g.user_agents {
        match &u.token {
            ProductToken::Any => global = true,
            ProductToken::Name(n) => {
                let s = crawler_label(n);
                if seen.insert(s.clone()) {
                    names.push(s);
                }
            }
            ProductToken::Invalid => {}
        }
    }
    let _ = cx;
    let list = |v: &[String]| names_and_more(&v[..if v.len() > 6 { 5 } else { v.len() }], v.len());
    match (global, names.is_empty()) {
        (true, true) => format!(
            "Applies to every crawler without a group of its own in this file{}.",
            fallers(p)
        ),
        (true, false) => format!(
            "Applies to {} and to every crawler without a group of its own{}.",
            list(&names),
            fallers(p)
        ),
        (false, false) => format!("Applies to {}.", list(&names)),
        (false, true) => "Applies to no crawler: its group has no valid user-agent line.".into(),
    }
}

/// `Googlebot (Google, search)` for a known crawler, `` `FooBot` `` otherwise.
fn crawler_label(token: &str) -> String {
    match crawlers::find(token) {
        Some(c) => format!("{} ({}, {})", c.token, c.operator, c.purpose.label()),
        None => format!("`{}`", visible(token, 40)),
    }
}

/// ", such as Googlebot, GPTBot and CCBot": notable known crawlers that fall to `*` in `p`, by
/// their profiles (a crawler that falls back to another named token, or ignores `*`, does not).
fn fallers(p: &Policy) -> String {
    let falls = |token: &str| match crawlers::find(token) {
        Some(c) => {
            let tokens = c.tokens();
            c.obeys_global && p.select(&c.profile(&tokens)).token.is_none()
        }
        None => p.groups_naming(token).is_empty(),
    };
    let v: Vec<String> = NOTABLE
        .iter()
        .filter(|t| falls(t))
        .take(5)
        .map(|t| t.to_string())
        .collect();
    if v.is_empty() {
        String::new()
    } else {
        format!(", such as {}", and_list(&v))
    }
}

/// Sentences on longer rules that override this one for some URLs, and shorter ones this rule
/// overrides, with an example URL each.
fn precedence(
    cx: &Ctx,
    facts: &Facts,
    reading: Reading,
    id: RuleId,
    rule: &Rule,
    own: &[String],
) -> Vec<String> {
    let f = facts.get(reading);
    let Some(sets) = f.sets_of_group.get(id.0) else {
        return Vec::new();
    };
    if rule.pattern.is_empty() {
        return Vec::new();
    }
    let opposite = match rule.kind {
        RuleKind::Allow => RuleKind::Disallow,
        RuleKind::Disallow => RuleKind::Allow,
    };
    let beats = |a: &Rule, b: &Rule| {
        a.pattern.len() > b.pattern.len()
            || (a.pattern.len() == b.pattern.len() && a.kind == RuleKind::Allow)
    };
    let lit = literal_prefix(&rule.pattern);
    let mut over: Vec<(usize, String, String)> = Vec::new();
    let mut under: Vec<(usize, String, String)> = Vec::new();
    let (mut over_more, mut under_more) = (0usize, 0usize);
    let mut seen: HashSet<(usize, bool)> = HashSet::default();
    let mut unknown = !f.group_complete.get(id.0).copied().unwrap_or(true);
    for &si in sets {
        let Some(ix) = f.index(si) else {
            continue;
        };
        let Some(cands) = ix.overlapping(opposite, lit, &f.explain_work) else {
            unknown |= f.explain_work.exhausted();
            continue;
        };
        // Filling in and matching patterns costs about their length.
        if !f.explain_work.charge(
            cands
                .iter()
                .map(|&c| 1 + ix.entries[c].rule.pattern.len() / 16)
                .sum(),
        ) {
            unknown = true;
            continue;
        }
        for c in cands {
            let other = ix.entries[c].rule;
            if other.pattern == rule.pattern {
                continue; // reported as a conflict
            }
            let wins = beats(other, rule);
            // An example URL matched by both, taken from the more specific rule: for this
            // rule, its own examples; for the other, its pattern filled in.
            let example = if wins {
                [fill(&other.pattern, "x"), fill(&other.pattern, "")]
                    .into_iter()
                    .find(|e| matches(&rule.pattern, e))
                    .map(|e| crate::text::lossy(&e).into_owned())
            } else {
                own.iter()
                    .find(|e| matches(&other.pattern, e.as_bytes()))
                    .cloned()
            };
            let Some(example) = example else {
                continue;
            };
            if !seen.insert((other.line, other.derived)) {
                continue;
            }
            let slot = if wins { &mut over } else { &mut under };
            if slot.len() >= MAX_RELATED {
                if wins {
                    over_more += 1;
                } else {
                    under_more += 1;
                }
                continue;
            }
            let label = if other.derived {
                format!(
                    "Google's extra rule `Allow: {}` (derived from line {})",
                    visible(&crate::text::lossy(&other.pattern), 60),
                    other.line + 1
                )
            } else {
                format!(
                    "{} on line {}",
                    quote(&rule_text(cx, other)),
                    other.line + 1
                )
            };
            slot.push((other.line, label, example));
        }
    }
    let mut out = Vec::new();
    let render = |v: &[(usize, String, String)]| {
        and_list(
            &v.iter()
                .map(|(_, l, e)| format!("{l} (for example `{}`)", visible(e, 80)))
                .collect::<Vec<_>>(),
        )
    };
    if !over.is_empty() {
        let more = if over_more > 0 {
            format!(" and {} more", count(over_more, "rule", "rules"))
        } else {
            String::new()
        };
        out.push(format!(
            "Overridden for some URLs by the longer {}{more}.",
            render(&over)
        ));
    }
    if !under.is_empty() {
        let more = if under_more > 0 {
            format!(" and {} more", count(under_more, "rule", "rules"))
        } else {
            String::new()
        };
        out.push(format!(
            "Takes precedence over {}{more}, being longer.",
            render(&under)
        ));
    }
    if unknown {
        out.push(
            "Not compared with every rule the same crawlers see: the file has too many \
overlapping rule sets for the analysis to compare them all (see `analysis-capped`)."
                .to_string(),
        );
    }
    out
}

// ---------------------------------------------------------------------------------------------
// User-agent lines.

fn explain_user_agent(cx: &Ctx, reading: Reading, maps: &Maps, i: usize) -> Option<Explanation> {
    let p = cx.policy(reading);
    let gi = *maps.group_of_ua.get(&i)?;
    let g = &p.groups[gi];
    let ua = g
        .user_agents
        .binary_search_by_key(&i, |u| u.line)
        .ok()
        .map(|k| &g.user_agents[k])?;
    let mut details = Vec::new();
    let summary = selected_crawler(&ua.token, &mut details);
    if let Some(rec) = p.record_at(i) {
        details.extend(other_reading_of_token(
            cx.raw(rec.value),
            &ua.token,
            reading,
        ));
    }
    details.push(place_in_group(g, maps.rules_of[gi], i));
    match &ua.token {
        ProductToken::Any => {
            // The same for every `*` line of the reading: computed once.
            details.extend(
                maps.global
                    .get_or_init(|| global_sentences(p))
                    .iter()
                    .cloned(),
            );
        }
        ProductToken::Name(n) => details.extend(other_groups_naming(p, gi, n)),
        ProductToken::Invalid => {}
    }
    Some(Explanation {
        line: i + 1,
        summary,
        details,
        restated: Vec::new(),
    })
}

/// The summary of a user-agent line: which crawler its token selects. The known crawler's note,
/// if it has one, goes to `details`.
fn selected_crawler(token: &ProductToken, details: &mut Vec<String>) -> String {
    match token {
        ProductToken::Any => {
            "Selects every crawler that has no group of its own in this file.".to_string()
        }
        ProductToken::Name(n) => match crawlers::find(n) {
            Some(c) => {
                if !c.note.is_empty() {
                    details.push(c.note.clone());
                }
                format!(
                    "Selects {} ({}, {}).",
                    c.name,
                    c.operator,
                    c.purpose.label()
                )
            }
            None => format!(
                "Selects the crawler whose product token is `{}` (compared without regard to \
case); it is not in this tool's list of known crawlers.",
                visible(n, 60)
            ),
        },
        ProductToken::Invalid => {
            "Selects no crawler: the value is empty or not a product token.".to_string()
        }
    }
}

/// How the other reading reads the value `raw` of a user-agent line, when it finds another
/// token than `token`, the one `reading` finds.
fn other_reading_of_token(raw: &[u8], token: &ProductToken, reading: Reading) -> Option<String> {
    let other = match reading {
        Reading::Google => Reading::Rfc9309,
        Reading::Rfc9309 => Reading::Google,
    };
    let theirs = ProductToken::read(raw, other);
    let same = match (token, &theirs) {
        (ProductToken::Name(a), ProductToken::Name(b)) => a.eq_ignore_ascii_case(b),
        (a, b) => a == b,
    };
    if same {
        return None;
    }
    let (reads, finds) = match other {
        Reading::Google => ("Google's parser reads", "Google's parser finds"),
        Reading::Rfc9309 => ("RFC 9309 parsers read", "RFC 9309 parsers find"),
    };
    Some(match &theirs {
        ProductToken::Any => format!("{reads} it as `*`."),
        ProductToken::Invalid => format!("{finds} no product token in it."),
        ProductToken::Name(n) => match crawlers::find(n) {
            Some(c) => format!(
                "{reads} the token `{}`, which is {} ({}, {}).",
                visible(n, 60),
                c.name,
                c.operator,
                c.purpose.label()
            ),
            None => format!(
                "{reads} the token `{}`, which names no known crawler.",
                visible(n, 60)
            ),
        },
    })
}

/// Where the user-agent line `i` stands in its group `g`, whose rules are `rules` (their
/// number, first and last line): starting it, or joining it.
fn place_in_group(g: &Group, rules: (usize, usize, usize), i: usize) -> String {
    let (n_rules, first_rule, last_rule) = rules;
    if g.user_agents.first().map(|u| u.line) != Some(i) {
        format!(
            "Joins the group started on line {}: it shares that group's {}.",
            g.first_line + 1,
            count(n_rules, "rule", "rules")
        )
    } else if n_rules == 0 {
        "Starts a group without rules: the crawlers it names may fetch everything, and they \
ignore the `*` group."
            .into()
    } else {
        format!(
            "Starts a group with {} ({}).",
            count(n_rules, "rule", "rules"),
            line_range(first_rule + 1, last_rule + 1)
        )
    }
}

/// The other groups of `p` than `gi` that name the token `n`, when there are any.
fn other_groups_naming(p: &Policy, gi: usize, n: &str) -> Option<String> {
    // Only the first few other groups are named, so only they are looked at.
    let naming = p.groups_naming(n);
    let total = naming.len() - usize::from(naming.contains(&gi));
    let others: Vec<usize> = naming
        .iter()
        .filter(|&&gj| gj != gi)
        .take(if total <= 5 { 5 } else { 3 })
        .map(|&gj| p.groups[gj].first_line + 1)
        .collect();
    (!others.is_empty()).then(|| {
        format!(
            "`{}` is also named by the groups starting on {}; crawlers combine all of them.",
            visible(n, 60),
            lines_list_of(&others, total)
        )
    })
}

/// What the known crawlers do with the `*` group of `p`, by their profiles.
fn global_sentences(p: &Policy) -> Vec<String> {
    let mut details = Vec::new();
    // Each known crawler chooses its groups by its profile: its own token, then the
    // tokens it falls back to, then `*` unless it ignores `*`.
    let known = crawlers::known();
    let mut falling: Vec<&crawlers::Crawler> = Vec::new();
    let mut own: Vec<&str> = Vec::new();
    let mut via: Vec<String> = Vec::new();
    let mut ignoring: Vec<&str> = Vec::new();
    for c in known {
        let tokens = c.tokens();
        match p.select(&c.profile(&tokens)).token {
            Some(0) => own.push(c.token.as_str()),
            Some(i) => via.push(format!("{} (the {} group)", c.token, tokens[i])),
            None if c.obeys_global => falling.push(c),
            None => ignoring.push(c.token.as_str()),
        }
    }
    if !falling.is_empty() {
        let shown = diverse(&falling, 10);
        let list = names_and_more(&shown, falling.len());
        details.push(if falling.len() == known.len() {
            format!(
                "All {} known crawlers follow it here, as none has a group of its own: \
{list}.",
                thousands(known.len())
            )
        } else {
            format!(
                "{} of the {} known crawlers follow it here: {list}.",
                thousands(falling.len()),
                thousands(known.len())
            )
        });
    }
    let short = |v: Vec<String>| names_and_more(&v[..v.len().min(10)], v.len());
    if !own.is_empty() {
        details.push(format!(
            "Crawlers with a group of their own ignore it: {}.",
            short(own.iter().map(|s| s.to_string()).collect())
        ));
    }
    if !via.is_empty() {
        details.push(format!(
            "Crawlers that follow another crawler's group when none names them ignore \
it too: {}.",
            short(via)
        ));
    }
    if !ignoring.is_empty() {
        details.push(format!(
            "Crawlers whose operators say they ignore the `*` group: {}.",
            short(ignoring.iter().map(|s| s.to_string()).collect())
        ));
    }
    details
}

/// Crawlers named first in lists, so that a list shows the major search engines and AI crawlers
/// before the long tail.
const NOTABLE: &[&str] = &[
    "Googlebot",
    "bingbot",
    "Applebot",
    "GPTBot",
    "ClaudeBot",
    "CCBot",
    "PerplexityBot",
    "Google-Extended",
    "Bytespider",
    "Amazonbot",
    "meta-externalagent",
    "YandexBot",
    "Baiduspider",
    "DuckDuckBot",
];

/// Up to `n` product tokens: the notable ones first, then the others in data-file order.
fn diverse(crawlers: &[&crawlers::Crawler], n: usize) -> Vec<String> {
    let mut out: Vec<String> = NOTABLE
        .iter()
        .filter(|t| crawlers.iter().any(|c| c.token == **t))
        .take(n)
        .map(|t| t.to_string())
        .collect();
    for c in crawlers {
        if out.len() == n {
            break;
        }
        if !out.contains(&c.token) {
            out.push(c.token.clone());
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Other records.

fn explain_sitemap(cx: &Ctx, reading: Reading, maps: &Maps, i: usize) -> Option<Explanation> {
    let p = cx.policy(reading);
    let rec = p.record_at(i)?;
    let url = cx.text(rec.value);
    let mut details = vec![
        "Sitemap lines stand apart from groups: any crawler that reads sitemaps (Google, Bing \
and others) may use it, whichever group it appears in, and the sitemap may be on another host."
            .to_string(),
    ];
    if maps.inside.contains(&i) {
        details.push("It does not end the group it appears in.".into());
    }
    Some(Explanation {
        line: i + 1,
        summary: format!("Tells crawlers where to find a sitemap: {}.", quote(&url)),
        details,
        restated: Vec::new(),
    })
}

fn explain_nonstandard(cx: &Ctx, i: usize, name: &str) -> Option<Explanation> {
    let v = cx
        .line(i)
        .parts()
        .value
        .map(|s| cx.text(s).into_owned())
        .unwrap_or_default();
    let v = visible(&v, 80);
    let (summary, detail) = match name {
        "crawl-delay" => (
            format!("Asks crawlers to wait `{v}` seconds between requests."),
            "Bing and some other crawlers honour it; Google ignores it.",
        ),
        "host" => (
            format!("Names `{v}` as the preferred host name."),
            "A Yandex extension that Yandex no longer uses; other crawlers ignore it.",
        ),
        "clean-param" => (
            format!("Tells Yandex which URL parameters do not change the page: `{v}`."),
            "Only Yandex reads it.",
        ),
        "request-rate" => (
            format!("Asks for a limit on the request rate: `{v}`."),
            "From an old proposal; almost no crawler reads it.",
        ),
        "visit-time" => (
            format!("Asks crawlers to visit only at the given times: `{v}`."),
            "From an old proposal; almost no crawler reads it.",
        ),
        "noindex" | "nofollow" | "noarchive" => (
            format!("Meant as a `{name}` directive for `{v}`, but it does nothing in robots.txt."),
            "Such directives belong in robots meta tags or X-Robots-Tag headers.",
        ),
        "content-signal" => (
            format!("States how content may be used: `{v}`."),
            "A stated preference (for example about AI training), not a rule: it blocks nothing.",
        ),
        "content-usage" => (
            format!("States usage preferences: `{v}`."),
            "From the IETF AI preferences drafts; it blocks nothing.",
        ),
        _ => (
            format!("A `{name}` record: `{v}`."),
            "Not part of RFC 9309; most crawlers ignore it.",
        ),
    };
    Some(Explanation {
        line: i + 1,
        summary,
        details: vec![
            detail.to_string(),
            "It does not end a group: user-agent lines after it still join the group above.".into(),
        ],
        restated: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions() {
        assert_eq!(describe(b"/"), "every URL on the site");
        assert_eq!(
            describe(b"/private/"),
            "every URL whose path starts with `/private/`"
        );
        assert_eq!(describe(b"/*.php$"), "every URL that ends with `.php`");
        assert_eq!(
            describe(b"/*?"),
            "every URL with a query string (a `?` anywhere)"
        );
        assert_eq!(
            describe(b"/$"),
            "only the home page `/` itself (not even with a query string)"
        );
        assert_eq!(
            describe(b"/a/*/b"),
            "every URL whose path starts with `/a/` and then contains `/b`"
        );
        assert!(describe(b"private").starts_with("no URL"));
    }

    #[test]
    fn examples_match_and_do_not() {
        let (yes, no) = examples(b"/private/");
        assert_eq!(yes, vec!["/private/", "/private/page.html"]);
        assert_eq!(no, vec!["/private", "/Private/"]);
        let (yes, no) = examples(b"/*.php$");
        assert_eq!(yes, vec!["/x.php", "/.php"]);
        assert!(no.contains(&"/x.php?x=1".to_string()));
        for p in [
            &b"/a*b*c$"[..],
            b"/search?",
            b"*.pdf",
            b"/wp-admin/admin-ajax.php",
        ] {
            let (yes, no) = examples(p);
            assert!(yes.iter().all(|y| matches(p, y.as_bytes())));
            assert!(no.iter().all(|n| !matches(p, n.as_bytes())));
        }
    }
}
