//! What a change to a robots.txt file does: two versions compared by their meaning, not their
//! text.
//!
//! [`compare`] asks both versions the same questions, in both readings, and keeps what differs:
//!
//! - **verdicts**: for every crawler asked ([`Asked`]: the known crawler profiles, product
//!   tokens, the product tokens either version names and a crawler no group names) and every
//!   path compared (`/`, the caller's paths and paths drawn from the patterns of both versions,
//!   see [`crate::analysis`]'s probe paths: the literal prefix, `*` read as nothing and as `x`, a
//!   final `$` dropped), the answers whose verdict changes, with the old and new deciding rules;
//!   crawlers with the same change on a path are listed together;
//! - **rules** added or removed (a rule is its group's product tokens, its kind and its
//!   normalised pattern, so a rule that only moved to another line is no change), and rules
//!   *overridden*: present in both versions, deciding some answer in the old one and none of
//!   those answers in the new one;
//! - **groups** added or removed, by their product tokens;
//! - **diagnostics** introduced or fixed (see [`crate::analysis::diagnose`]), compared by name,
//!   message and the text of their line, with line numbers in messages masked, so that lines
//!   moving up or down change nothing;
//! - **sitemaps** added or removed, by URL.
//!
//! Every decision is the engine's own ([`crate::groups::Policy::decide_target_as`]); nothing
//! here matches a pattern.

use crate::analysis::{Readings, Severity};
use crate::crawlers::{Crawler, Purpose};
use crate::decide::{Profile, Reason, RuleRef};
use crate::groups::{Group, Policy, ProductToken, RuleKind};
use crate::{Reading, RobotsTxt};
use serde::Serialize;
use std::collections::{HashMap, VecDeque};

/// At most this many paths are compared (the caller's paths always are).
pub const MAX_PATHS: usize = 4096;

/// At most this many rule matches (paths × rules of the distinct group selections, summed over
/// both versions and readings) are spent deciding; past it fewer derived paths are compared.
pub const WORK_BUDGET: usize = 10_000_000;

/// A crawler asked about: a known crawler with its profile, or a plain product token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Asked {
    /// How it is named in the output: the known crawler's or the agent's product token, or `*`
    /// for a crawler that no group of either version names. Unique within one comparison.
    pub name: String,
    /// The product tokens it obeys, in order of precedence (see [`Profile`]).
    pub tokens: Vec<String>,
    /// Whether it obeys the `*` groups when no group names one of its tokens.
    pub obeys_global: bool,
    /// What it crawls for, for a known crawler.
    pub purpose: Option<Purpose>,
}

impl Asked {
    /// A known crawler, with its profile (fallback tokens, whether it obeys `*`).
    pub fn known(c: &Crawler) -> Asked {
        Asked {
            name: c.token.clone(),
            tokens: c.tokens().into_iter().map(str::to_string).collect(),
            obeys_global: c.obeys_global,
            purpose: Some(c.purpose),
        }
    }

    /// A plain product token: the groups naming it, else `*`.
    pub fn agent(token: &str) -> Asked {
        Asked {
            name: token.to_string(),
            tokens: vec![token.to_string()],
            obeys_global: true,
            purpose: None,
        }
    }

    /// Whether it is a known crawler that crawls for a search engine.
    pub fn is_search(&self) -> bool {
        self.purpose == Some(Purpose::Search)
    }

    fn same_question(&self, other: &Asked) -> bool {
        self.obeys_global == other.obeys_global
            && self.tokens.len() == other.tokens.len()
            && self
                .tokens
                .iter()
                .zip(&other.tokens)
                .all(|(a, b)| a.eq_ignore_ascii_case(b))
    }
}

/// The crawlers a comparison of `old` and `new` asks about: every known crawler (in the order of
/// `crawlers.yaml`), then `extra` (say, `--agent` tokens), then every product token a group of
/// either version names, in either reading, and last a crawler that no group names (named `*`).
/// A crawler asked twice with the same profile is asked once; an extra that shares a name with
/// an earlier one but asks another question is named `TOKEN (token only)`.
pub fn crawlers_for(old: &RobotsTxt, new: &RobotsTxt, extra: Vec<Asked>) -> Vec<Asked> {
    let mut out: Vec<Asked> = crate::crawlers::known().iter().map(Asked::known).collect();
    let add = |mut a: Asked, out: &mut Vec<Asked>| {
        if out.iter().any(|o| o.same_question(&a)) {
            return;
        }
        if out.iter().any(|o| o.name.eq_ignore_ascii_case(&a.name)) {
            a.name = format!("{} (token only)", a.name);
        }
        out.push(a);
    };
    for a in extra {
        add(a, &mut out);
    }
    let policies = policies(old, new);
    for token in crate::analysis::named_agents(&policies) {
        add(Asked::agent(&token), &mut out);
    }
    out.push(Asked {
        name: "*".to_string(),
        tokens: vec![crate::analysis::unnamed_agent(&policies)],
        obeys_global: true,
        purpose: None,
    });
    out
}

fn policies<'a>(old: &'a RobotsTxt, new: &'a RobotsTxt) -> Vec<&'a Policy> {
    Reading::ALL
        .iter()
        .flat_map(|&r| [old.policy(r), new.policy(r)])
        .collect()
}

/// What one version answers to one question.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// Whether the crawler may fetch the path.
    pub allowed: bool,
    /// Why.
    pub reason: Reason,
    /// The deciding rule, if one matched.
    pub rule: Option<RuleRef>,
    /// The deciding line as written (without its line end, trimmed), if a rule decided.
    pub text: Option<String>,
    /// The product token whose groups applied, when the crawler fell back from its own token.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via_token: Option<String>,
}

/// Old and new answers in one reading.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Transition {
    /// The old version's answer.
    pub old: Verdict,
    /// The new version's answer.
    pub new: Verdict,
}

impl Transition {
    /// Whether the verdict (allowed or not) changes.
    pub fn changes(&self) -> bool {
        self.old.allowed != self.new.allowed
    }

    /// Whether the crawler may no longer fetch a path it could fetch.
    pub fn loses_access(&self) -> bool {
        self.old.allowed && !self.new.allowed
    }
}

/// Paths whose verdict changes for some crawlers, in one reading or both; every crawler listed
/// gets the same answers (old and new, in both readings, from the same deciding lines) on every
/// path listed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerdictChange {
    /// The paths (request targets) asked about, as compared before normalisation, in the order
    /// compared.
    pub paths: Vec<String>,
    /// The crawlers concerned, by [`Asked::name`], in the order asked.
    pub crawlers: Vec<String>,
    /// The readings in which the verdict changes.
    pub readings: Readings,
    /// The answers in the Google reading.
    pub google: Transition,
    /// The answers in the RFC 9309 reading.
    pub rfc: Transition,
}

impl VerdictChange {
    /// The answers in `reading`.
    pub fn in_reading(&self, reading: Reading) -> &Transition {
        match reading {
            Reading::Google => &self.google,
            Reading::Rfc9309 => &self.rfc,
        }
    }
}

/// What happened to a rule, group, diagnostic or sitemap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    /// Only in the old version (rules, groups, sitemaps).
    Removed,
    /// Only in the new version (rules, groups, sitemaps).
    Added,
    /// A rule in both versions that decided answers in the old one and decides none of them in
    /// the new one.
    Overridden,
    /// A diagnostic only the old version has.
    Fixed,
    /// A diagnostic only the new version has.
    Introduced,
}

impl Change {
    /// The machine name, e.g. `added`.
    pub fn as_str(self) -> &'static str {
        match self {
            Change::Added => "added",
            Change::Removed => "removed",
            Change::Overridden => "overridden",
            Change::Introduced => "introduced",
            Change::Fixed => "fixed",
        }
    }
}

/// A change found in one reading or both.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InReadings<T> {
    /// The readings it is found in.
    pub readings: Readings,
    /// The change.
    #[serde(flatten)]
    pub change: T,
}

/// A rule added, removed or overridden.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct RuleChange {
    /// What happened.
    pub change: Change,
    /// 1-based line in the old version (none for an added rule).
    pub old_line: Option<usize>,
    /// 1-based line in the new version (none for a removed rule).
    pub new_line: Option<usize>,
    /// The product tokens of its group, as written (`*` for the global group).
    pub user_agents: Vec<String>,
    /// Allow or disallow.
    pub kind: RuleKind,
    /// The pattern as written.
    pub pattern: String,
    /// For an overridden rule: how many of the answers compared it decided in the old version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided: Option<usize>,
}

/// A group added or removed.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct GroupChange {
    /// What happened.
    pub change: Change,
    /// 1-based first line, in the new version for an added group, in the old one otherwise.
    pub line: usize,
    /// Its product tokens, as written.
    pub user_agents: Vec<String>,
    /// How many rules it holds.
    pub rules: usize,
}

/// A diagnostic introduced or fixed.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct DiagnosticChange {
    /// What happened.
    pub change: Change,
    /// 1-based line, in the new version for an introduced diagnostic, in the old one otherwise.
    pub line: usize,
    /// 1-based column (characters).
    pub column: usize,
    /// The diagnostic's name (see [`crate::analysis::catalogue`]).
    pub name: &'static str,
    /// Its severity.
    pub severity: Severity,
    /// Its message.
    pub message: String,
}

/// A sitemap added or removed.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct SitemapChange {
    /// What happened.
    pub change: Change,
    /// 1-based line, in the new version for an added sitemap, in the old one otherwise.
    pub line: usize,
    /// The URL as written.
    pub url: String,
}

/// Everything that differs between two versions of a file (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FileDiff {
    /// The crawlers asked about, by [`Asked::name`].
    pub crawlers: Vec<String>,
    /// How many paths were compared.
    pub paths: usize,
    /// Paths drawn from the patterns that were not compared, to stay within [`MAX_PATHS`] and
    /// [`WORK_BUDGET`].
    pub paths_left_out: usize,
    /// Changes of verdict, in the order of their first path (`/` and the caller's paths come
    /// first).
    pub verdicts: Vec<VerdictChange>,
    /// Rules added, removed or overridden, by line.
    pub rules: Vec<InReadings<RuleChange>>,
    /// Groups added or removed, by line.
    pub groups: Vec<InReadings<GroupChange>>,
    /// Diagnostics introduced or fixed, by line.
    pub diagnostics: Vec<InReadings<DiagnosticChange>>,
    /// Sitemaps added or removed, by line.
    pub sitemaps: Vec<InReadings<SitemapChange>>,
}

impl FileDiff {
    /// Whether the two versions mean the same: no change of any kind.
    pub fn is_empty(&self) -> bool {
        self.verdicts.is_empty()
            && self.rules.is_empty()
            && self.groups.is_empty()
            && self.diagnostics.is_empty()
            && self.sitemaps.is_empty()
    }
}

/// Compares `old` and `new` for the crawlers `asked` (see [`crawlers_for`]) over `/`, `paths`
/// (request targets, e.g. from [`crate::request::request_target`]) and paths drawn from the
/// patterns of both versions. Never panics; the work is bounded by [`MAX_PATHS`] and
/// [`WORK_BUDGET`].
pub fn compare(old: &RobotsTxt, new: &RobotsTxt, asked: &[Asked], paths: &[String]) -> FileDiff {
    let (paths, left_out) = paths_for(old, new, asked, paths);
    let mut tables = [[None, None], [None, None]];
    for (ri, &r) in Reading::ALL.iter().enumerate() {
        for (si, robots) in [old, new].into_iter().enumerate() {
            tables[ri][si] = Some(Table::build(robots.policy(r), asked, &paths));
        }
    }
    let tables = tables.map(|t| t.map(|x| x.expect("built")));
    let verdicts = verdict_changes(old, new, asked, &paths, &tables);
    let mut rules = [Vec::new(), Vec::new()];
    let mut groups = [Vec::new(), Vec::new()];
    let mut diagnostics = [Vec::new(), Vec::new()];
    let mut sitemaps = [Vec::new(), Vec::new()];
    let old_diagnostics = crate::analysis::diagnose(old);
    let new_diagnostics = crate::analysis::diagnose(new);
    for (ri, &r) in Reading::ALL.iter().enumerate() {
        let (po, pn) = (old.policy(r), new.policy(r));
        rules[ri] = rule_changes(old, new, po, pn, &tables[ri]);
        groups[ri] = group_changes(old, new, po, pn);
        sitemaps[ri] = sitemap_changes(old, new, po, pn);
        diagnostics[ri] = diagnostic_changes(old, new, &old_diagnostics, &new_diagnostics, r);
    }
    let [rg, rr] = rules;
    let [gg, gr] = groups;
    let [dg, dr] = diagnostics;
    let [sg, sr] = sitemaps;
    FileDiff {
        crawlers: asked.iter().map(|a| a.name.clone()).collect(),
        paths: paths.len(),
        paths_left_out: left_out,
        verdicts,
        rules: merge(rg, rr),
        groups: merge(gg, gr),
        diagnostics: merge(dg, dr),
        sitemaps: merge(sg, sr),
    }
}

/// `/`, the caller's paths, then paths drawn from the patterns of both versions in both
/// readings (first those of patterns only one version has), as many as the budgets allow; and
/// how many drawn paths were left out.
fn paths_for(
    old: &RobotsTxt,
    new: &RobotsTxt,
    asked: &[Asked],
    given: &[String],
) -> (Vec<String>, usize) {
    let policies = policies(old, new);
    let mut out: Vec<String> = vec!["/".to_string()];
    for p in given {
        if !out.contains(p) {
            out.push(p.clone());
        }
    }
    // Patterns only one version has come first: where a budget cuts the list, the paths they
    // draw are the likeliest to change verdict.
    let (po, pn) = (patterns_of(old), patterns_of(new));
    let changed = po.symmetric_difference(&pn).copied();
    let mut seen: std::collections::HashSet<String> = out.iter().cloned().collect();
    let mut drawn: Vec<String> = Vec::new();
    for p in crate::analysis::probe_paths(changed)
        .into_iter()
        .chain(crate::analysis::probe_paths(po.union(&pn).copied()))
    {
        if seen.insert(p.clone()) {
            drawn.push(p);
        }
    }
    // The rules each path is matched against: those of every distinct selection.
    let rules: usize = policies
        .iter()
        .map(|p| {
            let mut seen: Vec<Vec<usize>> = Vec::new();
            let mut n = 0;
            for a in asked {
                let (key, groups) = selection(p, a);
                if !seen.contains(&key) {
                    n += groups.iter().map(|g| g.rules.len()).sum::<usize>();
                    seen.push(key);
                }
            }
            n
        })
        .sum();
    let room = (WORK_BUDGET / rules.max(1))
        .min(MAX_PATHS)
        .saturating_sub(out.len());
    let left_out = drawn.len().saturating_sub(room);
    drawn.truncate(room);
    drawn.sort_unstable();
    out.extend(drawn);
    (out, left_out)
}

/// The normalised patterns of a file's rules, in both readings.
fn patterns_of(robots: &RobotsTxt) -> std::collections::HashSet<&[u8]> {
    Reading::ALL
        .iter()
        .flat_map(|&r| robots.policy(r).groups.iter())
        .flat_map(|g| g.rules.iter())
        .map(|r| &*r.pattern)
        .collect()
}

/// The groups `asked` gets from `policy`, and a key that tells selections apart (their first
/// lines).
fn selection<'p>(policy: &'p Policy, asked: &Asked) -> (Vec<usize>, Vec<&'p Group>) {
    let tokens: Vec<&str> = asked.tokens.iter().map(String::as_str).collect();
    let s = policy.select(&Profile {
        tokens: &tokens,
        obeys_global: asked.obeys_global,
    });
    (s.groups.iter().map(|g| g.first_line).collect(), s.groups)
}

/// One version's answers in one reading: per distinct selection of groups, a row of decisions
/// over the paths; per crawler asked, its row and the token it fell back to.
struct Table {
    rows: Vec<Vec<crate::Decision>>,
    asked: Vec<(usize, Option<String>)>,
}

impl Table {
    fn build(policy: &Policy, asked: &[Asked], paths: &[String]) -> Table {
        let mut keys: HashMap<Vec<usize>, usize> = HashMap::new();
        let mut rows = Vec::new();
        let mut per = Vec::with_capacity(asked.len());
        for a in asked {
            let tokens: Vec<&str> = a.tokens.iter().map(String::as_str).collect();
            let profile = Profile {
                tokens: &tokens,
                obeys_global: a.obeys_global,
            };
            let s = policy.select(&profile);
            let via = s.token.filter(|&i| i > 0).map(|i| a.tokens[i].clone());
            let key: Vec<usize> = s.groups.iter().map(|g| g.first_line).collect();
            let row = *keys.entry(key).or_insert_with(|| {
                rows.push(
                    paths
                        .iter()
                        .map(|p| {
                            let mut d = policy.decide_target_as(&profile, p);
                            d.via_token = None;
                            d
                        })
                        .collect(),
                );
                rows.len() - 1
            });
            per.push((row, via));
        }
        Table { rows, asked: per }
    }

    fn decision(&self, asked: usize, path: usize) -> &crate::Decision {
        &self.rows[self.asked[asked].0][path]
    }

    fn verdict(&self, robots: &RobotsTxt, asked: usize, path: usize) -> Verdict {
        let d = self.decision(asked, path);
        Verdict {
            allowed: d.allowed,
            reason: d.reason,
            rule: d.rule.clone(),
            text: d.rule.as_ref().map(|r| line_text(robots, r.line)),
            via_token: self.asked[asked].1.clone(),
        }
    }
}

/// The text of 1-based line `line`, trimmed, for display.
fn line_text(robots: &RobotsTxt, line: usize) -> String {
    robots
        .tree
        .lines
        .get(line.wrapping_sub(1))
        .map(|l| robots.text(l.content()).trim().to_string())
        .unwrap_or_default()
}

fn verdict_changes(
    old: &RobotsTxt,
    new: &RobotsTxt,
    asked: &[Asked],
    paths: &[String],
    tables: &[[Table; 2]; 2],
) -> Vec<VerdictChange> {
    let mut out: Vec<VerdictChange> = Vec::new();
    for (pi, path) in paths.iter().enumerate() {
        let first = out.len();
        for (ai, a) in asked.iter().enumerate() {
            let changed: Vec<bool> = tables
                .iter()
                .map(|[o, n]| o.decision(ai, pi).allowed != n.decision(ai, pi).allowed)
                .collect();
            let readings = match (changed[0], changed[1]) {
                (false, false) => continue,
                (true, true) => Readings::Both,
                (true, false) => Readings::Google,
                (false, true) => Readings::Rfc,
            };
            let [g, r] = [0, 1].map(|ri| Transition {
                old: tables[ri][0].verdict(old, ai, pi),
                new: tables[ri][1].verdict(new, ai, pi),
            });
            match out[first..]
                .iter_mut()
                .find(|c| c.google == g && c.rfc == r)
            {
                Some(c) => c.crawlers.push(a.name.clone()),
                None => out.push(VerdictChange {
                    paths: vec![path.clone()],
                    crawlers: vec![a.name.clone()],
                    readings,
                    google: g,
                    rfc: r,
                }),
            }
        }
    }
    // Paths on which the same crawlers get the same answers are one change.
    let mut joined: Vec<VerdictChange> = Vec::new();
    for c in out {
        match joined
            .iter_mut()
            .find(|j| j.crawlers == c.crawlers && j.google == c.google && j.rfc == c.rfc)
        {
            Some(j) => j.paths.extend(c.paths),
            None => joined.push(c),
        }
    }
    joined
}

/// Pairs the items of `old` and `new` by key, in order (the first old item of a key with the
/// first new one, and so on): the pairs, the old items left over (in no particular order) and
/// the new ones left over.
fn pair<K: std::hash::Hash + Eq, A, B>(
    old: Vec<(K, A)>,
    new: Vec<(K, B)>,
) -> (Vec<(A, B)>, Vec<A>, Vec<B>) {
    let mut by_key: HashMap<K, VecDeque<A>> = HashMap::new();
    let mut removed = Vec::new();
    for (k, a) in old {
        by_key.entry(k).or_default().push_back(a);
    }
    let mut pairs = Vec::new();
    let mut added = Vec::new();
    for (k, b) in new {
        match by_key.get_mut(&k).and_then(VecDeque::pop_front) {
            Some(a) => pairs.push((a, b)),
            None => added.push(b),
        }
    }
    for (_, left) in by_key.drain() {
        removed.extend(left);
    }
    (pairs, removed, added)
}

/// The product tokens of a group as written (`*` for the global group; a value that names no
/// crawler in the reading as written), without repeats, and the same lower-cased and sorted as
/// the group's key.
fn group_tokens(robots: &RobotsTxt, g: &Group) -> (Vec<String>, Vec<String>) {
    let mut shown: Vec<String> = Vec::new();
    for ua in &g.user_agents {
        let t = match &ua.token {
            ProductToken::Any => "*".to_string(),
            ProductToken::Name(n) => n.clone(),
            ProductToken::Invalid => robots.text(ua.value).trim().to_string(),
        };
        if !shown.iter().any(|s| s.eq_ignore_ascii_case(&t)) {
            shown.push(t);
        }
    }
    let mut key: Vec<String> = shown.iter().map(|s| s.to_ascii_lowercase()).collect();
    key.sort_unstable();
    (shown, key)
}

type RuleKey = (Vec<String>, RuleKind, Vec<u8>);

/// A rule as listed: its 1-based line, its group's tokens and its kind and pattern as written.
type ListedRule = (usize, Vec<String>, RuleKind, String);

/// The rules of a policy (Google's derived rules left out: they follow the rule they come
/// from), keyed by their group's tokens, kind and pattern; with their line (1-based), tokens
/// as written and pattern as written.
fn keyed_rules(robots: &RobotsTxt, policy: &Policy) -> Vec<(RuleKey, ListedRule)> {
    let mut out = Vec::new();
    for g in &policy.groups {
        let (shown, key) = group_tokens(robots, g);
        for r in g.rules.iter().filter(|r| !r.derived) {
            out.push((
                (key.clone(), r.kind, r.pattern.to_vec()),
                (
                    r.line + 1,
                    shown.clone(),
                    r.kind,
                    robots.text(r.value).trim().to_string(),
                ),
            ));
        }
    }
    out
}

fn rule_changes(
    old: &RobotsTxt,
    new: &RobotsTxt,
    po: &Policy,
    pn: &Policy,
    tables: &[Table; 2],
) -> Vec<RuleChange> {
    let (pairs, removed, added) = pair(keyed_rules(old, po), keyed_rules(new, pn));
    let mut out = Vec::new();
    for (line, user_agents, kind, pattern) in removed {
        out.push(RuleChange {
            change: Change::Removed,
            old_line: Some(line),
            new_line: None,
            user_agents,
            kind,
            pattern,
            decided: None,
        });
    }
    for (line, user_agents, kind, pattern) in added {
        out.push(RuleChange {
            change: Change::Added,
            old_line: None,
            new_line: Some(line),
            user_agents,
            kind,
            pattern,
            decided: None,
        });
    }
    // Overridden: answers the old line decided, none of which its new line decides.
    let counterpart: HashMap<usize, usize> = pairs.iter().map(|(a, b)| (a.0, b.0)).collect();
    let mut decided: HashMap<usize, (usize, bool)> = HashMap::new();
    let [to, tn] = tables;
    for ai in 0..to.asked.len() {
        for pi in 0..to.rows.first().map_or(0, Vec::len) {
            let Some(lo) = to.decision(ai, pi).rule.as_ref().map(|r| r.line) else {
                continue;
            };
            let ln = tn.decision(ai, pi).rule.as_ref().map(|r| r.line);
            let e = decided.entry(lo).or_insert((0, false));
            e.0 += 1;
            e.1 |= ln.is_some() && ln == counterpart.get(&lo).copied();
        }
    }
    for ((lo, user_agents, kind, pattern), (ln, ..)) in pairs {
        if let Some(&(n, false)) = decided.get(&lo) {
            out.push(RuleChange {
                change: Change::Overridden,
                old_line: Some(lo),
                new_line: Some(ln),
                user_agents,
                kind,
                pattern,
                decided: Some(n),
            });
        }
    }
    out
}

fn group_changes(old: &RobotsTxt, new: &RobotsTxt, po: &Policy, pn: &Policy) -> Vec<GroupChange> {
    let keyed = |robots: &RobotsTxt, p: &Policy| -> Vec<(Vec<String>, GroupChange)> {
        p.groups
            .iter()
            .map(|g| {
                let (shown, key) = group_tokens(robots, g);
                (
                    key,
                    GroupChange {
                        change: Change::Added,
                        line: g.first_line + 1,
                        user_agents: shown,
                        rules: g.rules.iter().filter(|r| !r.derived).count(),
                    },
                )
            })
            .collect()
    };
    let (_, removed, added) = pair(keyed(old, po), keyed(new, pn));
    removed
        .into_iter()
        .map(|g| GroupChange {
            change: Change::Removed,
            ..g
        })
        .chain(added)
        .collect()
}

fn sitemap_changes(
    old: &RobotsTxt,
    new: &RobotsTxt,
    po: &Policy,
    pn: &Policy,
) -> Vec<SitemapChange> {
    let keyed = |robots: &RobotsTxt, p: &Policy, change| -> Vec<(String, SitemapChange)> {
        p.sitemaps
            .iter()
            .map(|s| {
                let url = robots.text(s.url).trim().to_string();
                (
                    url.clone(),
                    SitemapChange {
                        change,
                        line: s.line + 1,
                        url,
                    },
                )
            })
            .collect()
    };
    let (_, removed, added) = pair(
        keyed(old, po, Change::Removed),
        keyed(new, pn, Change::Added),
    );
    removed.into_iter().chain(added).collect()
}

fn diagnostic_changes(
    old: &RobotsTxt,
    new: &RobotsTxt,
    old_found: &[crate::analysis::Diagnostic],
    new_found: &[crate::analysis::Diagnostic],
    reading: Reading,
) -> Vec<DiagnosticChange> {
    let keyed = |robots: &RobotsTxt, found: &[crate::analysis::Diagnostic], change| {
        found
            .iter()
            .filter(|d| d.readings.includes(reading))
            .map(|d| {
                (
                    (
                        d.name,
                        mask_line_numbers(&d.message),
                        line_text(robots, d.line),
                    ),
                    DiagnosticChange {
                        change,
                        line: d.line,
                        column: d.column,
                        name: d.name,
                        severity: d.severity(),
                        message: d.message.clone(),
                    },
                )
            })
            .collect::<Vec<_>>()
    };
    let (_, fixed, introduced) = pair(
        keyed(old, old_found, Change::Fixed),
        keyed(new, new_found, Change::Introduced),
    );
    fixed.into_iter().chain(introduced).collect()
}

/// Joins the changes of the Google and the RFC 9309 reading: a change found in both is listed
/// once, with [`Readings::Both`]. Sorted by the changes' order.
fn merge<T: Ord + Line>(mut google: Vec<T>, mut rfc: Vec<T>) -> Vec<InReadings<T>> {
    google.sort();
    rfc.sort();
    let mut out = Vec::with_capacity(google.len().max(rfc.len()));
    let mut g = google.into_iter().peekable();
    let mut r = rfc.into_iter().peekable();
    loop {
        let (readings, change) = match (g.peek(), r.peek()) {
            (None, None) => break,
            (Some(_), None) => (Readings::Google, g.next()),
            (None, Some(_)) => (Readings::Rfc, r.next()),
            (Some(a), Some(b)) => match a.cmp(b) {
                std::cmp::Ordering::Less => (Readings::Google, g.next()),
                std::cmp::Ordering::Greater => (Readings::Rfc, r.next()),
                std::cmp::Ordering::Equal => {
                    r.next();
                    (Readings::Both, g.next())
                }
            },
        };
        out.extend(change.map(|change| InReadings { readings, change }));
    }
    // By line, whichever version it is in, then by kind of change.
    out.sort_by_key(|c| c.change.sort_line());
    out
}

trait Line {
    fn sort_line(&self) -> (usize, Change);
}

impl Line for RuleChange {
    fn sort_line(&self) -> (usize, Change) {
        (self.new_line.or(self.old_line).unwrap_or(0), self.change)
    }
}

impl Line for GroupChange {
    fn sort_line(&self) -> (usize, Change) {
        (self.line, self.change)
    }
}

impl Line for DiagnosticChange {
    fn sort_line(&self) -> (usize, Change) {
        (self.line, self.change)
    }
}

impl Line for SitemapChange {
    fn sort_line(&self) -> (usize, Change) {
        (self.line, self.change)
    }
}

/// A diagnostic's message with the line numbers it quotes replaced by `#` (`line 4`, `lines 3,
/// 7 and 9`, `lines 4–9` become `line #`, `lines #, # and #`, `lines #–#`), so that the same
/// finding on a file whose lines moved compares equal.
pub fn mask_line_numbers(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut i = 0;
    let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
    while i < message.len() {
        let rest = &message[i..];
        let word_start = i == 0 || !message.as_bytes()[i - 1].is_ascii_alphanumeric();
        let lead = if !word_start {
            0
        } else if rest.starts_with("lines ") {
            6
        } else if rest.starts_with("line ") {
            5
        } else {
            0
        };
        if lead > 0 && digits(&rest[lead..]) > 0 {
            out.push_str(&rest[..lead]);
            i += lead;
            loop {
                let n = digits(&message[i..]);
                if n == 0 {
                    break;
                }
                out.push('#');
                i += n;
                let sep = [", ", " and ", "–", "-"]
                    .into_iter()
                    .find(|s| message[i..].starts_with(s) && digits(&message[i + s.len()..]) > 0);
                match sep {
                    Some(s) => {
                        out.push_str(s);
                        i += s.len();
                    }
                    None => break,
                }
            }
            continue;
        }
        let c = rest.chars().next().expect("not at the end");
        out.push(c);
        i += c.len_utf8();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff(old: &str, new: &str) -> FileDiff {
        let (o, n) = (
            RobotsTxt::parse(old.as_bytes()),
            RobotsTxt::parse(new.as_bytes()),
        );
        let asked = crawlers_for(&o, &n, Vec::new());
        compare(&o, &n, &asked, &[])
    }

    #[test]
    fn line_numbers_are_masked() {
        assert_eq!(
            mask_line_numbers("repeats the rule on line 12 for lines 3, 7 and 9 and lines 4–19"),
            "repeats the rule on line # for lines #, # and # and lines #–#"
        );
        assert_eq!(
            mask_line_numbers("baseline 3 of 0x12"),
            "baseline 3 of 0x12"
        );
        assert_eq!(mask_line_numbers("line é"), "line é");
    }

    #[test]
    fn the_same_file_shifted_changes_nothing() {
        let old = "User-agent: *\nDisallow: /a\nDisallow: /a\n";
        let new = "# a comment\n\nUser-agent: *\nDisallow: /a\nDisallow: /a\n";
        let d = diff(old, new);
        assert!(d.is_empty(), "{d:#?}");
    }

    #[test]
    fn a_new_disallow_blocks_and_overrides() {
        let d = diff(
            "User-agent: *\nDisallow: /private\n",
            "User-agent: *\nDisallow: /private\nDisallow: /\nAllow: /private$\n",
        );
        let root = d
            .verdicts
            .iter()
            .find(|v| v.paths[0] == "/")
            .expect("/ changes");
        assert_eq!(root.readings, Readings::Both);
        assert!(root.google.loses_access());
        assert_eq!(root.google.new.rule.as_ref().map(|r| r.line), Some(3));
        assert_eq!(root.google.new.text.as_deref(), Some("Disallow: /"));
        assert!(root.crawlers.contains(&"Googlebot".to_string()));
        assert!(root.crawlers.contains(&"*".to_string()));
        // AdsBot-Google ignores `*`: no change for it.
        assert!(!root.crawlers.contains(&"AdsBot-Google".to_string()));
        let kinds: Vec<(Change, Option<usize>)> = d
            .rules
            .iter()
            .map(|r| (r.change.change, r.change.new_line))
            .collect();
        assert_eq!(
            kinds,
            vec![(Change::Added, Some(3)), (Change::Added, Some(4))]
        );
        // `/private` itself is now decided by the allow rule (equal length, allow wins):
        // the old disallow decided `/private` and now decides nothing it decided.
        let d = diff(
            "User-agent: *\nDisallow: /private\n",
            "User-agent: *\nDisallow: /private\nAllow: /private\n",
        );
        let over: Vec<&RuleChange> = d
            .rules
            .iter()
            .map(|r| &r.change)
            .filter(|r| r.change == Change::Overridden)
            .collect();
        assert_eq!(over.len(), 1);
        assert_eq!((over[0].old_line, over[0].new_line), (Some(2), Some(2)));
    }

    #[test]
    fn paths_of_changed_patterns_come_first_under_the_budget() {
        let mut old = String::from("User-agent: *\n");
        for i in 0..3000 {
            old.push_str(&format!("Disallow: /a{i}/\n"));
        }
        let new = format!("{old}Disallow: /zzz-new\n");
        let d = diff(&old, &new);
        assert!(d.paths_left_out > 0, "the budget cuts the paths");
        assert!(
            d.verdicts
                .iter()
                .any(|v| v.paths.contains(&"/zzz-new".to_string()) && v.google.loses_access()),
            "{:?}",
            d.verdicts
        );
    }

    #[test]
    fn readings_are_told_apart() {
        // Google reads the misspelt field; RFC 9309 skips it.
        let d = diff("User-agent: *\n", "User-agent: *\nDissallow: /\n");
        let root = d
            .verdicts
            .iter()
            .find(|v| v.paths[0] == "/")
            .expect("/ changes");
        assert_eq!(root.readings, Readings::Google);
        assert!(root.google.loses_access());
        assert!(!root.rfc.changes());
        assert!(d.rules.iter().all(|r| r.readings == Readings::Google));
    }

    #[test]
    fn groups_sitemaps_and_diagnostics() {
        let d = diff(
            "User-agent: a\nDisallow: /x\n\nSitemap: https://e.example/old.xml\n",
            "User-agent: b\nDisallow: /x\nDisallow:\n\nSitemap: https://e.example/new.xml\n",
        );
        let groups: Vec<(Change, Vec<String>)> = d
            .groups
            .iter()
            .map(|g| (g.change.change, g.change.user_agents.clone()))
            .collect();
        assert_eq!(
            groups,
            vec![
                (Change::Removed, vec!["a".to_string()]),
                (Change::Added, vec!["b".to_string()])
            ]
        );
        let maps: Vec<(Change, &str)> = d
            .sitemaps
            .iter()
            .map(|s| (s.change.change, s.change.url.as_str()))
            .collect();
        assert_eq!(
            maps,
            vec![
                (Change::Removed, "https://e.example/old.xml"),
                (Change::Added, "https://e.example/new.xml")
            ]
        );
        assert!(
            d.diagnostics
                .iter()
                .any(|x| x.change.change == Change::Introduced && x.change.line == 3),
            "{:#?}",
            d.diagnostics
        );
    }
}
