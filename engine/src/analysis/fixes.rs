//! Checking a suggested fix before it is offered.
//!
//! A fix is an edit of one line ([`Edit`]): replace it, delete it, or insert lines after it.
//! [`verify`] compares what the file and the edited file decide, in both readings, for every
//! crawler either version names plus one that no group names (so the `*` groups are covered),
//! over paths drawn from the edited rules' patterns ([`probe_paths`]) and from where they
//! overlap other rules of their group ([`cross_probes`]). It also compares, per crawler, which
//! groups apply, since deleting a group's only rule can merge its user-agent lines into the next
//! group and change everything that crawler may fetch. An edit of one rule line is decided on
//! the file's own policy with that rule replaced ([`After::RuleEdit`], [`After::Merge`]), for
//! the crawlers whose groups hold it. A user-agent line written in place of a user-agent line
//! keeps every group and rule, and only moves crawlers between groups ([`After::Retoken`]); a
//! line that is neither a rule nor a user-agent line written in place of another such line
//! changes nothing at all ([`After::Same`]). Any other edit is applied to the bytes and parsed
//! again.
//!
//! The result ([`Outcome`]) lists the decisions that change; the caller holds it against what
//! the fix claims (a redundant rule's deletion changes nothing; a rooted pattern makes a rule
//! that matched nothing match what the author meant, and never the whole site) and offers the
//! fix only when the claim holds, marked safe or unsafe.

use super::sets::{Buckets, PathBytes};
use super::{Applicability, Diagnostic, Fix, FixEdit};
use crate::decide::{Standing, holds_line};
use crate::groups::{Group, Policy, ProductToken, Rule};
use crate::text::sentence;
use crate::{Reading, RobotsTxt};
use std::borrow::Cow;

/// An edit of one line of the file (1-based line numbers, as diagnostics give them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Edit {
    /// Replace the line's content (its line end is kept) with this text.
    Replace(usize, String),
    /// Delete the line, with its line end.
    Delete(usize),
    /// Insert these lines (separated by `\n`) after the line, each with the line's line end.
    InsertAfter(usize, String),
}

impl Edit {
    /// The 1-based line edited.
    fn line(&self) -> usize {
        match self {
            Edit::Replace(l, _) | Edit::Delete(l) | Edit::InsertAfter(l, _) => *l,
        }
    }
}

/// One decision that differs between the file and the edited file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Change {
    /// The reading.
    pub reading: Reading,
    /// The crawler's product token (or the stand-in for crawlers no group names).
    pub agent: String,
    /// The path decided.
    pub path: String,
    /// Allowed before the edit.
    pub before: bool,
    /// Allowed after it.
    pub after: bool,
}

/// What an edit does to the file's meaning.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Outcome {
    /// Decisions that differ, in reading, agent and path order (at most [`MAX_CHANGES`] kept).
    pub changes: Vec<Change>,
    /// Crawlers (by token) whose rules change apart from the edited ones: their user-agent
    /// lines joined another group, or left one.
    pub regrouped: Vec<String>,
    /// Whether the edited file allows `/` for a crawler that was allowed `/` before.
    pub blocks_root: bool,
}

impl Outcome {
    /// Whether the edit changes no decision and no crawler's groups.
    pub fn changes_nothing(&self) -> bool {
        self.changes.is_empty() && self.regrouped.is_empty()
    }
}

/// Changes kept in an [`Outcome`]; verification stops counting past them.
pub const MAX_CHANGES: usize = 64;

/// The stand-in for "a crawler no group names": a token that no group of either version names.
pub(crate) fn unnamed_agent(policies: &[&Policy]) -> String {
    let mut agent = String::from("robots-explorer-unnamed-crawler");
    while policies.iter().any(|p| !p.groups_naming(&agent).is_empty()) {
        agent.push('x');
    }
    agent
}

/// Every product token either policy names, lower-cased, sorted, without repeats.
pub(crate) fn named_agents(policies: &[&Policy]) -> Vec<String> {
    tokens_named(policies)
        .into_iter()
        .map(Cow::into_owned)
        .collect()
}

/// Every product token `policies` name, lower-cased (borrowed when written in lower case),
/// sorted, without repeats.
fn tokens_named<'p>(policies: &[&'p Policy]) -> Vec<Cow<'p, str>> {
    let mut out: Vec<Cow<str>> = policies
        .iter()
        .flat_map(|p| &p.groups)
        .flat_map(|g| &g.user_agents)
        .filter_map(|ua| match &ua.token {
            ProductToken::Name(n) if n.bytes().any(|b| b.is_ascii_uppercase()) => {
                Some(Cow::Owned(n.to_ascii_lowercase()))
            }
            ProductToken::Name(n) => Some(Cow::Borrowed(n.as_str())),
            _ => None,
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The strings of `a` and of `b` (each sorted, without repeats), sorted, without repeats.
fn sorted_union<'a>(a: &'a [Cow<str>], b: &'a [Cow<str>]) -> Vec<&'a str> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut a, mut b) = (a.iter().peekable(), b.iter().peekable());
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if x < y => a.next(),
            (Some(x), Some(y)) if x > y => b.next(),
            (Some(_), Some(_)) => {
                b.next();
                a.next()
            }
            (Some(_), None) => a.next(),
            (None, _) => b.next(),
        };
        match next {
            Some(s) => out.push(&**s),
            None => return out,
        }
    }
}

/// Paths that tell apart what `patterns` match (normalised pattern bytes as the policy keeps
/// them): each pattern's literal prefix, the pattern with every `*` read as nothing and as `x`,
/// the prefix with `x` after it, and `/`. Patterns that do not start with `/` give paths with a
/// `/` in front. Sorted, without repeats.
pub(crate) fn probe_paths<'a>(patterns: impl IntoIterator<Item = &'a [u8]>) -> Vec<String> {
    let mut out = ProbeSet::default();
    let sampled: Vec<(&[u8], std::borrow::Cow<[u8]>)> = patterns
        .into_iter()
        .map(|p| (p, super::sets::sample_path(p)))
        .collect();
    push_probe_paths(
        sampled.iter().map(|(p, sample)| (*p, &sample[..])),
        &mut out,
    );
    out.sort_dedup();
    (0..out.len())
        .map(|i| String::from_utf8(out.get(i).to_vec()).expect("probe paths are built from text"))
        .collect()
}

/// Probe paths (request targets, UTF-8 bytes) kept in one buffer, each a span of it: building
/// the dozens of paths one check probes costs no allocation apiece.
#[derive(Default)]
struct ProbeSet {
    bytes: Vec<u8>,
    /// Start and end in `bytes` of each path, in the order pushed (sorted once
    /// [`ProbeSet::sort_dedup`] has run).
    spans: Vec<(u32, u32)>,
    /// Room for sorting: each span with its first bytes as a number ([`sort_key`]).
    keyed: Vec<(u128, (u32, u32))>,
}

/// The first 16 bytes of `path` as a big-endian number (zeros past its end): a path whose key
/// is less than another's sorts before it bytewise, and paths with equal keys are compared in
/// full. Probe paths mostly differ within their first bytes.
fn sort_key(path: &[u8]) -> u128 {
    let mut b = [0u8; 16];
    let n = path.len().min(16);
    b[..n].copy_from_slice(&path[..n]);
    u128::from_be_bytes(b)
}

impl ProbeSet {
    fn len(&self) -> usize {
        self.spans.len()
    }

    fn get(&self, i: usize) -> &[u8] {
        let (start, end) = self.spans[i];
        &self.bytes[start as usize..end as usize]
    }

    fn iter(&self) -> impl Iterator<Item = &[u8]> {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Pushes the concatenation of `parts`, with a `/` in front when the first part that is
    /// not empty does not start with one (or all are empty).
    fn push_rooted(&mut self, parts: &[&[u8]]) {
        let start = self.bytes.len();
        if parts.iter().find(|p| !p.is_empty()).and_then(|p| p.first()) != Some(&b'/') {
            self.bytes.push(b'/');
        }
        for p in parts {
            self.bytes.extend_from_slice(p);
        }
        self.spans.push((start as u32, self.bytes.len() as u32));
    }

    /// Pushes `path` as UTF-8 (bytes that are not UTF-8 read as U+FFFD).
    fn push_text(&mut self, path: &[u8]) {
        let start = self.bytes.len();
        if path.is_ascii() {
            self.bytes.extend_from_slice(path);
        } else {
            self.bytes
                .extend_from_slice(crate::text::lossy(path).as_bytes());
        }
        self.spans.push((start as u32, self.bytes.len() as u32));
    }

    /// Drops every path, keeping the room they took.
    fn clear(&mut self) {
        self.bytes.clear();
        self.spans.clear();
    }

    /// Sorts the paths (bytewise) and drops repeats.
    fn sort_dedup(&mut self) {
        let bytes = &self.bytes;
        let of = |&(s, e): &(u32, u32)| &bytes[s as usize..e as usize];
        self.keyed.clear();
        self.keyed
            .extend(self.spans.iter().map(|span| (sort_key(of(span)), *span)));
        self.keyed
            .sort_unstable_by(|(ka, a), (kb, b)| ka.cmp(kb).then_with(|| of(a).cmp(of(b))));
        self.keyed
            .dedup_by(|(ka, a), (kb, b)| ka == kb && of(a) == of(b));
        self.spans.clear();
        self.spans.extend(self.keyed.iter().map(|&(_, span)| span));
    }
}

/// Pushes the paths [`probe_paths`] draws from `patterns` onto `out` as UTF-8 (bytes that are
/// not UTF-8 read as U+FFFD), in no order and with repeats. Each pattern comes with its sample
/// path ([`super::sets::sample_path`]).
fn push_probe_paths<'a>(
    patterns: impl IntoIterator<Item = (&'a [u8], &'a [u8])>,
    out: &mut ProbeSet,
) {
    out.push_rooted(&[b"/"]);
    let mut stars_as_x = Vec::new();
    for (p, sample) in patterns {
        let text = crate::text::lossy(p);
        let text = text.as_bytes();
        let body = text.strip_suffix(b"$").unwrap_or(text);
        let star = memchr::memchr(b'*', body);
        let prefix = &body[..star.unwrap_or(body.len())];
        let sample = crate::text::lossy(sample);
        out.push_rooted(&[prefix]);
        out.push_rooted(&[prefix, b"x"]);
        out.push_rooted(&[sample.as_bytes()]);
        // Without a `*`, the pattern with every `*` read as `x` is the prefix, pushed already.
        if star.is_some() {
            stars_as_x.clear();
            stars_as_x.extend(body.iter().map(|&b| if b == b'*' { b'x' } else { b }));
            out.push_rooted(&[&stars_as_x]);
            out.push_rooted(&[&stars_as_x, b"x"]);
        }
    }
}

/// A normalised pattern with its literal prefix ([`super::sets::literal_prefix`]) and sample
/// path ([`super::sets::sample_path`]).
type Sampled<'a> = (&'a [u8], &'a [u8], &'a [u8]);

/// Rules of the edited rule's group that [`cross_probes`] pairs with the edited rules.
const MAX_CROSS_RULES: usize = 64;

/// Rules of a group that [`Probed::patterns_of`] keeps: the first [`MAX_CROSS_RULES`] on other
/// lines than the edited one are among them, as one line holds at most two rules (a rule and
/// the one Google derives from it).
const CROSS_PATTERNS: usize = MAX_CROSS_RULES + 2;

/// Paths matched both by one of `edited` and by one of `others` (normalised patterns, each
/// with its literal prefix ([`super::sets::literal_prefix`]) and sample
/// ([`super::sets::sample_path`]), `others` ending with `edited` themselves), built by joining
/// the two patterns' samples (wildcards dropped, anchor dropped) in either order and keeping
/// the joins both patterns match: where two rules overlap, which one is the longest match
/// decides, and an edit of one can hand the decision to the other. Pushed onto `out` as UTF-8
/// bytes (bytes that are not UTF-8 read as U+FFFD), with repeats.
fn cross_probes(edited: &[Sampled], others: &[Sampled], out: &mut ProbeSet) {
    // A path both patterns match starts with both literal prefixes, so one of them starts
    // with the other: pairs where neither does give no probe, and are not joined at all.
    let mut path = Vec::with_capacity(256);
    // Two edited patterns give the same joins either way round: each pair is joined once.
    let first_edited = others.len().saturating_sub(edited.len());
    for (i, &(a, la, sa)) in edited.iter().enumerate() {
        for (j, &(b, lb, sb)) in others.iter().enumerate() {
            if (j >= first_edited && j - first_edited < i) || !nested(la, lb) || b == a {
                continue;
            }
            // Joined either way round, equal samples, or one that is `/` or nothing, give the
            // same path: it is joined once.
            let once = sa == sb || matches!(sa, b"" | b"/") || matches!(sb, b"" | b"/");
            for (x, px, y, py) in
                [(sa, a, sb, b), (sb, b, sa, a)]
                    .into_iter()
                    .take(if once { 1 } else { 2 })
            {
                path.clear();
                let rooted = x.first() == Some(&b'/');
                if !rooted {
                    path.push(b'/');
                }
                path.extend_from_slice(x);
                path.extend_from_slice(y.strip_prefix(b"/").unwrap_or(y));
                // A pattern matches its sample, and so, unless anchored with `$`, every path
                // starting with it.
                let first =
                    (rooted && px.last() != Some(&b'$')) || crate::pattern::matches(px, &path);
                if first && crate::pattern::matches(py, &path) {
                    out.push_text(&path);
                }
            }
        }
    }
}

/// Whether one of `a` and `b` starts with the other. Most literal prefixes of a group differ in
/// their second byte, looked at first.
fn nested(a: &[u8], b: &[u8]) -> bool {
    let n = a.len().min(b.len());
    (n < 2 || a[1] == b[1]) && a[..n] == b[..n]
}

/// The file's bytes with `edit` applied; `None` when the line does not exist.
pub(crate) fn apply(robots: &RobotsTxt, edit: &Edit) -> Option<Vec<u8>> {
    let bytes = robots.bytes();
    let l = robots.tree.lines.get(edit.line().checked_sub(1)?)?;
    let mut out = Vec::with_capacity(bytes.len() + 64);
    match edit {
        Edit::Replace(_, text) => {
            out.extend_from_slice(&bytes[..l.content().start]);
            out.extend_from_slice(text.as_bytes());
            out.extend_from_slice(&bytes[l.content().end..]);
        }
        Edit::Delete(_) => {
            out.extend_from_slice(&bytes[..l.span().start]);
            out.extend_from_slice(&bytes[l.span().end..]);
        }
        Edit::InsertAfter(_, text) => {
            let end = &bytes[l.content().end..l.span().end];
            let end: &[u8] = if end.is_empty() { b"\n" } else { end };
            out.extend_from_slice(&bytes[..l.content().end]);
            out.extend_from_slice(end);
            for (i, new) in text.split('\n').enumerate() {
                if i > 0 {
                    out.extend_from_slice(end);
                }
                out.extend_from_slice(new.as_bytes());
            }
            if !bytes[l.content().end..l.span().end].is_empty() {
                out.extend_from_slice(end);
            }
            out.extend_from_slice(&bytes[l.span().end..]);
        }
    }
    Some(out)
}

/// How the edited file is decided in one reading.
enum After<'a> {
    /// By the policy of the edited file, parsed again.
    Parsed(&'a Policy),
    /// By the file's own policy with the rule on 0-based line `line`, in group `group`,
    /// replaced by `replacement` (see [`Policy::allowed_before_and_after`]): the same answers,
    /// without parsing again.
    RuleEdit {
        line: usize,
        group: usize,
        replacement: Vec<Rule>,
    },
    /// By the file's own policy without the rule on 0-based line `line`, the only rule of group
    /// `group`: the group's user-agent lines join group `into` (the next one), or keep no rule
    /// when it is the last.
    Merge {
        line: usize,
        group: usize,
        into: Option<usize>,
    },
    /// By the file's own policy with the user-agent line on 0-based line `line`, in group
    /// `group`, naming `token` (its value spanning `value` in the written text) instead: every
    /// group, rule and other product token stays as it is, only the crawlers this line names
    /// change (see [`retoken_selection`]).
    Retoken {
        line: usize,
        group: usize,
        token: ProductToken,
        value: crate::syntax::Span,
    },
    /// By the file's own policy as it is: the edit writes a line that is neither a rule nor a
    /// user-agent line in place of another such line, so the groups, their rules and product
    /// tokens, and every line number stay as they are.
    Same,
}

impl After<'_> {
    /// Whether the edit is a rule edit after which the edited group holds the same rules, as a
    /// set of kind and pattern (all decisions depend on), as before in `policy`, the file's
    /// own: every rule the line held is still there on another line or among the replacement,
    /// and every replacement rule was there already (the deletion of a rule the group repeats,
    /// or a line written again as it was). Then no decision changes, and no crawler's groups
    /// do. Linear in the group's rules.
    fn keeps_rules(&self, policy: &Policy) -> bool {
        let After::RuleEdit {
            line,
            group,
            replacement,
        } = self
        else {
            return false;
        };
        let rules = &policy.groups[*group].rules;
        let same = |a: &Rule, b: &Rule| {
            a.kind == b.kind
                && pattern_len(&a.pattern) == pattern_len(&b.pattern)
                && *a.pattern == *b.pattern
        };
        rules.iter().filter(|r| r.line == *line).all(|old| {
            rules.iter().any(|o| o.line != *line && same(o, old))
                || replacement.iter().any(|x| same(x, old))
        }) && replacement.iter().all(|x| rules.iter().any(|o| same(o, x)))
    }

    /// The group holding the edited rule, for an edit decided on the file's own policy.
    fn edited_group(&self) -> Option<usize> {
        match self {
            After::Parsed(_) | After::Retoken { .. } | After::Same => None,
            After::RuleEdit { group, .. } | After::Merge { group, .. } => Some(*group),
        }
    }
}

/// The length in bytes of `pattern`, read without slicing it.
#[inline]
fn pattern_len(pattern: &crate::groups::Pattern) -> usize {
    match pattern {
        crate::groups::Pattern::Source { start, end, .. } => (end - start) as usize,
        crate::groups::Pattern::Owned(b) => b.len(),
    }
}

/// The groups that apply to crawler `agent` (one product token, obeying `*`) once group `from`
/// has joined group `into`: [`Policy::select`] with `from` read as `into`.
fn merged_selection<'p>(
    policy: &'p Policy,
    agent: &str,
    from: usize,
    into: Option<usize>,
) -> Vec<&'p Group> {
    let named = policy.groups_naming(agent);
    let base = if named.is_empty() {
        policy.global_groups()
    } else {
        named
    };
    let mut groups: Vec<usize> = base
        .iter()
        .map(|&g| if g == from { into.unwrap_or(from) } else { g })
        .collect();
    groups.sort_unstable();
    groups.dedup();
    groups.iter().map(|&g| &policy.groups[g]).collect()
}

/// Whether `a` and `b` are the same groups, in the same order.
fn identical_groups(a: &[&Group], b: &[&Group]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| std::ptr::eq(*x, *y))
}

/// The rules of `groups` but those on `skip`, as a multiset of kind and pattern (decisions
/// depend on nothing else): their number and a sum of their hashes.
fn rule_shape(groups: &[&Group], skip: &[usize]) -> (usize, u64) {
    use std::hash::{Hash, Hasher};
    let mut count = 0usize;
    let mut sum = 0u64;
    for r in groups.iter().flat_map(|g| g.rules.iter()) {
        if skip.contains(&r.line) {
            continue;
        }
        let mut h = rustc_hash::FxHasher::default();
        (r.kind as u8, &r.pattern).hash(&mut h);
        count += 1;
        sum = sum.wrapping_add(h.finish());
    }
    (count, sum)
}

/// How the edited file can be decided on the file's own `policy` (see [`rule_edit`],
/// [`line_kept_edit`]); `None` for an edit that is parsed again.
fn own_policy_edit(robots: &RobotsTxt, policy: &Policy, edit: &Edit) -> Option<After<'static>> {
    rule_edit(robots, policy, edit)
        .or_else(|| edited_bytes_read_alike(robots, edit).then(|| line_kept_edit(policy, edit))?)
}

/// Whether each line of the edited file but those the edit writes reads as the same line of
/// the file: no parsing limit and no transcoded source could make the edited bytes read
/// differently.
fn edited_bytes_read_alike(robots: &RobotsTxt, edit: &Edit) -> bool {
    let added = match edit {
        // Each inserted line also gets a line end of at most two bytes.
        Edit::Replace(_, text) | Edit::InsertAfter(_, text) => {
            text.len() + 2 * (text.split('\n').count() + 1)
        }
        Edit::Delete(_) => 0,
    };
    robots.tree.ignored.is_none()
        && !robots.source.is_utf16()
        && !robots.source.utf16_kept_raw
        && robots.bytes().len() + added <= crate::decode::PARSING_LIMIT
}

/// How the edited file can be decided on the file's own `policy`, when the edit changes one
/// rule line: replaced by other rules, followed by inserted rules, deleted or replaced by a
/// line that is no rule ([`After::RuleEdit`] while the group keeps a rule, [`After::Merge`]
/// when it was the group's only one). `None` for every other edit (user-agent lines, lines
/// that are not rules), and whenever the parsing limit or a transcoded source could make the
/// edited bytes read differently; those are parsed again.
fn rule_edit(robots: &RobotsTxt, policy: &Policy, edit: &Edit) -> Option<After<'static>> {
    if !edited_bytes_read_alike(robots, edit) {
        return None;
    }
    let line = edit.line().checked_sub(1)?;
    if !policy.record_at(line)?.field.is_rule() {
        return None;
    }
    let from = policy
        .groups
        .iter()
        .position(|g| g.rules.iter().any(|r| r.line == line))?;
    let group = &policy.groups[from];
    let keeps_a_rule = group.rules.iter().any(|r| r.line != line);
    let replacement = match edit {
        Edit::Delete(_) => Vec::new(),
        Edit::Replace(_, text) => line_as_rule(text, line, policy.reading)?.unwrap_or_default(),
        // Rules inserted after a rule join its group: the line stands for itself and them.
        Edit::InsertAfter(_, text) => {
            let mut rules: Vec<Rule> = group
                .rules
                .iter()
                .filter(|r| r.line == line)
                .cloned()
                .collect();
            for new in text.split('\n') {
                rules.extend(line_as_rule(new, line, policy.reading)??);
            }
            rules
        }
    };
    if keeps_a_rule || !replacement.is_empty() {
        return Some(After::RuleEdit {
            line,
            group: from,
            replacement,
        });
    }
    // The group's only rule goes: its user-agent lines continue into the next group.
    let into = (from + 1 < policy.groups.len()).then_some(from + 1);
    Some(After::Merge {
        line,
        group: from,
        into,
    })
}

/// How the edited file can be decided on the file's own `policy` when the edit writes one
/// line in place of another and neither is a rule: a user-agent line in place of a user-agent
/// line ([`After::Retoken`]; groups form from the kinds of lines alone, so they keep their
/// lines and rules), or a line that is neither a rule nor a user-agent line in place of another
/// such line ([`After::Same`]). `None` for every other edit. The caller has checked that the
/// other lines read alike ([`edited_bytes_read_alike`]).
fn line_kept_edit(policy: &Policy, edit: &Edit) -> Option<After<'static>> {
    let Edit::Replace(line, text) = edit else {
        return None;
    };
    let line = line.checked_sub(1)?;
    let b = text.as_bytes();
    if b.iter().any(|&c| c == b'\n' || c == b'\r') {
        return None;
    }
    let new = crate::fields::read_record(b, 0, b.len(), line, policy.reading, false);
    let new_field = new.as_ref().map(|r| r.field);
    let old_field = policy.record_at(line).map(|r| r.field);
    let user_agent = Some(crate::fields::Field::UserAgent);
    let keeps_groups =
        |f: Option<crate::fields::Field>| f != user_agent && !f.is_some_and(|f| f.is_rule());
    if keeps_groups(old_field) && keeps_groups(new_field) {
        return Some(After::Same);
    }
    if old_field != user_agent || new_field != user_agent {
        return None;
    }
    let value = new?.value;
    let group = policy
        .groups
        .iter()
        .position(|g| g.user_agents.iter().any(|u| u.line == line))?;
    Some(After::Retoken {
        line,
        group,
        token: ProductToken::read(&b[value.range()], policy.reading),
        value,
    })
}

/// Whether, once the user-agent line on `line` of group `group` names `token`, a token of that
/// group satisfies `holds`: the new token, or that of one of its other user-agent lines.
fn edited_group_holds(
    policy: &Policy,
    line: usize,
    group: usize,
    token: &ProductToken,
    holds: &dyn Fn(&ProductToken) -> bool,
) -> bool {
    policy.groups[group]
        .user_agents
        .iter()
        .any(|u| u.line != line && holds(&u.token))
        || holds(token)
}

/// The groups that apply to crawler `agent` (one product token, obeying `*`) once the
/// user-agent line on `line`, in group `group`, names `token`: [`Policy::select`] of the
/// edited file, read off `policy`, the file's own.
fn retoken_selection<'p>(
    policy: &'p Policy,
    agent: &str,
    line: usize,
    group: usize,
    token: &ProductToken,
) -> Vec<&'p Group> {
    let with_edit = |holds: &dyn Fn(&ProductToken) -> bool| {
        edited_group_holds(policy, line, group, token, holds)
    };
    let mut chosen: Vec<usize> = policy
        .groups_naming(agent)
        .iter()
        .copied()
        .filter(|&g| g != group)
        .collect();
    if with_edit(&|t| t.names(agent)) {
        chosen.push(group);
        chosen.sort_unstable();
    }
    if chosen.is_empty() {
        chosen = policy
            .global_groups()
            .iter()
            .copied()
            .filter(|&g| g != group)
            .collect();
        if with_edit(&|t| *t == ProductToken::Any) {
            chosen.push(group);
            chosen.sort_unstable();
        }
    }
    chosen.iter().map(|&g| &policy.groups[g]).collect()
}

/// Whether crawler `agent` (one product token, obeying `*`) keeps the groups it has in
/// `policy` once the user-agent line on `line`, in group `group`, names `token`: when the edited
/// group names it (or, for a crawler no group names, is a `*` group) after the edit exactly
/// when it did before. `false` in the other cases, where [`retoken_selection`] tells.
fn retoken_keeps(
    policy: &Policy,
    agent: &str,
    line: usize,
    group: usize,
    token: &ProductToken,
) -> bool {
    let with_edit = |holds: &dyn Fn(&ProductToken) -> bool| {
        edited_group_holds(policy, line, group, token, holds)
    };
    let named = policy.groups_naming(agent);
    let names_it = with_edit(&|t| t.names(agent));
    if named.is_empty() {
        // Decided by the `*` groups before, and after unless the edited line now names it.
        !names_it
            && with_edit(&|t| *t == ProductToken::Any) == policy.global_groups().contains(&group)
    } else {
        // Decided by the groups naming it, before and after.
        names_it == named.contains(&group)
    }
}

/// The rules one written line `text` stands for in `reading`: `Some(Some(rules))` for an allow
/// or disallow line, `Some(None)` for a line that is neither a rule nor a user-agent line
/// (a comment, a sitemap, another field, nothing), `None` for a user-agent line or text that
/// holds a line end (either could change the groups).
fn line_as_rule(text: &str, line: usize, reading: Reading) -> Option<Option<Vec<Rule>>> {
    let b = text.as_bytes();
    if b.iter().any(|&c| c == b'\n' || c == b'\r') {
        return None;
    }
    match crate::fields::read_record(b, 0, b.len(), line, reading, false) {
        Some(r) if r.field.is_rule() => {
            let (rule, derived) = Rule::of_record(&std::sync::Arc::from(b), &r, reading);
            Some(Some(std::iter::once(rule).chain(derived).collect()))
        }
        Some(r) if r.field == crate::fields::Field::UserAgent => None,
        _ => Some(None),
    }
}

/// Applies `edit` and compares the two versions (see the module documentation). `None` when the
/// edit does not apply (no such line).
/// `state` keeps what the checks of one file's fixes share ([`Verified`]; start with
/// `Default::default()`).
pub(crate) fn verify<'p>(
    robots: &'p RobotsTxt,
    edit: &Edit,
    state: &mut Verified<'p>,
) -> Option<Outcome> {
    verify_with(robots, edit, true, state)
}

/// What the checks of one file's fixes share (start with `Default::default()`): per reading
/// in [`Reading::ALL`] order, the crawler selections of the file's own policy with their rules
/// indexed ([`Probed`]), and whether both readings give the file the same groups, worked out on
/// first use.
#[derive(Default)]
pub(crate) struct Verified<'p> {
    probed: [Probed<'p>; 2],
    /// Per reading, every product token the file's policy names ([`named_agents`]), sorted,
    /// worked out on first use.
    named: [Option<Vec<Cow<'p, str>>>; 2],
    /// The probe paths of the check under way, kept from one check to the next for the room
    /// they took.
    paths: ProbeSet,
    same_groups: Option<bool>,
    /// Per group index, whether both readings give the group at that index the same rules,
    /// worked out on first use.
    same_rules: Vec<Option<bool>>,
}

impl Verified<'_> {
    /// Whether both readings of `robots` (the file these checks are of) have the same groups:
    /// user-agent lines, product tokens, rules and their normalised patterns, all that
    /// [`compare`] reads of a policy.
    fn same_groups(&mut self, robots: &RobotsTxt) -> bool {
        *self.same_groups.get_or_insert_with(|| {
            robots.policy(Reading::Google).groups == robots.policy(Reading::Rfc9309).groups
        })
    }

    /// Whether both readings of `robots` have a group at index `group`, with the same rules.
    fn same_rules(&mut self, robots: &RobotsTxt, group: usize) -> bool {
        let (g, f) = (
            robots.policy(Reading::Google),
            robots.policy(Reading::Rfc9309),
        );
        if self.same_rules.len() <= group {
            self.same_rules.resize(group + 1, None);
        }
        *self.same_rules[group].get_or_insert_with(|| {
            g.groups
                .get(group)
                .zip(f.groups.get(group))
                .is_some_and(|(x, y)| x.rules == y.rules)
        })
    }

    /// Whether the readings of `robots` decide alike every probe path that is the same request
    /// target in both, for an edit decided on the file's own policy as `after` says in both
    /// readings (a rule edit or merge; `false` for an edit parsed again): the crawlers
    /// [`compare`] asks about (those the edited group names, and the stand-in for those no
    /// group names) are the same in both readings, and each selects groups at the same indices
    /// with the same rules in both, as do the edited group and the group it merges into. Other
    /// groups may differ.
    fn same_selections(&mut self, robots: &RobotsTxt, after: &After) -> bool {
        let (group, into) = match after {
            After::RuleEdit { group, .. } => (*group, None),
            After::Merge { group, into, .. } => (*group, *into),
            After::Parsed(_) | After::Retoken { .. } | After::Same => return false,
        };
        if !self.same_rules(robots, group) || into.is_some_and(|i| !self.same_rules(robots, i)) {
            return false;
        }
        let (g, f) = (
            robots.policy(Reading::Google),
            robots.policy(Reading::Rfc9309),
        );
        let agents = group_agents(g, group);
        let unnamed = unnamed_agent(&[g]);
        if agents != group_agents(f, group) || unnamed != unnamed_agent(&[f]) {
            return false;
        }
        let selection = |p: &'_ Policy, agent: &str| -> Vec<usize> {
            let named = p.groups_naming(agent);
            if named.is_empty() {
                p.global_groups().to_vec()
            } else {
                named.to_vec()
            }
        };
        agents.iter().chain([&unnamed]).all(|agent| {
            let chosen = selection(g, agent);
            chosen == selection(f, agent) && chosen.iter().all(|&i| self.same_rules(robots, i))
        })
    }
}

/// What [`compare`] did in one reading, so that the next reading can take its answers over
/// when it would decide exactly alike ([`verify_with`]).
#[derive(Clone, Copy, Debug, Default)]
struct Compared {
    /// Whether the comparison ran.
    ran: bool,
    /// Whether it probed the paths it left in [`Verified::paths`]; an edit that changes
    /// nothing probes none (it would probe `/` alone, the same request target in every
    /// reading).
    probed: bool,
    /// The changes the comparison of probe paths pushed (the first ones of the outcome, as
    /// the comparison ran first), before those found for regrouped crawlers.
    decided: usize,
}

/// Whether every one of `paths` is the same request target in every reading: normalised alike
/// (left as it is), and not `/robots.txt` (which RFC 9309 always allows).
fn neutral_paths(paths: &ProbeSet) -> bool {
    paths.iter().all(|p| {
        p != b"/robots.txt"
            && Reading::ALL.iter().all(|&r| {
                // Borrowed: the path as it is.
                match crate::pattern::normalize(p, r, crate::pattern::Side::Url) {
                    std::borrow::Cow::Borrowed(_) => true,
                    std::borrow::Cow::Owned(n) => n == p,
                }
            })
    })
}

/// Whether `a` and `b`, how the edited file is decided in two readings whose own groups are
/// the same, decide alike: the same rule edit or merge, the same user-agent line read alike,
/// edits that change nothing, or edited files parsed again to the same groups.
fn same_after(a: &After, b: &After) -> bool {
    match (a, b) {
        (
            After::RuleEdit {
                line,
                group,
                replacement,
            },
            After::RuleEdit {
                line: l,
                group: g,
                replacement: r,
            },
        ) => line == l && group == g && replacement == r,
        (
            After::Merge { line, group, into },
            After::Merge {
                line: l,
                group: g,
                into: i,
            },
        ) => line == l && group == g && into == i,
        (After::Parsed(x), After::Parsed(y)) => x.groups == y.groups,
        (
            After::Retoken {
                line,
                group,
                token,
                value,
            },
            After::Retoken {
                line: l,
                group: g,
                token: t,
                value: v,
            },
        ) => line == l && group == g && token == t && value == v,
        (After::Same, After::Same) => true,
        _ => false,
    }
}

/// [`verify`], deciding rule edits on the file's own policy when `shortcut` allows it, and on
/// the edited file parsed again otherwise (the tests compare both).
/// `state` keeps the crawler selections of the file's own policies, with their rules indexed,
/// across the fixes of the file.
///
/// When both readings give the file and the edited file the same groups (or, for a rule edit
/// or merge that is the same in both readings, give the crawlers it concerns the same groups
/// with the same rules: [`Verified::same_selections`]), and every probe path is the same
/// request target in both, the RFC 9309 reading decides every probe as the Google one does:
/// its comparison is not run again, and its changes are those of the Google reading, in the
/// same order, as far as [`MAX_CHANGES`] leaves room (crawlers regrouped in one reading are
/// regrouped in the other, and their `/` is already decided).
fn verify_with<'p>(
    robots: &'p RobotsTxt,
    edit: &Edit,
    shortcut: bool,
    state: &mut Verified<'p>,
) -> Option<Outcome> {
    robots.tree.lines.get(edit.line().checked_sub(1)?)?;
    let mut edits: Vec<Option<After>> = Reading::ALL
        .iter()
        .map(|&r| {
            shortcut
                .then(|| own_policy_edit(robots, robots.policy(r), edit))
                .flatten()
        })
        .collect();
    // Parsed again only when some reading needs it.
    let reparsed = if edits.iter().any(Option::is_none) {
        Some(RobotsTxt::parse(&apply(robots, edit)?))
    } else {
        None
    };
    let edited = edit.line() - 1;
    // Lines of the edited file that hold what the edit wrote.
    let written: Vec<usize> = match edit {
        Edit::Replace(..) => vec![edited],
        Edit::Delete(_) => Vec::new(),
        Edit::InsertAfter(_, text) => (edited + 1..=edited + text.split('\n').count()).collect(),
    };
    // Lines of the file the edit takes away: an insertion keeps the line it follows.
    let replaced: Vec<usize> = match edit {
        Edit::InsertAfter(..) => Vec::new(),
        Edit::Replace(..) | Edit::Delete(_) => vec![edited],
    };
    let afters: Vec<After> = edits
        .iter_mut()
        .zip(Reading::ALL)
        .map(|(e, reading)| match (e.take(), &reparsed) {
            (Some(shortcut), _) => shortcut,
            (None, Some(r)) => After::Parsed(r.policy(reading)),
            (None, None) => unreachable!("parsed again when a reading needs it"),
        })
        .collect();
    let mut out = Outcome::default();
    let mut first = Compared::default();
    // Whether the edit keeps the edited group's rules in the first reading.
    let mut kept_first = false;
    for (i, reading) in Reading::ALL.into_iter().enumerate() {
        let pa = robots.policy(reading);
        let after = &afters[i];
        // The same rule edit of a group with the same rules in both readings keeps them in
        // both, or in neither.
        let keeps = if i > 0
            && same_after(&afters[0], after)
            && after
                .edited_group()
                .is_some_and(|g| state.same_rules(robots, g))
        {
            kept_first
        } else {
            after.keeps_rules(pa)
        };
        if i == 0 {
            kept_first = keeps;
        }
        if keeps && out.regrouped.is_empty() {
            // Every decision stays as it is in this reading (and no crawler regrouped in the
            // other one needs looking at here).
            continue;
        }
        // The probe paths are still those of the first reading.
        if i > 0
            && first.ran
            && same_after(&afters[0], after)
            && (state.same_groups(robots) || state.same_selections(robots, after))
            && (!first.probed || neutral_paths(&state.paths))
        {
            let room = MAX_CHANGES.saturating_sub(out.changes.len());
            let again: Vec<Change> = out.changes[..first.decided.min(room)]
                .iter()
                .map(|c| Change {
                    reading,
                    ..c.clone()
                })
                .collect();
            out.changes.extend(again);
            continue;
        }
        let lines = Lines {
            edited,
            replaced: &replaced,
            written: &written,
        };
        let compared = compare(
            pa,
            after,
            &lines,
            reading,
            (&mut state.probed[i], &mut state.paths, &mut state.named[i]),
            &mut out,
        )?;
        if i == 0 {
            first = compared;
        }
    }
    Some(out)
}

/// The numbers (in a [`Probed`]) of a crawler's selection before an edit and, when a group
/// merges into the next, after it ([`Pair::selections`]).
type Selections = (usize, Option<usize>);

/// The lines an edit touches (0-based): the line edited, the lines of the file it takes away,
/// and the lines of the edited file that hold what it wrote.
#[derive(Clone, Copy)]
struct Lines<'a> {
    edited: usize,
    replaced: &'a [usize],
    written: &'a [usize],
}

/// The product tokens group `group` of `policy` names, lower-cased, sorted, without repeats:
/// the crawlers (with the stand-in for those no group names) whose decisions an edit of one of
/// its rules can change.
fn group_agents(policy: &Policy, group: usize) -> Vec<String> {
    let mut tokens: Vec<String> = policy.groups[group]
        .user_agents
        .iter()
        .filter_map(|u| match &u.token {
            crate::groups::ProductToken::Name(n) => Some(n.to_ascii_lowercase()),
            _ => None,
        })
        .collect();
    tokens.sort_unstable();
    tokens.dedup();
    tokens
}

/// Compares the decisions of `pa` (the file) and `after` (the edited file) in `reading`, adding
/// what differs to `out`, and says what it did. `None` when the comparison cannot be complete:
/// an edit that is not of one rule line in a file naming more than [`MAX_AGENTS`] crawlers.
fn compare<'p>(
    pa: &'p Policy,
    after: &After<'_>,
    lines: &Lines,
    reading: Reading,
    (probed, paths, named): (
        &mut Probed<'p>,
        &mut ProbeSet,
        &mut Option<Vec<Cow<'p, str>>>,
    ),
    out: &mut Outcome,
) -> Option<Compared> {
    let Lines {
        edited,
        replaced,
        written,
    } = *lines;
    let pb = match after {
        After::Parsed(p) => Some(*p),
        After::RuleEdit { .. } | After::Merge { .. } | After::Retoken { .. } | After::Same => None,
    };
    // An edit decided on the file's own policy keeps every user-agent line, so both versions
    // name the same crawlers, but for the line a retoken edit writes.
    let both: Vec<&Policy> = std::iter::once(pa).chain(pb).collect();
    let new_token = match after {
        After::Retoken { token, .. } => Some(token),
        _ => None,
    };
    let group_tokens: Vec<String>;
    let more: Vec<Cow<str>>;
    let mut agents: Vec<&str> = match after.edited_group() {
        // Only crawlers whose groups hold the edited rule can decide differently: those its
        // group names, and, for a `*` group, those no group names (added below).
        Some(group) => {
            group_tokens = group_agents(pa, group);
            // With room for the stand-in, added below.
            let mut agents = Vec::with_capacity(group_tokens.len() + 1);
            agents.extend(group_tokens.iter().map(String::as_str));
            agents
        }
        None => {
            // An edit that changes nothing names no other crawler than the file does: a file of
            // at most [`MAX_AGENTS`] user-agent lines names at most as many.
            if matches!(after, After::Same)
                && pa.groups.iter().map(|g| g.user_agents.len()).sum::<usize>() <= MAX_AGENTS
            {
                return Some(Compared {
                    ran: true,
                    probed: false,
                    decided: 0,
                });
            }
            let own = named.get_or_insert_with(|| tokens_named(&[pa]));
            let mut extra = pb.map(|pb| tokens_named(&[pb])).unwrap_or_default();
            if let Some(ProductToken::Name(n)) = new_token {
                let n = n.to_ascii_lowercase();
                if let Err(at) = extra.binary_search_by(|e| (**e).cmp(&n)) {
                    extra.insert(at, Cow::Owned(n));
                }
            }
            more = extra;
            let all = sorted_union(own, &more);
            if all.len() > MAX_AGENTS {
                return None;
            }
            if matches!(after, After::Same) {
                // Every crawler keeps its groups and their rules: nothing changes. (The
                // comparison would probe `/` alone, the same request target in every reading.)
                return Some(Compared {
                    ran: true,
                    probed: false,
                    decided: 0,
                });
            }
            all
        }
    };
    let mut unnamed = unnamed_agent(&both);
    if let Some(token) = new_token {
        while token.names(&unnamed) || !pa.groups_naming(&unnamed).is_empty() {
            unnamed.push('x');
        }
    }
    agents.push(&unnamed);
    // Decisions can change only where the rules edited match, as long as every crawler
    // keeps its groups (checked below): probe the paths drawn from those rules.
    let old_rules = pa
        .groups
        .iter()
        .flat_map(|g| g.rules.iter())
        .filter(|r| r.line == edited);
    let new_patterns: Vec<&[u8]> = match after {
        After::Parsed(pb) => pb
            .groups
            .iter()
            .flat_map(|g| g.rules.iter())
            .filter(|r| written.contains(&r.line))
            .map(|r| &*r.pattern)
            .collect(),
        After::RuleEdit { replacement, .. } => replacement.iter().map(|r| &*r.pattern).collect(),
        After::Merge { .. } | After::Retoken { .. } | After::Same => Vec::new(),
    };
    let new_count = new_patterns.len();
    let edited_patterns: Vec<&[u8]> = old_rules.map(|r| &*r.pattern).chain(new_patterns).collect();
    let old_count = edited_patterns.len() - new_count;
    probe_targets(pa, edited, &edited_patterns, probed, paths);
    let mut compared = Compared {
        ran: true,
        probed: true,
        decided: 0,
    };
    let probes = normalized_probes(paths, reading, after, &edited_patterns[..old_count]);
    // Crawlers with the same groups before and after a rule edit or merge decide alike: their
    // decisions are worked out once.
    let mut shared: rustc_hash::FxHashMap<Selections, Vec<(bool, bool)>> = Default::default();
    // Per pair of selections before and after a merge, whether their rules differ.
    let mut merges: rustc_hash::FxHashMap<Selections, bool> = Default::default();
    for &agent in &agents {
        let Some(pair) = Pair::new(pa, after, agent, probed) else {
            // The edit changes nothing this crawler decides.
            continue;
        };
        // The same rules (as a multiset of kind and pattern), but for the edited ones. Two
        // groups naming the same crawlers that merge into one change nothing; a group whose
        // user-agent lines join another one does.
        let regrouped = match (after, pair.merged.as_ref().map(|(g, _)| g)) {
            (After::Parsed(pb), _) => {
                rule_shape(&pair.before, replaced) != rule_shape(&pb.groups_for(agent).0, written)
            }
            (After::Retoken { .. }, _) => {
                rule_shape(&pair.before, replaced) != rule_shape(&pair.retokened, written)
            }
            // Crawlers with the same selections before and after a merge are regrouped alike.
            (After::Merge { line, .. }, Some(merged)) => *merges
                .entry(pair.selections().unwrap_or_default())
                .or_insert_with(|| {
                    rule_shape(&pair.before, &[*line]) != rule_shape(merged, &[*line])
                }),
            _ => false,
        };
        if regrouped && !out.regrouped.iter().any(|a| a == agent) {
            out.regrouped.push(agent.to_string());
        }
        let owned;
        let decisions: &[(bool, bool)] = match pair.selections() {
            Some(key) => shared
                .entry(key)
                .or_insert_with(|| pair.decide_all(&probes, probed)),
            None => {
                owned = pair.decide_all(&probes, probed);
                &owned
            }
        };
        for (&Probe { path, .. }, &(before, allowed)) in probes.iter().zip(decisions) {
            if before != allowed {
                if path == b"/" && before {
                    out.blocks_root = true;
                }
                if out.changes.len() < MAX_CHANGES {
                    out.changes.push(Change {
                        reading,
                        agent: agent.to_string(),
                        path: crate::text::lossy(path).into_owned(),
                        before,
                        after: allowed,
                    });
                    compared.decided += 1;
                }
            }
        }
    }
    // A crawler that changed groups may now be decided differently anywhere: `/` says
    // whether the site as a whole is still open to it.
    for agent in out.regrouped.clone() {
        let (before, allowed) = match Pair::new(pa, after, &agent, probed) {
            Some(pair) => pair.decide(
                &Probe::new(b"/", std::borrow::Cow::Borrowed(b"/"), after),
                probed,
            ),
            None => (true, true),
        };
        if before && !allowed {
            out.blocks_root = true;
            if !out
                .changes
                .iter()
                .any(|c| c.agent == agent && c.path == "/")
            {
                out.changes.push(Change {
                    reading,
                    agent,
                    path: "/".to_string(),
                    before,
                    after: allowed,
                });
            }
        }
    }
    Some(compared)
}

/// The request targets that tell apart what the file and the edited file decide, sorted,
/// without repeats: those drawn from the edited rules' patterns ([`probe_paths`]), and where
/// an edited rule and another rule of their group (or another edited rule) both match, since
/// the longest match may change hands there ([`cross_probes`]).
/// Put in `paths` (emptied first). `probed` keeps the patterns of `pa`'s groups with their
/// literal prefixes and samples across checks.
fn probe_targets<'p>(
    pa: &'p Policy,
    edited: usize,
    edited_patterns: &[&[u8]],
    probed: &mut Probed<'p>,
    paths: &mut ProbeSet,
) {
    paths.clear();
    let samples: Vec<std::borrow::Cow<[u8]>> = edited_patterns
        .iter()
        .map(|p| super::sets::sample_path(p))
        .collect();
    let sampled: Vec<Sampled> = edited_patterns
        .iter()
        .zip(&samples)
        .map(|(&p, sample)| (p, super::sets::literal_prefix(p), &sample[..]))
        .collect();
    push_probe_paths(sampled.iter().map(|&(p, _, sample)| (p, sample)), paths);
    // The groups holding the edited line, as far as they fill the room for other rules (their
    // patterns worked out first, then read).
    let mut holding = Vec::new();
    let mut others_len = 0;
    for (i, g) in pa.groups.iter().enumerate() {
        if others_len >= MAX_CROSS_RULES {
            break;
        }
        if !g.rules.iter().any(|r| r.line == edited) {
            continue;
        }
        holding.push(i);
        others_len += probed
            .patterns_of(pa, i)
            .iter()
            .filter(|(line, ..)| *line != edited)
            .count();
    }
    let mut others: Vec<Sampled> = Vec::with_capacity(MAX_CROSS_RULES + sampled.len());
    for i in holding {
        let room = MAX_CROSS_RULES - others.len();
        others.extend(
            probed.patterns[i]
                .iter()
                .flatten()
                .filter(|(line, ..)| *line != edited)
                .map(|(_, pattern, lit, sample)| (*pattern, *lit, &sample[..]))
                .take(room),
        );
    }
    others.extend_from_slice(&sampled);
    cross_probes(&sampled, &others, paths);
    paths.sort_dedup();
}

/// A probe path: the request target, its normalised form in the reading compared, what that
/// form holds once a rule index has asked ([`PathBytes`]), and which rules of a rule edit's
/// replacement match it.
struct Probe<'s> {
    path: &'s [u8],
    normalized: std::borrow::Cow<'s, [u8]>,
    present: PathBytes,
    /// Bit `i` set when rule `i` of the replacement ([`After::RuleEdit`]) matches the
    /// normalised path, for the first [`MATCH_BITS`] rules: worked out once, for every crawler
    /// that decides the path.
    replacing: u64,
}

/// Replacement rules whose matching a [`Probe`] keeps; those past them are matched when asked.
const MATCH_BITS: usize = 64;

impl<'s> Probe<'s> {
    /// The probe of request target `path`, normalised as `normalized`, for an edit decided as
    /// `after`.
    fn new(path: &'s [u8], normalized: std::borrow::Cow<'s, [u8]>, after: &After) -> Probe<'s> {
        let replacing = match after {
            After::RuleEdit { replacement, .. } => replacement
                .iter()
                .take(MATCH_BITS)
                .enumerate()
                .filter(|(_, r)| crate::decide::pattern_decides(&r.pattern, &normalized))
                .fold(0, |bits, (i, _)| bits | 1 << i),
            _ => 0,
        };
        Probe {
            path,
            normalized,
            present: PathBytes::default(),
            replacing,
        }
    }

    /// The rules of `replacement` (the replacement of the edit this probe was made for) that
    /// match the normalised path ([`crate::decide::pattern_decides`]), in order.
    fn matching<'r>(&self, replacement: &'r [Rule]) -> impl Iterator<Item = &'r Rule> {
        replacement
            .iter()
            .enumerate()
            .filter(move |&(i, r)| {
                if i < MATCH_BITS {
                    self.replacing >> i & 1 == 1
                } else {
                    crate::decide::pattern_decides(&r.pattern, &self.normalized)
                }
            })
            .map(|(_, r)| r)
    }
}

/// Each of `paths` with its normalised form in `reading`, in order. A rule edit keeps every
/// other rule, so a path that neither the edited rules (`old_patterns`) nor their replacements
/// match is decided as before for every crawler, and is left out.
fn normalized_probes<'s>(
    paths: &'s ProbeSet,
    reading: Reading,
    after: &After,
    old_patterns: &[&[u8]],
) -> Vec<Probe<'s>> {
    let replacement = match after {
        After::RuleEdit { replacement, .. } => Some(&replacement[..]),
        _ => None,
    };
    // Room for every path at once: most are kept.
    let mut probes = Vec::with_capacity(paths.len());
    probes.extend(
        paths
            .iter()
            .map(|path| {
                let normalized =
                    crate::pattern::normalize(path, reading, crate::pattern::Side::Url);
                Probe::new(path, normalized, after)
            })
            .filter(|probe| {
                replacement.is_none_or(|replacement| {
                    probe.matching(replacement).next().is_some()
                        || old_patterns.iter().any(|pattern| {
                            crate::decide::pattern_decides(pattern, &probe.normalized)
                        })
                })
            }),
    );
    probes
}

/// The crawler selections met while checking the fixes of one file in one reading, each with
/// its rules indexed once ([`Probes`]) for working out the standings ([`Standing`]) of probe
/// paths. Crawlers that share a selection share its decisions within one check ([`compare`]).
/// Standings are not kept from one check to the next: a probe path rarely recurs, and keeping
/// each costs more than working out the few that do again.
#[derive(Default)]
pub(crate) struct Probed<'p> {
    /// Selections (the addresses of their groups, in order) and their number.
    numbers: rustc_hash::FxHashMap<Vec<usize>, usize>,
    /// Per selection number, its rules.
    selections: Vec<Probes<'p>>,
    /// Room for the key of the selection looked up ([`Probed::selection`]).
    key: Vec<usize>,
    /// Per group index, once asked for: the line, pattern, literal prefix
    /// ([`super::sets::literal_prefix`]) and sample path of each of its rules with a pattern,
    /// in order.
    patterns: Vec<Option<Vec<GroupPattern<'p>>>>,
}

/// A rule's 0-based line, pattern, literal prefix and sample path
/// ([`super::sets::sample_path`]).
type GroupPattern<'p> = (usize, &'p [u8], &'p [u8], std::borrow::Cow<'p, [u8]>);

/// The rules of one selection, indexed by their literal prefixes ([`Buckets`]) when there
/// are more than [`super::sets::UNBUCKETED_RULES`] (on first use).
struct Probes<'p> {
    groups: Vec<&'p Group>,
    /// Whether the selection has at most [`super::sets::UNBUCKETED_RULES`] rules.
    few: bool,
    rules: std::cell::OnceCell<Buckets<'p, &'p Rule>>,
    /// Room for the rules that may match one path, reused from one standing to the next.
    candidates: std::cell::RefCell<Vec<&'p Rule>>,
}

impl<'p> Probes<'p> {
    fn new(groups: &[&'p Group]) -> Probes<'p> {
        Probes {
            groups: groups.to_vec(),
            few: groups.iter().map(|g| g.rules.len()).sum::<usize>()
                <= super::sets::UNBUCKETED_RULES,
            rules: std::cell::OnceCell::new(),
            candidates: std::cell::RefCell::new(Vec::new()),
        }
    }

    /// The standing of the normalised `path` (see [`Standing::of`]), matching only the rules
    /// that may match it. `present` holds what the path holds ([`crate::pattern::ByteSets::present`]) once
    /// some selection has needed it.
    fn standing_of(&self, path: &[u8], reading: Reading, present: &PathBytes) -> Standing {
        let all = || self.groups.iter().flat_map(|g| g.rules.iter());
        if self.few {
            return Standing::of(all(), path, reading);
        }
        let index = self
            .rules
            .get_or_init(|| Buckets::new(all().map(|r| (&r.pattern[..], r))));
        let mut candidates = self.candidates.borrow_mut();
        candidates.clear();
        index.candidates_into(path, present, &mut candidates);
        Standing::of(candidates.iter().copied(), path, reading)
    }
}

impl<'p> Probed<'p> {
    /// The first [`CROSS_PATTERNS`] rules of group `group` of `policy` (the policy these
    /// selections are of) with a pattern, each with its line, literal prefix and sample path, in
    /// order.
    fn patterns_of(&mut self, policy: &'p Policy, group: usize) -> &[GroupPattern<'p>] {
        if self.patterns.len() <= group {
            self.patterns.resize(group + 1, None);
        }
        self.patterns[group].get_or_insert_with(|| {
            policy.groups[group]
                .rules
                .iter()
                .filter(|r| !r.pattern.is_empty())
                .take(CROSS_PATTERNS)
                .map(|r| {
                    (
                        r.line,
                        &*r.pattern,
                        super::sets::literal_prefix(&r.pattern),
                        super::sets::sample_path(&r.pattern),
                    )
                })
                .collect()
        })
    }

    /// The number of the selection `groups`.
    fn selection(&mut self, groups: &[&'p Group]) -> usize {
        self.key.clear();
        self.key
            .extend(groups.iter().map(|g| std::ptr::from_ref(*g) as usize));
        if let Some(&id) = self.numbers.get(&self.key[..]) {
            return id;
        }
        let id = self.selections.len();
        self.numbers.insert(self.key.clone(), id);
        self.selections.push(Probes::new(groups));
        id
    }

    /// The standing of a request target, normalised for `reading` as `normalized`, for
    /// selection `id`.
    fn standing(&self, reading: Reading, id: usize, probe: &Probe) -> Standing {
        self.selections[id].standing_of(&probe.normalized, reading, &probe.present)
    }
}

/// One crawler's decisions before and after an edit: its groups in the file, and how the
/// edited file is decided.
struct Pair<'a, 'p> {
    pa: &'p Policy,
    after: &'a After<'a>,
    /// The crawler's groups in the edited file, when it is parsed again ([`After::Parsed`]).
    after_groups: Vec<&'a Group>,
    before: Vec<&'p Group>,
    /// The number of `before` in the file's [`Probed`].
    before_id: usize,
    /// Its groups in the edited file when a user-agent line names another token
    /// ([`After::Retoken`]).
    retokened: Vec<&'p Group>,
    /// Its groups once a group has merged into the next ([`After::Merge`]), and their number.
    merged: Option<(Vec<&'p Group>, usize)>,
    /// Whether the edited line's replacement rules join `before` (see [`holds_line`]).
    holds_edit: bool,
}

impl<'a, 'p> Pair<'a, 'p> {
    /// The pair for `agent`, or `None` when the edit cannot change what it decides: a rule
    /// edit or merge outside its groups, or a user-agent line written anew that leaves its
    /// groups as they are.
    fn new(
        pa: &'p Policy,
        after: &'a After<'a>,
        agent: &str,
        probed: &mut Probed<'p>,
    ) -> Option<Pair<'a, 'p>> {
        if let After::Retoken {
            line, group, token, ..
        } = after
            && retoken_keeps(pa, agent, *line, *group, token)
        {
            return None;
        }
        let profile = &crate::decide::Profile {
            tokens: &[agent],
            obeys_global: true,
        };
        let before = pa.select(profile).groups;
        if let Some(group) = after.edited_group()
            && !before.iter().any(|g| std::ptr::eq(*g, &pa.groups[group]))
        {
            return None;
        }
        let merged = match after {
            After::Merge { group, into, .. } => {
                let groups = merged_selection(pa, agent, *group, *into);
                let id = probed.selection(&groups);
                Some((groups, id))
            }
            After::Parsed(_) | After::RuleEdit { .. } | After::Retoken { .. } | After::Same => None,
        };
        let holds_edit = match after {
            After::RuleEdit { line, .. } => holds_line(&before, *line),
            After::Parsed(_) | After::Merge { .. } | After::Retoken { .. } | After::Same => false,
        };
        let after_groups = match after {
            After::Parsed(pb) => pb.select(profile).groups,
            After::RuleEdit { .. } | After::Merge { .. } | After::Retoken { .. } | After::Same => {
                Vec::new()
            }
        };
        let retokened = match after {
            After::Retoken {
                line, group, token, ..
            } => retoken_selection(pa, agent, *line, *group, token),
            _ => Vec::new(),
        };
        if matches!(after, After::Retoken { .. }) && identical_groups(&before, &retokened) {
            return None;
        }
        Some(Pair {
            pa,
            after,
            after_groups,
            retokened,
            before_id: probed.selection(&before),
            before,
            merged,
            holds_edit,
        })
    }

    /// The numbers of the crawler's selections before and after a rule edit or merge, which
    /// with the edit decide everything [`Pair::decide`] answers; `None` for an edit parsed
    /// again.
    fn selections(&self) -> Option<Selections> {
        match self.after {
            After::Parsed(_) | After::Retoken { .. } | After::Same => None,
            After::RuleEdit { .. } | After::Merge { .. } => {
                Some((self.before_id, self.merged.as_ref().map(|(_, id)| *id)))
            }
        }
    }

    /// [`Pair::decide`] for each of `probes` (request targets with their normalised forms).
    fn decide_all(&self, probes: &[Probe], probed: &Probed<'p>) -> Vec<(bool, bool)> {
        probes.iter().map(|p| self.decide(p, probed)).collect()
    }

    /// Whether the crawler may fetch a request target (`probe`), before and after the edit.
    fn decide(&self, probe: &Probe, probed: &Probed<'p>) -> (bool, bool) {
        let reading = self.pa.reading;
        let normalized = &probe.normalized[..];
        let standing = probed.standing(reading, self.before_id, probe);
        let after = match self.after {
            After::Parsed(pb) => {
                pb.allowed_before_and_after(&self.after_groups, normalized, usize::MAX, &[])
                    .0
            }
            After::Retoken { .. } => {
                self.pa
                    .allowed_before_and_after(&self.retokened, normalized, usize::MAX, &[])
                    .0
            }
            After::Same => standing.allowed(),
            After::RuleEdit {
                line, replacement, ..
            } => {
                let replacement = if self.holds_edit {
                    &replacement[..]
                } else {
                    &[]
                };
                standing.allowed_with(*line, probe.matching(replacement))
            }
            After::Merge { line, .. } => match &self.merged {
                Some((_, id)) => probed.standing(reading, *id, probe).allowed_with(*line, []),
                None => true,
            },
        };
        (standing.allowed(), after)
    }
}

/// Crawlers (named by either version) whose decisions a check of an edit that is not of one
/// rule line compares; in a file naming more, such an edit gets no checked fix (edits of one
/// rule line compare only the crawlers whose groups hold it, however many the file names).
pub const MAX_AGENTS: usize = 256;

/// Bytes of edited files parsed per file while checking fixes; past it, the remaining
/// suggestions are kept as advice in words, without a checked [`Fix`].
pub const VERIFY_BUDGET_BYTES: usize = 256 * 1024;

/// Most fixes checked per file (an edit that is not of one rule line costs a parse of the
/// whole edited file). With the byte budget this keeps `lint` of the corpus within about 2.2
/// times its time without checks.
pub const VERIFY_BUDGET_FIXES: usize = 200;

/// Diagnostics whose fix claims to change no decision: deleting a rule that can never decide,
/// or writing a pattern as the crawler already reads it.
const KEEPS_DECISIONS: &[&str] = &["redundant-rule", "duplicate-rule", "non-ascii-pattern"];

/// Product tokens of browsers, which a full user-agent string starts with; a crawler never
/// goes by them, so a fix never proposes them.
const BROWSER_TOKENS: &[&str] = &[
    "mozilla",
    "applewebkit",
    "chrome",
    "safari",
    "gecko",
    "opera",
    "compatible",
];

/// The edit a suggestion stands for: `delete this line`, one `Field: value` line to put in
/// place of the diagnostic's line, or several rule lines to add after it. Advice in words is
/// `None`.
fn edit_of(d: &Diagnostic) -> Option<Edit> {
    let s = d.suggestion.as_deref()?;
    if s == "delete this line" {
        return Some(Edit::Delete(d.line));
    }
    let is_record = |l: &str| {
        l.split_once(':').is_some_and(|(k, _)| {
            !k.is_empty()
                && k.bytes()
                    .all(|b| b.is_ascii_alphabetic() || b == b'-' || b == b'_')
        })
    };
    if s.contains('\n') {
        let rules = s.lines().all(|l| {
            is_record(l)
                && matches!(
                    l.split(':').next().map(str::to_ascii_lowercase).as_deref(),
                    Some("allow" | "disallow")
                )
        });
        return rules.then(|| Edit::InsertAfter(d.line, s.to_string()));
    }
    is_record(s).then(|| Edit::Replace(d.line, s.to_string()))
}

/// Words for up to three changed decisions, e.g. "Googlebot: `/x` allowed → disallowed".
fn describe(o: &Outcome) -> String {
    let shown: Vec<String> = o
        .changes
        .iter()
        .take(3)
        .map(|c| {
            let who = if c.agent.starts_with("robots-explorer-unnamed-crawler") {
                "a crawler no group names".to_string()
            } else {
                c.agent.clone()
            };
            let v = |a: bool| if a { "allowed" } else { "disallowed" };
            sentence!(
                "{who}: `{}` {} → {} ({} reading)",
                c.path,
                v(c.before),
                v(c.after),
                c.reading.label()
            )
        })
        .collect();
    let more = if o.changes.len() > 3 {
        sentence!(" and {} more sampled decisions", o.changes.len() - 3)
    } else {
        String::new()
    };
    let mut words = if shown.is_empty() {
        String::new()
    } else {
        sentence!("changes {}{more}", shown.join("; "))
    };
    if !o.regrouped.is_empty() {
        if !words.is_empty() {
            words.push_str("; ");
        }
        let names: Vec<String> = o
            .regrouped
            .iter()
            .take(3)
            .map(|a| {
                if a.starts_with("robots-explorer-unnamed-crawler") {
                    "crawlers no group names".to_string()
                } else {
                    sentence!("`{a}`")
                }
            })
            .collect();
        let more = if o.regrouped.len() > 3 {
            sentence!(" and {} more", o.regrouped.len() - 3)
        } else {
            String::new()
        };
        words.push_str(&sentence!(
            "changes which rules apply to {}{more}, beyond the paths sampled",
            names.join(", ")
        ));
    }
    words
}

/// Checks the suggestion of every diagnostic that stands for an edit (see [`verify`]) and
/// attaches a [`Fix`]: `safe` when no decision changes, `unsafe` with the changes in words when
/// the diagnostic's fix is meant to change decisions. A fix that changes decisions though its
/// diagnostic claims it does not, that blocks `/` for a crawler that could fetch it, or that
/// names a browser token instead of a crawler, is withdrawn: the suggestion then says in words
/// why no fix is offered. Checking stops at [`VERIFY_BUDGET_BYTES`] or
/// [`VERIFY_BUDGET_FIXES`]; later suggestions stay as they are, without a `Fix`.
///
/// Only the diagnostics at the indices `chosen` accepts are checked; the others stay as their
/// check wrote them. They still count against the budget as if checked, so a diagnostic gets
/// the same fix whichever others are chosen.
pub(crate) fn attach(
    robots: &RobotsTxt,
    diagnostics: &mut [Diagnostic],
    chosen: impl Fn(usize) -> bool,
) {
    let mut spent_bytes = 0usize;
    let mut spent_fixes = 0usize;
    let mut probed = Default::default();
    let size = robots.bytes().len().max(1);
    for (i, d) in diagnostics.iter_mut().enumerate() {
        let Some(edit) = edit_of(d) else { continue };
        let browser = browser_token_edit(&edit);
        let within_budget =
            spent_bytes + size <= VERIFY_BUDGET_BYTES && spent_fixes < VERIFY_BUDGET_FIXES;
        if !chosen(i) {
            if !browser && within_budget {
                spent_bytes += size;
                spent_fixes += 1;
            }
            continue;
        }
        if browser
            && let Edit::Replace(_, text) = &edit
            && let Some((_, value)) = text.split_once(':')
        {
            d.suggestion = Some(sentence!(
                "write the product token the crawler documents (in `Mozilla/5.0 (compatible; \
                 Googlebot/2.1; …)` it is `Googlebot`); `{}` names browsers, not a crawler",
                value.trim()
            ));
            continue;
        }
        if !within_budget {
            // Past the budget, only the cheap part of the check: a group's only rule is never
            // offered for deletion (its user-agent lines would join the next group).
            if matches!(edit, Edit::Delete(_)) && robots.tree.ignored.is_some() {
                d.suggestion = Some(
                    "deleting this line alone is not neutral here: the file is longer than the \
                     parsing limit, so every deletion moves bytes from past the limit into the \
                     part crawlers read; shorten the file as a whole"
                        .to_string(),
                );
            } else if matches!(edit, Edit::Delete(_)) && only_rule_of_its_group(robots, d.line - 1)
            {
                d.suggestion = Some(
                    "keep this line: it is the only rule of its group, and deleting it would \
                     join the group's user-agent lines to the next group"
                        .to_string(),
                );
            }
            continue;
        }
        spent_bytes += size;
        spent_fixes += 1;
        let Some(o) = verify(robots, &edit, &mut probed) else {
            continue;
        };
        let keeps = KEEPS_DECISIONS.contains(&d.name);
        if o.changes_nothing() {
            d.fix = Some(Fix {
                edit: fix_edit(&edit),
                applicability: Applicability::Safe,
                effect: "changes no decision".to_string(),
            });
        } else if keeps {
            d.suggestion = Some(match edit {
                Edit::Delete(_) => sentence!(
                    "keep this line: deleting it would not be neutral, it {}",
                    describe(&o)
                ),
                _ => sentence!(
                    "no fix is offered: the rewritten line would not be equivalent, it {}",
                    describe(&o)
                ),
            });
        } else if o.blocks_root {
            d.suggestion = Some(sentence!(
                "no fix is offered: `{}` would block `/`, and with it the whole site, for \
                 crawlers that may fetch it now ({}); make that change by hand only if it is \
                 what was meant",
                match &edit {
                    Edit::Replace(_, t) => t.as_str(),
                    _ => "the edit",
                },
                describe(&o)
            ));
        } else {
            d.fix = Some(Fix {
                edit: fix_edit(&edit),
                applicability: Applicability::Unsafe,
                effect: describe(&o),
            });
        }
    }
}

/// Whether `edit` writes a user-agent line naming a browser ([`BROWSER_TOKENS`]), which is
/// never offered as a fix.
fn browser_token_edit(edit: &Edit) -> bool {
    matches!(edit, Edit::Replace(_, text)
    if text.split_once(':').is_some_and(|(key, value)| {
        key.trim().eq_ignore_ascii_case("user-agent")
            && BROWSER_TOKENS.contains(&value.trim().to_ascii_lowercase().as_str())
    }))
}

/// Whether the rule on 0-based `line` is the only rule of its group in either reading.
fn only_rule_of_its_group(robots: &RobotsTxt, line: usize) -> bool {
    Reading::ALL.iter().any(|&reading| {
        robots
            .policy(reading)
            .groups
            .iter()
            .any(|g| g.rules.len() == 1 && g.rules[0].line == line)
    })
}

fn fix_edit(e: &Edit) -> FixEdit {
    match e {
        Edit::Replace(_, t) => FixEdit::Replace(t.clone()),
        Edit::Delete(_) => FixEdit::Delete,
        Edit::InsertAfter(_, t) => FixEdit::InsertAfter(t.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> RobotsTxt {
        RobotsTxt::parse(s.as_bytes())
    }

    /// Deciding an edit of one rule line on the file's own policy gives exactly what parsing
    /// the edited file gives, for every line of every small diagnostic fixture and a few crafted
    /// files, deleted, replaced by rules and other lines, and followed by inserted rules.
    #[test]
    fn rule_edits_decide_as_the_edited_file() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/diagnostics");
        // The small fixtures: the large ones test limits, and every line of them would be
        // edited eleven ways.
        let mut files: Vec<Vec<u8>> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| std::fs::read(e.unwrap().path()).unwrap())
            .filter(|b| b.len() <= 4096)
            .collect();
        files.push(
            b"User-agent: a\nDisallow: /x\nAllow: /x/index.html\n\nUser-agent: *\nDisallow: /\n\
              Allow: /p$\nUser-agent: b\nUser-agent: a\nDisallow: /*.php\n"
                .to_vec(),
        );
        files.push(b"User-agent: *\nDisallow: /a%2f\nDisallow: /caf\xc3\xa9\nAllow: /a\n".to_vec());
        // Groups of one rule each: deleting one joins its user-agent lines to the next group.
        files.push(
            b"User-agent: a\nDisallow: /x\n\nUser-agent: b\nSitemap: /s\nDisallow: /y\n\
              User-agent: *\nDisallow: /z\nUser-agent: a\nAllow: /x/index.htm\n\
              User-agent: *\nUser-agent: c\nDisallow: /\n"
                .to_vec(),
        );
        // Readings that differ in some groups only: a token read whole or cut, an escape of
        // an unreserved character decoded or kept, a rule Google derives.
        files.push(
            b"User-agent: Googlebot/2.1\nDisallow: /g\n\nUser-agent: *\nDisallow: /a\n\
              Disallow: /a/b\nAllow: /c\n\nUser-agent: x\nUser-agent: y\nDisallow: /p%41\n\
              Disallow: /q\n\nUser-agent: y\nAllow: /x/index.html\nDisallow: /x\n\n\
              User-agent: z\nDisallow: /z\n"
                .to_vec(),
        );
        // Crawlers named by several groups, groups of several user-agent lines, several `*`
        // groups: a user-agent line written anew moves crawlers between them.
        files.push(
            b"User-agent: a\nUser-agent: b\nDisallow: /a\n\nUser-agent: *\nAllow: /p\n\
              Disallow: /\n\nUser-agent: b\nUser-agent: Googlebot/2.1\nDisallow: /b\n\
              Sitemap: /s.xml\nUser-agent: *\nUser-agent: c\nDisallow: /c\n# end\n\
              User-agent: robots-explorer-unnamed-crawler\nDisallow: /u\n"
                .to_vec(),
        );
        // Rules a group repeats: deleting one copy keeps the group's rules.
        files.push(
            b"User-agent: *\nDisallow: /d\nAllow: /d/e\nDisallow: /d\nAllow: /x/index.html\n\
              Allow: /x/index.html\nUser-agent: b\nDisallow: /d\n"
                .to_vec(),
        );
        let texts = [
            "Disallow: /",
            "Allow: /x",
            "Disallow: /x*y$",
            "Allow: /dir/index.htm",
            "# a comment",
            "Sitemap: https://example.com/s.xml",
            "",
            "Disalow: /x",
            "Disallow /x",
            "User-agent: a",
            "User-agent: B",
            "User-agent: *",
            "User-agent: * bot",
            "User-agent: Googlebot/2.1",
            "User-agent: ",
            "User-agent: robots-explorer-unnamed-crawler",
            "user agent: z",
            "Crawl-delay: 5",
        ];
        let mut compared = 0;
        // Edits decided on the file's own policy, by kind: rule edits, merges, user-agent
        // lines written anew, and lines that are neither.
        let mut own = [0; 4];
        for bytes in &files {
            let robots = RobotsTxt::parse(bytes);
            for line in 1..=robots.tree.lines.len() {
                let mut edits = vec![Edit::Delete(line)];
                for t in texts {
                    edits.push(Edit::Replace(line, t.to_string()));
                }
                edits.push(Edit::InsertAfter(
                    line,
                    "Allow: /x.css$\nAllow: /*.js".to_string(),
                ));
                for edit in edits {
                    for reading in Reading::ALL {
                        match own_policy_edit(&robots, robots.policy(reading), &edit) {
                            Some(After::RuleEdit { .. }) => own[0] += 1,
                            Some(After::Merge { .. }) => own[1] += 1,
                            Some(After::Retoken { .. }) => own[2] += 1,
                            Some(After::Same) => own[3] += 1,
                            Some(After::Parsed(_)) | None => {}
                        }
                    }
                    let fast = verify_with(&robots, &edit, true, &mut Default::default());
                    let parsed = verify_with(&robots, &edit, false, &mut Default::default());
                    assert_eq!(fast, parsed, "{edit:?} in {:?}", crate::text::lossy(bytes));
                    compared += 1;
                }
            }
        }
        assert!(compared > 1000, "{compared}");
        assert!(own.iter().all(|&n| n > 100), "{own:?}");
    }

    proptest::proptest! {
        /// The standings worked out over the rules [`Buckets`] offer are those worked out
        /// over every rule of the selection, however the edited line is chosen.
        #[test]
        fn indexed_standings_are_the_standings(
            rules in proptest::collection::vec(
                (proptest::bool::ANY, "/?[/abc*$%]{0,9}"),
                0..70,
            ),
            paths in proptest::collection::vec("[/abc%$*]{0,12}", 1..12),
        ) {
            let mut file = String::from("User-agent: *\n");
            for (allow, pattern) in &rules {
                // Patterns not starting with `/` too: their literal prefixes can be empty.
                file.push_str(if *allow { "Allow: " } else { "Disallow: " });
                file.push_str(pattern);
                file.push('\n');
            }
            let robots = RobotsTxt::parse(file.as_bytes());
            for reading in Reading::ALL {
                let policy = robots.policy(reading);
                let groups: Vec<&Group> = policy.groups.iter().collect();
                let mut probes = Probes::new(&groups);
                // Indexed however few the rules are.
                probes.few = false;
                let lines: Vec<usize> = (0..=rules.len() + 1).chain([usize::MAX]).collect();
                for path in &paths {
                    let path = format!("/{path}");
                    let normalized =
                        crate::pattern::normalize(path.as_bytes(), reading, crate::pattern::Side::Url);
                    let all = Standing::of(
                        groups.iter().flat_map(|g| g.rules.iter()),
                        &normalized,
                        reading,
                    );
                    let indexed = probes.standing_of(&normalized, reading, &PathBytes::default());
                    for &line in &lines {
                        proptest::prop_assert_eq!(
                            all.allowed_with(line, []),
                            indexed.allowed_with(line, []),
                            "{} without line {}", path, line
                        );
                    }
                }
            }
        }
    }

    proptest::proptest! {
        /// A pattern matches its sample path and, unless anchored with `$`, every path that
        /// starts with it: [`cross_probes`] relies on it.
        #[test]
        fn a_pattern_matches_what_starts_with_its_sample(
            pattern in "/?[/ab*$]{0,9}",
            rest in "[/ab*$]{0,6}",
        ) {
            let pattern = pattern.as_bytes();
            let sample = super::super::sets::sample_path(pattern);
            proptest::prop_assert!(crate::pattern::matches(pattern, &sample));
            if !pattern.ends_with(b"$") {
                let mut path = sample.to_vec();
                path.extend_from_slice(rest.as_bytes());
                proptest::prop_assert!(crate::pattern::matches(pattern, &path));
            }
        }
    }

    /// Probe paths drawn from the first [`CROSS_PATTERNS`] rules of a group are those drawn
    /// from all of them, whichever line is edited: lines of two rules (an allow and the rule
    /// Google derives from it) among the first ones included.
    #[test]
    fn kept_group_patterns_give_every_cross_probe() {
        let mut file = String::from("User-agent: *\n");
        for i in 0..100 {
            if i % 3 == 0 {
                file.push_str(&format!("Allow: /d{i}/index.html\n"));
            } else {
                file.push_str(&format!("Disallow: /d{}*x{i}\n", i % 7));
            }
        }
        let robots = parse(&file);
        for reading in Reading::ALL {
            let policy = robots.policy(reading);
            let all: Vec<GroupPattern> = policy.groups[0]
                .rules
                .iter()
                .filter(|r| !r.pattern.is_empty())
                .map(|r| {
                    (
                        r.line,
                        &*r.pattern,
                        super::super::sets::literal_prefix(&r.pattern),
                        super::super::sets::sample_path(&r.pattern),
                    )
                })
                .collect();
            assert!(all.len() > CROSS_PATTERNS);
            for line in 1..=100 {
                let patterns: Vec<&[u8]> = policy.groups[0]
                    .rules
                    .iter()
                    .filter(|r| r.line == line)
                    .map(|r| &*r.pattern)
                    .collect();
                let mut kept = Probed::default();
                let mut paths = ProbeSet::default();
                probe_targets(policy, line, &patterns, &mut kept, &mut paths);
                let mut whole = Probed {
                    patterns: vec![Some(all.clone())],
                    ..Probed::default()
                };
                let mut every = ProbeSet::default();
                probe_targets(policy, line, &patterns, &mut whole, &mut every);
                let listed = |p: &ProbeSet| p.iter().map(<[u8]>::to_vec).collect::<Vec<_>>();
                assert_eq!(listed(&paths), listed(&every), "line {line}");
            }
        }
    }

    #[test]
    fn a_group_keeps_its_rules_when_a_repeated_rule_goes() {
        let r = parse("User-agent: *\nDisallow: /d\nAllow: /d/e\nDisallow: /d\n");
        let p = r.policy(Reading::Google);
        let keeps = |edit: Edit| rule_edit(&r, p, &edit).unwrap().keeps_rules(p);
        assert!(keeps(Edit::Delete(2)));
        assert!(keeps(Edit::Delete(4)));
        assert!(!keeps(Edit::Delete(3)));
        assert!(keeps(Edit::Replace(3, "Allow: /d/e".to_string())));
        assert!(keeps(Edit::Replace(4, "Allow: /d/e".to_string())));
        assert!(!keeps(Edit::Replace(3, "Disallow: /d".to_string())));
        assert!(!keeps(Edit::Replace(3, "Allow: /d/f".to_string())));
        assert!(keeps(Edit::InsertAfter(3, "Disallow: /d".to_string())));
        assert!(!keeps(Edit::InsertAfter(3, "Disallow: /e".to_string())));
        let o = verify(&r, &Edit::Delete(4), &mut Default::default()).unwrap();
        assert_eq!(o, Outcome::default());
    }

    #[test]
    fn inserted_rules_change_only_what_they_match() {
        let r = parse("User-agent: *\nDisallow: /theme/\n");
        let o = verify(
            &r,
            &Edit::InsertAfter(2, "Allow: /theme/*.css$".to_string()),
            &mut Default::default(),
        )
        .unwrap();
        assert!(o.regrouped.is_empty(), "{o:?}");
        assert!(!o.changes.is_empty(), "{o:?}");
    }

    #[test]
    fn deleting_a_covered_rule_changes_nothing() {
        let r = parse("User-agent: *\nDisallow: /a\nDisallow: /a/b\n");
        let o = verify(&r, &Edit::Delete(3), &mut Default::default()).unwrap();
        assert!(o.changes_nothing(), "{o:?}");
    }

    #[test]
    fn deleting_a_groups_only_rule_merges_groups_and_is_caught() {
        // Deleting `Allow: /` joins `*` to PetalBot's group: every crawler is then blocked.
        let r = parse("User-agent: *\nAllow: /\n\nUser-agent: PetalBot\nDisallow: /\n");
        let o = verify(&r, &Edit::Delete(2), &mut Default::default()).unwrap();
        assert!(!o.changes_nothing());
        assert!(o.blocks_root);
        assert!(
            o.changes
                .iter()
                .any(|c| c.agent.starts_with("robots-explorer-unnamed") && c.path == "/")
        );
    }

    #[test]
    fn a_replacement_that_blocks_the_site_is_seen() {
        let r = parse("User-agent: *\nDisallow: https://www.example.com/\n");
        let o = verify(
            &r,
            &Edit::Replace(2, "Disallow: /".into()),
            &mut Default::default(),
        )
        .unwrap();
        assert!(o.blocks_root);
        assert!(o.changes.iter().all(|c| c.before && !c.after));
    }

    #[test]
    fn probe_paths_cover_wildcards_and_anchors() {
        let p = probe_paths([&b"/a*b$"[..], b".js$"]);
        for want in ["/", "/a", "/ab", "/axb", "/axbx", "/.js", "/.jsx"] {
            assert!(p.contains(&want.to_string()), "{want} in {p:?}");
        }
    }

    fn analyzed(s: &str) -> Vec<Diagnostic> {
        super::super::analyze(&parse(s)).diagnostics
    }

    #[test]
    fn the_only_rule_of_a_group_is_never_offered_for_deletion() {
        let ds = analyzed("User-agent: *\nAllow: /\n\nUser-agent: PetalBot\nDisallow: /\n");
        for d in ds.iter().filter(|d| d.line == 2) {
            assert!(d.fix.is_none(), "{d:?}");
            assert_ne!(d.suggestion.as_deref(), Some("delete this line"), "{d:?}");
        }
    }

    #[test]
    fn fixes_checked_for_some_findings_are_those_checked_for_all() {
        // More fixes than the budget checks, so that what the unchosen ones spend matters.
        let mut text = String::from("User-agent: *\nDisallow: /a\nDisallow: /b\n");
        for i in 0..VERIFY_BUDGET_FIXES + 40 {
            text.push_str(&format!("Disallow: /a/{i}\nDisallow: /b\n"));
        }
        let robots = parse(&text);
        let all = crate::analysis::diagnose(&robots);
        let fixed = all.iter().filter(|d| d.fix.is_some()).count();
        // The budget stops checking partway.
        assert!(fixed > 0 && fixed < all.len(), "{fixed} of {}", all.len());
        for keep in [0, 1, 3] {
            let some = crate::analysis::diagnose_when(&robots, |found| {
                (0..found.len())
                    .map(|i| keep > 0 && i % keep == 0)
                    .collect()
            });
            assert_eq!(some.len(), all.len());
            for (i, (s, a)) in some.iter().zip(&all).enumerate() {
                if keep > 0 && i % keep == 0 {
                    assert_eq!(s, a, "finding {i}");
                } else {
                    assert_eq!(s.fix, None, "finding {i}");
                    assert_eq!((s.name, s.line, &s.message), (a.name, a.line, &a.message));
                }
            }
        }
    }

    #[test]
    fn a_redundant_rule_with_company_is_a_safe_deletion() {
        let ds = analyzed("User-agent: *\nDisallow: /a\nDisallow: /a/b\n");
        let d = ds
            .iter()
            .find(|d| d.name == "redundant-rule")
            .expect("redundant");
        let fix = d.fix.as_ref().expect("a checked fix");
        assert_eq!(fix.applicability, Applicability::Safe);
        assert_eq!(fix.edit, FixEdit::Delete);
    }

    #[test]
    fn no_fix_blocks_the_whole_site() {
        for file in [
            "User-agent: *\nDisallow: https://www.example.com/\n",
            "User-agent: *\nDisallow: wrd.example.com/\n",
        ] {
            for d in analyzed(file) {
                if let Some(f) = &d.fix {
                    assert_ne!(
                        f.edit,
                        FixEdit::Replace("Disallow: /".into()),
                        "{file}: {d:?}"
                    );
                }
                assert_ne!(
                    d.suggestion.as_deref(),
                    Some("Disallow: /"),
                    "{file}: {d:?}"
                );
            }
        }
    }

    #[test]
    fn unrooted_fragments_are_rooted_as_meant_and_marked_unsafe() {
        for (file, want) in [
            ("User-agent: *\nDisallow: .js$\n", "Disallow: /*.js$"),
            (
                "User-agent: *\nDisallow: ?utm_source=\n",
                "Disallow: /*?utm_source=",
            ),
            ("User-agent: *\nDisallow: private/\n", "Disallow: /private/"),
        ] {
            let ds = analyzed(file);
            let d = ds
                .iter()
                .find(|d| d.name == "pattern-not-rooted")
                .expect("pattern-not-rooted");
            let f = d.fix.as_ref().expect("checked");
            assert_eq!(f.edit, FixEdit::Replace(want.into()), "{file}");
            assert_eq!(f.applicability, Applicability::Unsafe);
            assert!(f.effect.contains("allowed → disallowed"), "{}", f.effect);
        }
    }

    #[test]
    fn a_pattern_starting_with_two_slashes_is_a_path_not_a_url() {
        for d in analyzed("User-agent: *\nDisallow: //private\nDisallow: //*\n") {
            assert_ne!(d.name, "full-url-pattern", "{d:?}");
        }
    }

    #[test]
    fn a_bare_sitemap_file_name_gets_no_invented_host() {
        for d in analyzed("Sitemap: sitemap.xml\n") {
            assert_ne!(
                d.suggestion.as_deref(),
                Some("Sitemap: https://sitemap.xml")
            );
        }
    }

    #[test]
    fn edits_keep_line_ends() {
        let r = parse("User-agent: *\r\nDisallow: x\r\nAllow: /\r\n");
        assert_eq!(
            apply(&r, &Edit::Replace(2, "Disallow: /x".into())).unwrap(),
            b"User-agent: *\r\nDisallow: /x\r\nAllow: /\r\n"
        );
        assert_eq!(
            apply(&r, &Edit::Delete(2)).unwrap(),
            b"User-agent: *\r\nAllow: /\r\n"
        );
        assert!(apply(&r, &Edit::Delete(9)).is_none());
        assert_eq!(
            apply(&r, &Edit::InsertAfter(2, "Allow: /a\nAllow: /b".into())).unwrap(),
            b"User-agent: *\r\nDisallow: x\r\nAllow: /a\r\nAllow: /b\r\nAllow: /\r\n"
        );
    }
}
